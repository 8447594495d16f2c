import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Budget } from '../../../lib/client/budget.ts';
import { ApiClient, type ClientOptions } from '../../../lib/client/client.ts';
import { curlCommand } from '../../../lib/result/curl.ts';
import type { TargetKey } from '../../../lib/config/schema.ts';
import { BudgetExhaustedError, RateLimitedError, RunTimeLimitError, TargetGoneError, TransportError } from '../../../lib/errors.ts';
import { nearMissKeys } from '../../../lib/generators/near-miss-key.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { closedPort, type Received as Seen, type RecordingServer, startRecordingServer } from '../../support/recording-server.ts';

/** Distinctive, and with characters that URL encodings change. */
const KEY = 'sk-live-CLIENT+SECRET/9=x~y';
const FREE: TargetKey = { key: KEY, plan: 'free', disposable: false, label: 'free#1', env: 'UNIT_FREE_KEY', quota: { perMinute: 60, perDay: 1000 } };

type Handler = (req: Seen, res: http.ServerResponse) => void;

const routes = new Map<string, Handler>();
const seen = new Map<string, Seen[]>();
let server: RecordingServer;
let baseUrl: string;

beforeAll(async () => {
  server = await startRecordingServer((request, res) => {
    const path = new URL(request.url || '/', 'http://x').pathname;
    seen.set(path, [...(seen.get(path) ?? []), request]);
    const handler = routes.get(path);
    if (handler) handler(request, res);
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found","message":"no route","status":404}');
  });
  baseUrl = server.baseUrl;
});

afterAll(() => server.close());

const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(overrides: Partial<ClientOptions> = {}): { api: ApiClient; exchanges: Exchange[]; delays: number[] } {
  const exchanges: Exchange[] = [];
  const delays: number[] = [];
  const api = new ApiClient({
    baseUrl,
    keys: [FREE],
    budget: new Budget(100),
    timeoutMs: 2000,
    onExchange: (e) => exchanges.push(e),
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  clients.push(api);
  return { api, exchanges, delays };
}

const hits = (path: string): number => seen.get(`/v1${path}`)?.length ?? 0;
const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('ApiClient: exchanges', () => {
  it('records method, URL, status, headers and body of an exchange', async () => {
    routes.set('/v1/record', (_req, res) => json(res, 200, [{ id: 1, name: 'Rex', categoryId: 2 }], { 'X-RateLimit-Limit': '60' }));
    const { api, exchanges } = client({ suite: 'unit-suite', seqStart: 7 });
    const response = await api.send({ method: 'GET', path: '/record', query: { limit: 5, status: undefined }, auth: { none: true } });

    expect(response.status).toBe(200);
    expect(response.text).toBe('[{"id":1,"name":"Rex","categoryId":2}]');
    expect(response.headers['x-ratelimit-limit']).toBe('60');
    expect(exchanges).toEqual([response.exchange]);
    expect(response.exchange).toMatchObject({
      seq: 7,
      suite: 'unit-suite',
      method: 'GET',
      url: `${baseUrl}/record?limit=5`,
      auth: { kind: 'none' },
      requestHeaders: { accept: 'application/json' },
      status: 200,
      responseHeaders: { 'content-type': 'application/json', 'x-ratelimit-limit': '60' },
      responseBody: '[{"id":1,"name":"Rex","categoryId":2}]',
    });
    expect(response.exchange.responseBodyTruncated).toBeUndefined();
    expect(Date.parse(response.exchange.startedAt)).not.toBeNaN();
    expect(api.sent).toBe(8);
    expect(seen.get('/v1/record')?.[0]?.headers.authorization).toBeUndefined();
  });

  it('sends a body as JSON and records it', async () => {
    routes.set('/v1/create', (req, res) => json(res, 201, { ...JSON.parse(req.body), id: 9 }));
    const { api } = client();
    const body = '{"name":"Rex","categoryId":9223372036854775807}';
    const response = await api.send({ method: 'POST', path: '/create', body, auth: { none: true } });
    const received = seen.get('/v1/create')?.[0];
    expect(received?.body).toBe(body);
    expect(received?.headers['content-type']).toBe('application/json');
    expect(response.exchange.requestBody).toBe(body);
    expect(response.exchange.requestHeaders['content-type']).toBe('application/json');
  });

  it('keeps a Content-Type given by the request', async () => {
    routes.set('/v1/content-type', (_req, res) => json(res, 400, {}));
    const { api } = client();
    await api.send({ method: 'POST', path: '/content-type', body: 'x=1', headers: { 'Content-Type': 'text/plain' }, auth: { none: true } });
    expect(seen.get('/v1/content-type')?.[0]?.headers['content-type']).toBe('text/plain');
  });

  it('tells observers about exchanges until they unsubscribe', async () => {
    routes.set('/v1/observe', (_req, res) => json(res, 200, []));
    const { api } = client();
    const observed: number[] = [];
    const stop = api.subscribe((e) => observed.push(e.seq));
    await api.send({ method: 'GET', path: '/observe', auth: { none: true } });
    stop();
    await api.send({ method: 'GET', path: '/observe', auth: { none: true } });
    expect(observed).toEqual([0]);
  });

  it('marks a body longer than the record limit as truncated and cuts it on a character boundary', async () => {
    const big = '€'.repeat(40_000); // 120,000 bytes, 3 per character
    routes.set('/v1/big', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(big));
    const { api } = client();
    const response = await api.send({ method: 'GET', path: '/big', auth: { none: true } });
    expect(response.text).toBe(big);
    expect(response.exchange.responseBodyTruncated).toBe(true);
    const recorded = response.exchange.responseBody ?? '';
    expect(Buffer.byteLength(recorded)).toBeLessThanOrEqual(64 * 1024);
    expect(Buffer.byteLength(recorded)).toBeGreaterThan(64 * 1024 - 3);
    expect(big.startsWith(recorded)).toBe(true);
  });

  it('records a body of exactly the record limit whole', async () => {
    routes.set('/v1/limit', (_req, res) => res.writeHead(200).end('a'.repeat(64 * 1024)));
    const { api } = client();
    const response = await api.send({ method: 'GET', path: '/limit', auth: { none: true } });
    expect(response.exchange.responseBody).toHaveLength(64 * 1024);
    expect(response.exchange.responseBodyTruncated).toBeUndefined();
  });
});

describe('ApiClient: the key never reaches a record', () => {
  beforeAll(() => {
    routes.set('/v1/echo', (req, res) =>
      json(res, 200, { youSent: req.headers.authorization, url: req.url }, { 'x-echo-authorization': String(req.headers.authorization) }),
    );
  });

  it('sends the configured key and records it redacted', async () => {
    const { api } = client();
    const { exchange } = await api.send({ method: 'GET', path: '/echo', auth: { key: FREE } });
    expect(seen.get('/v1/echo')?.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(exchange.auth).toEqual({ kind: 'key', label: 'free#1', env: 'UNIT_FREE_KEY', header: 'Bearer $UNIT_FREE_KEY' });
    expect(exchange.requestHeaders.authorization).toBe('Bearer [REDACTED:free#1]');
  });

  it('redacts a key the server echoes in a header and in the body', async () => {
    const { api } = client();
    const { exchange, text } = await api.send({ method: 'GET', path: '/echo', auth: { key: FREE, scheme: 'Token' } });
    expect(text).toContain(KEY); // the server did echo it
    expect(exchange.responseHeaders['x-echo-authorization']).toBe('Token [REDACTED:free#1]');
    expect(exchange.auth).toMatchObject({ header: 'Token $UNIT_FREE_KEY' });
    const recorded = JSON.stringify(exchange);
    expect(recorded).not.toContain(KEY);
    expect(recorded).not.toContain(encodeURIComponent(KEY));
  });

  it('redacts a configured key sent as a query parameter from the URL and the auth record', async () => {
    const { api } = client();
    const { exchange } = await api.send({ method: 'GET', path: '/echo', auth: { queryParam: 'api_key', value: KEY } });
    expect(new URL(`http://x${seen.get('/v1/echo')?.at(-1)?.url}`).searchParams.get('api_key')).toBe(KEY);
    expect(exchange.url).toBe(`${baseUrl}/echo?api_key=[REDACTED:free#1]`);
    expect(exchange.auth).toEqual({ kind: 'literal', header: '[REDACTED:free#1]', where: 'query' });
    expect(JSON.stringify(exchange)).not.toMatch(/SECRET/);
  });

  it('redacts a configured key in a request body', async () => {
    const { api } = client();
    const { exchange } = await api.send({ method: 'POST', path: '/echo', body: JSON.stringify({ name: KEY, categoryId: 1 }), auth: { none: true } });
    expect(exchange.requestBody).toBe('{"name":"[REDACTED:free#1]","categoryId":1}');
  });

  describe('a near miss of a configured key', () => {
    /** The key and its prefix, as written and URL-encoded, in lower case: none may be in a record. */
    const secrets = [KEY, KEY.slice(0, -1)].flatMap((k) => [k, encodeURIComponent(k)]).map((k) => k.toLowerCase());
    const leaks = (text: string) => secrets.filter((k) => text.toLowerCase().includes(k));

    it.each(nearMissKeys(KEY).map((c) => [c.name, c]))('%s is sent as generated and recorded as shell text, the echo redacted', async (_name, nearMiss) => {
      const { api, exchanges } = client();
      const { exchange, text } = await api.send({ method: 'GET', path: '/echo', auth: { nearMissOf: FREE, nearMiss } });
      expect(seen.get('/v1/echo')?.at(-1)?.headers.authorization).toBe(nearMiss.header);
      expect(text).toContain('youSent'); // the server echoed what it got
      expect(exchange.auth).toEqual({ kind: 'key', label: 'free#1', env: 'UNIT_FREE_KEY', header: nearMiss.shell('UNIT_FREE_KEY') });
      expect(exchange.requestHeaders.authorization).toMatch(/^Bearer ?\[REDACTED:free#1/);
      expect(exchanges).toEqual([exchange]);
      expect(leaks(JSON.stringify(exchange))).toEqual([]);
      const curl = curlCommand(exchange);
      expect(leaks(curl)).toEqual([]);
      expect(curl).toContain(`"Authorization: ${nearMiss.shell('UNIT_FREE_KEY')}"`);
    });

    it('names the prefix in the recorded header', async () => {
      const { api } = client();
      const prefix = nearMissKeys(KEY).find((c) => c.name === 'prefix')!;
      const { exchange } = await api.send({ method: 'GET', path: '/echo', auth: { nearMissOf: FREE, nearMiss: prefix } });
      expect(exchange.requestHeaders.authorization).toBe('Bearer [REDACTED:free#1 prefix]');
      expect(exchange.auth).toMatchObject({ header: 'Bearer ${UNIT_FREE_KEY%?}' });
      expect(exchange.responseBody).toContain('[REDACTED:free#1 prefix]');
    });

    it('refuses, before sending or counting anything, a near miss of a key the client does not redact', async () => {
      const { api, exchanges } = client();
      const other: TargetKey = { ...FREE, key: 'sk-other-key-0001', label: 'free#9' };
      const [nearMiss] = nearMissKeys(other.key);
      const err = await api.send({ method: 'GET', path: '/echo', auth: { nearMissOf: other, nearMiss: nearMiss! } }).catch((e: unknown) => e);
      expect(String(err)).toMatch(/free#9.*not one of this client's keys/);
      expect(String(err)).not.toContain('sk-other');
      expect(exchanges).toEqual([]);
      expect(api.budget.used).toBe(0);
    });
  });

  it('records a made-up credential as sent', async () => {
    const { api } = client();
    const { exchange } = await api.send({ method: 'GET', path: '/echo', auth: { header: 'Bearer not-a-key-0000' } });
    expect(exchange.auth).toEqual({ kind: 'literal', header: 'Bearer not-a-key-0000', where: 'header' });
    expect(exchange.requestHeaders.authorization).toBe('Bearer not-a-key-0000');
  });
});

describe('ApiClient: budget', () => {
  it('throws BudgetExhaustedError for the request after the budget and does not send it', async () => {
    routes.set('/v1/budget', (_req, res) => json(res, 200, []));
    const { api, exchanges } = client({ budget: new Budget(3) });
    for (let i = 0; i < 3; i++) await api.send({ method: 'GET', path: '/budget', auth: { none: true } });
    await expect(api.send({ method: 'GET', path: '/budget', auth: { none: true } })).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(hits('/budget')).toBe(3);
    expect(exchanges).toHaveLength(3);
    expect(api.sent).toBe(3);
  });

  it('counts retries against the budget', async () => {
    routes.set('/v1/budget-retry', (_req, res) => json(res, 429, {}, { 'retry-after': '1' }));
    const { api } = client({ budget: new Budget(2) });
    await expect(api.send({ method: 'GET', path: '/budget-retry', auth: { none: true } })).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(hits('/budget-retry')).toBe(2);
  });
});

describe('ApiClient: 429 and retries', () => {
  it('waits at least Retry-After before retrying, then returns the success', async () => {
    let n = 0;
    routes.set('/v1/limited-once', (_req, res) => (n++ === 0 ? json(res, 429, { code: 'rate_limited' }, { 'Retry-After': '1' }) : json(res, 200, [])));
    const onWait = vi.fn();
    const { api, delays, exchanges } = client({ onWait });
    const response = await api.send({ method: 'GET', path: '/limited-once', auth: { key: FREE } });
    expect(response.status).toBe(200);
    expect(hits('/limited-once')).toBe(2);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(1000);
    expect(onWait).toHaveBeenCalledWith(delays[0], expect.stringContaining('GET /limited-once: 429: Retry-After 1 s'));
    expect(exchanges.map((e) => [e.seq, e.status])).toEqual([
      [0, 429],
      [1, 200],
    ]);
  });

  it('returns a 429 as is when retry is false', async () => {
    routes.set('/v1/limited-no-retry', (_req, res) => json(res, 429, {}, { 'Retry-After': '1' }));
    const { api, delays } = client();
    const response = await api.send({ method: 'GET', path: '/limited-no-retry', auth: { none: true }, retry: false });
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('1');
    expect(hits('/limited-no-retry')).toBe(1);
    expect(delays).toEqual([]);
  });

  it('throws RateLimitedError once the attempts are spent: the check could not be made', async () => {
    routes.set('/v1/limited-always', (_req, res) => json(res, 429, {}, { 'Retry-After': '2' }));
    const { api, delays } = client({ retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000, maxWaitMs: 60_000 } });
    const err = await api.send({ method: 'GET', path: '/limited-always', auth: { none: true } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).message).toMatch(/still rate-limited: gave up after 3 attempts/);
    expect(hits('/limited-always')).toBe(3);
    expect(delays).toHaveLength(2);
    expect(delays.every((d) => d >= 2000)).toBe(true);
  });

  it('does not retry a 500', async () => {
    routes.set('/v1/server-error', (_req, res) => json(res, 500, {}, { 'Retry-After': '1' }));
    const { api } = client();
    expect((await api.send({ method: 'GET', path: '/server-error', auth: { none: true } })).status).toBe(500);
    expect(hits('/server-error')).toBe(1);
  });
});

describe('ApiClient: a retry after a Retry-After records the 429 it follows', () => {
  /** The client's clock when each answer is read (Retry-After is measured from it). */
  const NOW = Date.UTC(2025, 0, 6, 12, 0, 0);
  /** The server's Date at NOW: X-RateLimit-Reset is read in the server's time when its clock is off ours. */
  const DATE = new Date(NOW).toUTCString();

  it("marks the retry after `Retry-After: 1` with the 429's seq and the moment it named", async () => {
    let n = 0;
    routes.set('/v1/follows-once', (_req, res) => (n++ === 0 ? json(res, 429, { code: 'rate_limited' }, { 'Retry-After': '1' }) : json(res, 200, [])));
    const { api, exchanges } = client({ now: () => NOW, seqStart: 40 });
    const response = await api.send({ method: 'GET', path: '/follows-once', auth: { key: FREE } });
    expect(response.status).toBe(200);
    expect(exchanges.map((e) => [e.seq, e.status])).toEqual([
      [40, 429],
      [41, 200],
    ]);
    // The first attempt follows nothing; the retry follows the 429 and names when it let the key back in.
    expect(exchanges[0]!.followsRetryAfter).toBeUndefined();
    expect(exchanges[1]!.followsRetryAfter).toEqual({ seq: 40, until: new Date(NOW + 1_000).toISOString() });
    expect(response.exchange.followsRetryAfter).toEqual({ seq: 40, until: new Date(NOW + 1_000).toISOString() });
  });

  it('names a moment about one second after the 429 came, on the real clock', async () => {
    let n = 0;
    routes.set('/v1/follows-real-clock', (_req, res) => (n++ === 0 ? json(res, 429, {}, { 'Retry-After': '1' }) : json(res, 200, [])));
    const { api, exchanges } = client();
    await api.send({ method: 'GET', path: '/follows-real-clock', auth: { key: FREE } });
    const [refusal, retry] = exchanges;
    const answered = Date.parse(refusal!.startedAt) + refusal!.durationMs;
    expect(retry!.followsRetryAfter?.seq).toBe(refusal!.seq);
    const until = Date.parse(retry!.followsRetryAfter!.until);
    expect(until).toBeGreaterThanOrEqual(answered + 1_000 - 5);
    expect(until).toBeLessThanOrEqual(answered + 1_000 + 250);
  });

  it('measures an HTTP-date Retry-After from the client clock', async () => {
    let n = 0;
    routes.set('/v1/follows-date', (_req, res) => (n++ === 0 ? json(res, 429, {}, { 'Retry-After': new Date(NOW + 3_000).toUTCString() }) : json(res, 200, [])));
    const { api, exchanges } = client({ now: () => NOW });
    await api.send({ method: 'GET', path: '/follows-date', auth: { key: FREE } });
    expect(exchanges[1]!.followsRetryAfter).toEqual({ seq: exchanges[0]!.seq, until: new Date(NOW + 3_000).toISOString() });
  });

  it('records none on a retry after a 429 that named no time (X-RateLimit-Reset only)', async () => {
    let n = 0;
    const reset = String(NOW / 1000 + 2);
    routes.set('/v1/follows-reset-only', (_req, res) => (n++ === 0 ? json(res, 429, {}, { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset, Date: DATE }) : json(res, 200, [])));
    const { api, delays, exchanges } = client({ now: () => NOW });
    expect((await api.send({ method: 'GET', path: '/follows-reset-only', auth: { key: FREE } })).status).toBe(200);
    // It did wait for the Reset, but no Retry-After was waited out.
    expect(delays[0]).toBeGreaterThanOrEqual(2_000);
    expect(exchanges.map((e) => e.status)).toEqual([429, 200]);
    expect(exchanges.map((e) => e.followsRetryAfter)).toEqual([undefined, undefined]);
  });

  it('follows only the 429 just before: a retry after a Reset-only 429 follows nothing', async () => {
    let n = 0;
    const reset = String(NOW / 1000 + 2);
    routes.set('/v1/follows-chain', (_req, res) => {
      n += 1;
      if (n === 1) json(res, 429, {}, { 'Retry-After': '1' });
      else if (n === 2) json(res, 429, {}, { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset });
      else json(res, 200, []);
    });
    const { api, exchanges } = client({ now: () => NOW });
    await api.send({ method: 'GET', path: '/follows-chain', auth: { key: FREE } });
    expect(exchanges.map((e) => e.status)).toEqual([429, 429, 200]);
    expect(exchanges.map((e) => e.followsRetryAfter?.seq)).toEqual([undefined, exchanges[0]!.seq, undefined]);
  });

  it('records none on a retry after a 503, whatever its Retry-After', async () => {
    let n = 0;
    routes.set('/v1/follows-503', (_req, res) => (n++ === 0 ? json(res, 503, {}, { 'Retry-After': '1' }) : json(res, 200, [])));
    const { api, exchanges } = client({ now: () => NOW });
    await api.send({ method: 'GET', path: '/follows-503', auth: { key: FREE } });
    expect(exchanges.map((e) => [e.status, e.followsRetryAfter])).toEqual([
      [503, undefined],
      [200, undefined],
    ]);
  });

  it('records none when retry is false', async () => {
    routes.set('/v1/follows-no-retry', (_req, res) => json(res, 429, {}, { 'Retry-After': '1' }));
    const { api, exchanges } = client({ now: () => NOW });
    await api.send({ method: 'GET', path: '/follows-no-retry', auth: { key: FREE }, retry: false });
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.followsRetryAfter).toBeUndefined();
  });

  it('refused again at the time a 429 named, waits for the later of the next Retry-After and Reset', async () => {
    let n = 0;
    const reset = String(NOW / 1000 + 30);
    routes.set('/v1/follows-distrust', (_req, res) => (n++ < 2 ? json(res, 429, {}, { 'Retry-After': '1', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset, Date: DATE }) : json(res, 200, [])));
    const { api, delays, exchanges } = client({ now: () => NOW });
    expect((await api.send({ method: 'GET', path: '/follows-distrust', auth: { key: FREE } })).status).toBe(200);
    // The first Retry-After is trusted (1 s and jitter); once it proved wrong, the next wait is until Reset.
    expect(delays[0]).toBeLessThan(2_000);
    expect(delays[1]).toBe(30_000);
    expect(exchanges.map((e) => e.status)).toEqual([429, 429, 200]);
  });

  it('refused again, gives up when Reset is further away than the client waits', async () => {
    routes.set('/v1/follows-distrust-far', (_req, res) => json(res, 429, {}, { 'Retry-After': '1', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(NOW / 1000 + 86_400), Date: DATE }));
    const { api, exchanges } = client({ now: () => NOW });
    await expect(api.send({ method: 'GET', path: '/follows-distrust-far', auth: { key: FREE } })).rejects.toThrow(/refused again after waiting out a Retry-After, and X-RateLimit-Reset is 86400 s away/);
    expect(exchanges).toHaveLength(2);
  });

  it('records the followsRetryAfter a caller passes (the rate-limit driver), as an ISO time', async () => {
    routes.set('/v1/follows-given', (_req, res) => json(res, 200, []));
    const { api } = client();
    const { exchange } = await api.send({ method: 'GET', path: '/follows-given', auth: { key: FREE }, retry: false, followsRetryAfter: { seq: 3, until: NOW } });
    expect(exchange.followsRetryAfter).toEqual({ seq: 3, until: '2025-01-06T12:00:00.000Z' });
  });
});

describe('ApiClient: every time it reads comes from the injected clock', () => {
  /** Far from the wall clock, so that a reading of the wall clock shows. */
  const T0 = Date.UTC(2031, 4, 2, 9, 30, 0);

  it("sendOnce dates and times an exchange by the injected clock (the server's answer moves it 750 ms on)", async () => {
    let clock = T0;
    routes.set('/v1/clocked', (_req, res) => {
      clock += 750;
      json(res, 200, []);
    });
    const { api, exchanges } = client({ now: () => clock });
    const { exchange } = await api.sendOnce({ method: 'GET', path: '/clocked', auth: { none: true } });
    expect({ startedAt: exchange.startedAt, durationMs: exchange.durationMs }).toEqual({ startedAt: new Date(T0).toISOString(), durationMs: 750 });
    expect(exchanges).toEqual([exchange]);
  });

  it('sendOnce dates and times a request that got no response by the injected clock', async () => {
    const port = await closedPort();
    const { api, exchanges } = client({ baseUrl: `http://127.0.0.1:${port}/v1`, now: () => T0 });
    await expect(api.sendOnce({ method: 'GET', path: '/pets', auth: { none: true } })).rejects.toBeInstanceOf(TransportError);
    expect(exchanges.map((e) => [e.startedAt, e.durationMs, e.transportError])).toEqual([[new Date(T0).toISOString(), 0, 'CONNECTION_REFUSED']]);
  });

  it('sendOnce stops at the run time limit by the injected clock, though the wall clock is an hour before it', async () => {
    const deadline = Date.now() + 3_600_000;
    const { api, exchanges } = client({ now: () => deadline, deadline });
    await expect(api.sendOnce({ method: 'GET', path: '/clocked-late', auth: { none: true } })).rejects.toBeInstanceOf(RunTimeLimitError);
    expect(exchanges).toEqual([]);
    expect(hits('/clocked-late')).toBe(0);
  });
});

describe('ApiClient: transport errors', () => {
  it('throws TransportError CONNECTION_REFUSED for a closed port and records the exchange', async () => {
    const port = await closedPort();

    const { api, exchanges } = client({ baseUrl: `http://127.0.0.1:${port}/v1` });
    const err = await api.send({ method: 'GET', path: '/pets', auth: { queryParam: 'api_key', value: KEY } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).cause_code).toBe('CONNECTION_REFUSED');
    expect((err as TransportError).message).not.toContain('SECRET');
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ transportError: 'CONNECTION_REFUSED', responseHeaders: {} });
    expect(exchanges[0]?.status).toBeUndefined();
  });

  it('throws TransportError about timeoutMs after a request the server never answers', async () => {
    routes.set('/v1/silent', () => {
      /* never answers */
    });
    const { api, exchanges } = client({ timeoutMs: 300 });
    const started = performance.now();
    const err = await api.send({ method: 'GET', path: '/silent', auth: { none: true } }).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).cause_code).toBe('HEADERS_TIMEOUT');
    // Not early, and not hanging.
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(300 + 700);
    expect(exchanges[0]?.transportError).toBe('HEADERS_TIMEOUT');
  });

  it('stops sending once five requests in a row got no response, and says why', async () => {
    const port = await closedPort();
    const exchanges: Exchange[] = [];
    const api = new ApiClient({ baseUrl: `http://127.0.0.1:${port}/v1`, keys: [], budget: new Budget(100), timeoutMs: 1_000, onExchange: (e) => exchanges.push(e) });
    try {
      for (let i = 0; i < 5; i++) expect(await api.send({ method: 'GET', path: '/pets', auth: { none: true } }).catch((e: unknown) => e)).toBeInstanceOf(TransportError);
      const gone = await api.send({ method: 'GET', path: '/pets', auth: { none: true } }).catch((e: unknown) => e);
      expect(gone).toBeInstanceOf(TargetGoneError);
      expect((gone as TargetGoneError).message).toMatch(/5 requests in a row got no response/);
      expect(exchanges).toHaveLength(5);
      expect(api.budget.used).toBe(5);
    } finally {
      await api.close();
    }
  });

  it('ends a response dripped one byte at a time at the whole-request deadline', async () => {
    let timer: NodeJS.Timeout | undefined;
    routes.set('/v1/drip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const { api, exchanges } = client({ timeoutMs: 300 });
    const started = performance.now();
    const err = await api.send({ method: 'GET', path: '/drip', auth: { none: true } }).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).cause_code).toBe('REQUEST_DEADLINE');
    // Never between chunks for 300 ms, so only the deadline (timeoutMs plus 1 s of slack) ends it.
    expect(elapsed).toBeGreaterThanOrEqual(1_250);
    expect(elapsed).toBeLessThan(3_000);
    expect(exchanges[0]?.transportError).toBe('REQUEST_DEADLINE');
  });
});

describe('ApiClient: every legal form of an answer', () => {
  it('records the interim answers before the final one (100, 102, 103), and returns the final one alone', async () => {
    routes.set('/v1/interim', (_req, res) => {
      res.writeContinue();
      res.writeProcessing();
      res.writeEarlyHints({ link: '</a.css>; rel=preload' });
      json(res, 200, [], { 'X-RateLimit-Remaining': '7' });
    });
    const { api } = client();
    const res = await api.send({ method: 'GET', path: '/interim', auth: { none: true } });
    expect({ status: res.status, text: res.text, remaining: res.headers['x-ratelimit-remaining'], link: res.headers.link }).toEqual({ status: 200, text: '[]', remaining: '7', link: undefined });
    expect(res.exchange.interim).toEqual([100, 102, 103]);
  });

  it('records no interim answers when there were none', async () => {
    routes.set('/v1/plain', (_req, res) => json(res, 200, []));
    const { api } = client();
    expect((await api.send({ method: 'GET', path: '/plain', auth: { none: true } })).exchange).not.toHaveProperty('interim');
  });

  it('decodes a body coded with gzip though the request sent no Accept-Encoding, and records it decoded', async () => {
    routes.set('/v1/gzip', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'x-asked': String(req.headers['accept-encoding'] ?? 'nothing') }).end(gzipSync('[{"id":1}]'));
    });
    const { api } = client();
    const res = await api.send({ method: 'GET', path: '/gzip', auth: { none: true } });
    expect({ text: res.text, asked: res.headers['x-asked'], recorded: res.exchange.responseBody, cut: res.exchange.responseBodyTruncated }).toEqual({ text: '[{"id":1}]', asked: 'nothing', recorded: '[{"id":1}]', cut: undefined });
  });

  it('keeps status and headers of a body it cannot decode, says why, and records the body as not seen', async () => {
    routes.set('/v1/zstd', (_req, res) => res.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'zstd' }).end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2])));
    const { api } = client();
    const res = await api.send({ method: 'GET', path: '/zstd', auth: { none: true } });
    expect({ status: res.status, text: res.text, problem: res.bodyProblem }).toEqual({ status: 404, text: '', problem: 'content coding "zstd" cannot be decoded' });
    expect(res.exchange).toMatchObject({ status: 404, responseBody: '', responseBodyTruncated: true });
  });

  it('joins a repeated Retry-After with ", " rather than keeping one of them', async () => {
    routes.set('/v1/two-retry-afters', (_req, res) => {
      res.setHeader('Retry-After', ['1', '2']);
      json(res, 429, {});
    });
    const { api } = client();
    const res = await api.send({ method: 'GET', path: '/two-retry-afters', auth: { none: true }, retry: false });
    expect(res.headers['retry-after']).toBe('1, 2');
    expect(res.exchange.responseHeaders['retry-after']).toBe('1, 2');
  });
});

describe('ApiClient: connections of their own', () => {
  it('sends requests given ownConnection() over one connection each, apart from the pool, recorded and redacted like the rest', async () => {
    const ports: number[] = [];
    routes.set('/v1/own', (_req, res) => {
      ports.push(res.socket!.remotePort!);
      json(res, 200, {});
    });
    const { api, exchanges } = client();
    const own = [api.ownConnection(), api.ownConnection(), api.ownConnection()];
    try {
      await Promise.all(own.map((connection) => api.send({ method: 'GET', path: '/own', auth: { key: FREE }, connection })));
      await api.send({ method: 'GET', path: '/own', auth: { key: FREE }, connection: own[0]! });
    } finally {
      for (const c of own) c.close();
    }
    expect(new Set(ports.slice(0, 3)).size).toBe(3);
    // A connection of its own keeps its one socket.
    expect(ports[3]).toBe(ports[0]);
    expect(exchanges.map((e) => e.seq).sort()).toEqual([0, 1, 2, 3]);
    for (const e of exchanges) expect(JSON.stringify(e)).not.toContain(KEY);
  });
});
