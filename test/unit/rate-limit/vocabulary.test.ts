// lib/rate-limit/vocabulary.ts: one reading of every rate-limit header, given to the client's
// retries, the driver and the checks alike. No clock: every answer arrives at NOW.
import { describe, expect, it } from 'vitest';
import { retryAfterFormat } from '../../../lib/checks/run-level.ts';
import { decideRetry } from '../../../lib/client/retry.ts';
import { readHttpDate } from '../../../lib/http-date.ts';
import { refusalWait } from '../../../lib/drive/wait.ts';
import type { KeyRun, TimelinePoint } from '../../../lib/result/rate-limits.ts';
import {
  classifyRefusal,
  rateLimitHeaderProblems,
  resetShape,
  readDate,
  readRateAnswer,
  readRetryAfter,
  type RefusalKind,
  resetAtMs,
  retryAfterMillisecondsHint,
  retryAfterWaitMs,
  retryAfterNamedSecond,
  type RetryAfterForm,
  serverOffsetMs,
  serverSecond,
  windowDescribed,
} from '../../../lib/rate-limit/vocabulary.ts';

const NOW = Date.UTC(1994, 10, 6, 8, 49, 30); // Sun, 06 Nov 1994 08:49:30 GMT
const NOW_S = NOW / 1000;

interface Case {
  value: string;
  /** The answer's Date header, when it had one. */
  date?: string;
  form: RetryAfterForm;
  legal: boolean;
  /** Seconds from the answer's sending (its Date) to the moment named; undefined: names none. */
  seconds: number | undefined;
  /** Milliseconds a polite client waits from the arrival. */
  waitMs: number | undefined;
}

const delta = (value: string, seconds: number, form: RetryAfterForm = 'delta-seconds'): Case => ({ value, form, legal: form === 'delta-seconds', seconds, waitMs: Math.ceil(seconds * 1000) });
const none = (value: string, form: RetryAfterForm): Case => ({ value, form, legal: false, seconds: undefined, waitMs: undefined });
const date = (value: string, form: RetryAfterForm, seconds: number, extra: Partial<Case> = {}): Case => ({ value, form, legal: form === 'imf-fixdate', seconds, waitMs: Math.max(0, seconds * 1000), ...extra });

const CASES: Case[] = [
  // delta-seconds, as RFC 9110 has a sender write it (OWS around a field value is not part of it)
  delta('0', 0),
  delta('5', 5),
  delta('120', 120),
  delta(' 7 ', 7),
  delta('\t7', 7),
  delta('007', 7),
  delta('30000', 30_000),
  delta('784111777', 784_111_777),
  // readable, not legal: waited out all the same
  delta('1.5', 1.5, 'fraction'),
  delta('90.0', 90, 'fraction'),
  delta('0.0001', 0.0001, 'fraction'),
  delta('.5', 0.5, 'fraction'),
  delta('5.', 5, 'fraction'),
  delta('+5', 5, 'plus-sign'),
  delta('+1.5', 1.5, 'plus-sign'),
  delta('1e3', 1000, 'exponent'),
  delta('2.5E1', 25, 'exponent'),
  delta('5s', 5, 'with-unit'),
  delta('30 seconds', 30, 'with-unit'),
  // names no moment: the client falls back to Reset or to backoff
  none('-5', 'negative'),
  none('-0.5', 'negative'),
  none('', 'empty'),
  none('   ', 'empty'),
  none('1e400', 'unreadable'),
  none('soon', 'unreadable'),
  none('a 5', 'unreadable'),
  none('Nov 5', 'unreadable'),
  none('NaN', 'unreadable'),
  none('Infinity', 'unreadable'),
  none('1,5', 'unreadable'),
  none('0x10', 'unreadable'),
  none('5 5', 'unreadable'),
  none('Sun, 06 Nov 1994 08:49:37 +0000', 'unreadable'),
  none('Wed, 31 Feb 1994 08:49:37 GMT', 'unreadable'),
  none('Sun, 06 Nov 1994 25:49:37 GMT', 'unreadable'),
  // HTTP-dates, future and past, in each form; ISO 8601 read too
  date('Sun, 06 Nov 1994 08:49:37 GMT', 'imf-fixdate', 7),
  date('Sun, 06 Nov 1994 08:40:00 GMT', 'imf-fixdate', -570),
  date('Sun, 06 Nov 1994 08:49:37 GMT ', 'imf-fixdate', 7),
  date('sun, 06 nov 1994 08:49:37 gmt', 'imf-fixdate', 7, { legal: false }),
  date('Sunday, 06-Nov-94 08:49:37 GMT', 'rfc850-date', 7),
  date('Sunday, 06-Nov-94 08:40:00 GMT', 'rfc850-date', -570),
  date('Sun Nov  6 08:49:37 1994', 'asctime-date', 7),
  date('Sun Nov 06 08:49:37 1994', 'asctime-date', 7),
  date('Sun Nov  6 08:40:00 1994', 'asctime-date', -570),
  date('1994-11-06T08:49:37Z', 'iso-8601', 7),
  date('1994-11-06T09:49:37+01:00', 'iso-8601', 7),
  date('1994-11-06T08:40:00.250Z', 'iso-8601', -569.75),
  // a skewed Date: seconds count from the server's Date; the wait is the longer of its measure and ours
  date('Sun, 06 Nov 1994 08:48:40 GMT', 'imf-fixdate', 10, { date: 'Sun, 06 Nov 1994 08:48:30 GMT', waitMs: 10_000 }),
  date('Sun, 06 Nov 1994 08:50:00 GMT', 'imf-fixdate', 20, { date: 'Sun, 06 Nov 1994 08:49:40 GMT', waitMs: 30_000 }),
  date('Sun, 06 Nov 1994 08:49:37 GMT', 'imf-fixdate', 7, { date: 'yesterday' }),
  { ...delta('30', 30), date: 'Sun, 06 Nov 1994 08:48:30 GMT' },
];

const QUOTA = { perMinute: 60, perDay: 1000 };
const WINDOWS = { minute: 60, day: 86_400 };

/** A key's run whose burst ended at a 429 carrying `retryAfter`, answered at NOW. */
function runWith(retryAfter: string, date?: string): KeyRun {
  const refusal: TimelinePoint = { t: NOW, status: 429, limit: 60, remaining: 0, reset: NOW_S + 30, retryAfter, ...(date ? { date } : {}) };
  const latency = { p50: 1, p90: 1, p99: 1, max: 1 };
  return { label: 'free#1', plan: 'free', quota: QUOTA, windows: WINDOWS, burst: { points: [refusal], sent: 1, startedAt: NOW, durationMs: 1, askedRate: 4, ended: 'first-429', latency } };
}

describe('one reading of Retry-After: the vocabulary, the client, the driver and the checks agree on every case', () => {
  it('has at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)('$value (Date $date)', (c) => {
    const reading = readRetryAfter(c.value, NOW, c.date);
    expect(reading).toMatchObject({ value: c.value, form: c.form, legal: c.legal });
    if (c.seconds === undefined) expect(reading?.seconds).toBeUndefined();
    else expect(reading?.seconds).toBeCloseTo(c.seconds, 6);
    expect(reading?.untilMs === undefined ? undefined : reading.untilMs - NOW).toBe(c.waitMs);

    // The client waits exactly that (no jitter at random 0), or backs off without it.
    const decision = decideRetry({ attempt: 0, status: 429, headers: { 'retry-after': c.value, ...(c.date ? { date: c.date } : {}) }, nowMs: NOW, random: () => 0, options: { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8000, maxWaitMs: 10 ** 12 } });
    expect(decision).toMatchObject(c.waitMs === undefined ? { retry: true, delayMs: 0, reason: '429: no Retry-After, exponential backoff' } : { retry: true, delayMs: c.waitMs });

    // The driver waits until the same moment (with no Reset to fall back to, a minute window when it names none).
    const answer = { t: NOW, status: 429, headers: { 'retry-after': c.value, ...(c.date ? { date: c.date } : {}) } };
    expect(refusalWait(answer, WINDOWS).until - NOW).toBe(c.waitMs ?? WINDOWS.minute * 1000 + 100);

    // The checks: legal or not, and the moment it names in the server's seconds.
    const run = runWith(c.value, c.date);
    const refusal = { seq: 1, suite: 'rate-limit', method: 'GET', url: 'http://127.0.0.1/v1/pets', auth: { kind: 'none' as const }, requestHeaders: {}, startedAt: new Date(NOW - 1).toISOString(), durationMs: 1, status: 429, responseHeaders: { 'retry-after': c.value, ...(c.date ? { date: c.date } : {}) }, responseBody: '' };
    expect(retryAfterFormat.judge([refusal]).outcome).toBe(c.legal ? 'pass' : 'fail');
    const named = retryAfterNamedSecond(run.burst!.points[0]!);
    if (c.seconds === undefined) expect(named).toBeUndefined();
    else expect(named).toBeCloseTo(serverSecond(NOW, c.date) + c.seconds, 6);
  });

  // Variations several-instances, clock-behind, retry-after-http-date: the Date comes from an
  // instance a second ahead of the clock the limiter writes its HTTP-date on, 5 s behind ours.
  it('waits an HTTP-date counted from the Date as much longer as the service\'s Dates disagree, nothing else', () => {
    const behind = 'Sun, 06 Nov 1994 08:49:25 GMT'; // the answer's Date: its server 5 s behind ours
    const retryAt = 'Sun, 06 Nov 1994 08:49:26 GMT';
    expect(readRetryAfter(retryAt, NOW, behind)?.untilMs).toBe(NOW + 1_000);
    expect(readRetryAfter(retryAt, NOW, behind, 2)).toMatchObject({ seconds: 1, untilMs: NOW + 3_000 });
    expect(retryAfterWaitMs(retryAt, NOW, behind, 2)).toBe(3_000);
    expect(refusalWait({ t: NOW, status: 429, headers: { 'retry-after': retryAt, date: behind } }, WINDOWS, { dateSkewS: 2 }).until).toBe(NOW + 3_000);
    // Read on our clock (no Date), or delta-seconds (from the arrival): no Date's clock to doubt.
    expect(readRetryAfter('Sun, 06 Nov 1994 08:49:31 GMT', NOW, undefined, 2)?.untilMs).toBe(NOW + 1_000);
    expect(readRetryAfter('1', NOW, behind, 2)?.untilMs).toBe(NOW + 1_000);
  });

  it('is absent only when there is no Retry-After', () => {
    expect(readRetryAfter(undefined, NOW)).toBeUndefined();
  });

  it('never reads a number as a date (Date.parse turns "1.5" into 2001)', () => {
    expect(readRetryAfter('1.5', NOW)?.seconds).toBe(1.5);
    expect(readHttpDate('1.5', NOW)).toBeUndefined();
  });

  it('says when a Retry-After looks like milliseconds', () => {
    expect(retryAfterMillisecondsHint(readRetryAfter('30000', NOW), 30)).toContain('looks like milliseconds');
    expect(retryAfterMillisecondsHint(readRetryAfter('30', NOW), 30)).toBe('');
  });
});

describe('HTTP-date and the Date header', () => {
  it.each([
    ['a year in this century', 'Monday, 01-Jan-24 00:00:00 GMT', Date.UTC(2030, 0, 1), Date.UTC(2024, 0, 1)],
    ['a year more than 50 years ahead, read as the past century', 'Monday, 01-Jan-99 00:00:00 GMT', Date.UTC(2030, 0, 1), Date.UTC(1999, 0, 1)],
    ['a year more than 50 years behind, read as the next century', 'Monday, 01-Jan-05 00:00:00 GMT', Date.UTC(2090, 0, 1), Date.UTC(2105, 0, 1)],
  ])('reads an RFC 850 date with %s', (_name, value, near, expected) => {
    expect(readHttpDate(value, near)).toBe(expected);
  });

  it('reads an asctime date as UTC whatever the local time zone', () => {
    const saved = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      expect(new Date(0).getHours()).toBe(9); // the zone change took effect
      expect(readHttpDate('Thu Jan  1 00:00:00 1970', NOW)).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('takes no ISO 8601 date for a Date header', () => {
    expect(readDate('1994-11-06T08:49:30Z', NOW)).toBeUndefined();
    expect(serverSecond(NOW + 400, '1994-11-06T08:49:00Z')).toBe(NOW_S);
  });

  it('tells the server second from the Date, else from the arrival', () => {
    expect(serverSecond(NOW + 900, 'Sun, 06 Nov 1994 08:49:20 GMT')).toBe(NOW_S - 10);
    expect(serverSecond(NOW + 900, undefined)).toBe(NOW_S);
  });

  it('reads Reset in the server\'s time only when its clock is more than two seconds off ours', () => {
    expect(serverOffsetMs(NOW, 'Sun, 06 Nov 1994 08:49:32 GMT')).toBe(0);
    expect(serverOffsetMs(NOW, 'Sun, 06 Nov 1994 08:49:35 GMT')).toBe(5_500);
    expect(serverOffsetMs(NOW, 'Sun, 06 Nov 1994 08:49:35 GMT', true)).toBe(5_000);
    expect(resetAtMs(NOW_S + 40, NOW, 'Sun, 06 Nov 1994 08:49:35 GMT')).toBe(NOW + 40_000 - 5_500);
    expect(resetAtMs(NOW_S + 40, NOW, undefined)).toBe(NOW + 40_000);
  });
});

describe('X-RateLimit-* and their near misses', () => {
  it('reads integers only, negatives included (a wrong server must be seen), lower-case names', () => {
    const headers: Record<string, string> = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '1.5', 'retry-after': '3', date: 'Sun, 06 Nov 1994 08:49:30 GMT' };
    expect(readRateAnswer(NOW, 429, (n) => headers[n])).toEqual({ t: NOW, status: 429, limit: 60, remaining: -1, retryAfter: '3', date: headers.date });
  });

  const GOOD = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1700000000' };

  it('finds nothing wrong with the three headers as integers', () => {
    expect(rateLimitHeaderProblems(GOOD)).toEqual([]);
  });

  const texts = (headers: Record<string, string>) => rateLimitHeaderProblems(headers).map((p) => p.text);

  it('names the header with its interface spelling', () => {
    expect(texts({ ...GOOD, 'x-ratelimit-limit': 'many' })).toEqual(['X-RateLimit-Limit is "many", not an integer']);
  });

  it('says when the server sends the IETF draft RateLimit-* headers instead', () => {
    const draft = { 'ratelimit-limit': '60', 'ratelimit-remaining': '59', 'ratelimit-reset': '30', 'ratelimit-policy': '60;w=60' };
    expect(texts(draft)).toEqual([
      'X-RateLimit-Limit missing',
      'X-RateLimit-Remaining missing',
      'X-RateLimit-Reset missing',
      "the server sends ratelimit-limit, ratelimit-remaining, ratelimit-reset, ratelimit-policy (the IETF draft's RateLimit-* headers) but the interface names X-RateLimit-*",
    ]);
    expect(rateLimitHeaderProblems({ ...GOOD, ...draft })).toEqual([]);
  });

  it('quotes what the server sent in its own words: a fraction, a name with a suffix, another spelling', () => {
    expect(texts({ ...GOOD, 'x-ratelimit-reset': '1795656377.77' })).toEqual(['X-RateLimit-Reset is "1795656377.77", not an integer (a fraction)']);
    const suffixed = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining-minute': '4', 'x-ratelimit-remaining-day': '900', 'x-ratelimit-reset': '1700000000' };
    expect(texts(suffixed)).toEqual(['X-RateLimit-Remaining missing (the server sends x-ratelimit-remaining-minute: 4, x-ratelimit-remaining-day: 900)']);
    const spelt = { 'x-rate-limit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1700000000' };
    expect(texts(spelt)).toEqual(['X-RateLimit-Limit missing (the server sends x-rate-limit-limit: 60)']);
  });

  it("refuses a negative value, which the interface's counts and times never are", () => {
    expect(texts({ ...GOOD, 'x-ratelimit-remaining': '-1' })).toEqual(['X-RateLimit-Remaining is "-1", negative (each header is a non-negative integer)']);
  });

  it('tells a Reset that is no Unix time in seconds today, whatever the clocks: a count of seconds, or milliseconds', () => {
    expect(rateLimitHeaderProblems({ ...GOOD, 'x-ratelimit-reset': '42' })).toEqual([{ code: 'reset-not-unix-seconds', text: 'X-RateLimit-Reset is "42", not a Unix time in seconds: it looks like seconds until the reset' }]);
    expect(rateLimitHeaderProblems({ ...GOOD, 'x-ratelimit-reset': '1700000000000' })).toEqual([{ code: 'reset-not-unix-seconds', text: 'X-RateLimit-Reset is "1700000000000", not a Unix time in seconds: it looks like a Unix time in milliseconds' }]);
    // The worst kind first: the code of a missing header wins.
    expect(rateLimitHeaderProblems({ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '42' }).map((p) => p.code)).toEqual(['rate-limit-header-missing', 'reset-not-unix-seconds']);
    expect([resetShape(1_700_000_000), resetShape(-1), resetShape(undefined)]).toEqual([undefined, undefined, undefined]);
  });
});

describe('which window the headers describe', () => {
  it.each([
    [60, 'minute'],
    [1000, 'day'],
    [undefined, 'minute'],
    [61, 'minute'],
  ] as const)('Limit %s: the %s', (limit, window) => {
    expect(windowDescribed(QUOTA, limit === undefined ? {} : { limit })).toBe(window);
  });

  it('a plan whose two quotas are the same is described by the minute', () => {
    expect(windowDescribed({ perMinute: 100, perDay: 100 }, { limit: 100 })).toBe('minute');
  });
});

describe('what a 429 is: exactly one of the minute, the day, a ban', () => {
  const dateHeader = new Date(NOW).toUTCString();
  const refusal = (extra: Partial<TimelinePoint>): TimelinePoint => ({ t: NOW, status: 429, date: dateHeader, ...extra });
  it.each<[string, Partial<TimelinePoint>, RefusalKind, boolean?]>([
    ['Retry-After within the minute, headers of the minute', { retryAfter: '30', limit: 60, remaining: 0, reset: NOW_S + 30 }, 'minute'],
    ['Retry-After beyond a minute window, headers of the minute', { retryAfter: '3600', limit: 60, remaining: 0, reset: NOW_S + 30 }, 'day'],
    ['Retry-After as an HTTP-date an hour ahead', { retryAfter: new Date(NOW + 3_600_000).toUTCString() }, 'day'],
    ['"1.5" (a fraction, not a date in 2001)', { retryAfter: '1.5', limit: 60, remaining: 0, reset: NOW_S + 2 }, 'minute'],
    ['"90.0" (a fraction beyond the minute)', { retryAfter: '90.0', limit: 60, remaining: 0, reset: NOW_S + 30 }, 'day'],
    ["Retry-After within the minute, headers of the day with Remaining left (headers-day-window's minute 429)", { retryAfter: '30', limit: 1000, remaining: 940, reset: NOW_S + 3600 }, 'minute'],
    ["Retry-After within the minute, headers of the spent day (a refilling day's next request)", { retryAfter: '30', limit: 1000, remaining: 0, reset: NOW_S + 3600 }, 'day'],
    ['no Retry-After, headers of the day with nothing left', { limit: 1000, remaining: 0, reset: NOW_S + 3600 }, 'day'],
    ['no Retry-After, headers of the day with some left', { limit: 1000, remaining: 5, reset: NOW_S + 3600 }, 'minute'],
    ["no Retry-After, the minute's headers, Reset beyond the minute", { limit: 60, remaining: 0, reset: NOW_S + 3600 }, 'day'],
    ["no Retry-After, the minute's headers, Reset within it", { limit: 60, remaining: 0, reset: NOW_S + 30 }, 'minute'],
    ['an unreadable Retry-After: its Reset decides', { retryAfter: 'soon', limit: 60, remaining: 0, reset: NOW_S + 3600 }, 'day'],
    ['beyond the day window: only a ban lasts so long', { retryAfter: String(2 * 86_400), limit: 60, remaining: 0, reset: NOW_S + 2 * 86_400 }, 'ban'],
    ['beyond a minute after the key kept sending early (the ban probe)', { retryAfter: '600', limit: 60, remaining: 0, reset: NOW_S + 600 }, 'ban', true],
    ['within the minute after the key kept sending early', { retryAfter: '20', limit: 60, remaining: 0, reset: NOW_S + 20 }, 'minute', true],
  ])('%s', (_title, extra, kind, provoked = false) => {
    expect(classifyRefusal({ quota: QUOTA, windows: WINDOWS, provoked }, refusal(extra))).toBe(kind);
  });
});
