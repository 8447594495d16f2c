// Legal variations of the rate limiter: the stricter ban, windows per key, a sliding log, and a
// jittered Reset. Each does what its catalogue entry says, in the limiter and over HTTP.
import { describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../targets/reference/config.ts';
import { RateLimiter } from '../../targets/reference/rate-limit.ts';
import { EARLIER_BAN_WINDOWS, RESET_JITTER_MS, STRICT_BAN, type RunningServer } from '../../targets/reference/server.ts';
import type { VariationId } from '../../targets/reference/variations.ts';
import { KEYS, T0, TEST_CONFIG, call, errorBody, expectError, fakeClock, closedAfterEach, rateHeaders, startTestServer, type FakeClock } from './helpers.ts';

const T0_S = T0 / 1000;
const TINY_KEY = 'test-tiny-key';
const WINDOWS = { minute: 60, day: 86_400 };

const track = closedAfterEach();

/** A server with TEST_CONFIG's keys plus TINY_KEY on a plan with the given quota. */
async function start(
  variations: VariationId[],
  perMinute: number,
  perDay: number,
  clock: FakeClock,
  config: Partial<ServerConfigInput> = {},
): Promise<RunningServer> {
  const keys = [...TEST_CONFIG.keys, { key: TINY_KEY, plan: 'tiny' }];
  const plans = { ...TEST_CONFIG.plans, tiny: { perMinute, perDay } };
  const server = await startTestServer({ keys, plans, variations, ...config }, clock);
  track(server);
  return server;
}

const tiny = (s: RunningServer) => call(s, 'GET', '/v1/pets', { key: TINY_KEY });

describe('ban-after-3-early', () => {
  it('bans a key after 3 early requests in a row, for two minute windows, with Reset beyond one window', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['ban-after-3-early'], 1, 100, clock);
    expect((await tiny(s)).status).toBe(200);
    const first = await tiny(s);
    expectError(first, 429, 'rate_limited');
    expect(first.headers['retry-after']).toBe('50');
    for (let i = 0; i < 2; i++) expectError(await tiny(s), 429, 'rate_limited');
    expect(s.stats()).toMatchObject({ earlyRetries: 2, bans: 0 });

    const banned = await tiny(s);
    expectError(banned, 429, 'banned');
    expect(banned.headers['retry-after']).toBe('120');
    // From the current whole second (10 s), two windows: 120 s, twice what a window allows.
    expect(rateHeaders(banned)).toEqual({ limit: 1, remaining: 0, reset: T0_S + 130 });
    expect(s.stats()).toMatchObject({ earlyRetries: 3, bans: 1 });
    expect((await call(s, 'GET', '/v1/pets', { key: KEYS.bulk })).status).toBe(200);

    // The minute window resets, the ban does not.
    clock.set(T0 + 70_000);
    const later = await tiny(s);
    expectError(later, 429, 'banned');
    expect(later.headers['retry-after']).toBe('60');
    expect(rateHeaders(later)).toEqual({ limit: 1, remaining: 0, reset: T0_S + 130 });
    clock.set(T0 + 129_000);
    expect((await tiny(s)).headers['retry-after']).toBe('1');
    clock.set(T0 + 130_000);
    const free = await tiny(s);
    expect(free.status).toBe(200);
    expect(rateHeaders(free)).toEqual({ limit: 1, remaining: 0, reset: T0_S + 180 });
    expect(s.stats().byKey['tiny#1']).toMatchObject({ earlyRetries: 5, bans: 1, rateLimited: 6, earlyByEpisode: [5] });
  });

  it('tolerates 2 early requests in a row, and a client that honours Retry-After is never banned', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['ban-after-3-early'], 2, 1_000, clock);
    for (let cycle = 0; cycle < 6; cycle++) {
      const statuses = [(await tiny(s)).status, (await tiny(s)).status];
      const refused = await tiny(s);
      expect([...statuses, refused.status]).toEqual([200, 200, 429]);
      if (cycle % 2 === 0) for (let i = 0; i < 2; i++) expect(errorBody(await tiny(s))?.code).toBe('rate_limited');
      clock.advance(Number(refused.headers['retry-after']) * 1000);
    }
    expect(s.stats().byKey['tiny#1']).toMatchObject({ bans: 0, earlyRetries: 6, earlyByEpisode: [2, 0, 2, 0, 2, 0] });
  });

  it('wins over ban-after-ignoring-429 when both are on', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['ban-after-ignoring-429', 'ban-after-3-early'], 1, 100, clock);
    await tiny(s);
    await tiny(s);
    await tiny(s);
    await tiny(s);
    const banned = await tiny(s);
    expectError(banned, 429, 'banned');
    expect(banned.headers['retry-after']).toBe(String(STRICT_BAN.windows * 60));
  });

  it('is the limiter ban with a length in windows: windowSeconds and Reset are the ban', () => {
    const clock = fakeClock(T0 + 10_250);
    const limiter = new RateLimiter(WINDOWS, clock.now, { banAfterEarlyRetries: 3, banWindows: 2 });
    const quota = { perMinute: 1, perDay: 100 };
    limiter.take('k', quota);
    limiter.take('k', quota);
    limiter.take('k', quota);
    expect(limiter.take('k', quota)).toMatchObject({ banned: false, earlyRetry: true });
    expect(limiter.take('k', quota)).toMatchObject({
      allowed: false,
      banned: true,
      banStarted: true,
      reset: T0_S + 130,
      retryAfter: 120,
      retryAtMs: T0 + 130_000,
      windowSeconds: 120,
    });
  });
});

describe('first-key-banned', () => {
  it('refuses the first configured key from the start until its ban ends, and no other key', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['first-key-banned'], 1, 100, clock);
    const banned = await call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    expectError(banned, 429, 'banned');
    const banSeconds = EARLIER_BAN_WINDOWS * 60;
    expect(banned.headers['retry-after']).toBe(String(banSeconds));
    // The ban ends 600 s after the server started (at 10.25 s); Reset is that moment rounded up.
    expect(rateHeaders(banned)).toMatchObject({ remaining: 0, reset: T0_S + 11 + banSeconds });
    expect((await call(s, 'GET', '/v1/pets', { key: KEYS.free2 })).status).toBe(200);
    // Imposed before the run, so no request started it.
    expect(s.stats()).toMatchObject({ bans: 0 });
    clock.set(T0 + 10_250 + banSeconds * 1000);
    expect((await call(s, 'GET', '/v1/pets', { key: KEYS.free1 })).status).toBe(200);
  });
});

describe('retry-after-fractional-wait', () => {
  it('ends the fixed windows 498 ms after a whole second: waits are fractional, written as legal whole seconds', async () => {
    // 10.75 s into the minute that began at T0 + 0.498 s: the window ends at T0 + 60.498 s.
    const clock = fakeClock(T0 + 11_248);
    const s = await start(['retry-after-fractional-wait'], 1, 100, clock);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 1, remaining: 0, reset: T0_S + 61 });
    const refused = await tiny(s);
    expectError(refused, 429, 'rate_limited');
    // 49.25 s to wait, rounded up.
    expect(refused.headers['retry-after']).toBe('50');
    expect(rateHeaders(refused)).toEqual({ limit: 1, remaining: 0, reset: T0_S + 61 });
    // Still refused at the whole second, let through at T0 + 60.498 s.
    clock.set(T0 + 60_497);
    expect((await tiny(s)).status).toBe(429);
    clock.set(T0 + 60_498);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 1, remaining: 0, reset: T0_S + 121 });
  });
});

describe('window-per-key', () => {
  it('starts the minute window at the key\'s first request, and the next at the first request after it ended', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['window-per-key'], 2, 100, clock);
    // The window runs from 10.25 s to 70.25 s; Reset is its end rounded up.
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 2, remaining: 1, reset: T0_S + 71 });
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 2, remaining: 0, reset: T0_S + 71 });
    const refused = await tiny(s);
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('60');
    expect(rateHeaders(refused)).toEqual({ limit: 2, remaining: 0, reset: T0_S + 71 });

    // An epoch-aligned window would have reset at 60 s.
    clock.set(T0 + 65_000);
    expect((await tiny(s)).status).toBe(429);
    clock.set(T0 + 70_250);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 2, remaining: 1, reset: T0_S + 131 });
    // The next window starts at the first request after 130.25 s, not at 130.25 s or 120 s.
    clock.set(T0 + 200_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 2, remaining: 1, reset: T0_S + 260 });
    // Every key has windows of its own.
    clock.set(T0 + 200_500);
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.free1 }))).toEqual({ limit: 60, remaining: 59, reset: T0_S + 261 });
  });

  it('starts the day window at the key\'s first request too', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['window-per-key'], 10, 12, clock, { windows: { minute: 60, day: 600 } });
    for (let i = 0; i < 10; i++) expect((await tiny(s)).status).toBe(200);
    expect((await tiny(s)).headers['retry-after']).toBe('60');
    clock.set(T0 + 70_250);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 12, remaining: 1, reset: T0_S + 611 });
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 12, remaining: 0, reset: T0_S + 611 });
    const refused = await tiny(s);
    expect(refused.headers['retry-after']).toBe('540');
    expect(rateHeaders(refused)).toEqual({ limit: 12, remaining: 0, reset: T0_S + 611 });
    clock.set(T0 + 610_250);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 10, remaining: 9, reset: T0_S + 671 });
    expect(s.stats().earlyRetries).toBe(0);
  });
});

describe('sliding-log', () => {
  it('lets a request through while fewer than the quota were in the last window; Reset and Retry-After follow the log', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['sliding-log'], 3, 100, clock);
    // Remaining above 0: Reset is when the log would be empty (the newest request leaves).
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 3, remaining: 2, reset: T0_S + 71 });
    clock.advance(10_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 3, remaining: 1, reset: T0_S + 81 });
    clock.advance(10_000);
    // Remaining 0: Reset is when the oldest (10.25 s) leaves, the moment one more gets through.
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 3, remaining: 0, reset: T0_S + 71 });
    const refused = await tiny(s);
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('40');
    expect(rateHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: T0_S + 71 });

    // A fixed window would be fresh at 70.25 s; the log still holds 20.25 s and 30.25 s.
    clock.set(T0 + 70_250);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 3, remaining: 0, reset: T0_S + 81 });
    const again = await tiny(s);
    expect(again.headers['retry-after']).toBe('10');
    expect(rateHeaders(again)).toEqual({ limit: 3, remaining: 0, reset: T0_S + 81 });
    clock.set(T0 + 130_250);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 3, remaining: 2, reset: T0_S + 191 });
    expect(s.stats().byKey['tiny#1']).toMatchObject({ requests: 7, rateLimited: 2, earlyRetries: 0 });
  });

  it('keeps a day log too, which binds when it leaves fewer, the day on a tie', async () => {
    const clock = fakeClock(T0);
    const s = await start(['sliding-log'], 10, 12, clock, { windows: { minute: 60, day: 600 } });
    for (let i = 0; i < 10; i++) expect((await tiny(s)).status).toBe(200);
    expect((await tiny(s)).headers['retry-after']).toBe('60');
    clock.set(T0 + 60_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 12, remaining: 1, reset: T0_S + 660 });
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 12, remaining: 0, reset: T0_S + 600 });
    const refused = await tiny(s);
    expect(refused.headers['retry-after']).toBe('540');
    expect(rateHeaders(refused)).toEqual({ limit: 12, remaining: 0, reset: T0_S + 600 });
    clock.set(T0 + 600_000);
    // Minute log: 1 of 10 used; day log: 3 of 12.
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 12, remaining: 9, reset: T0_S + 1_200 });
  });

  it('gives Retry-After as the ceiling of the seconds until the oldest leaves, at least 1', () => {
    const clock = fakeClock(T0 + 10_250);
    const limiter = new RateLimiter(WINDOWS, clock.now, { slidingLog: true });
    const quota = { perMinute: 2, perDay: 100 };
    limiter.take('k', quota);
    clock.advance(500);
    limiter.take('k', quota);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 60, retryAtMs: T0 + 70_250 });
    clock.set(T0 + 70_249);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 1, reset: T0_S + 71 });
    clock.set(T0 + 70_250);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, remaining: 0, reset: T0_S + 71 });
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 1, retryAtMs: T0 + 70_750 });
  });

  it('wins over sliding-window when both are on', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['sliding-window', 'sliding-log'], 3, 100, clock);
    await tiny(s);
    await tiny(s);
    await tiny(s);
    // A token bucket would give the next token in 20 s.
    expect((await tiny(s)).headers['retry-after']).toBe('60');
  });
});

describe('reset-jitter', () => {
  async function resets(): Promise<number[]> {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['reset-jitter'], 50, 1_000, clock);
    const out: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await tiny(s);
      expect(res.status).toBe(200);
      expect(rateHeaders(res)).toMatchObject({ limit: 50, remaining: 49 - i });
      out.push(rateHeaders(res)!.reset);
      clock.advance(1_000);
    }
    return out;
  }

  it('rounds Reset from the window end plus noise: within a second of it, varying between responses, the same every run', async () => {
    const first = await resets();
    expect(new Set(first)).toEqual(new Set([T0_S + 59, T0_S + 60, T0_S + 61]));
    expect(first.filter((r) => r === T0_S + 60).length).toBeGreaterThan(30);
    expect(first.some((r, i) => i > 0 && Math.abs(r - first[i - 1]!) === 1)).toBe(true);
    expect(await resets()).toEqual(first);
  });

  it('leaves Retry-After and the decisions alone', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['reset-jitter'], 1, 100, clock);
    expect((await tiny(s)).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      const refused = await tiny(s);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('50');
      expect(Math.abs(rateHeaders(refused)!.reset - (T0_S + 60))).toBeLessThanOrEqual(1);
    }
  });

  it('in the limiter: up to ±600 ms, so never more than a second off, and never before the current second', () => {
    const clock = fakeClock(T0 + 59_900);
    const limiter = new RateLimiter(WINDOWS, clock.now, { resetJitterMs: RESET_JITTER_MS });
    const seen = Array.from({ length: 300 }, () => limiter.take('k', { perMinute: 1_000, perDay: 10_000 }).reset);
    expect(new Set(seen)).toEqual(new Set([T0_S + 59, T0_S + 60, T0_S + 61]));
    const plain = new RateLimiter(WINDOWS, clock.now);
    expect(plain.take('k', { perMinute: 1_000, perDay: 10_000 }).reset).toBe(T0_S + 60);
  });
});

describe('headers-day-window', () => {
  it('describes the day window on every response, a minute refusal included, whose Retry-After stays the minute\'s', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['headers-day-window'], 3, 100, clock);
    const accepted = [await tiny(s), await tiny(s), await tiny(s)];
    expect(accepted.map(rateHeaders)).toEqual([99, 98, 97].map((remaining) => ({ limit: 100, remaining, reset: T0_S + 86_400 })));
    // The minute refuses: the headers still say 97 of the day left; Retry-After is when the minute lets one through.
    const refused = await tiny(s);
    expectError(refused, 429, 'rate_limited');
    expect(rateHeaders(refused)).toEqual({ limit: 100, remaining: 97, reset: T0_S + 86_400 });
    expect(refused.headers['retry-after']).toBe('50');
    clock.set(T0 + 60_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 100, remaining: 96, reset: T0_S + 86_400 });
  });
});

describe('headers-minute-window', () => {
  it("describes the minute window on every response, the spent day's refusal included, whose Retry-After stays the day's", async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['headers-minute-window'], 5, 3, clock);
    const accepted = [await tiny(s), await tiny(s), await tiny(s)];
    expect(accepted.map(rateHeaders)).toEqual([4, 3, 2].map((remaining) => ({ limit: 5, remaining, reset: T0_S + 60 })));
    // The day refuses: the headers describe the minute, with nothing of it left (the day lets none
    // through); Retry-After is when the day lets one through.
    const refused = await tiny(s);
    expectError(refused, 429, 'rate_limited');
    expect(rateHeaders(refused)).toEqual({ limit: 5, remaining: 0, reset: T0_S + 60 });
    expect(refused.headers['retry-after']).toBe(String(86_400 - 10));
    // A new minute: the minute's headers, still nothing left while the day refuses.
    clock.set(T0 + 60_000);
    const later = await tiny(s);
    expectError(later, 429, 'rate_limited');
    expect(rateHeaders(later)).toEqual({ limit: 5, remaining: 0, reset: T0_S + 120 });
    expect(later.headers['retry-after']).toBe(String(86_400 - 60));
  });
});
