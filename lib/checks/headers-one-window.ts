// Limits / Rate limit headers: in every answer, X-RateLimit-Limit, -Remaining and -Reset describe
// one and the same window. Judged from what a key's run recorded, with two relations that hold
// for every limiter the interface allows (fixed windows aligned or started per key, token buckets,
// sliding logs whose Reset names when the log empties or when its oldest request leaves; Reset
// rounded with noise, server clocks off, several instances):
//
// - Remaining is never above Limit: no window has more requests left than its limit.
// - A window gives its requests back at most once in its length: two turns of the window Limit
//   names (Remaining back after each Reset named) less than that length apart are another window's.
// - Remaining never comes back, before the Reset an earlier answer named, by more than a token
//   bucket of the window Limit names refills meanwhile. A fixed window gives nothing back before
//   its end; a sliding log whose Reset names its oldest request's leaving gives nothing back before
//   that; a token bucket gives back its rate. Only a sliding log whose Reset names when it empties
//   (one window after its newest request) gives back sooner: pairs where neither answer's Reset
//   could be that are the only ones judged. "Limit 1000, Reset the day's end, Remaining 0" and
//   then "Remaining 59" a few seconds later is the minute's Remaining under the day's Limit and
//   Reset, whichever window the headers are read as describing.
//
// Answers in flight together (their request/answer intervals overlap, a tie in milliseconds
// included: times are whole milliseconds, and answers sent and answered within one on different
// connections may have been counted in either order) are never read as "before, then after": the
// rises are judged only between answers one of which came back before the other was sent, and the
// turns are walked in the order the server counted the answers, which among answers in flight
// together is what Remaining says (countedOrder).
//
// Pure: a key's run in, a finding out.
import { type KeyRun, pointsOf, sentAtOfPoint, type TimelinePoint } from '../result/rate-limits.ts';
import { CLOCK_SLACK_S, classifyRefusal, serverSecond, type WindowName, readRateAnswer, quotaOf } from '../rate-limit/vocabulary.ts';
import { defineCheck } from './define.ts';
import { driven, fail, type Finding, pass, skip } from './types.ts';
import { isAccepted } from '../status.ts';

/** A sliding log's Reset, when it names its emptying, lies a window ahead less at most this (rounding, a slow answer, another instance's Date). */
const LOG_RESET_SLACK_S = CLOCK_SLACK_S + 1;

/** Every answer of the key's run that carries rate-limit headers, in time order: probes, the burst, recovery, isolation, the day's 429 and what followed it. */
export function answersOf(run: KeyRun): TimelinePoint[] {
  const looks = [run.isolation?.before, run.isolation?.after].flatMap((l) => (l ? [readRateAnswer(l)] : []));
  const day = [...(run.day?.block ? [run.day.block] : []), ...(run.day?.followUps ?? [])];
  const all = [...pointsOf(run), ...looks, ...day];
  const seen = new Set<string>();
  return all
    .filter((p) => {
      const id = `${p.t}:${p.status}:${p.remaining}:${p.reset}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => a.t - b.t);
}

type Full = TimelinePoint & { limit: number; remaining: number; reset: number };
const full = (p: TimelinePoint): p is Full => p.limit !== undefined && p.remaining !== undefined && p.reset !== undefined;


/**
 * Whether `earlier` (arrived no later than `later`) was answered before `later` was sent: only then
 * did the server count it first. Answers in flight together (a tie in milliseconds included) may
 * have been counted in either order.
 */
export const answeredBefore = (earlier: TimelinePoint, later: TimelinePoint): boolean => earlier.t < sentAtOfPoint(later);

/**
 * Answers of one window as the server counted them: in arrival order, except that among answers in
 * flight together with the same Limit, the one with more Remaining came first, a window's
 * Remaining falling as it counts (a later Reset, more than the clocks' slack later, is a later
 * window: it came after). Answers arrive in another order than they were counted when they travel
 * on several connections.
 */
export function countedOrder<P extends Full>(answers: readonly P[]): P[] {
  const byArrival = [...answers].sort((a, b) => a.t - b.t);
  const order: P[] = [];
  const countedFirst = (a: P, b: P) => (Math.abs(a.reset - b.reset) > CLOCK_SLACK_S ? a.reset < b.reset : a.remaining > b.remaining);
  for (const a of byArrival) {
    let at = order.length;
    while (at > 0) {
      const b = order[at - 1]!;
      if (answeredBefore(b, a) || b.limit !== a.limit || !countedFirst(a, b)) break;
      at -= 1;
    }
    order.splice(at, 0, a);
  }
  return order;
}

/** The window a Limit names: the plan's per-minute or per-day quota; undefined for another value (rate-limit.limit-header's failure) or when the two are equal. */
function windowNamed(run: KeyRun, limit: number): WindowName | undefined {
  if (run.quota.perMinute === run.quota.perDay) return undefined;
  return limit === run.quota.perMinute ? 'minute' : limit === run.quota.perDay ? 'day' : undefined;
}

const sent = (p: TimelinePoint) => serverSecond(p.t, p.date);
/** Seconds from an answer's Date to its Reset. */
const ahead = (p: Full) => p.reset - sent(p);

/** "(the day's quota)", "(the minute's quota)", or "(neither quota of plan free)". */
function named(run: KeyRun, limit: number): string {
  const w = windowNamed(run, limit);
  return w ? `(the ${w}'s quota)` : `(neither quota of plan ${run.plan})`;
}

/** Remaining above Limit. Code: remaining-above-limit. */
function remainingAboveLimit(run: KeyRun, answers: readonly Full[]): Finding | undefined {
  const over = answers.filter((p) => p.remaining > p.limit);
  const first = over[0];
  if (!first) return undefined;
  const day = run.quota.perDay;
  const other = windowNamed(run, first.limit) === 'minute' && first.remaining < day ? ` (within the day's ${day}: Remaining counts the day, Limit the minute)` : '';
  return fail(
    'remaining-above-limit',
    `${run.label}: X-RateLimit-Remaining ${first.remaining} with Limit ${first.limit} ${named(run, first.limit)} and Reset ${ahead(first)} s away, on ${over.length} of ${answers.length} answers: more requests remaining in the window than its limit${other}`,
    'Remaining at most Limit: Limit, Remaining and Reset describe one window',
    `Limit ${first.limit}, Remaining ${first.remaining}, Reset ${first.reset} (${ahead(first)} s after the Date), status ${first.status}`,
  );
}

/** A Remaining that came back before the Reset named earlier, by more than its window gives back. */
interface Rise {
  before: Full;
  after: Full;
  window: WindowName;
  seconds: number;
  /** The most a token bucket of the window refills in that time. */
  refill: number;
}

/**
 * Pairs of answers, the earlier decided before the later was sent, both with the Limit of one
 * window: the later accepted, before the earlier's Reset, with Remaining higher by more than a
 * token bucket of that window refills meanwhile, and one of their Resets not a window ahead (which
 * only a sliding log's emptying is: such a log gives back as its requests age).
 */
function risesBeforeReset(run: KeyRun, answers: readonly Full[]): { rises: Rise[]; judged: number } {
  const rises: Rise[] = [];
  let judged = 0;
  // A ban's Reset names the ban's end; a day's 429 under the minute's headers may name the day's end.
  const refusal = new Map(answers.filter((p) => p.status === 429).map((p) => [p, classifyRefusal(run, p)] as const));
  for (const after of answers) {
    const window = windowNamed(run, after.limit);
    if (!window || !isAccepted(after)) continue;
    const length = run.windows[window];
    const rate = quotaOf(run.quota, window) / length;
    const afterIsLog = ahead(after) > length - LOG_RESET_SLACK_S;
    for (const before of answers) {
      // Decided before `after` was sent: answers of a burst on several connections may arrive out
      // of order, and answers in flight together (within one millisecond too) in either.
      if (before === after || !answeredBefore(before, after)) continue;
      if (before.limit !== after.limit) continue;
      const kind = refusal.get(before);
      if (kind === 'ban' || (kind === 'day' && window === 'minute')) continue;
      // The earlier answer's window had ended (or nearly, with its rounding) when the later one was sent.
      if (sent(after) >= before.reset - CLOCK_SLACK_S) continue;
      if (afterIsLog && ahead(before) > length - LOG_RESET_SLACK_S) continue;
      judged += 1;
      const seconds = (after.t - (before.sentAt ?? before.t - CLOCK_SLACK_S * 1000)) / 1000;
      const refill = Math.floor(rate * seconds) + 1;
      if (after.remaining - before.remaining > refill) rises.push({ before, after, window, seconds, refill });
    }
  }
  return { rises, judged };
}

function describeRise(run: KeyRun, rise: Rise, count: number): Finding {
  const { before, after, window, seconds, refill } = rise;
  const quota = quotaOf(run.quota, window);
  const other: WindowName = window === 'day' ? 'minute' : 'day';
  const fits = after.remaining < quotaOf(run.quota, other) ? ` (it fits the ${other}'s: ${quotaOf(run.quota, other)} a ${other})` : '';
  const same = before.reset === after.reset ? 'unchanged' : `then ${after.reset}`;
  const gained = after.remaining - before.remaining;
  return fail(
    'remaining-rose-before-reset',
    `${run.label}: Remaining ${before.remaining} → ${after.remaining} in ${((after.t - before.t) / 1000).toFixed(1)} s, with Limit ${quota} (the ${window}'s quota) and Reset ${before.reset} (${before.reset - sent(after)} s away) ${same}: ` +
      `the ${window} window cannot give back ${gained} requests before its Reset (a token bucket of ${quota} a ${window} refills at most ${refill} in ${seconds.toFixed(1)} s); ` +
      `Remaining counts another window than Limit and Reset${fits}${count > 1 ? `; ${count} such pairs of answers` : ''}`,
    `Remaining, Limit and Reset of one window: no more than ${before.remaining + refill} before ${before.reset}`,
    `${before.status}: Limit ${before.limit}, Remaining ${before.remaining}, Reset ${before.reset}; then ${after.status}: Limit ${after.limit}, Remaining ${after.remaining}, Reset ${after.reset}`,
  );
}

/** Two turns of one window: its Remaining given back after the Reset each earlier answer named, those Resets less than a window apart. */
interface TwoTurns {
  window: WindowName;
  first: [Full, Full];
  second: [Full, Full];
}

/**
 * A window turns once per its length: a fixed window at its end, a bucket at its rate. Answers
 * whose Limit names a window W, whose Remaining came back past what a token bucket of W refills,
 * after the Reset the answer before named, turned W; two such turns whose Resets lie less than W's
 * length apart (less the clocks' slack on each) and a whole number of the other window's lengths
 * apart are the other window's: Remaining and Reset describe it, not the window Limit names.
 * "Limit 1000 (the day's quota)" with Remaining back at 59 every minute, at each minute's Reset.
 * (A sliding log of the day whose Reset names its oldest request's leaving gives back as earlier
 * traffic leaves, at that traffic's times: not judged unless in step with the minute.)
 */
function turnsTooSoon(run: KeyRun, answers: readonly Full[]): TwoTurns | undefined {
  const turns = new Map<WindowName, [Full, Full][]>();
  const counted = countedOrder(answers);
  for (let i = 1; i < counted.length; i++) {
    const [before, after] = [counted[i - 1]!, counted[i]!];
    const window = windowNamed(run, after.limit);
    if (!window || before.limit !== after.limit || !isAccepted(after) || sent(after) < before.reset) continue;
    const refill = Math.floor((quotaOf(run.quota, window) / run.windows[window]) * (Math.max(0, after.t - before.t) / 1000)) + 1;
    if (after.remaining - before.remaining <= refill) continue;
    const seen = turns.get(window) ?? [];
    // A whole number of the other window's lengths apart (to a second): that window's turns. A
    // sliding log of W naming its oldest request's leaving gives back as earlier traffic leaves,
    // at that traffic's times, not in step with the other window.
    const other = run.windows[window === 'day' ? 'minute' : 'day'];
    const inStep = (apart: number) => apart > 0 && Math.min(apart % other, other - (apart % other)) <= 1;
    const earlier = seen.find(([b]) => {
      const apart = Math.abs(before.reset - b.reset);
      return apart < run.windows[window] - 2 * CLOCK_SLACK_S - 1 && inStep(apart);
    });
    if (earlier) return { window, first: earlier, second: [before, after] };
    turns.set(window, [...seen, [before, after]]);
  }
  return undefined;
}

function describeTurns(run: KeyRun, { window, first, second }: TwoTurns): Finding {
  const quota = quotaOf(run.quota, window);
  const apart = Math.abs(second[0].reset - first[0].reset);
  const turn = ([b, a]: [Full, Full]) => `Remaining ${b.remaining} → ${a.remaining} after Reset ${b.reset}`;
  return fail(
    'window-turned-too-soon',
    `${run.label}: Limit ${quota} (the ${window}'s quota), yet its window gave its requests back twice ${apart} s apart, in step with the ${window === 'day' ? 'minute' : 'day'} (${turn(first)}; ${turn(second)}), where a ${window} window turns once in ${run.windows[window]} s: Remaining and Reset count another window than Limit`,
    `Limit, Remaining and Reset of one window: a ${window} window gives its requests back at most once in ${run.windows[window]} s`,
    `${first[0].status}: Limit ${first[0].limit}, Remaining ${first[0].remaining}, Reset ${first[0].reset}; then ${first[1].status}: Remaining ${first[1].remaining}, Reset ${first[1].reset}; … ${second[0].status}: Remaining ${second[0].remaining}, Reset ${second[0].reset}; then ${second[1].status}: Remaining ${second[1].remaining}, Reset ${second[1].reset}`,
  );
}

export function judgeHeadersOneWindow(run: KeyRun): Finding {
  const all = answersOf(run);
  if (all.length === 0) return skip(`${run.label} was not driven: no answer to judge`);
  const answers = all.filter(full);
  if (answers.length === 0) return skip(`no answer of ${run.label} carried integer X-RateLimit-Limit, -Remaining and -Reset together (headers.rate-limit-present judges the headers)`);
  const above = remainingAboveLimit(run, answers);
  if (above) return above;
  const { rises, judged } = risesBeforeReset(run, answers);
  // The pair that shows it most: the widest rise beyond what the window could give back.
  const excess = (r: Rise) => r.after.remaining - r.before.remaining - r.refill;
  const widest = rises.reduce<Rise | undefined>((best, r) => (!best || excess(r) > excess(best) ? r : best), undefined);
  if (widest) return describeRise(run, widest, rises.length);
  const tooSoon = turnsTooSoon(run, answers);
  if (tooSoon) return describeTurns(run, tooSoon);
  const pairs = judged === 0 ? 'no two answers could be compared against a Reset (each Reset lay a window ahead, as a sliding log\'s may, or had passed)' : `${judged} pairs of answers before a Reset named: Remaining never came back more than a token bucket of its window refills`;
  return pass(`${run.label}: ${answers.length} answers, Remaining at most Limit on each; ${pairs}`);
}

export const headersOneWindow = defineCheck({
  id: 'rate-limit.headers-one-window',
  explainedBy: ['headers.rate-limit-present', 'rate-limit.limit-header'],
  clause: 'Limits / Rate limit headers',
  suite: 'rate-limit',
  title: 'X-RateLimit-Limit, -Remaining and -Reset describe one window: Remaining never above Limit, never back before the Reset named by more than that window refills',
  severity: 'must',
  judge: driven(judgeHeadersOneWindow),
});
