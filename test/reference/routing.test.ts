import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../targets/reference/app.ts';
import { KeyRing } from '../../targets/reference/auth.ts';
import { Faults } from '../../targets/reference/faults.ts';
import { RateLimiter } from '../../targets/reference/rate-limit.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { StatsRecorder } from '../../targets/reference/stats.ts';
import { AnimalStore } from '../../targets/reference/store.ts';
import { resolvePlans } from '../../lib/plans.ts';
import { KEYS, call, expectError, rateHeaders, rawHttp, startTestServer } from './helpers.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('routing', () => {
  it('answers GET /v1/store/orders with an empty array', async () => {
    const res = await call(server, 'GET', '/v1/store/orders', { key: KEYS.bulk });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json).toEqual([]);
  });

  it.each(['/', '/v1', '/v1/', '/pets', '/v2/pets', '/v1/pets/', '/v1/pets/1/extra', '/v1/store', '/V1/PETS'])(
    'answers 404 with an Error body to %s',
    async (path) => {
      expectError(await call(server, 'GET', path, { key: KEYS.bulk }), 404, 'not_found');
    },
  );

  it.each([
    ['DELETE', '/v1/pets', 'GET, HEAD, POST'],
    ['PUT', '/v1/pets', 'GET, HEAD, POST'],
    ['POST', '/v1/pets/1', 'GET, HEAD'],
    ['DELETE', '/v1/pets/1', 'GET, HEAD'],
    ['POST', '/v1/store/orders', 'GET, HEAD'],
  ])('answers %s %s with 405 and Allow', async (method, path, allow) => {
    const res = await call(server, method, path, { key: KEYS.bulk });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe(allow);
  });

  it('answers a request node:http cannot parse with a 400 Error body and rate-limit headers', async () => {
    const raw = await rawHttp(server.port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toMatch(/X-RateLimit-Remaining: \d+/);
    expect(raw).toContain('"status":400');
  });
});

describe('unexpected exceptions', () => {
  it('become a 500 Error body with rate-limit headers, and are counted', async () => {
    const store = new AnimalStore();
    store.list = () => {
      throw new Error('boom');
    };
    const stats = new StatsRecorder();
    const app = createApp({
      store,
      keys: new KeyRing([{ key: 'k', plan: 'free' }]),
      plans: resolvePlans(),
      limiter: new RateLimiter({ minute: 60, day: 86_400 }),
      faults: new Faults(),
      stats,
    });
    const http = createServer(app);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const port = (http.address() as AddressInfo).port;
      const fake = { origin: `http://127.0.0.1:${port}` } as RunningServer;
      const res = await call(fake, 'GET', '/v1/pets', { key: 'k' });
      expectError(res, 500, 'internal_error');
      expect(rateHeaders(res)?.remaining).toBe(59);
      expect(stats.snapshot(0)).toMatchObject({ exceptions: 1, serverErrors: 1, requests: 1 });
      const next = await call(fake, 'GET', '/v1/store/orders', { key: 'k' });
      expect(next.status).toBe(200);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
