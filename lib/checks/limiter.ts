// The limiter as one key's answers show it: the window a burst ended its quota in, whether the
// limiter is a fixed window or a refilling one, how noisy its Reset is, what a refilling one gives
// back, what a burst did; and the readings of a key's answers the rate-limit checks share (when a
// response was sent, which window its headers describe, which kind of 429 it is, the burst's first
// 429). Pure: what the driver recorded (lib/result/rate-limits.ts) in, figures out.
import { type BurstData, type KeyRun, type RateLimitKey, sentAtOfPoint, type TimelinePoint } from '../result/rate-limits.ts';
import { classifyRefusal, type DateOffsets, dateSkewSeconds, meetDateOffsets, readRateAnswer, resetShape, serverSecond, windowDescribed } from '../rate-limit/vocabulary.ts';
import { refillOver } from './not-reached.ts';
import { isAccepted } from '../status.ts';

/** A burst's answers before its first 429 (all of them when none came). */
function beforeFirst429(b: BurstData): TimelinePoint[] {
  const first429 = b.points.findIndex((p) => p.status === 429);
  return first429 === -1 ? b.points : b.points.slice(0, first429);
}

/** The window a burst ended its quota in, and what Remaining it counted down from. */
export interface QuotaWindow {
  /** The burst's answers before its first 429, from the window's start on. */
  points: TimelinePoint[];
  /** Remaining before the window's first request of the burst (undefined when not stated). */
  start: number | undefined;
  /**
   * A fixed window that turned during the burst (or between the response before it and the
   * burst): its Resets before and after, and the new window's start read as one more than the
   * highest Remaining it gave.
   */
  turned?: { from: number; to: number; acceptedBefore: number };
}

/**
 * The window that ended in the burst's first 429. A burst is started with at least half a window
 * left, but the clocks compare to the second at best, and a fixed window may turn during it: then
 * the accepted answers fall in two groups, each holding one Reset, the second's a window later and
 * with more Remaining. Only the second window is counted (it ended in the 429), from one more than
 * its highest Remaining. A refilling limiter's Reset moves by small steps, never in two groups.
 * The window that turns is the one the headers describe: the day's when every answer's Limit is
 * the day's quota (headers of the day on every answer, whose Remaining and Reset the day's turn
 * moves), else the minute's.
 */
export function quotaWindow(run: KeyRun): QuotaWindow {
  const points = run.burst ? beforeFirst429(run.burst) : [];
  const start = run.start ? readRateAnswer(run.start) : undefined;
  const stated = start?.remaining;
  if (run.burst?.ended !== 'first-429') return { points, start: stated };
  const answers = [...(start ? [start] : []), ...points];
  const described = answers.filter((p) => p.limit !== undefined);
  const ofDay = described.length > 0 && described.every((p) => describes(run, p) === 'day');
  const turn = windowTurn(answers, ofDay ? run.windows.day : run.windows.minute);
  if (!turn) return { points, start: stated };
  const remainings = turn.after.map((p) => p.remaining).filter((r): r is number => r !== undefined);
  return {
    points: points.filter((p) => !turn.before.includes(p)),
    start: remainings.length > 0 ? Math.max(...remainings) + 1 : undefined,
    turned: { from: turn.from, to: turn.to, acceptedBefore: turn.before.filter((p) => points.includes(p)).length },
  };
}

/** Accepted answers in two groups of one Reset each (within a second), a window apart, Remaining going back up. */
function windowTurn(points: readonly TimelinePoint[], windowSeconds: number): { from: number; to: number; before: TimelinePoint[]; after: TimelinePoint[] } | undefined {
  // Only a Reset that is a Unix time in seconds names a window's end (seconds until the reset or milliseconds do not).
  const ok = points.filter((p) => isAccepted(p) && p.reset !== undefined && resetShape(p.reset) === undefined);
  if (ok.length < 2) return undefined;
  const resets = ok.map((p) => p.reset!);
  const [from, to] = [Math.min(...resets), Math.max(...resets)];
  const gap = to - from;
  if (gap < Math.max(2, windowSeconds - 1) || gap > windowSeconds + 2) return undefined;
  // Noise in the rounding of Reset (resetJitter: an end read with up to ±600 ms of noise, then
  // rounded) spreads one window's Resets over up to three seconds, its end ± 1: as much slack as
  // the gap leaves the two groups apart.
  const slack = Math.min(2, Math.floor((gap - 1) / 2));
  const before = ok.filter((p) => p.reset! <= from + slack);
  const after = ok.filter((p) => p.reset! >= to - slack);
  if (before.length + after.length !== ok.length) return undefined;
  // The old window's answers were sent before the new one's: of the new window's, only those in
  // flight beside the old window's last (one a connection) may have been sent before it. A
  // sliding log's Reset at Remaining 0 (when its oldest request leaves) falls back below the
  // Resets before it (when the log would be empty) at the end of the burst: no turn.
  const lastBefore = Math.max(...before.map(sentAtOfPoint));
  const crossed = after.filter((p) => sentAtOfPoint(p) < lastBefore).length;
  if (crossed > Math.max(1, new Set(ok.map((p) => p.conn)).size)) return undefined;
  const lowest = Math.min(...before.map((p) => p.remaining ?? Infinity));
  const highest = Math.max(...after.map((p) => p.remaining ?? -Infinity));
  return highest > lowest ? { from, to, before, after } : undefined;
}

export type LimiterKind = 'fixed' | 'refilling' | 'unknown';

/**
 * What the accepted responses of a burst show of the limiter. A fixed window holds Reset still and
 * never shows a positive Remaining twice (responses may arrive out of order, but each value is
 * sent once; a limiter that lets one too many through repeats only 0). A refilling limiter (token
 * bucket, sliding window) moves Reset or repeats values as capacity comes back. But a refilling
 * limiter's Reset (when it is full again) moves by k / r seconds over k accepted requests at a
 * refill rate of r per second, so a Reset that held still over fewer than r accepted requests
 * proves nothing either way.
 */
export function limiterKind(points: readonly TimelinePoint[], refillPerSecond: number): LimiterKind {
  const ok = points.filter(isAccepted);
  if (new Set(ok.map((p) => p.reset)).size > 1 && resetJitter(ok) === 0) return 'refilling';
  const positive = ok.map((p) => p.remaining).filter((r): r is number => r !== undefined && r > 0);
  if (new Set(positive).size !== positive.length) return 'refilling';
  return ok.length > 0 && ok.length >= Math.ceil(refillPerSecond) ? 'fixed' : 'unknown';
}

/**
 * How far apart the Resets of one fixed window lie when the server rounds them with noise (2 at
 * most), or 0 when they do not show noise. A refilling limiter's Reset (when it is full again, or
 * when its log empties) never goes back in the order the server answered, which for accepted
 * responses is falling Remaining; a Reset that goes back and forth within two seconds is a fixed
 * window's end, rounded from a clock read with noise. Only responses with a positive Remaining,
 * each value once, show the server's order for sure (arrivals over several connections may swap
 * two answers near a second's edge), and it must go back more than once.
 */
export function resetJitter(points: readonly TimelinePoint[]): number {
  const ok = points.filter((p) => isAccepted(p) && p.reset !== undefined);
  const resets = ok.map((p) => p.reset!);
  const spread = resets.length > 0 ? Math.max(...resets) - Math.min(...resets) : 0;
  if (spread === 0 || spread > 2) return 0;
  const positive = ok.filter((p) => p.remaining !== undefined && p.remaining > 0);
  if (new Set(positive.map((p) => p.remaining)).size !== positive.length) return 0;
  const served = [...positive].sort((a, b) => b.remaining! - a.remaining!);
  const back = served.filter((p, i) => i > 0 && p.reset! < served[i - 1]!.reset!).length;
  return back >= 2 ? spread : 0;
}

/** The rate at which a refilling limiter of the key's plan would give back capacity. */
export function refillPerSecond(run: Pick<KeyRun, 'quota' | 'windows'>): number {
  return run.quota.perMinute / run.windows.minute;
}

/** What a burst did: responses by kind, requests in flight at the stop, achieved rate. */
export function loadFigures(b: BurstData): NonNullable<RateLimitKey['load']> {
  const ok = b.points.filter(isAccepted).length;
  const rejected = b.points.filter((p) => p.status === 429).length;
  return {
    sent: b.sent,
    accepted: ok,
    rejected,
    other: b.points.length - ok - rejected,
    inFlightAtStop: b.sent - b.points.length,
    ...(b.inFlightAtFirst429 !== undefined ? { sentAfterFirst429: b.inFlightAtFirst429 } : {}),
    durationMs: b.durationMs,
    askedRate: b.askedRate,
    achievedRate: b.durationMs > 0 ? Math.round((b.points.length / b.durationMs) * 1000) : 0,
    latency: b.latency,
  };
}

/** The second a response was sent: its Date header, else when it arrived. */
export const sentAt = (p: TimelinePoint): number => serverSecond(p.t, p.date);

/** Which window a response's X-RateLimit-* describe, the minute's or the day's (by its Limit). */
export const describes = (run: KeyRun, p: Pick<TimelinePoint, 'limit'>) => windowDescribed(run.quota, p);
/** A 429 of the day's (the driver never sends a polite key's requests early: a long 429 is the day's, not a ban). */
export const isDayRefusal = (run: KeyRun, p: TimelinePoint) => classifyRefusal(run, p) === 'day';

/** A 429 that is a ban (the interface allows one, its length not shown): its Reset may name the ban's end. */
export const isBan = (run: KeyRun, p: TimelinePoint) => p.status === 429 && classifyRefusal(run, p) === 'ban';

/** The main burst's first 429. */
export function firstBurst429(run: KeyRun): TimelinePoint | undefined {
  return run.burst?.points.find((p) => p.status === 429);
}

/** The main burst's first 429, and what the headers said before it. */
export function firstRefusal(run: KeyRun): { refusal: TimelinePoint; accepted: number; start: number; startWindow: 'minute' | 'day' } | undefined {
  const refusal = firstBurst429(run);
  const look = run.start && readRateAnswer(run.start);
  const start = look?.remaining;
  if (!refusal || !look || start === undefined) return undefined;
  return { refusal, accepted: quotaWindow(run).points.filter(isAccepted).length, start, startWindow: describes(run, look) };
}

/**
 * Requests a token bucket may add during the burst: the plan's rate times its duration; the
 * minute's, or the day's for a Remaining of the day (`window`).
 */
export function refillAllowance(run: KeyRun, window: 'minute' | 'day' = 'minute'): number {
  return refillOver(run, run.burst?.durationMs ?? 0, window);
}

/**
 * Requests any refilling limiter may add during the burst: a token bucket's refill, or for a
 * sliding log every request of the last window that ages out meanwhile, at most what was already
 * spent when the burst started. Never more than the plan allows in a window.
 */
export function quotaAllowance(run: KeyRun, start: number): number {
  return Math.max(refillAllowance(run), run.quota.perMinute - start);
}

/** The burst's answers before its first 429, in the window that ended in it (see quotaWindow). */
export function beforeStop(run: KeyRun): TimelinePoint[] {
  return quotaWindow(run).points;
}

/** What the count starts from, and how the window turned when it did. */
export function stated(window: QuotaWindow): string {
  return window.turned
    ? `Remaining ${window.start} (the window turned during the burst, Reset ${window.turned.from} to ${window.turned.to}, after ${window.turned.acceptedBefore} accepted: the new window is counted, from one more than its highest Remaining)`
    : `Remaining ${window.start}`;
}

export function said(window: QuotaWindow): string {
  return window.turned ? `the new window started at ${stated(window)}` : `Remaining said ${window.start}`;
}

/**
 * Whole seconds by which the Dates of a key's answers disagree (several instances with their own
 * clocks, a Date cached stale), at most CLOCK_SLACK_S: read from the answers of a load only, whose
 * send time is known (a look's is taken as its arrival, which would narrow its bounds).
 */
export function datesDisagree(points: readonly TimelinePoint[]): number {
  let met: DateOffsets | undefined;
  for (const p of points) if (p.sentAt !== undefined) met = meetDateOffsets(met, p.sentAt, p.t, p.date);
  return dateSkewSeconds(met);
}
