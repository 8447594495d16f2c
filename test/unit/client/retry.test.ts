import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, decideRetry, fullJitter, parseHttpDate, parseRetryAfter, type RetryInput } from '../../../lib/client/retry.ts';

const NOW = Date.UTC(1994, 10, 6, 8, 49, 30); // Sun, 06 Nov 1994 08:49:30 GMT

describe('parseRetryAfter: delta-seconds', () => {
  it.each([
    ['0', 0],
    ['5', 5000],
    ['120', 120_000],
    [' 7 ', 7000],
    ['1.5', 1500],
    ['0.0001', 1],
  ])('reads %j as %d ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('returns undefined when there is no header', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});

describe('parseRetryAfter: HTTP-date', () => {
  it.each([
    ['IMF-fixdate', 'Sun, 06 Nov 1994 08:49:37 GMT'],
    ['RFC 850 date', 'Sunday, 06-Nov-94 08:49:37 GMT'],
    ['asctime date', 'Sun Nov  6 08:49:37 1994'],
    ['asctime date with a two-digit day', 'Sun Nov 06 08:49:37 1994'],
  ])('reads an %s as the time until then', (_form, value) => {
    expect(parseRetryAfter(value, NOW)).toBe(7000);
  });

  it('reads an asctime date as UTC whatever the local time zone', () => {
    // Date.parse reads asctime in local time: east of UTC that would retry hours early.
    const saved = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      expect(new Date(0).getHours()).toBe(9); // the zone change took effect
      expect(parseHttpDate('Thu Jan  1 00:00:00 1970', NOW)).toBe(0);
      expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', NOW)).toBe(7000);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('turns a date in the past into 0', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:40:00 GMT', NOW)).toBe(0);
  });

  it('waits the longer of the two when the server Date is behind our clock', () => {
    // Server clock 60 s behind: relative to its own Date, it asks for 10 s; relative to ours the date has passed.
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:48:40 GMT', NOW, 'Sun, 06 Nov 1994 08:48:30 GMT')).toBe(10_000);
  });

  it('keeps our measure when the server Date is ahead of our clock', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:50:00 GMT', NOW, 'Sun, 06 Nov 1994 08:49:50 GMT')).toBe(30_000);
  });

  it('ignores a Date header it cannot read', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', NOW, 'yesterday')).toBe(7000);
  });

  it.each([
    ['a word', 'soon'],
    ['a negative number', '-5'],
    ['an exponent', '1e3'],
    ['an empty value', ''],
    ['a number with a unit', '5s'],
    ['junk that Date.parse would accept', 'a 5'],
    ['a month and day only', 'Nov 5'],
    ['an ISO 8601 date', '1994-11-06T08:49:37Z'],
    ['an IMF date with a numeric zone', 'Sun, 06 Nov 1994 08:49:37 +0000'],
    ['a date with an impossible day', 'Wed, 31 Feb 1994 08:49:37 GMT'],
    ['a date with an impossible hour', 'Sun, 06 Nov 1994 25:49:37 GMT'],
  ])('returns undefined for %s', (_name, value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe('parseHttpDate: RFC 850 two-digit years', () => {
  it.each([
    ['a year in this century', 'Monday, 01-Jan-24 00:00:00 GMT', Date.UTC(2030, 0, 1), Date.UTC(2024, 0, 1)],
    ['a year more than 50 years ahead, read as the past century', 'Monday, 01-Jan-99 00:00:00 GMT', Date.UTC(2030, 0, 1), Date.UTC(1999, 0, 1)],
    ['a year more than 50 years behind, read as the next century', 'Monday, 01-Jan-05 00:00:00 GMT', Date.UTC(2090, 0, 1), Date.UTC(2105, 0, 1)],
  ])('reads %s', (_name, value, now, expected) => {
    expect(parseHttpDate(value, now)).toBe(expected);
  });
});

describe('fullJitter', () => {
  const options = { baseDelayMs: 250, maxDelayMs: 8000 };

  it.each([0, 1, 3, 10])('gives 0 for random 0 at attempt %d', (attempt) => {
    expect(fullJitter(attempt, options, () => 0)).toBe(0);
  });

  it.each([
    [0, 250],
    [1, 500],
    [2, 1000],
    [5, 8000],
    [20, 8000],
  ])('stays just below min(cap, base * 2^n) for random 0.999 at attempt %d (ceiling %d)', (attempt, ceiling) => {
    const delay = fullJitter(attempt, options, () => 0.999);
    expect(delay).toBeLessThan(ceiling);
    expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling * 0.999));
  });

  it('always lands in [0, ceiling) as a whole number of ms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const delay = fullJitter(attempt, options, () => r);
        return Number.isInteger(delay) && delay >= 0 && delay < Math.min(8000, 250 * 2 ** attempt);
      }),
    );
  });
});

describe('decideRetry', () => {
  const options = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8000, maxWaitMs: 120_000 };
  const input = (overrides: Partial<RetryInput>): RetryInput => ({ attempt: 0, status: 429, headers: {}, nowMs: NOW, random: () => 0.5, options, ...overrides });

  it.each([200, 201, 400, 401, 404, 500, 502])('treats status %d as final', (status) => {
    expect(decideRetry(input({ status, headers: { 'retry-after': '1' } }))).toEqual({ retry: false, reason: `status ${status} is final` });
  });

  it('never retries a 429 before its Retry-After, whatever the jitter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 2 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (seconds, attempt, r) => {
          const decision = decideRetry(input({ attempt, headers: { 'retry-after': String(seconds) }, random: () => r }));
          return decision.retry && decision.delayMs >= seconds * 1000 && decision.delayMs < seconds * 1000 + options.maxDelayMs;
        },
      ),
    );
  });

  it('waits at least until an HTTP-date Retry-After', () => {
    const decision = decideRetry(input({ headers: { 'retry-after': 'Sun, 06 Nov 1994 08:50:00 GMT' }, random: () => 0 }));
    expect(decision).toEqual({ retry: true, delayMs: 30_000, reason: '429: Retry-After 30 s plus jitter' });
  });

  it('uses the server Date header so a slow server clock does not make it retry early', () => {
    const decision = decideRetry(input({ headers: { 'retry-after': 'Sun, 06 Nov 1994 08:49:00 GMT', date: 'Sun, 06 Nov 1994 08:48:55 GMT' }, random: () => 0 }));
    expect(decision.retry && decision.delayMs).toBe(5000);
  });

  it('waits until the window resets when a 429 has no Retry-After but Remaining is 0', () => {
    const reset = NOW / 1000 + 42;
    const decision = decideRetry(input({ headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }, random: () => 0.999 }));
    expect(decision.retry).toBe(true);
    expect(decision.retry && decision.delayMs).toBeGreaterThanOrEqual(42_000);
    expect(decision.retry && decision.delayMs).toBeLessThan(42_000 + 250);
    expect(decision.reason).toContain('X-RateLimit-Reset 42 s');
  });

  it('backs off exponentially when a 429 gives neither Retry-After nor an exhausted window', () => {
    const decision = decideRetry(input({ attempt: 2, headers: { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': String(NOW / 1000 + 42) }, random: () => 0.5 }));
    expect(decision).toEqual({ retry: true, delayMs: 500, reason: '429: no Retry-After, exponential backoff' });
  });

  it('falls back to the reset time when Retry-After cannot be read', () => {
    const decision = decideRetry(input({ headers: { 'retry-after': 'later', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 9) }, random: () => 0 }));
    expect(decision.retry && decision.delayMs).toBe(9000);
  });

  it('gives up once the attempts are spent', () => {
    expect(decideRetry(input({ attempt: 3, headers: { 'retry-after': '1' } }))).toEqual({ retry: false, reason: 'gave up after 4 attempts' });
    expect(decideRetry(input({ attempt: 2, headers: { 'retry-after': '1' } })).retry).toBe(true);
  });

  it('gives up with a reason when asked to wait longer than maxWaitMs', () => {
    const decision = decideRetry(input({ headers: { 'retry-after': '3600' } }));
    expect(decision).toEqual({ retry: false, reason: 'asked to wait 3601 s, more than the 120 s allowed' });
  });

  it('gives up when the reset time is further away than maxWaitMs', () => {
    const decision = decideRetry(input({ headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 86_400) } }));
    expect(decision.retry).toBe(false);
    expect(decision.reason).toMatch(/more than the 120 s allowed/);
  });

  it('treats a 503 without Retry-After as final', () => {
    expect(decideRetry(input({ status: 503, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 5) } }))).toEqual({
      retry: false,
      reason: '503 without Retry-After is final',
    });
  });

  it('retries a 503 that carries Retry-After, after it', () => {
    const decision = decideRetry(input({ status: 503, headers: { 'retry-after': '2' }, random: () => 0 }));
    expect(decision).toEqual({ retry: true, delayMs: 2000, reason: '503: Retry-After 2 s plus jitter' });
  });

  it('has defaults that retry a few times within two minutes', () => {
    expect(DEFAULT_RETRY).toEqual({ maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8000, maxWaitMs: 120_000 });
  });
});
