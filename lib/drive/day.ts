// The day test: one key's day quota spent, minute window after minute window, until the day's
// 429; then the key kept as a polite client keeps it, one request after each Retry-After (at most
// DAY_FOLLOW_UPS), each the evidence of the 429 before it. An explicit state machine: spending
// (looks and bursts, each minute's 429 waited out), spent (following the day's 429 up), done; it
// returns its record. The accepted requests of the key over the whole run, every suite's, are what
// the day is counted from, per day window.
import type { TargetKey } from '../config/schema.ts';
import { type BurstData, DAY_FOLLOW_UPS, type DayData, type TimelinePoint } from '../result/rate-limits.ts';
import { beyondAnyDay } from '../rate-limit/day-count.ts';
import { classifyRefusal, windowDescribed, readRateAnswer } from '../rate-limit/vocabulary.ts';
import type { DriveContext } from './drive-context.ts';
import { inFlightMargin, runBurst } from './drive-key.ts';
import { look } from './look.ts';
import { type RefusalWaitOptions, waitOut } from './wait.ts';
import { isAccepted } from '../status.ts';

type DayState =
  /** Spending the quota; `waitedOut` is the last minute's 429 whose Retry-After was waited out. */
  | { at: 'spending'; waitedOut?: TimelinePoint; refusedInARow: number }
  /** The day's 429 came (day.block): one request after each Retry-After. */
  | { at: 'spent' }
  | { at: 'done' }
  /** A wait longer than the harness sits out, outside the day's own 429s: the day is judged from what was seen. */
  | { at: 'skipped'; why: string };


/** Why the day cannot be spent here, or undefined when it can. */
export function dayNotDriven(key: TargetKey, windows: { minute: number; day: number }, soak: boolean): string | undefined {
  const minuteWindows = Math.ceil(key.quota.perDay / key.quota.perMinute) + 1;
  const needed = minuteWindows * windows.minute;
  if (!soak && windows.day > 600) return `the day window is ${windows.day} s; --soak spends the day's quota (about ${Math.ceil(needed / 60)} min for plan ${key.plan})`;
  if (needed > windows.day * 0.9) return `plan ${key.plan} needs about ${needed} s of ${windows.minute}-second windows to spend its ${key.quota.perDay} a day, more than the ${windows.day}-second day window`;
  return undefined;
}

/**
 * Spends the key's day and records it in `run.day` (or why not in `run.daySkipped`). It may run
 * across one turn of the day window (answers too slow to spend the quota in the window it started
 * in), so it ends at the latest two day windows and a minute after it started.
 */
export async function driveDay(ctx: DriveContext, key: TargetKey, run: { day?: DayData; daySkipped?: string }): Promise<void> {
  const { windows } = ctx.target;
  const notDriven = dayNotDriven(key, windows, ctx.soak);
  if (notDriven) {
    run.daySkipped = notDriven;
    return;
  }
  const started = ctx.clock.now();
  const deadline = started + (2 * windows.day + windows.minute) * 1000;
  const day: DayData = { accepted: 0, acceptedAt: [], bursts: [], ended: 'time', elapsedMs: 0, requests: 0, followUps: [], dayResets: [] };
  ctx.progress(`${key.label}: spending the day's quota of ${key.quota.perDay}`);
  let state: DayState = { at: 'spending', refusedInARow: 0 };
  while (state.at === 'spending' || state.at === 'spent') {
    if (ctx.clock.now() >= deadline) break;
    state = state.at === 'spending' ? await spend(ctx, key, day, state) : await followUp(ctx, key, day);
  }
  // Stopped by a wait longer than the harness sits out: the day is still judged from what the
  // key had been let through (why it stopped in daySkipped).
  if (state.at === 'skipped') {
    run.daySkipped = state.why;
    day.ended = 'too-long';
  }
  day.elapsedMs = ctx.clock.now() - started;
  // Every accepted request of the key in the run counts in its day window, not the day test's alone.
  const spans = ctx.ledger.of(key.label);
  day.acceptedAt = spans.map((s) => s.to);
  day.acceptedFrom = spans.map((s) => s.from);
  const skew = ctx.ledger.dateSkew();
  if (skew > 0) day.dateSkew = skew;
  run.day = day;
}

/** Waits out a 429 of the day test; a wait beyond what the harness sits out ends it (`onTooLong`). */
async function waitOrEnd(ctx: DriveContext, key: TargetKey, p: TimelinePoint, options: RefusalWaitOptions, then: DayState, onTooLong: (why: string) => DayState): Promise<DayState> {
  const what = options.laterOfReset || then.at === 'spent' ? "the spent day's Retry-After (one request after each, as a polite client)" : "the minute window (spending the day's quota)";
  const waited = await waitOut(ctx, p, `${key.label}: ${what}`, options);
  return waited.waited ? then : onTooLong(waited.tooLong);
}

/** One look, and a burst from what it says is left; the 429 that ends it tells what comes next. */
async function spend(ctx: DriveContext, key: TargetKey, day: DayData, state: Extract<DayState, { at: 'spending' }>): Promise<DayState> {
  const quota = key.quota;
  const windows = ctx.target.windows;
  const looked = await look(ctx, key);
  if ('tooLong' in looked) return { at: 'skipped', why: looked.tooLong };
  const obs = looked.look;
  day.requests! += 1;
  const lookPoint = readRateAnswer(obs);
  let data: BurstData | undefined;
  let refusedInARow = state.refusedInARow;
  if (isAccepted(obs.status)) {
    refusedInARow = 0;
    day.accepted += 1;
    // Each burst starts from what is left (the day's remainder may be the smaller, shown or
    // counted), so that it crosses the limit carefully.
    data = await runBurst(ctx, key, lookPoint);
    day.requests! += data.sent;
    const accepted = data.points.filter((p) => !p.afterStop && isAccepted(p.status));
    day.accepted += accepted.length;
    day.bursts.push({ sent: data.sent, accepted: accepted.length, ...(data.inFlightAtFirst429 !== undefined ? { sentAfterFirst429: data.inFlightAtFirst429 } : {}) });
    for (const p of [lookPoint, ...accepted]) if (windowDescribed(quota, p) === 'day' && p.reset !== undefined) day.dayResets!.push(p.reset);
  } else if (obs.status === 429) refusedInARow += 1;
  const block = obs.status === 429 ? lookPoint : data?.points.filter((p) => p.status === 429).at(-1);
  const end = (ended: DayData['ended']) => (): DayState => {
    day.ended = ended;
    return { at: 'done' };
  };
  const skipped = (why: string): DayState => ({ at: 'skipped', why });
  // Refused at the time a minute's 429 named, though its headers (whatever its Retry-After said)
  // named the day's end: the day is spent, that 429 its first, and this look follows it.
  if (obs.status === 429 && state.waitedOut && classifyRefusal({ quota, windows }, { ...state.waitedOut, retryAfter: undefined }) === 'day') {
    day.block = state.waitedOut;
    day.ended = 'day-block';
    day.followUps = [lookPoint];
    return waitOrEnd(ctx, key, lookPoint, { laterOfReset: true }, { at: 'spent' }, end('day-block'));
  }
  if (block && classifyRefusal({ quota, windows }, block) === 'day') {
    day.block = block;
    day.ended = 'day-block';
    return waitOrEnd(ctx, key, block, { marginMs: data ? inFlightMargin(data) : 0 }, { at: 'spent' }, end('day-block'));
  }
  // Refused again after waiting out a 429, and again after the later of the next Retry-After and
  // Reset (or not waited, that being too far): the key is closed, whatever the headers say.
  if (block && refusedInARow > 0) {
    const closed = (): DayState => {
      day.block = block;
      day.ended = 'still-refused';
      return { at: 'done' };
    };
    if (refusedInARow >= DAY_FOLLOW_UPS) return closed();
    return waitOrEnd(ctx, key, block, { laterOfReset: true }, { at: 'spending', refusedInARow }, closed);
  }
  // More let through within one day window's length than any day limiter allows: counted per day
  // window from every accepted request of the key, however slow the answers.
  if (beyondAnyDay(ctx.ledger.of(key.label), quota.perDay, windows.day)) return end('over-quota')();
  if (!block) return { at: 'spending', refusedInARow };
  return waitOrEnd(ctx, key, block, { marginMs: data ? inFlightMargin(data) : 0 }, { at: 'spending', waitedOut: block, refusedInARow }, skipped);
}

/** The day is spent: one request after its last 429's Retry-After; let through, the day reopened. */
async function followUp(ctx: DriveContext, key: TargetKey, day: DayData): Promise<DayState> {
  const looked = await look(ctx, key);
  if ('tooLong' in looked) return { at: 'done' };
  day.requests! += 1;
  const point = readRateAnswer(looked.look);
  day.followUps!.push(point);
  if (isAccepted(point.status)) {
    day.accepted += 1;
    day.ended = 'reopened';
    return { at: 'done' };
  }
  if (day.followUps!.length >= DAY_FOLLOW_UPS) return { at: 'done' };
  // Refused again at the time the last 429 named: the later of the new Retry-After and Reset, or stop.
  return waitOrEnd(ctx, key, point, { laterOfReset: true }, { at: 'spent' }, () => ({ at: 'done' }));
}
