// The client and a limiter that refuses below the plan's quota: each such 429 is marked on its
// exchange; after two, the client stops waiting them out for that key (its requests end at once,
// saying why), and no wait of the client ends after the run's time limit.
import type http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Budget } from '../../../lib/client/budget.ts';
import { ApiClient, type ClientOptions } from '../../../lib/client/client.ts';
import type { TargetKey } from '../../../lib/config/schema.ts';
import { RefusedWithinQuotaError, RunTimeLimitError } from '../../../lib/errors.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { AcceptedLedger } from '../../../lib/suite-kit/ledger.ts';
import { type RecordingServer, startRecordingServer } from '../../support/recording-server.ts';

const FREE: TargetKey = { key: 'sk-unit-no-burst-1', plan: 'free', disposable: false, label: 'free#1', env: 'UNIT_FREE_KEY', quota: { perMinute: 60, perDay: 1000 } };
const OTHER: TargetKey = { ...FREE, key: 'sk-unit-no-burst-2', label: 'free#2', env: 'UNIT_FREE_KEY_2' };

type Answer = (path: string, n: number) => { status: number; headers: Record<string, string> };
let answer: Answer = () => ({ status: 200, headers: {} });
/** How long the server holds its n-th answer, ms. */
let hold: (n: number) => number = () => 0;
let hits: string[] = [];
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer((req, res: http.ServerResponse) => {
    const path = new URL(req.url, 'http://x').pathname;
    hits.push(`${req.headers.authorization} ${path}`);
    const n = hits.length;
    const a = answer(path, n);
    setTimeout(() => res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(a.status === 200 ? '[]' : `{"code":"x","message":"x","status":${a.status}}`), hold(n));
  });
});
afterAll(() => server.close());
const clients: ApiClient[] = [];
afterEach(async () => {
  hits = [];
  hold = () => 0;
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(overrides: Partial<ClientOptions> = {}) {
  const exchanges: Exchange[] = [];
  const delays: number[] = [];
  // The run's record of each key's requests, as the session keeps it.
  const ledger = new AcceptedLedger();
  const api = new ApiClient({
    baseUrl: server.baseUrl,
    keys: [FREE, OTHER],
    windows: { minute: 60, day: 86_400 },
    knownSince: Date.now() - 3_600_000,
    requestsOf: (label) => ledger.sent(label),
    budget: new Budget(100),
    timeoutMs: 2000,
    onExchange: (e) => {
      ledger.add(e);
      exchanges.push(e);
    },
    sleep: async (ms) => void delays.push(ms),
    random: () => 0,
    ...overrides,
  });
  clients.push(api);
  return { api, exchanges, delays };
}

/** A limiter with no room for a burst: every other request refused, Remaining 0, Retry-After 1. */
const noBurst: Answer = (_path, n) => {
  const headers: Record<string, string> = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' };
  return n % 2 === 1 ? { status: 200, headers } : { status: 429, headers: { ...headers, 'retry-after': '1' } };
};

describe('ApiClient: 429s within the plan quota', () => {
  it('marks each on its exchange, waits the first out, and after the second stops waiting for that key', async () => {
    answer = noBurst;
    const { api, exchanges, delays } = client();
    expect((await api.send({ method: 'GET', path: '/pets', auth: { key: FREE } })).status).toBe(200);
    // Refused (2 sent within 60 s), waited out, let through.
    expect((await api.send({ method: 'GET', path: '/pets', auth: { key: FREE } })).status).toBe(200);
    expect(delays).toHaveLength(1);
    // Refused again: the second such 429 of the key ends the request without a wait.
    const err = await api.send({ method: 'GET', path: '/pets', auth: { key: FREE } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefusedWithinQuotaError);
    expect((err as Error).message).toMatch(/^GET \/pets refused \(429\) and not retried: free#1 got 2 429s within plan free's quota \(the first refused at free#1's 2nd request within 60 s, plan free allowing 60 a minute\)/);
    expect(delays).toHaveLength(1);
    expect(exchanges.map((e) => [e.status, e.refusedWithinQuota?.sent])).toEqual([
      [200, undefined],
      [429, 2],
      [200, undefined],
      [429, 4],
    ]);
    expect(api.earlyRefusals('free#1').map((r) => r.seq)).toEqual([1, 3]);
    // The key's later requests that would wait are not sent at all.
    const sent = hits.length;
    await expect(api.send({ method: 'GET', path: '/pets', auth: { key: FREE } })).rejects.toThrow(/^GET \/pets not sent: free#1's limiter refused 2 requests within plan free's quota \(rate-limit.quota \[free#1\] judges the limiter\)$/);
    expect(hits.length).toBe(sent);
    // The rate-limit suite's own requests (never retried) still go out, and another key is untouched.
    expect((await api.send({ method: 'GET', path: '/pets', auth: { key: FREE }, retry: false })).status).toBe(200);
    const before = hits.length;
    expect((await api.send({ method: 'GET', path: '/pets', auth: { key: OTHER } })).status).toBe(200);
    expect(hits.slice(before).every((h) => h.startsWith(`Bearer ${OTHER.key}`))).toBe(true);
    expect(hits.length).toBeGreaterThan(before);
  });

  it('counts the requests still in flight beside a 429: three sent together on a plan of two a minute are not refused within it', async () => {
    const TWO: TargetKey = { ...FREE, key: 'sk-unit-two-1', label: 'two#1', env: 'UNIT_TWO_KEY', quota: { perMinute: 2, perDay: 100 } };
    // The first two are held; the third, answered at once, is refused.
    const headers: Record<string, string> = { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0' };
    answer = (_p, n) => (n <= 2 ? { status: 200, headers } : { status: 429, headers: { ...headers, 'retry-after': '1' } });
    hold = (n) => (n <= 2 ? 150 : 0);
    const { api, exchanges } = client({ keys: [TWO], retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxWaitMs: 60_000 } });
    await Promise.all([0, 1, 2].map(() => api.send({ method: 'GET', path: '/pets', auth: { key: TWO } }).catch(() => undefined)));
    const refused = exchanges.find((e) => e.status === 429);
    expect(refused).toBeDefined();
    expect(refused!.refusedWithinQuota).toBeUndefined();
    expect(api.earlyRefusals('two#1')).toEqual([]);
  });

  it('does not mark a 429 that comes once the key has sent its quota within the window', async () => {
    answer = (_p, n) => (n <= 60 ? { status: 200, headers: {} as Record<string, string> } : { status: 429, headers: { 'retry-after': '1', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' } });
    const { api, exchanges } = client({ retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxWaitMs: 60_000 } });
    for (let i = 0; i < 60; i++) await api.send({ method: 'GET', path: '/pets', auth: { key: FREE } });
    await api.send({ method: 'GET', path: '/pets', auth: { key: FREE } }).catch(() => undefined);
    expect(exchanges.at(-1)).toMatchObject({ status: 429 });
    expect(exchanges.at(-1)!.refusedWithinQuota).toBeUndefined();
    expect(api.earlyRefusals('free#1')).toEqual([]);
  });

  it('does not mark one that comes less than a window after the run began: an earlier run may have spent the window', async () => {
    answer = noBurst;
    const { api, exchanges, delays } = client({ knownSince: Date.now() });
    for (let i = 0; i < 3; i++) await api.send({ method: 'GET', path: '/pets', auth: { key: FREE } });
    expect(exchanges.filter((e) => e.status === 429).length).toBeGreaterThanOrEqual(2);
    expect(exchanges.map((e) => e.refusedWithinQuota)).toEqual(exchanges.map(() => undefined));
    expect(delays.length).toBeGreaterThanOrEqual(2);
  });

  it("does not mark the day's 429, nor one whose minute headers leave room", async () => {
    answer = (p) => (p.endsWith('/day') ? { status: 429, headers: { 'retry-after': '3600', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' } } : { status: 429, headers: { 'retry-after': '1', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '7' } });
    const { api, exchanges } = client();
    await api.send({ method: 'GET', path: '/day', auth: { key: FREE }, retry: false });
    await api.send({ method: 'GET', path: '/room', auth: { key: FREE }, retry: false });
    expect(exchanges.map((e) => e.refusedWithinQuota)).toEqual([undefined, undefined]);
  });
});

describe('ApiClient: no wait ends after the run time limit', () => {
  it('gives up a retry whose wait would end after the deadline, without waiting', async () => {
    answer = () => ({ status: 429, headers: { 'retry-after': '30' } });
    const now = Date.now();
    const { api, delays } = client({ deadline: now + 10_000, now: () => now });
    await expect(api.send({ method: 'GET', path: '/pets', auth: { none: true } })).rejects.toBeInstanceOf(RunTimeLimitError);
    expect(delays).toEqual([]);
    expect(hits).toHaveLength(1);
  });
});
