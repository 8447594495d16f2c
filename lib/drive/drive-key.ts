// One key driven to its first 429: a look, a wait for a fresh window when less than half of one
// is left, then a burst that approaches the quota fast and crosses it one request at a time. Its
// answers are recorded in the run's log, and the last 429 remembered as what the key must wait for.
import type { Target, TargetKey } from '../config/schema.ts';
import { HarnessError } from '../errors.ts';
import { approach, type ApproachResult } from '../load/approach.ts';
import { lateByMs, type Segment } from '../load/segment.ts';
import { type BurstData, headersOf, type KeyRun, type Look, type TimelinePoint } from '../result/rate-limits.ts';
import { type OwnCount, roomLeft } from '../load/room.ts';
import { resetAtMs, readRateAnswer, windowMs } from '../rate-limit/vocabulary.ts';
import { refusedWithinQuota } from '../rate-limit/within-quota.ts';
import { type DriveContext, loadRecorder, loadUrl } from './drive-context.ts';
import { look, noteRetryAfter } from './look.ts';
import { waitOut, waitUntil } from './wait.ts';

/** Runner I of N got to a key's slot too late for the runners' loads to meet. */
export class SegmentLate extends HarnessError {
  readonly code = 'HARNESS_SEGMENT_LATE';
}

/** Parallel connections of a burst: enough for the rate, few enough that little is in flight at the stop. */
const CONNECTIONS = 4;
/** Bursts ask for this multiple of the plan's rate. */
const RATE_FACTOR = 4;
/** Looks, a quarter of a second apart, while a fixed window that should have turned has not yet. */
const TURN_LOOKS = 8;

/** Parallel connections of one burst, within the target's cap on concurrent requests. */
export function burstConnections(target: Target): number {
  return Math.min(CONNECTIONS, target.http.maxConcurrency);
}

/** How long after the first 429 a request already in flight may still have been answered. */
export function inFlightMargin(b: Pick<BurstData, 'latency'>): number {
  return Math.min(2_000, b.latency.max + 50);
}

/**
 * Whether `after` was answered in the same fixed window as `before`: the same Reset and less
 * Remaining. A window that has turned shows a later Reset or more Remaining.
 */
function sameWindow(before: Look, after: Look): boolean {
  const [b, a] = [readRateAnswer(before), readRateAnswer(after)];
  return after.status !== 429 && a.reset !== undefined && a.reset === b.reset && a.remaining !== undefined && b.remaining !== undefined && a.remaining < b.remaining;
}

/** What the harness knows of the key's room without its headers: its plan and every request it sent with it (room.ts). */
export function ownCount(ctx: DriveContext, key: TargetKey, runners = 1): OwnCount {
  return { quota: key.quota, windows: ctx.target.windows, sent: ctx.ledger.sent(key.label), ...(runners > 1 ? { runners } : {}) };
}

/**
 * A burst with the key from the accepted answer `start`: fast while plenty is left, careful at the
 * limit. What is left is the least over the plan's windows: the Remaining of the one the headers
 * describe, the plan's quota less the harness's own count for the other (a minute under headers
 * of the day, a day under headers of the minute). Its answers become exchanges; the last 429 is
 * what the key waits for next.
 */
export async function runBurst(ctx: DriveContext, key: TargetKey, start: TimelinePoint, segment?: Segment): Promise<BurstData> {
  const { wire, target, clock } = ctx;
  const of = segment?.count ?? 1;
  const minuteMs = windowMs(target.windows);
  const own = ownCount(ctx, key, of);
  const expected = roomLeft(own, [start], clock.now());
  // Room for a limiter that lets a whole plan's quota through, bounded either way.
  const cap = Math.max(expected, key.quota.perMinute) + key.quota.perMinute + CONNECTIONS;
  wire.budget.reserve(cap);
  const askedRate = Math.max(2, (RATE_FACTOR * key.quota.perMinute) / target.windows.minute) / of;
  const result = await approach(
    {
      url: loadUrl(target),
      headers: { ...target.http.headers, authorization: `Bearer ${key.key}` },
      rate: askedRate,
      connections: burstConnections(target),
      remaining: expected,
      maxRequests: cap,
      // Two windows: answers too slow to spend the quota before the window turns go on to the 429 of the next.
      maxDurationMs: Math.max(1, Math.min(2 * minuteMs, ctx.deadline - clock.now())),
      timeoutS: Math.ceil(target.http.timeoutMs / 1000),
      own,
      ...(segment ? { share: { of, crosses: segment.index === 1 } } : {}),
    },
    wire.phases,
    clock,
  );
  wire.budget.refund(cap - result.sent);
  const seqs = recordBurst(ctx, key, result);
  const { points, sent, startedAt, durationMs, ended, latency, histogram, inFlightAtFirst429, pair } = result;
  const last429 = points.filter((p) => p.status === 429).at(-1);
  if (last429) noteRetryAfter(ctx, key, last429.t, headersOf(last429), seqs.get(last429));
  return { points, sent, startedAt, durationMs, askedRate, ended, latency, latencyHistogram: histogram, ...(ended === 'first-429' ? { inFlightAtFirst429 } : {}), ...(pair ? { boundaryPair: pair } : {}) };
}

/**
 * Each response becomes an exchange (its seq returned by point); a request whose answer could not
 * be read, with the transport's code; requests still in flight when the time cap's grace ran out
 * are recorded without one, as sent by the stop at the latest.
 */
function recordBurst(ctx: DriveContext, key: TargetKey, { points, unanswered, sent }: Pick<ApproachResult, 'points' | 'unanswered' | 'sent'>): Map<TimelinePoint, number> {
  const record = loadRecorder(ctx.wire.recorder, ctx.target, key);
  const seqs = new Map(points.map((p) => [p, record.answered(p).seq] as const));
  for (const u of unanswered) record.unanswered(u.code, u.sentAt, u.afterStop === true);
  const stoppedAt = points.find((p) => p.status === 429)?.t ?? points.at(-1)?.t ?? ctx.clock.now();
  for (let i = points.length + unanswered.length; i < sent; i++) record.unanswered('NO_RESPONSE_AFTER_STOP', stoppedAt, true);
  return seqs;
}

/**
 * A look, then a burst from a fresh window. `first` is the look taken right after another key of
 * the same plan was exhausted (the isolation check reads it). A key refused for longer than the
 * harness waits (banned), or answered 401 or 403, is recorded as unavailable, not driven.
 */
export async function driveKey(ctx: DriveContext, key: TargetKey): Promise<{ run: KeyRun; first: Look }> {
  const run: KeyRun = { label: key.label, plan: key.plan, quota: key.quota, windows: ctx.target.windows };
  // A load segment drives the key in its slot, when every other runner does.
  const slot = ctx.segment?.slots.get(key.label);
  if (slot !== undefined) {
    await waitUntil(ctx, slot, `${key.label}: its slot (segment ${ctx.segment!.index} of ${ctx.segment!.count}, every runner drives it then)`);
    const late = ctx.clock.now() - slot;
    if (late > lateByMs(ctx.target.windows.minute)) throw new SegmentLate(`segment ${ctx.segment!.index} of ${ctx.segment!.count} reached ${key.label}'s slot ${(late / 1000).toFixed(1)} s late, so its load would not meet the other runners' in one window: give --start-at more lead (segment 1 runs the other suites first)`);
  }
  const refusal = ctx.refusals.get(key.label);
  const banned = (why: string, shown: Look) => {
    // Banned, by an earlier run or otherwise: the key is left alone (another key of the plan takes
    // its place), and its checks say why they did not run.
    run.unavailable = { reason: `${key.label} was refused before the harness sent it anything more: ${why}; not driven (a ban's length is not shown)`, refusal: shown };
    ctx.progress(`${key.label}: refused for longer than the harness waits (banned?); not driven`);
    return { run, first: shown };
  };
  const looked = await look(ctx, key);
  if ('tooLong' in looked) {
    // Only a 429 tells a key to wait: the run's first look at the key got one.
    if (!refusal) throw new Error(`${looked.tooLong}, with no 429 of the key seen before`);
    return banned(looked.tooLong, refusal);
  }
  const first = looked.look;
  if (first.status === 429) {
    const waited = await waitOut(ctx, first, `${key.label} (rate-limited before the burst)`);
    if (!waited.waited) return banned(waited.tooLong, first);
  }
  // A ban may be answered 403 (its status is not given), and a key the server does not know gets
  // 401: either way there is no quota to drive (the auth suite judges a configured key refused).
  if (first.status === 401 || first.status === 403) {
    const why = first.status === 403 ? 'banned, or not allowed this operation' : 'the server does not accept it: check its value';
    run.unavailable = { reason: `${key.label} got ${first.status} to its first request (${why}); not driven`, refusal: first };
    ctx.progress(`${key.label}: ${first.status} to its first request; not driven`);
    return { run, first };
  }
  let obs = first;
  if (first.status === 429) {
    const again = await look(ctx, key);
    if ('tooLong' in again) return banned(again.tooLong, first);
    obs = again.look;
  }
  const aligned = await alignToWindow(ctx, key, obs, slot);
  if ('tooLong' in aligned) return banned(aligned.tooLong, obs);
  run.start = aligned.look;
  const start = readRateAnswer(aligned.look);
  ctx.progress(`${key.label}: bursting above ${key.plan}'s rate from Remaining ${start.remaining ?? 'not stated'}`);
  run.burst = await runBurst(ctx, key, start, ctx.segment);
  // The burst's first 429, against every request the run sent with the key (the burst's own recorded by now).
  const refused = run.burst.points.find((p) => p.status === 429);
  const early = refused && refusedWithinQuota(ctx.ledger.sent(key.label), { sentAt: refused.sentAt ?? refused.t, answer: refused }, { quota: key.quota, windows: ctx.target.windows, knownSince: ctx.knownSince, acceptedAt: ctx.ledger.acceptedAt(key.label) });
  if (early) run.refusedWithinQuota = [...(run.refusedWithinQuota ?? []), { suite: 'rate-limit', at: refused!.t, ...early }];
  return { run, first };
}

/**
 * A burst must fit in one window: when less than half of it is left, the next one is waited for,
 * never before the key's last Retry-After (Reset is whole seconds; Retry-After may end later).
 * The look that shows the fresh window is returned.
 */
export async function alignToWindow(ctx: DriveContext, key: TargetKey, obs: Look, slot: number | undefined): Promise<{ look: Look } | { tooLong: string }> {
  const reset = readRateAnswer(obs).reset;
  const minuteMs = windowMs(ctx.target.windows);
  // Runners of a load segment decide against their agreed slot, not their own clock's now: the
  // same window start whichever side of a window's end their first looks fell.
  if (reset === undefined || resetAtMs(reset, obs.t, obs.headers.date) - (slot ?? ctx.clock.now()) >= minuteMs / 2) return { look: obs };
  const before = obs;
  const resetAt = resetAtMs(reset, obs.t, obs.headers.date, true);
  await waitUntil(ctx, Math.max(resetAt + 150, ctx.notBefore.get(key.label) ?? 0), `${key.label}: the minute window to reset before the burst`);
  let looked = await look(ctx, key);
  // The clocks compare to the second at best (a server within two seconds of ours is read as on
  // time): until the window has turned, a burst would straddle two windows.
  for (let tries = 0; tries < TURN_LOOKS && 'look' in looked && sameWindow(before, looked.look); tries++) {
    await ctx.clock.sleep(250);
    looked = await look(ctx, key);
  }
  return looked;
}
