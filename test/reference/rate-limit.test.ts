import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../targets/reference/rate-limit.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { KEYS, T0, call, expectError, fakeClock, rateHeaders, startTestServer, type FakeClock } from './helpers.ts';

const T0_S = T0 / 1000;
const FREE = { perMinute: 60, perDay: 1_000 };

describe('RateLimiter', () => {
  it('reports the minute window while it is the tighter one, with an epoch-aligned reset', () => {
    const clock = fakeClock(T0 + 10_250);
    const limiter = new RateLimiter({ minute: 60, day: 86_400 }, clock.now);
    expect(limiter.take('a', FREE)).toEqual({ allowed: true, limit: 60, remaining: 59, reset: T0_S + 60, earlyRetry: false });
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
    expect(stats).toMatchObject({ plan: 'free', requests: 65, rateLimited: 4 });
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
