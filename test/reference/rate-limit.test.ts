import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadServerConfig } from '../../targets/reference/config.ts';
import { RateLimiter } from '../../targets/reference/rate-limit.ts';
import { startReferenceServer, type RunningServer } from '../../targets/reference/server.ts';
import { KEYS, T0, call, expectError, fakeClock, rateHeaders, startTestServer, type Exchange, type FakeClock } from './helpers.ts';

const T0_S = T0 / 1000;
const FREE = { perMinute: 60, perDay: 1_000 };

describe('RateLimiter', () => {
  it('reports the minute window while it is the tighter one, with an epoch-aligned reset', () => {
    const clock = fakeClock(T0 + 10_250);
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now);
    expect(limiter.take('a', FREE)).toEqual({
      allowed: true,
      limit: 60,
      remaining: 59,
      reset: T0_S + 60,
      windowSeconds: 60,
      refusedInARow: 0,
      banned: false,
      banStarted: false,
      earlyRetry: false,
      at: T0 + 10_250,
    });
    expect(limiter.take('a', FREE).remaining).toBe(58);
    expect(limiter.take('b', FREE).remaining).toBe(59);
  });

  it('switches to the day window once its remainder is the smaller, and blocks until the day ends', () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now);
    const quota = { perMinute: 10, perDay: 12 };
    for (let i = 0; i < 10; i++) expect(limiter.take('k', quota)).toMatchObject({ allowed: true, limit: 10, remaining: 9 - i });
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, limit: 10, remaining: 0, reset: T0_S + 60, retryAfter: 60 });
    clock.advance(60_000);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, limit: 12, remaining: 1, reset: T0_S + 86_400 });
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, limit: 12, remaining: 0, reset: T0_S + 86_400 });
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, limit: 12, remaining: 0, retryAfter: 86_400 - 60 });
    clock.set(T0 + 86_400_000);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, limit: 10, remaining: 9 });
  });

  it('gives Retry-After as the ceiling of the seconds left, at least 1', () => {
    const clock = fakeClock(T0 + 59_999);
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now);
    const quota = { perMinute: 1, perDay: 100 };
    limiter.take('k', quota);
    expect(limiter.take('k', quota).retryAfter).toBe(1);
    clock.set(T0 + 120_000 + 100);
    limiter.take('k', quota);
    expect(limiter.take('k', quota).retryAfter).toBe(60);
  });

  it('counts but never refuses when not enforcing, and Remaining stays at 0', () => {
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, fakeClock().now);
    const quota = { perMinute: 2, perDay: 100 };
    const decisions = Array.from({ length: 4 }, () => limiter.take('anon', quota, { enforce: false }));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [true, 0],
      [true, 0],
    ]);
  });

  it('flags requests that come before a Retry-After has passed', () => {
    const clock = fakeClock(T0 + 30_500);
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now);
    const quota = { perMinute: 2, perDay: 100 };
    limiter.take('k', quota);
    limiter.take('k', quota);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 30, earlyRetry: false });
    // Early although the window has already reset: Retry-After, rounded up, has not passed.
    clock.advance(29_999);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, earlyRetry: true });
    clock.advance(1);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, earlyRetry: false });
    expect(limiter.take('other', quota).earlyRetry).toBe(false);
  });

  it('judges early retries by the Retry-After actually sent, when told', () => {
    const clock = fakeClock(T0 + 30_500);
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now);
    const quota = { perMinute: 1, perDay: 100 };
    const cases: [string | undefined, number][] = [
      ['30', 30_000], // delta-seconds, as the limiter would have it
      ['Tue, 01 Jan 2030 00:01:00 GMT', 29_500], // an HTTP-date: exactly the window end
      ['12.5', 12_500], // a fraction, read leniently
      ['7', 7_000], // a shorter wait than the limiter's
      [undefined, 0], // no Retry-After: never told to wait
    ];
    // Two clients per case, refused at the same moment and told the same: one comes back 1 ms
    // before the deadline, the other at it.
    for (const [i, [value, deadline]] of cases.entries()) {
      clock.set(T0 + 30_500);
      for (const client of [`early${i}`, `on-time${i}`]) {
        limiter.take(client, quota);
        const refused = limiter.take(client, quota);
        expect(refused).toMatchObject({ allowed: false, retryAfter: 30, retryAtMs: T0 + 60_000, at: T0 + 30_500 });
        limiter.noteRetryAfter(client, value, refused.at);
      }
      if (deadline > 0) {
        clock.set(T0 + 30_500 + deadline - 1);
        expect(limiter.take(`early${i}`, quota).earlyRetry, `${value}`).toBe(true);
      }
      clock.set(T0 + 30_500 + deadline);
      expect(limiter.take(`on-time${i}`, quota).earlyRetry, `${value}`).toBe(false);
    }
  });

  it('counts refusals in a row, starting again after a request is let through', () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now);
    const quota = { perMinute: 1, perDay: 100 };
    const runs = () => [limiter.take('k', quota), limiter.take('k', quota), limiter.take('k', quota)].map((d) => d.refusedInARow);
    expect(runs()).toEqual([0, 1, 2]);
    clock.advance(60_000);
    expect(runs()).toEqual([0, 1, 2]);
  });

  it('with extraPerMinute accepts that many more a minute, and reports Remaining 0 for them', () => {
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, fakeClock().now, { extraPerMinute: 1 });
    const quota = { perMinute: 2, perDay: 100 };
    const decisions = Array.from({ length: 4 }, () => limiter.take('k', quota));
    expect(decisions.map((d) => [d.allowed, d.limit, d.remaining])).toEqual([
      [true, 2, 1],
      [true, 2, 0],
      [true, 2, 0],
      [false, 2, 0],
    ]);
  });

  it('with enforceDay false neither enforces nor reports the day window', () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now, { enforceDay: false });
    const quota = { perMinute: 2, perDay: 3 };
    for (let minute = 0; minute < 3; minute++) {
      clock.set(T0 + minute * 60_000);
      const decisions = [limiter.take('k', quota), limiter.take('k', quota), limiter.take('k', quota)];
      expect(decisions.map((d) => [d.allowed, d.limit, d.remaining, d.reset])).toEqual([
        [true, 2, 1, T0_S + 60 * (minute + 1)],
        [true, 2, 0, T0_S + 60 * (minute + 1)],
        [false, 2, 0, T0_S + 60 * (minute + 1)],
      ]);
    }
  });
});

describe('RateLimiter with token buckets (variation sliding-window)', () => {
  const buckets = (clock: FakeClock, windows = { minute: 60, day: 86_400 }) =>
    new RateLimiter(windows, clock.now, { tokenBucket: true });

  it('reports floor(tokens) left, and Reset when the bucket is full again, at most one window ahead', () => {
    const clock = fakeClock(T0 + 10_250);
    const limiter = buckets(clock);
    const quota = { perMinute: 3, perDay: 100 };
    // 3 tokens a minute: one every 20 s.
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, limit: 3, remaining: 2, reset: T0_S + 31, windowSeconds: 60 });
    expect(limiter.take('k', quota)).toMatchObject({ remaining: 1, reset: T0_S + 51 });
    // Full again at +70.25 s; capped at one window after the current whole second.
    expect(limiter.take('k', quota)).toMatchObject({ remaining: 0, reset: T0_S + 70 });
    clock.advance(10_000);
    expect(limiter.take('other', quota)).toMatchObject({ remaining: 2 });
  });

  it('refuses without consuming; Retry-After and Reset give the next token', () => {
    const clock = fakeClock(T0 + 10_250);
    const limiter = buckets(clock);
    const quota = { perMinute: 3, perDay: 100 };
    for (let i = 0; i < 3; i++) limiter.take('k', quota);
    const refused = { allowed: false, limit: 3, remaining: 0, reset: T0_S + 31, retryAfter: 20, retryAtMs: T0 + 30_250 };
    expect(limiter.take('k', quota)).toMatchObject(refused);
    expect(limiter.take('k', quota)).toMatchObject(refused);
    clock.advance(10_000);
    expect(limiter.take('k', quota)).toMatchObject({ ...refused, retryAfter: 10 });
    clock.advance(10_000);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, remaining: 0, earlyRetry: false });
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 20 });
    clock.advance(19_999);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 1, earlyRetry: true });
    clock.advance(60_000);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('refills the day bucket likewise, and lets it bind when it holds fewer tokens', () => {
    const clock = fakeClock();
    const limiter = buckets(clock, { minute: 60, day: 600 });
    // Minute: a token every 6 s. Day: 12 per 600 s, a token every 50 s.
    const quota = { perMinute: 10, perDay: 12 };
    for (let i = 0; i < 10; i++) expect(limiter.take('k', quota)).toMatchObject({ allowed: true, limit: 10, remaining: 9 - i });
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, limit: 10, retryAfter: 6, reset: T0_S + 6, windowSeconds: 60 });
    clock.advance(60_000);
    // The day bucket got 1.2 tokens back: 3.2 left before this request.
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, limit: 12, remaining: 2, reset: T0_S + 60 + 490, windowSeconds: 600 });
    expect(limiter.take('k', quota)).toMatchObject({ limit: 12, remaining: 1 });
    expect(limiter.take('k', quota)).toMatchObject({ limit: 12, remaining: 0 });
    const refused = limiter.take('k', quota);
    expect(refused).toMatchObject({ allowed: false, limit: 12, remaining: 0, retryAfter: 40, reset: T0_S + 100, windowSeconds: 600 });
    clock.advance(40_000);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, limit: 12, remaining: 0 });
  });

  it('with countRefused, a refusal empties the partial token, so the wait starts again', () => {
    const clock = fakeClock(T0);
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now, { tokenBucket: true, countRefused: true });
    const quota = { perMinute: 3, perDay: 100 };
    for (let i = 0; i < 3; i++) limiter.take('k', quota);
    clock.advance(15_000);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 20, reset: T0_S + 35 });
    clock.advance(20_000);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('counts but never refuses when not enforcing, and Reset stays within one window', () => {
    const clock = fakeClock(T0 + 500);
    const limiter = buckets(clock);
    const quota = { perMinute: 2, perDay: 100 };
    const decisions = Array.from({ length: 4 }, () => limiter.take('anon', quota, { enforce: false }));
    expect(decisions.map((d) => [d.allowed, d.remaining, d.reset])).toEqual([
      [true, 1, T0_S + 31],
      [true, 0, T0_S + 60],
      [true, 0, T0_S + 60],
      [true, 0, T0_S + 60],
    ]);
  });
});

describe('RateLimiter bans (variation ban-after-ignoring-429)', () => {
  const quota = { perMinute: 1, perDay: 100 };

  it('bans a client after 5 early retries in a row, for one minute window, to a whole second', () => {
    const clock = fakeClock(T0 + 10_250);
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now, { banAfterEarlyRetries: 5 });
    expect(limiter.take('k', quota).allowed).toBe(true);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 50, earlyRetry: false, banned: false });
    for (let i = 0; i < 4; i++) {
      expect(limiter.take('k', quota)).toMatchObject({ allowed: false, retryAfter: 50, earlyRetry: true, banned: false });
    }
    // Until one minute window after the current whole second: 59.75 s here, never more than a window.
    const ban = { allowed: false, limit: 1, remaining: 0, reset: T0_S + 70, retryAfter: 60, retryAtMs: T0 + 70_000, banned: true };
    expect(limiter.take('k', quota)).toMatchObject({ ...ban, earlyRetry: true, banStarted: true });
    expect(limiter.take('k', quota)).toMatchObject({ ...ban, banStarted: false });
    expect(limiter.take('other', quota)).toMatchObject({ allowed: true, banned: false });
    // The minute window has reset, the ban has not.
    clock.set(T0 + 60_000);
    expect(limiter.take('k', quota)).toMatchObject({ ...ban, retryAfter: 10, banStarted: false, earlyRetry: true });
    clock.set(T0 + 70_000);
    expect(limiter.take('k', quota)).toMatchObject({ allowed: true, banned: false, earlyRetry: false });
  });

  it('never bans a client that honours Retry-After, nor one whose early retries are interrupted', () => {
    const clock = fakeClock(T0 + 10_250);
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now, { banAfterEarlyRetries: 5 });
    for (let cycle = 0; cycle < 20; cycle++) {
      const decisions = [limiter.take('k', quota), limiter.take('k', quota)];
      expect(decisions.map((d) => d.allowed)).toEqual([true, false]);
      if (cycle % 2 === 1) for (let i = 0; i < 4; i++) expect(limiter.take('k', quota)).toMatchObject({ earlyRetry: true, banned: false });
      clock.advance(decisions[1]!.retryAfter! * 1000);
    }
  });
});

describe('rate limiting over HTTP', () => {
  let server: RunningServer | undefined;
  let clock: FakeClock;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function start(config: Parameters<typeof startTestServer>[0] = {}, at = T0 + 10_250): Promise<RunningServer> {
    clock = fakeClock(at);
    server = await startTestServer(config, clock);
    return server;
  }

  it('sends the plan limit, a remaining count falling by one, and the window end', async () => {
    const s = await start();
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.free1 })));
    expect(seen).toEqual([59, 58, 57].map((remaining) => ({ limit: 60, remaining, reset: T0_S + 60 })));
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.pro }))).toMatchObject({ limit: 300, remaining: 299 });
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.business }))).toMatchObject({ limit: 1000, remaining: 999 });
  });

  it('lets exactly one of two requests sent together at Remaining 1 through (it counts as it checks)', async () => {
    const s = await start();
    for (let i = 0; i < 59; i++) await call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    const together = await Promise.all([0, 1].map(() => call(s, 'GET', '/v1/pets', { key: KEYS.free1 })));
    expect(together.map((r) => r.status).sort()).toEqual([200, 429]);
  });

  it('answers 429 after the quota, with Retry-After and an Error body, per key, without counting 429s', async () => {
    const s = await start();
    for (let i = 0; i < 60; i++) expect((await call(s, 'GET', '/v1/pets', { key: KEYS.free1 })).status).toBe(200);
    const refused = await call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe('50');
    expect(rateHeaders(refused)).toEqual({ limit: 60, remaining: 0, reset: T0_S + 60 });

    // Other keys of the same plan have quotas of their own.
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.free2 }))?.remaining).toBe(59);

    // Every route is limited, and refused requests cost nothing.
    for (const path of ['/v1/pets/1', '/v1/nowhere', '/v1/store/orders']) {
      expect((await call(s, 'GET', path, { key: KEYS.free1 })).status).toBe(429);
    }
    clock.set((T0_S + 60) * 1000);
    const afterReset = await call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    expect(rateHeaders(afterReset)).toEqual({ limit: 60, remaining: 59, reset: T0_S + 120 });

    const stats = s.stats().byKey['free#1'];
    // Early: the three refusals after the first, and the request at the window end, 250 ms before
    // the rounded-up Retry-After.
    expect(stats).toEqual({
      plan: 'free',
      requests: 65,
      byStatus: { '200': 61, '429': 4 },
      rateLimited: 4,
      earlyRetries: 4,
      bans: 0,
      earlyByEpisode: [4],
    });
    expect(s.stats()).toMatchObject({ rateLimited: 4, earlyRetries: 4, bans: 0 });
  });

  it('counts requests that come before Retry-After has passed as early retries', async () => {
    const s = await start({ plans: { tiny: { perMinute: 1, perDay: 100 } }, keys: [{ key: KEYS.free1, plan: 'tiny' }] });
    await call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    const refused = await call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBe(50);
    expect(s.stats().earlyRetries).toBe(0);

    clock.advance(retryAfter * 1000 - 1);
    await call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    expect(s.stats()).toMatchObject({ earlyRetries: 1, byKey: { 'tiny#1': { earlyRetries: 1 } } });

    clock.advance(1);
    await call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    expect(s.stats().earlyRetries).toBe(1);
  });

  it('enforces the day window', async () => {
    const s = await start({ plans: { tiny: { perMinute: 3, perDay: 5 } }, keys: [{ key: KEYS.free1, plan: 'tiny' }] }, T0);
    const get = () => call(s, 'GET', '/v1/pets', { key: KEYS.free1 });
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
    expect((await get()).headers['retry-after']).toBe('60');
    clock.advance(60_000);
    expect(rateHeaders(await get())).toEqual({ limit: 5, remaining: 1, reset: T0_S + 86_400 });
    expect(rateHeaders(await get())).toEqual({ limit: 5, remaining: 0, reset: T0_S + 86_400 });
    const refused = await get();
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBe(String(86_400 - 60));
    clock.advance(120_000);
    expect((await get()).status).toBe(429);
    clock.set(T0 + 86_400_000);
    expect((await get()).status).toBe(200);
  });

  it("enforces the local config's daily key: its day quota runs out in the third 5-second window", async () => {
    const config = await loadServerConfig(fileURLToPath(new URL('../../targets/reference/local.server.yaml', import.meta.url)));
    clock = fakeClock(T0);
    server = await startReferenceServer(config, { now: clock.now });
    const daily = () => call(server!, 'GET', '/v1/pets', { key: 'local-daily-key-1' });
    const run = async () => {
      const seen: Exchange[] = [];
      for (;;) {
        const res = await daily();
        seen.push(res);
        if (res.status !== 200) return seen;
      }
    };
    const first = await run();
    expect(first).toHaveLength(41);
    expect(rateHeaders(first[0]!)).toEqual({ limit: 40, remaining: 39, reset: T0_S + 5 });
    expect(first[40]!.headers['retry-after']).toBe('5');
    clock.set(T0 + 5_000);
    const second = await run();
    expect(second).toHaveLength(41);
    // 60 left for the day against 40 for the minute: the minute window still binds.
    expect(rateHeaders(second[0]!)).toEqual({ limit: 40, remaining: 39, reset: T0_S + 10 });
    expect(rateHeaders(second[39]!)).toEqual({ limit: 40, remaining: 0, reset: T0_S + 10 });
    clock.set(T0 + 10_000);
    const third = await run();
    expect(third).toHaveLength(21);
    expect(rateHeaders(third[0]!)).toEqual({ limit: 100, remaining: 19, reset: T0_S + 60 });
    expect(rateHeaders(third[19]!)).toEqual({ limit: 100, remaining: 0, reset: T0_S + 60 });
    const refused = third[20]!;
    expectError(refused, 429, 'rate_limited');
    expect(rateHeaders(refused)).toEqual({ limit: 100, remaining: 0, reset: T0_S + 60 });
    expect(refused.headers['retry-after']).toBe('50');
    clock.set(T0 + 60_000);
    expect(rateHeaders(await daily())).toEqual({ limit: 40, remaining: 39, reset: T0_S + 65 });
    expect(server.stats().byKey['daily#1']).toMatchObject({ plan: 'daily', requests: 104, rateLimited: 3, earlyRetries: 0, bans: 0 });
  });

  it('uses the configured window lengths', async () => {
    const s = await start({ windows: { minute: 2, day: 30 } }, T0 + 1_500);
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.free1 }))?.reset).toBe(T0_S + 2);
  });

  it('puts the headers on every kind of response', async () => {
    const s = await start({ plans: { tiny: { perMinute: 8, perDay: 100 } }, keys: [{ key: KEYS.free1, plan: 'tiny' }] });
    const key = KEYS.free1;
    const responses = [
      await call(s, 'GET', '/v1/pets', { key }),
      await call(s, 'GET', '/v1/pets'),
      await call(s, 'GET', '/v1/pets?limit=0', { key }),
      await call(s, 'GET', '/v1/pets/5', { key }),
      await call(s, 'PATCH', '/v1/pets', { key }),
      await call(s, 'POST', '/v1/pets', { key, json: { name: 'x', categoryId: 1 } }),
      await call(s, 'POST', '/v1/pets', { key, body: 'x'.repeat(70_000), headers: { 'content-type': 'application/json' } }),
    ];
    for (let i = 0; i < 3; i++) responses.push(await call(s, 'GET', '/v1/pets', { key }));
    expect(responses.map((r) => r.status)).toEqual([200, 401, 400, 404, 405, 201, 413, 200, 200, 429]);
    for (const res of responses) expect(rateHeaders(res), `${res.status}`).toBeDefined();
  });
});
