import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, decideRetry, fullJitter, type RetryInput } from '../../../lib/client/retry.ts';

const NOW = Date.UTC(1994, 10, 6, 8, 49, 30); // Sun, 06 Nov 1994 08:49:30 GMT

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
