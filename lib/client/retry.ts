// The harness as a well-behaved client ("Exceeding the limit"): it retries only after the time a
// 429 indicates, and otherwise backs off exponentially with full jitter. The policy (decideRetry)
// is pure: clock and randomness are parameters, so it is tested without sleeping. The loop
// (sendRetrying) sends, asks the policy, and waits; the client gives it its one attempt (sendOnce),
// its clock, its sleep and its randomness.
import { RateLimitedError, RunTimeLimitError } from '../errors.ts';
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

/** A request as the loop sees it: what to name it by, and the 429 it follows, if any. */
interface Retried {
  method: string;
  path: string;
  /** Sent after waiting out the Retry-After of the 429 answered to request `seq` (epoch ms `until`). */
  followsRetryAfter?: { seq: number; until: number };
}

/** An answer as the loop sees it. */
interface Answered {
  status: number;
  headers: Readonly<Record<string, string>>;
  exchange: { seq: number };
}

/** What the loop takes from the client. */
export interface RetryLoop<Req extends Retried, Res extends Answered> {
  /** One attempt, no retry (the client's sendOnce). */
  sendOnce: (req: Req) => Promise<Res>;
  /** Throws when an answer must not be retried whatever the policy says (the key's limiter refuses within its quota). */
  giveUp?: (res: Res) => void;
  /** The request carries a configured key (credentials.ts carriesKey): only then is a retry after a 429's Retry-After that 429's evidence. */
  keyed: boolean;
  options: RetryOptions;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Epoch ms after which no wait ends (the whole-run time limit). */
  deadline?: number;
  /** Told before each wait. */
  onWait?: (delayMs: number, reason: string) => void;
}

/**
 * Sends a request, retrying 429 and 503 per the policy; the final response is returned. A 429
 * still there when the policy stops throws RateLimitedError; a wait that would end after the
 * deadline, RunTimeLimitError. A retry after a 429's Retry-After names that 429 (followsRetryAfter);
 * refused again then, the next Retry-After is not trusted alone, but the later of it and Reset.
 */
export async function sendRetrying<Req extends Retried, Res extends Answered>(req: Req, loop: RetryLoop<Req, Res>): Promise<Res> {
  let next = req;
  for (let attempt = 0; ; attempt++) {
    const response = await loop.sendOnce(next);
    loop.giveUp?.(response);
    const at = loop.now();
    let decision = decideRetry({ attempt, status: response.status, headers: response.headers, nowMs: at, random: loop.random, options: loop.options });
    // Refused again at the time a 429 named: its next Retry-After is not trusted alone, but the later of it and Reset.
    const { reset } = readRateAnswer(at, response.status, response.headers);
    const resetWaitMs = reset === undefined ? undefined : resetAtMs(reset, at, response.headers.date, true) - at;
    if (decision.retry && next.followsRetryAfter && response.status === 429 && resetWaitMs !== undefined && resetWaitMs > decision.delayMs) {
      const delayMs = resetWaitMs;
      decision = delayMs > loop.options.maxWaitMs ? { retry: false, reason: `refused again after waiting out a Retry-After, and X-RateLimit-Reset is ${Math.ceil(delayMs / 1000)} s away` } : { ...decision, delayMs, reason: `${decision.reason}; refused again after waiting out a Retry-After, so until X-RateLimit-Reset` };
    }
    if (!decision.retry) {
      if (response.status === 429) throw new RateLimitedError(`${req.method} ${req.path} still rate-limited: ${decision.reason}`);
      return response;
    }
    // A 429's Retry-After waited out: the retry is that 429's evidence (it named a time the key was let through again).
    const named = response.status === 429 && loop.keyed ? retryAfterWaitMs(response.headers['retry-after'], at, response.headers.date) : undefined;
    next = named !== undefined ? { ...req, followsRetryAfter: { seq: response.exchange.seq, until: at + named } } : req;
    if (loop.deadline !== undefined && at + decision.delayMs > loop.deadline) {
      throw new RunTimeLimitError(`${req.method} ${req.path}: the wait for a retry (${Math.ceil(decision.delayMs / 1000)} s) would end after the run time limit (budget.maxSeconds)`);
    }
    loop.onWait?.(decision.delayMs, `${req.method} ${req.path}: ${decision.reason}`);
    await loop.sleep(decision.delayMs);
  }
}
