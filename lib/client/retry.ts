// The harness as a well-behaved client ("Exceeding the limit"): it retries only after the time a
// 429 indicates, and otherwise backs off exponentially with full jitter. Pure: clock and randomness
// are parameters, so the policy is tested without sleeping.
import { headerInt } from '../models.ts';

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

const DELTA_SECONDS = /^\s*([0-9]+)(?:\.([0-9]+))?\s*$/;

/**
 * Milliseconds to wait before retrying, from a Retry-After value: delta-seconds or an HTTP-date
 * (RFC 9110 §10.2.3). Lenient on purpose: a fractional number is honoured rather than ignored,
 * since waiting is always safe; whether the form is legal is for the rate-limit checks to judge.
 * An HTTP-date is measured both against our clock and against the response's Date header, and the
 * longer wait wins, so a server clock behind ours never makes us retry early.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number, dateHeader?: string): number | undefined {
  if (value === undefined) return undefined;
  const delta = DELTA_SECONDS.exec(value);
  if (delta) return Math.ceil(Number(`${delta[1]}.${delta[2] ?? '0'}`) * 1000);
  const at = parseHttpDate(value, nowMs);
  if (at === undefined) return undefined;
  let wait = at - nowMs;
  const sent = dateHeader === undefined ? undefined : parseHttpDate(dateHeader, nowMs);
  if (sent !== undefined) wait = Math.max(wait, at - sent);
  return Math.max(0, wait);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)';
const LONG_DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '([0-9]{2}):([0-9]{2}):([0-9]{2})';
const IMF_FIXDATE = new RegExp(`^${DAY}, ([0-9]{2}) ${MONTH} ([0-9]{4}) ${TIME} GMT$`, 'i');
const RFC850_DATE = new RegExp(`^${LONG_DAY}, ([0-9]{2})-${MONTH}-([0-9]{2}) ${TIME} GMT$`, 'i');
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([0-9]{2}| [0-9]) ${TIME} ([0-9]{4})$`, 'i');

/**
 * An HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, RFC 850 or asctime, all in UTC) as epoch ms, or
 * undefined for anything else. Not Date.parse: it reads asctime in local time and turns junk such
 * as "a 5" into a date.
 */
export function parseHttpDate(text: string, nowMs: number): number | undefined {
  const value = text.trim();
  let parts: [string, string, string, string, string, string] | undefined; // day, month, year, h, m, s
  let m = IMF_FIXDATE.exec(value);
  if (m) parts = [m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!];
  else if ((m = RFC850_DATE.exec(value))) {
    // Two-digit year: the one within 50 years of now (RFC 9110 §5.6.7).
    const nowYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(m[3]);
    if (year > nowYear + 50) year -= 100;
    else if (year < nowYear - 50) year += 100;
    parts = [m[1]!, m[2]!, String(year), m[4]!, m[5]!, m[6]!];
  } else if ((m = ASCTIME_DATE.exec(value))) parts = [m[2]!.trim(), m[1]!, m[6]!, m[3]!, m[4]!, m[5]!];
  if (!parts) return undefined;
  const [day, month, year, hour, minute, second] = parts.map((p, i) => (i === 1 ? MONTHS.indexOf(p.toLowerCase()) : Number(p)));
  const daysInMonth = new Date(Date.UTC(year!, month! + 1, 0)).getUTCDate();
  if (day! < 1 || day! > daysInMonth || hour! > 23 || minute! > 59 || second! > 60) return undefined;
  return Date.UTC(year!, month!, day!, hour, minute, second);
}

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

  const retryAfter = parseRetryAfter(headers['retry-after'], nowMs, headers.date);
  let floor = retryAfter;
  let source = 'Retry-After';
  if (floor === undefined && status === 429) {
    // No usable Retry-After: the reset time of an exhausted window is the next best signal.
    const reset = headerInt(headers['x-ratelimit-reset']);
    if (headerInt(headers['x-ratelimit-remaining']) === 0 && reset !== undefined && reset > 0) {
      floor = Math.max(0, reset * 1000 - nowMs);
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
