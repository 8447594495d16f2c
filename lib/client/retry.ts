// The harness as a well-behaved client ("Exceeding the limit"): it retries only after the time a
// 429 indicates, and otherwise backs off exponentially with full jitter. Pure: clock and randomness
// are parameters, so the policy is tested without sleeping.
import { readRateAnswer, resetAtMs, retryAfterWaitMs } from '../rate-limit/vocabulary.ts';

export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff step; doubles each attempt. */
  baseDelayMs: number;
  /** Cap of one jittered backoff step. */
  maxDelayMs: number;
  /** Longest single wait the harness accepts; a longer Retry-After ends the retries. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxWaitMs: 120_000 };

/** Full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): uniform in [0, min(cap, base·2^n)). */
export function fullJitter(attempt: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; reason: string };

export interface RetryInput {
  /** 0 for the first attempt. */
  attempt: number;
  status: number;
  headers: Readonly<Record<string, string>>;
  nowMs: number;
  random: () => number;
  options: RetryOptions;
}

/** What to do after a response. Only 429 and 503 are retried; everything else is final. */
export function decideRetry(input: RetryInput): RetryDecision {
  const { attempt, status, headers, nowMs, random, options } = input;
  if (status !== 429 && status !== 503) return { retry: false, reason: `status ${status} is final` };
  if (attempt + 1 >= options.maxAttempts) return { retry: false, reason: `gave up after ${attempt + 1} attempts` };

  // The vocabulary's one reading of Retry-After (lenient: a fraction or a sign is waited out too).
  let floor = retryAfterWaitMs(headers['retry-after'], nowMs, headers.date);
  let source = 'Retry-After';
  if (floor === undefined && status === 429) {
    // No usable Retry-After: the reset time of an exhausted window is the next best signal.
    const { reset, remaining } = readRateAnswer(nowMs, status, headers);
    if (remaining === 0 && reset !== undefined && reset > 0) {
      floor = Math.max(0, resetAtMs(reset, nowMs, headers.date, true) - nowMs);
      source = 'X-RateLimit-Reset';
    }
  }
  if (floor === undefined && status === 503) return { retry: false, reason: '503 without Retry-After is final' };

  const delayMs = (floor ?? 0) + fullJitter(attempt, options, random);
  if (delayMs > options.maxWaitMs) {
    return { retry: false, reason: `asked to wait ${Math.ceil(delayMs / 1000)} s, more than the ${Math.ceil(options.maxWaitMs / 1000)} s allowed` };
  }
  const why = floor === undefined ? 'no Retry-After, exponential backoff' : `${source} ${Math.ceil(floor / 1000)} s plus jitter`;
  return { retry: true, delayMs, reason: `${status}: ${why}` };
}
