// The words of the interface's "Limits" section, read in one place: Retry-After, Date,
// X-RateLimit-Limit/-Remaining/-Reset and the near misses servers send instead, which window an
// answer's headers describe, and what a 429 is (the minute's, the day's or a ban: exactly one).
// The client's retries, the rate-limit driver, the checks and the reports read headers through
// this module and nothing else. Pure: the moment an answer arrived is a parameter, never a clock.
import { readDateForm, readHttpDate, isImfFixdate } from '../http-date.ts';
import { headerInt } from '../models.ts';
import type { PlanQuota } from '../plans.ts';
import { isAccepted } from '../status.ts';

/** Window lengths in seconds. */
export interface Windows {
  minute: number;
  day: number;
}

/** What the rate-limit vocabulary needs of one answer: when it arrived and the headers it carried. */
export interface RateAnswer {
  /** Epoch ms (our clock) when the answer arrived. */
  t: number;
  status: number;
  limit?: number | undefined;
  remaining?: number | undefined;
  reset?: number | undefined;
  retryAfter?: string | undefined;
  date?: string | undefined;
}

/** Seconds of slack for comparing a server's whole-second clock with ours, and one window's end with another's. */
export const CLOCK_SLACK_S = 2;

// ---------------------------------------------------------------------------------------------
// The Date header (HTTP-dates are read by lib/http-date.ts, the one date reader)

/** A response's Date header as the server's epoch ms, or undefined when absent or not an HTTP-date. */
export function readDate(date: string | undefined, receivedAt: number): number | undefined {
  return date === undefined ? undefined : readHttpDate(date, receivedAt);
}

/** The server's second an answer was sent in: its Date, else the second it arrived. */
export function serverSecond(receivedAt: number, date: string | undefined): number {
  return Math.floor((readDate(date, receivedAt) ?? receivedAt) / 1000);
}

/**
 * The server's clock against ours, from an answer's Date (whole seconds): 0 unless they differ by
 * more than CLOCK_SLACK_S, so that a server a few seconds off has its Reset read in its own time.
 * Date is the server's time rounded down to the second: its middle is the best guess, its start
 * (`least`) the least the server's clock can have been ahead.
 */
export function serverOffsetMs(receivedAt: number, date: string | undefined, least = false): number {
  const at = readDate(date, receivedAt);
  if (at === undefined || Math.abs(at - receivedAt) <= CLOCK_SLACK_S * 1000) return 0;
  return at + (least ? 0 : 500) - receivedAt;
}

/**
 * What the Dates of a service say of its clocks against ours: every answer bounds the offset of
 * the clock that wrote its Date (server minus ours, ms) to [lo, hi], since Date is that clock's
 * second at some moment between the sending and the arrival. Kept as the meeting of all of them:
 * the greatest lo and the least hi.
 */
export interface DateOffsets {
  lo: number;
  hi: number;
}

/** The offsets an answer's Date allows, met with those of the answers before (`met`); `met` unchanged without a readable Date. */
export function meetDateOffsets(met: DateOffsets | undefined, sentAt: number, receivedAt: number, date: string | undefined): DateOffsets | undefined {
  const at = readDate(date, receivedAt);
  if (at === undefined) return met;
  const [lo, hi] = [at - receivedAt, at + 1000 - sentAt];
  return met === undefined ? { lo, hi } : { lo: Math.max(met.lo, lo), hi: Math.min(met.hi, hi) };
}

/** Milliseconds of measuring (times kept to the millisecond) within which Dates still agree. */
const DATE_ROUNDING_MS = 5;

/**
 * Whole seconds by which a service's Dates disagree: 0 when one clock agrees with every answer's
 * Date (their bounds meet); otherwise the least spread between its clocks that the Dates allow,
 * rounded up (any spread may put a Date in the second before or after), at most CLOCK_SLACK_S.
 * Several instances behind one address, or a Date cached a second stale, show here.
 */
export function dateSkewSeconds(met: DateOffsets | undefined): number {
  const spread = met === undefined ? 0 : met.lo - met.hi;
  return spread <= DATE_ROUNDING_MS ? 0 : Math.min(CLOCK_SLACK_S, Math.ceil(spread / 1000));
}

/**
 * An X-RateLimit-Reset (the server's Unix seconds) as our epoch ms: the best guess, or with
 * `latest` the latest moment it can mean (to wait for a reset that must have happened).
 */
export function resetAtMs(reset: number, receivedAt: number, date: string | undefined, latest = false): number {
  return reset * 1000 - serverOffsetMs(receivedAt, date, latest);
}

// ---------------------------------------------------------------------------------------------
// Retry-After (RFC 9110 §10.2.3: delta-seconds / HTTP-date)

/**
 * How a Retry-After was written. Legal: delta-seconds, IMF-fixdate. Readable but not what a sender
 * may write: the obsolete date forms (recipients must still accept them), ISO 8601, a fraction, a
 * plus sign, an exponent, a unit after the number. Unreadable: a negative number, anything else.
 */
export type RetryAfterForm = 'delta-seconds' | 'imf-fixdate' | 'rfc850-date' | 'asctime-date' | 'iso-8601' | 'fraction' | 'plus-sign' | 'exponent' | 'with-unit' | 'negative' | 'empty' | 'unreadable';

export interface RetryAfterReading {
  /** The value as sent. */
  value: string;
  form: RetryAfterForm;
  /** Written as RFC 9110 has a sender write it: delta-seconds or IMF-fixdate (an obsolete date form is read, but a sender must not write it). */
  legal: boolean;
  /**
   * Seconds from the answer's sending (its Date, else its arrival) to the moment named; negative
   * for a date already past. Undefined when it names no moment (negative, empty, unreadable).
   */
  seconds: number | undefined;
  /**
   * Epoch ms on our clock before which a polite client sends nothing: from the arrival, the wait
   * named; for a date, the later of that and the date read on our clock (a server clock behind ours
   * never makes us early), and the wait counted from the Date made longer by the service's Date
   * skew (`dateSkewS`: the date may be written by another of its clocks than the Date). Undefined
   * when it names no moment.
   */
  untilMs: number | undefined;
}

const DELTA = /^[0-9]+$/;
const FRACTION = /^(?:[0-9]+\.[0-9]*|\.[0-9]+)$/;
const PLUS = /^\+[0-9]+(?:\.[0-9]+)?$/;
const NEGATIVE = /^-[0-9]+(?:\.[0-9]+)?$/;
const EXPONENT = /^[0-9]+(?:\.[0-9]+)?e[+-]?[0-9]+$/i;
const WITH_UNIT = /^([0-9]+(?:\.[0-9]+)?)\s*(s|sec|secs|second|seconds)$/i;

/**
 * A Retry-After as the harness reads it, once for every use. `receivedAt` is when the answer
 * arrived (our clock), `date` its Date header. Undefined only when there is no Retry-After.
 * Lenient on purpose: a fraction, a sign or a unit is honoured rather than ignored (waiting is
 * always safe); `legal` says whether a sender may write it so, for the checks to judge.
 *
 * An HTTP-date is in the server's clock (RFC 9110 §10.2.3), read relative to the answer's Date.
 * But a service whose Dates disagree (several instances, each with its own clock, one limiter)
 * may write the date on another clock than the one that wrote the Date: `dateSkewS`, the whole
 * seconds by which its Dates disagree (RunLedger.dateSkew), is added to the wait a polite client
 * keeps (untilMs), not to `seconds` (what the value says, for the checks to compare).
 */
export function readRetryAfter(value: string | undefined, receivedAt: number, date?: string, dateSkewS = 0): RetryAfterReading | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const delta = (form: RetryAfterForm, seconds: number): RetryAfterReading => ({
    value,
    form,
    legal: form === 'delta-seconds',
    seconds,
    untilMs: receivedAt + Math.ceil(seconds * 1000),
  });
  const none = (form: RetryAfterForm): RetryAfterReading => ({ value, form, legal: false, seconds: undefined, untilMs: undefined });
  if (text === '') return none('empty');
  if (DELTA.test(text)) return delta('delta-seconds', Number(text));
  if (FRACTION.test(text)) return delta('fraction', Number(text));
  if (PLUS.test(text)) return delta('plus-sign', Number(text.slice(1)));
  if (EXPONENT.test(text)) {
    const n = Number(text);
    return Number.isFinite(n) ? delta('exponent', n) : none('unreadable');
  }
  const unit = WITH_UNIT.exec(text);
  if (unit) return delta('with-unit', Number(unit[1]));
  if (NEGATIVE.test(text)) return none('negative');
  const read = readDateForm(text, receivedAt);
  if (!read) return none('unreadable');
  const dated = readDate(date, receivedAt);
  const seconds = (read.ms - (dated ?? receivedAt)) / 1000;
  const skewMs = dated === undefined ? 0 : dateSkewS * 1000;
  return {
    value,
    form: read.form,
    legal: read.form === 'imf-fixdate' && isImfFixdate(text),
    seconds,
    untilMs: Math.max(receivedAt, receivedAt + Math.ceil(seconds * 1000) + skewMs, read.ms),
  };
}

/**
 * Milliseconds from an answer's arrival until its Retry-After lets the key in again (0 for a past
 * date); undefined without a usable one. `dateSkewS`: see readRetryAfter.
 */
export function retryAfterWaitMs(value: string | undefined, receivedAt: number, date?: string, dateSkewS = 0): number | undefined {
  const until = readRetryAfter(value, receivedAt, date, dateSkewS)?.untilMs;
  return until === undefined ? undefined : until - receivedAt;
}

/** The moment an answer's Retry-After names, in the server's whole seconds (from its Date); undefined without a usable one. */
export function retryAfterNamedSecond(p: RateAnswer): number | undefined {
  const seconds = readRetryAfter(p.retryAfter, p.t, p.date)?.seconds;
  return seconds === undefined ? undefined : serverSecond(p.t, p.date) + seconds;
}

/**
 * Moments as an interval of epoch seconds, lo ≤ moment ≤ hi: what a value says, to the resolution
 * of the sources it was read from.
 */
export interface Moments {
  lo: number;
  hi: number;
}

const DATE_FORMS: readonly RetryAfterForm[] = ['imf-fixdate', 'rfc850-date', 'asctime-date', 'iso-8601'];

/**
 * The moment an answer's Retry-After names, in the server's seconds, each source to its own
 * resolution (one clock per comparison): a delta counts from the answer's sending, which its Date
 * places in a whole second, [S, S + 1) (its last millisecond, S + 0.999), and which our clock
 * places, without a Date, between the request's sending and the answer's arrival (ms); the delta
 * is exact to its own digits (a fraction, `1.498`, adds no width). An HTTP-date names its whole
 * second. Undefined without a Retry-After that names a moment. Whole-second values (Reset, an
 * HTTP-date, an integer delta) are compared within the comparing check's own second.
 */
export function retryAfterMoments(p: RateAnswer & { sentAt?: number | undefined }): Moments | undefined {
  const reading = readRetryAfter(p.retryAfter, p.t, p.date);
  if (reading?.seconds === undefined) return undefined;
  const dated = readDate(p.date, p.t);
  if (DATE_FORMS.includes(reading.form)) {
    const at = (dated ?? p.t) / 1000 + reading.seconds;
    return { lo: at, hi: at };
  }
  if (dated !== undefined) {
    const second = Math.floor(dated / 1000);
    return { lo: second + reading.seconds, hi: second + 0.999 + reading.seconds };
  }
  return { lo: (p.sentAt ?? p.t) / 1000 + reading.seconds, hi: p.t / 1000 + reading.seconds };
}

/** Seconds from `moments` to `x`: 0 when `x` lies within them. */
export function secondsApart(moments: Moments, x: number): number {
  return x < moments.lo ? moments.lo - x : x > moments.hi ? x - moments.hi : 0;
}

/** Moments in words: "1736164846" for one second, "1736164846.498 to 1736164847.497" for an interval. */
export function momentsText(m: Moments): string {
  const n = (x: number) => String(Math.round(x * 1000) / 1000);
  return m.hi - m.lo < 0.0005 ? n(m.lo) : `${n(m.lo)} to ${n(m.hi)}`;
}

/**
 * A Retry-After that is about a thousand times the seconds until Reset was meant in milliseconds:
 * the hint, or '' when it does not look so.
 */
export function retryAfterMillisecondsHint(reading: RetryAfterReading | undefined, secondsToReset: number): string {
  if (!reading || reading.form !== 'delta-seconds' || reading.seconds === undefined || reading.seconds < 1000) return '';
  const seconds = reading.seconds / 1000;
  return Math.abs(seconds - secondsToReset) <= 1.5 ? `: Retry-After ${reading.value} looks like milliseconds (${seconds} s would match Reset)` : '';
}

// ---------------------------------------------------------------------------------------------
// X-RateLimit-* and their near misses

/** The interface's three headers, as sent. */
export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** Headers of the IETF RateLimit draft, which some limiters send instead (lower-case). */
export const DRAFT_HEADERS = ['ratelimit', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'] as const;

/** Where an answer's headers are read from: a lookup by lower-case name (however they were sent), or a map of lower-case names (a recorded answer's). */
export type HeaderSource = ((name: string) => string | undefined) | Readonly<Record<string, string | undefined>>;

/**
 * An answer's rate-limit headers as integers (each undefined when absent or not an integer), its
 * Retry-After and Date as sent: the one reading of them, for the client, the load, the drivers,
 * the records and the checks. Takes the moment, the status and the headers, or an answer that
 * carries all three (a driver's look).
 */
export function readRateAnswer(answer: { readonly t: number; readonly status: number; readonly headers: HeaderSource }): RateAnswer;
export function readRateAnswer(t: number, status: number, headers: HeaderSource): RateAnswer;
export function readRateAnswer(first: number | { readonly t: number; readonly status: number; readonly headers: HeaderSource }, status?: number, source?: HeaderSource): RateAnswer {
  const [t, code, headers] = typeof first === 'number' ? [first, status as number, source as HeaderSource] : [first.t, first.status, first.headers];
  const header = typeof headers === 'function' ? headers : (name: string) => headers[name];
  const answer: RateAnswer = { t, status: code };
  const limit = headerInt(header('x-ratelimit-limit'));
  const remaining = headerInt(header('x-ratelimit-remaining'));
  const reset = headerInt(header('x-ratelimit-reset'));
  const retryAfter = header('retry-after');
  const date = header('date');
  if (limit !== undefined) answer.limit = limit;
  if (remaining !== undefined) answer.remaining = remaining;
  if (reset !== undefined) answer.reset = reset;
  if (retryAfter !== undefined) answer.retryAfter = retryAfter;
  if (date !== undefined) answer.date = date;
  return answer;
}

/**
 * Whether an answer to a request with a configured key shows a request its quota counted: every
 * request counts, whatever the operation and the answer ("Request rate by plan"), so a 2xx, and a
 * 4xx the limiter saw (it carries X-RateLimit-*: a proxy's 413 before the server does not). Not a
 * 429 (refused), a 401 or 403 (the key was not let in), nor a 5xx (whether it was counted is not
 * known).
 */
export function countedAgainstQuota(status: number, rateHeaders: boolean): boolean {
  if (isAccepted(status)) return true;
  return status >= 400 && status < 500 && status !== 429 && status !== 401 && status !== 403 && rateHeaders;
}

/** What is wrong with an answer's X-RateLimit-*, in the server's words; the worst kind first (missing, then not an integer, then a Reset that is no Unix time in seconds). */
export interface RateLimitHeaderProblem {
  code: 'rate-limit-header-missing' | 'rate-limit-header-not-integer' | 'reset-not-unix-seconds';
  text: string;
}

/** What a value of X-RateLimit-* that is no non-negative integer is, in words. */
function notNonNegativeInteger(value: string): string {
  const text = value.trim();
  if (/^-\d+$/.test(text)) return 'negative (each header is a non-negative integer)';
  return `not an integer${/^\d+\.\d+$/.test(text) ? ' (a fraction)' : ''}`;
}

export function rateLimitHeaderProblems(headers: Readonly<Record<string, string>>): RateLimitHeaderProblem[] {
  const missing: RateLimitHeaderProblem[] = [];
  const notInteger: RateLimitHeaderProblem[] = [];
  for (const name of RATE_LIMIT_HEADERS) {
    const value = headers[name.toLowerCase()];
    if (value === undefined) missing.push({ code: 'rate-limit-header-missing', text: `${name} missing${nearNames(headers, name)}` });
    else if (headerInt(value) === undefined || value.includes('-')) notInteger.push({ code: 'rate-limit-header-not-integer', text: `${name} is "${value}", ${notNonNegativeInteger(value)}` });
  }
  const draft = DRAFT_HEADERS.filter((name) => headers[name] !== undefined);
  if (missing.length > 0 && draft.length > 0) {
    missing.push({ code: 'rate-limit-header-missing', text: `the server sends ${draft.join(', ')} (the IETF draft's RateLimit-* headers) but the interface names X-RateLimit-*` });
  }
  const reset = headers['x-ratelimit-reset'];
  const shape = reset !== undefined && notInteger.length === 0 ? resetShape(headerInt(reset)) : undefined;
  const notUnix: RateLimitHeaderProblem[] = shape ? [{ code: 'reset-not-unix-seconds', text: `X-RateLimit-Reset is "${reset}", not a Unix time in seconds: ${shape}` }] : [];
  return [...missing, ...notInteger, ...notUnix];
}

/**
 * Why an integer X-RateLimit-Reset cannot be a Unix time in seconds today, whatever the clocks:
 * below 10^8 (1973) it is a count of seconds, above 10^11 (the year 5138) milliseconds. Negative
 * values are another failure (not an integer of the interface's kind).
 */
export function resetShape(reset: number | undefined): string | undefined {
  if (reset === undefined || reset < 0) return undefined;
  if (reset < 1e8) return 'it looks like seconds until the reset';
  if (reset > 1e11) return 'it looks like a Unix time in milliseconds';
  return undefined;
}

/**
 * What the server sent instead of a missing X-RateLimit-* header, in its words: the same name with
 * a suffix (X-RateLimit-Remaining-Minute), or spelt otherwise (X-Rate-Limit-Remaining). The IETF
 * draft's names are told apart by rateLimitHeaderProblems.
 */
function nearNames(headers: Readonly<Record<string, string>>, name: string): string {
  const squash = (n: string) => n.toLowerCase().replace(/[^a-z]/g, '');
  const wanted = squash(name);
  const near = Object.keys(headers).filter((h) => !(DRAFT_HEADERS as readonly string[]).includes(h) && squash(h) !== wanted && squash(h).startsWith(wanted));
  const spelt = Object.keys(headers).filter((h) => h !== name.toLowerCase() && squash(h) === wanted);
  const seen = [...spelt, ...near].slice(0, 3);
  return seen.length === 0 ? '' : ` (the server sends ${seen.map((h) => `${h}: ${headers[h]}`).join(', ')})`;
}

// ---------------------------------------------------------------------------------------------
// Which window, what refusal

export type WindowName = 'minute' | 'day';

/** A plan's quota for one of its windows: the one reading of which number a window counts to. */
export function quotaOf(quota: PlanQuota, window: WindowName): number {
  return window === 'day' ? quota.perDay : quota.perMinute;
}

/** A window's length in milliseconds (`windows` are in seconds, as the target configures them): the one conversion. */
export function windowMs<N extends WindowName = 'minute'>(windows: Readonly<Pick<Windows, N>>, name: N = 'minute' as N): number {
  return windows[name] * 1000;
}

/**
 * The window an answer's X-RateLimit-* describe ("the applicable request limit": either is a
 * reading): the day's when Limit names the day quota, else the minute's.
 */
export function windowDescribed(quota: PlanQuota, answer: Pick<RateAnswer, 'limit'>): WindowName {
  return answer.limit === quota.perDay && quota.perDay !== quota.perMinute ? 'day' : 'minute';
}

/** The length in seconds of the window an answer's headers describe. */
export function describedSeconds(quota: PlanQuota, windows: Windows, answer: Pick<RateAnswer, 'limit'>): number {
  return windowDescribed(quota, answer) === 'day' ? windows.day : windows.minute;
}

/**
 * Seconds a 429 keeps the key out, from its sending: its Retry-After, else (none, or one that
 * names no moment) its X-RateLimit-Reset; undefined with neither.
 */
export function refusalSeconds(p: RateAnswer): number | undefined {
  const seconds = readRetryAfter(p.retryAfter, p.t, p.date)?.seconds;
  if (seconds !== undefined) return seconds;
  return p.reset === undefined ? undefined : p.reset - serverSecond(p.t, p.date);
}

export type RefusalKind = 'minute' | 'day' | 'ban';

export interface RefusalContext {
  quota: PlanQuota;
  windows: Windows;
  /**
   * The key had been sending before a Retry-After had passed (the ban probe): a ban is then a
   * reading of a 429 that keeps it out beyond a minute window. A polite key's such 429 is the day's.
   */
  provoked?: boolean;
}

/**
 * What a 429 is: exactly one of the minute's, the day's or a ban.
 * - A ban: it keeps the key out beyond the day window (only a ban lasts longer than every window of
 *   the plan), or beyond a minute window after the key provoked one.
 * - The day's: its headers describe the day with nothing left (a refilling day's Retry-After may be
 *   short: its next request's worth), or headers of the minute with a Retry-After (or Reset) beyond
 *   one minute window.
 * - Otherwise the minute's (headers of the day with some left describe a minute's 429 too).
 */
export function classifyRefusal(ctx: RefusalContext, p: RateAnswer): RefusalKind {
  const { quota, windows } = ctx;
  const seconds = refusalSeconds(p);
  const beyondMinute = seconds !== undefined && seconds > windows.minute + CLOCK_SLACK_S;
  if (seconds !== undefined && seconds > windows.day + CLOCK_SLACK_S) return 'ban';
  if (ctx.provoked && beyondMinute) return 'ban';
  if (windowDescribed(quota, p) === 'day') return p.remaining === undefined || p.remaining <= 0 ? 'day' : 'minute';
  return beyondMinute ? 'day' : 'minute';
}
