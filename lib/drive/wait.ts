// Waiting as a well-behaved client waits: until a time (saying what for, and how long is left),
// and after a 429 until the moment it names. A wait longer than the harness sits out for one key
// is not waited: the caller gets that as a value and leaves the key (its value is judged, not
// waited out). Only the run's time limit is an error.
import { RunTimeLimitError } from '../errors.ts';
import { type Look, type TimelinePoint } from '../result/rate-limits.ts';
import { readRetryAfter, resetAtMs, type Windows, readRateAnswer, windowMs } from '../rate-limit/vocabulary.ts';
import type { DriveContext } from './drive-context.ts';

/** A wait sat out, or one the harness does not sit out (with why). */
export type Waited = { waited: true; ms: number } | { waited: false; tooLong: string };

/** The longest wait the harness sits out for one key: two minute windows and a little. */
export function waitCapMs(windows: Pick<Windows, 'minute'>): number {
  return 2 * windowMs(windows) + 5_000;
}

/** Progress lines while waiting come this often. */
const TICK_MS = 5_000;

/** Waits until an epoch time on the context's clock, telling what for and, every few seconds, how long is left. */
export async function waitUntil(ctx: Pick<DriveContext, 'clock' | 'deadline' | 'progress'>, at: number, what: string): Promise<void> {
  if (at > ctx.deadline) throw new RunTimeLimitError(`${what}: the wait would end after the run time limit (budget.maxSeconds)`);
  let left = at - ctx.clock.now();
  if (left <= 0) return;
  ctx.progress(`waiting ${(left / 1000).toFixed(1)} s for ${what}`);
  while (left > TICK_MS) {
    await ctx.clock.sleep(TICK_MS);
    left = at - ctx.clock.now();
    ctx.progress(`  ${Math.ceil(left / 1000)} s left: ${what}`);
  }
  await ctx.clock.sleep(left);
}

export interface RefusalWaitOptions {
  /**
   * Covers 429s never seen: requests in flight when a burst stopped drew 429s a little later, with
   * Retry-Afters that end a little later, and their answers were not all read.
   */
  marginMs?: number;
  /** A Retry-After already found wrong once is not trusted alone: the later of it and Reset. */
  laterOfReset?: boolean;
  /** Whole seconds by which the service's Dates disagree (RunLedger.dateSkew): an HTTP-date is waited out so much longer (readRetryAfter). */
  dateSkewS?: number;
}

/**
 * When a polite client sends again after a 429, on our clock (pure): the moment its Retry-After
 * names; the later of that and Reset when asked; with no usable Retry-After, just after Reset
 * (read in the server's time); with neither, a minute window and a little. Plus the margin.
 */
export function refusalWait(p: TimelinePoint | Look, windows: Pick<Windows, 'minute'>, options: RefusalWaitOptions = {}): { until: number; what: string } {
  const a = 'headers' in p ? readRateAnswer(p) : p;
  const named = readRetryAfter(a.retryAfter, a.t, a.date, options.dateSkewS)?.untilMs;
  const resetAt = a.reset !== undefined ? resetAtMs(a.reset, a.t, a.date) + 100 : undefined;
  const until = (options.marginMs ?? 0) + (named !== undefined && resetAt !== undefined && options.laterOfReset ? Math.max(named, resetAt) : (named ?? resetAt ?? a.t + windowMs(windows) + 100));
  return { until, what: named !== undefined ? `Retry-After ${a.retryAfter}` : 'the window to reset (no usable Retry-After)' };
}

/** Waits out a 429 (refusalWait), unless that is longer than the harness waits for one key. */
export async function waitOut(ctx: DriveContext, p: TimelinePoint | Look, label: string, options: RefusalWaitOptions = {}): Promise<Waited> {
  const { until, what } = refusalWait(p, ctx.target.windows, { dateSkewS: ctx.ledger.dateSkew(), ...options });
  if (until - p.t > waitCapMs(ctx.target.windows)) {
    const value = 'headers' in p ? readRateAnswer(p).retryAfter : p.retryAfter;
    return { waited: false, tooLong: `${label}: asked to wait ${Math.round((until - p.t) / 1000)} s (Retry-After "${value ?? ''}"), more than two minute windows` };
  }
  await waitUntil(ctx, until, `${label}: ${what}`);
  return { waited: true, ms: until - p.t };
}
