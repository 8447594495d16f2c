// The relations suite's driver (lib/suite-kit/relations.ts) against a server that is a function:
// what it sends around each spelling (the canonical answer, again when an answer differs; the
// spelling again before it is said uncounted; the store after an open body; a Location within the
// origin) and in which order. No sockets.
import { describe, expect, it } from 'vitest';
import { judgeInvariant, ONE_QUOTA_INVARIANT } from '../../../lib/checks/invariants.ts';
import type { PlannedSpelling } from '../../../lib/checks/relations.ts';
import type { ApiRequest, ApiResponse } from '../../../lib/client/client.ts';
import type { TargetKey } from '../../../lib/config/schema.ts';
import type { Spelled, Transformed } from '../../../lib/generators/transformations.ts';
import { BudgetExhaustedError } from '../../../lib/errors.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { canonicalRequests, idIn, observeRelations, requestOf } from '../../../lib/suite-kit/relations.ts';

const KEY = { key: 'sk-relations-test-1', label: 'pro#1', plan: 'pro', env: 'PRO_KEY', quota: { perMinute: 300, perDay: 10_000 } } as unknown as TargetKey;
const BASE_URL = 'http://127.0.0.1:9/v1';
const WINDOWS = { minute: 60, day: 86_400 };
/** Each fake answer 1 ms after the one before: a limiter of the plan gives nothing back in between. */
const T0 = Date.UTC(2026, 0, 1);
const [LIST, GET, CREATE] = canonicalRequests('/v1', '7', true) as [Spelled, Spelled, Spelled];

interface Sent {
  method: string;
  target: string;
  keyed: boolean;
  body?: string;
}

/** A server as a function of what was sent, and the log of what was. */
function server(answer: (s: Sent, n: number) => { status: number; headers?: Record<string, string>; body?: unknown }) {
  const log: Sent[] = [];
  const send = async (req: ApiRequest): Promise<ApiResponse> => {
    const s: Sent = { method: req.method, target: req.target ?? req.path, keyed: 'key' in req.auth, ...(req.body !== undefined ? { body: req.body } : {}) };
    log.push(s);
    const a = answer(s, log.length);
    const text = a.body === undefined ? '' : JSON.stringify(a.body);
    const headers = { 'content-type': 'application/json', ...a.headers };
    const exchange = { seq: log.length, method: req.method, url: s.target, status: a.status, startedAt: new Date(T0 + log.length).toISOString(), durationMs: 0 } as unknown as Exchange;
    return { exchange, status: a.status, headers, text };
  };
  return { log, send };
}

const spelled = (canonical: Spelled, request: Partial<Spelled>, family = 'path', keeps: Transformed['keeps'] = 'meaning', credential: 'key' | 'none' = 'key'): PlannedSpelling => ({
  canonical,
  transformed: { family, name: `${family} variant`, request: { ...canonical, ...request }, keeps },
  credential,
});

describe('requestOf', () => {
  it('sends the target as spelled, header names lower-cased so that an Accept replaces the default, and a respelled scheme alone without a key', () => {
    const r = requestOf({ ...LIST, base: ['v1', '.'], headers: [['Accept', 'text/plain']], scheme: 'bearer' }, 'none', KEY);
    expect(r).toMatchObject({ method: 'GET', target: '/v1/./pets?limit=2&status=available', headers: { accept: 'text/plain', authorization: 'bearer' }, auth: { none: true } });
    expect(requestOf({ ...LIST, scheme: 'BEARER' }, 'key', KEY).auth).toEqual({ key: KEY, scheme: 'BEARER' });
  });

  it('reads an int64 id whole, from an animal or the first of a list', () => {
    expect(idIn('[{"id":9223372036854775807,"name":"x"}]')).toBe('9223372036854775807');
    expect(idIn('{"id":7}')).toBe('7');
    expect(idIn('[]')).toBeUndefined();
    expect(idIn('not json')).toBeUndefined();
  });
});

describe('observeRelations', () => {
  it('sends reads before writes, and the canonical answer once per operation while answers agree', async () => {
    const { log, send } = server((s) => (s.method === 'POST' ? { status: 201, body: { id: 9, name: 'x', categoryId: 1 } } : { status: 200, body: /\/pets\/\d/.test(s.target) ? { id: 7 } : [{ id: 7 }] }));
    const plan = [spelled(CREATE, { chunked: true }, 'body'), spelled(LIST, { trailingSlash: true }), spelled(LIST, { headers: [['X-Real-IP', '127.0.0.1']] }, 'added-headers'), spelled(GET, { method: 'HEAD' }, 'method')];
    const { observations } = await observeRelations(plan, { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL });
    expect(log.map((s) => `${s.method} ${s.target}`)).toEqual([
      'GET /v1/pets?limit=2&status=available',
      'GET /v1/pets/?limit=2&status=available',
      'GET /v1/pets?limit=2&status=available',
      'GET /v1/pets/7',
      'HEAD /v1/pets/7',
      'POST /v1/pets',
      'POST /v1/pets',
      // After every createPet spelling: a NewPet without categoryId, and the canonical request's animal read back.
      'POST /v1/pets',
      'GET /v1/pets/9',
    ]);
    expect(observations.map((o) => o.transformed.family)).toEqual(['path', 'added-headers', 'method', 'body']);
    expect(observations.every((o) => (o.evidence ?? []).length >= 2)).toBe(true);
  });

  it('takes the canonical answer again when a spelling is answered otherwise, so that a changed store is not a changed meaning', async () => {
    let size = 1;
    const { log, send } = server((s) => ({ status: 200, body: Array.from({ length: s.target.includes('/?') ? ++size : size }, (_, i) => ({ id: i })) }));
    const {
      observations: [o],
    } = await observeRelations([spelled(LIST, { trailingSlash: true })], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL });
    expect(log).toHaveLength(3);
    expect(o!.canonicalSeen!.text).toBe(JSON.stringify([{ id: 0 }, { id: 1 }]));
  });

  it('sends the canonical request with a key right before an order spelling, however recently it was taken', async () => {
    const { log, send } = server(() => ({ status: 200, body: [] }));
    await observeRelations([spelled(LIST, {}, 'path'), spelled(LIST, {}, 'order', 'meaning', 'none')], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL });
    expect(log.map((s) => s.keyed)).toEqual([true, true, true, false]);
  });

  it('sends a spelling again before saying it drew nothing on the quota, and says so only when twice it did not', async () => {
    // Remaining falls for the canonical request only: a limiter that skips the trailing slash.
    let remaining = 100;
    const { log, send } = server((s) => {
      if (!s.target.startsWith('/v1/pets/')) remaining -= 1;
      return { status: 200, headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': '2000000000' }, body: [] };
    });
    const { observations } = await observeRelations([spelled(LIST, { trailingSlash: true })], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL });
    expect(log).toHaveLength(3);
    expect(judgeInvariant(ONE_QUOTA_INVARIANT, observations)).toMatchObject({ outcome: 'fail', code: 'not-counted', message: expect.stringContaining('(X-RateLimit-Remaining 99 before it, 99 after it, 99 after it again)') });
  });

  it('tells nothing where a sliding log lets go the key\'s requests sent one window earlier, and judges where it sent none then', async () => {
    // Remaining never falls: as many requests age out of the log as come in (the key's burst a minute before).
    const { send } = server(() => ({ status: 200, headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '2000000000' }, body: [] }));
    const minuteBefore = Array.from({ length: 5 }, (_, i) => T0 - 60_000 + i);
    const burstBefore = await observeRelations([spelled(LIST, { trailingSlash: true })], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL, sentWithKey: () => minuteBefore });
    expect(burstBefore.observations[0]!.refill).toBeGreaterThanOrEqual(2);
    expect(judgeInvariant(ONE_QUOTA_INVARIANT, burstBefore.observations)).toMatchObject({ outcome: 'skip' });
    // The key sent nothing a window before (only long before): the log lets nothing go, Remaining must fall.
    const quiet = await observeRelations([spelled(LIST, { trailingSlash: true })], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL, sentWithKey: () => [T0 - 300_000] });
    expect(judgeInvariant(ONE_QUOTA_INVARIANT, quiet.observations)).toMatchObject({ outcome: 'fail', code: 'not-counted' });
  });

  it('counts nothing let go by a window whose Reset has held for seconds of requests (a fixed window skipping a spelling still fails)', async () => {
    // The key's answers name one Reset from 2 s before the spelling on: a fixed window's end.
    let n = 0;
    const send = async (req: ApiRequest): Promise<ApiResponse> => {
      n += 1;
      const at = n === 1 ? T0 : T0 + 2_000 + n;
      const exchange = { seq: n, method: req.method, url: req.target, status: 200, startedAt: new Date(at).toISOString(), durationMs: 0 } as unknown as Exchange;
      return { exchange, status: 200, headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '2000000000' }, text: '[]' };
    };
    const minuteBefore = Array.from({ length: 50 }, (_, i) => T0 + 2_000 - 60_000 + i);
    // Two spellings: the second's answer before is the first's, a few ms before it.
    const { observations } = await observeRelations([spelled(LIST, { trailingSlash: true }), spelled(LIST, { headers: [['X-Real-IP', '127.0.0.1']] }, 'added-headers')], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL, sentWithKey: () => minuteBefore });
    expect(observations[1]!.refill).toBeLessThan(1);
    expect(judgeInvariant(ONE_QUOTA_INVARIANT, observations)).toMatchObject({ outcome: 'fail', code: 'not-counted' });
  });

  it('tells nothing where a token bucket of the plan could give a request back meanwhile (a large quota, slow answers)', async () => {
    // Every answer the same Remaining, and the answers 100 ms apart: at 10,000 a minute a token comes back every 6 ms.
    const big = { ...KEY, quota: { perMinute: 10_000, perDay: 100_000 } } as TargetKey;
    let n = 0;
    const send = async (req: ApiRequest): Promise<ApiResponse> => {
      n += 1;
      const exchange = { seq: n, method: req.method, url: req.target, status: 200, startedAt: new Date(T0 + 100 * n).toISOString(), durationMs: 50 } as unknown as Exchange;
      return { exchange, status: 200, headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '10000', 'x-ratelimit-remaining': '9990', 'x-ratelimit-reset': '2000000000' }, text: '[]' };
    };
    const { observations } = await observeRelations([spelled(LIST, { trailingSlash: true })], { send, key: big, windows: WINDOWS, baseUrl: BASE_URL });
    expect(observations[0]!.refill).toBeGreaterThan(1);
    expect(judgeInvariant(ONE_QUOTA_INVARIANT, observations)).toMatchObject({ outcome: 'skip' });
  });

  it("a spelling with a bucket of its own fails one quota: its own Remaining falls, never below the key's answer before", async () => {
    // A limiter keyed on the raw Authorization header: "BEARER <key>" starts a bucket of its own.
    const remaining = new Map<string, number>();
    const { send } = server((s) => {
      const bucket = s.target.includes('/v1/Pets') ? 'other' : 'key';
      const left = (remaining.get(bucket) ?? (bucket === 'key' ? 40 : 60)) - 1;
      remaining.set(bucket, left);
      return { status: 200, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(left), 'x-ratelimit-reset': '2000000000' }, body: [] };
    });
    const { observations } = await observeRelations([spelled(LIST, { path: ['Pets'] })], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL });
    expect(judgeInvariant(ONE_QUOTA_INVARIANT, observations)).toMatchObject({ outcome: 'fail', code: 'not-counted', message: expect.stringContaining('(X-RateLimit-Remaining 39 before it, 59 after it, 58 after it again)') });
  });

  it('after a body the interface leaves open, reads the store: a NewPet without categoryId, the canonical animal read back', async () => {
    const { log, send } = server((s) => (s.method === 'POST' ? (s.body?.includes('"categoryId"') ? { status: 201, body: { id: 9, name: 'x', categoryId: 1 } } : { status: 400, body: { code: 'bad', message: 'bad', status: 400 } }) : { status: 200, body: { id: 9, name: 'x', categoryId: 1 } }));
    const {
      observations: [o],
    } = await observeRelations([spelled(CREATE, { body: '{"name":"x","categoryId":1,"__proto__":{}}' }, 'body', 'anything')], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL });
    expect(log.map((s) => `${s.method} ${s.target}`)).toEqual(['POST /v1/pets', 'POST /v1/pets', 'POST /v1/pets', 'GET /v1/pets/9']);
    expect(o!.integrity).toMatchObject({ schema: { status: 400 }, readBack: { status: 200 } });
  });

  it('a spent request budget ends the sending, not the judging: what was observed is kept, and why it stopped', async () => {
    let left = 3;
    const { send: answer } = server(() => ({ status: 200, body: [] }));
    const send = (req: ApiRequest) => (left-- > 0 ? answer(req) : Promise.reject(new BudgetExhaustedError(5)));
    const plan = [spelled(LIST, { trailingSlash: true }), spelled(LIST, { base: ['V1'] }), spelled(LIST, { query: [] }), spelled(LIST, { method: 'HEAD' }, 'method')];
    const observed = await observeRelations(plan, { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL });
    expect(observed.observations.length).toBeGreaterThan(0);
    expect(observed.observations.length).toBeLessThan(plan.length);
    expect(observed.stopped).toBe('request budget of 5 is spent (budget.maxRequests / --max-requests)');
  });

  it("follows a created animal's Location within the target's origin only", async () => {
    for (const [location, followed] of [
      ['/v1/pets/9', 'GET /v1/pets/9'],
      ['pets/9', 'GET /v1/pets/9'],
      ['http://127.0.0.1:9/v1/pets/9', 'GET /v1/pets/9'],
      ['https://api.example.com/v1/pets/9', undefined],
    ] as const) {
      const { log, send } = server((s) => (s.method === 'POST' ? { status: 201, headers: { location }, body: { id: 9 } } : { status: 200, body: { id: 9 } }));
      const {
      observations: [o],
    } = await observeRelations([spelled(CREATE, {}, 'negotiation')], { send, key: KEY, windows: WINDOWS, baseUrl: BASE_URL });
      // Then the store's integrity: a NewPet without categoryId, the canonical request's animal read back.
      expect(log.slice(2).map((s) => `${s.method} ${s.target}`)).toEqual([...(followed ? [followed] : []), 'POST /v1/pets', 'GET /v1/pets/9']);
      expect(o!.location !== undefined).toBe(followed !== undefined);
    }
  });
});
