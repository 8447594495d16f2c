// Each fault, switched on alone, changes exactly the behaviour its catalogue entry claims. The
// conforming behaviour of the same requests is covered by the other files in this folder.
import { Client } from 'undici';
import { describe, expect, it } from 'vitest';
import { checkById, isCheckId } from '../../lib/checks/registry.ts';
import { Pet, Pets } from '../../lib/models.ts';
import type { ServerConfigInput } from '../../targets/reference/config.ts';
import { FAULT_CATALOGUE, FAULT_IDS, isFaultId, type FaultId } from '../../targets/reference/faults.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { CAUGHT } from '../support/fault-catalogue.ts';
import {
  KEYS,
  T0,
  TEST_CONFIG,
  call,
  errorBody,
  fakeClock,
  postRaw,
  rateHeaders,
  startTestServer,
  type Exchange,
  type FakeClock,
} from './helpers.ts';

const T0_S = T0 / 1000;
/** Every check starts here: 10.25 s into a minute window, so waits are not whole seconds. */
const START = T0 + 10_250;
const key = KEYS.bulk;
const get = (s: RunningServer, path: string) => call(s, 'GET', path, { key });
const post = (s: RunningServer, json: unknown) => call(s, 'POST', '/v1/pets', { key, json });
const ids = async (s: RunningServer, query: string) => Pets.parse((await get(s, `/v1/pets${query}`)).json).map((p) => p.id);

/** A key of plan `tiny`, 3 requests a minute and 5 a day, in every fault's server. */
const TINY_KEY = 'test-tiny-key';
const CONFIG = {
  keys: [...TEST_CONFIG.keys, { key: TINY_KEY, plan: 'tiny' }],
  plans: { ...TEST_CONFIG.plans, tiny: { perMinute: 3, perDay: 5 } },
} satisfies Partial<ServerConfigInput>;
const tiny = (s: RunningServer) => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
const free = (s: RunningServer, n: 1 | 2 = 1) => call(s, 'GET', '/v1/pets', { key: n === 1 ? KEYS.free1 : KEYS.free2 });

/** `n` requests in a row with the tiny key. */
async function tinies(s: RunningServer, n: number): Promise<Exchange[]> {
  const out: Exchange[] = [];
  for (let i = 0; i < n; i++) out.push(await tiny(s));
  return out;
}

const statuses = (responses: Exchange[]) => responses.map((r) => r.status);
const header = (responses: Exchange[], name: string) => responses.map((r) => r.headers[name]);

/** Animals present for a fault's check; 60 unless listed. */
const PRELOAD: Partial<Record<FaultId, number>> = { 'list-accepts-limit-over-100': 150 };

const checks = {
  'auth-disabled': async (s) => {
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(200);
    expect((await call(s, 'GET', '/v1/pets', { authorization: 'Bearer wrong' })).status).toBe(200);
  },
  'auth-wrong-status': async (s) => {
    const res = await call(s, 'GET', '/v1/pets');
    expect(res.status).toBe(403);
    expect(errorBody(res)?.status).toBe(403);
    expect(res.headers['www-authenticate']).toBeUndefined();
  },
  'auth-no-error-body': async (s) => {
    const res = await call(s, 'GET', '/v1/pets');
    expect(res.status).toBe(401);
    expect(res.text).toBe('');
    expect(rateHeaders(res)).toBeDefined();
  },
  'auth-scheme-case-sensitive': async (s) => {
    expect((await call(s, 'GET', '/v1/pets', { authorization: `bearer ${key}` })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${key}` })).status).toBe(200);
  },
  'auth-after-store': async (s) => {
    const before = s.stats().pets;
    const refused = await call(s, 'POST', '/v1/pets', { json: { name: 'refused', categoryId: 1 } });
    expect(refused.status).toBe(401);
    expect(s.stats().pets).toBe(before + 1);
    expect(Pets.parse((await get(s, '/v1/pets?limit=100')).json).some((p) => p.name === 'refused')).toBe(true);
    // Refused all the same: an invalid NewPet without a key gets 401 and stores nothing; reads are refused as before.
    expect((await call(s, 'POST', '/v1/pets', { json: { name: 'x' } })).status).toBe(401);
    expect(s.stats().pets).toBe(before + 1);
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
  },
  'auth-query-key-accepted': async (s) => {
    for (const param of ['api_key', 'access_token', 'key']) {
      const res = await call(s, 'GET', `/v1/pets?${param}=${KEYS.pro}`);
      expect(res.status).toBe(200);
      expect(rateHeaders(res)?.limit).toBe(300);
    }
    expect((await call(s, 'GET', '/v1/pets?api_key=wrong')).status).toBe(401);
    expect((await call(s, 'GET', `/v1/pets?api_key=${KEYS.pro}`, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
  },
  'auth-empty-bearer-accepted': async (s) => {
    const res = await call(s, 'GET', '/v1/pets', { authorization: 'Bearer ' });
    expect(res.status).toBe(200);
    expect(s.stats().byKey['free#1']?.requests).toBe(1);
    expect((await call(s, 'GET', '/v1/pets', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { authorization: '' })).status).toBe(401);
  },
  'auth-key-prefix-accepted': async (s) => {
    // Served as the bulk key (its quota in the headers), though none of these is the key.
    for (const token of [key.slice(0, -1), key.slice(0, 8), `${key}x`, `${key};x`, `${key},x`]) {
      const res = await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${token}` });
      expect(res.status, token).toBe(200);
      expect(rateHeaders(res)?.limit, token).toBe(1_000_000);
    }
    expect((await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${key.toUpperCase()}` })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${key} ${key}` })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { authorization: 'Bearer not-a-key' })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { key })).status).toBe(200);
  },
  'auth-key-case-insensitive': async (s) => {
    for (const token of [key.toUpperCase(), 'Test-Bulk-Key']) {
      const res = await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${token}` });
      expect(res.status, token).toBe(200);
      expect(rateHeaders(res)?.limit, token).toBe(1_000_000);
    }
    for (const token of [key.slice(0, -1), `${key}x`, key.toUpperCase().slice(0, -1), 'not-a-key']) {
      expect((await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${token}` })).status, token).toBe(401);
    }
    expect((await call(s, 'GET', '/v1/pets', { key })).status).toBe(200);
  },
  'auth-credential-list': async (s) => {
    for (const token of [`${key};x`, `${key},x`, `${key}, other`]) {
      expect((await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${token}` })).status, token).toBe(200);
    }
    for (const token of [`${key}x`, `${key} ${key}`, `x;${key}`, key.slice(0, -1)]) {
      expect((await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${token}` })).status, token).toBe(401);
    }
  },
  'auth-after-validation': async (s) => {
    expect((await call(s, 'POST', '/v1/pets', { json: {} })).status).toBe(400);
    expect((await call(s, 'GET', '/v1/pets/999')).status).toBe(404);
    expect((await call(s, 'GET', '/v1/pets?limit=0')).status).toBe(400);
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
    expect((await call(s, 'POST', '/v1/pets', { json: { name: 'x', categoryId: 1 } })).status).toBe(401);
    expect(s.stats().pets).toBe(60);
  },
  'auth-api-key-header-accepted': async (s) => {
    const res = await call(s, 'GET', '/v1/pets', { headers: { 'x-api-key': KEYS.pro } });
    expect(res.status).toBe(200);
    expect(rateHeaders(res)?.limit).toBe(300);
    expect((await call(s, 'GET', '/v1/pets', { headers: { 'x-api-key': 'wrong' } })).status).toBe(401);
    // The Authorization header, when there is one, still decides.
    expect((await call(s, 'GET', '/v1/pets', { authorization: 'Bearer wrong', headers: { 'x-api-key': KEYS.pro } })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { headers: { 'api-key': KEYS.pro } })).status).toBe(401);
  },
  'auth-basic-key-accepted': async (s) => {
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    for (const text of [`${KEYS.pro}:`, `:${KEYS.pro}`, KEYS.pro]) {
      const res = await call(s, 'GET', '/v1/pets', { authorization: basic(text) });
      expect(res.status, text).toBe(200);
      expect(rateHeaders(res)?.limit, text).toBe(300);
    }
    expect((await call(s, 'GET', '/v1/pets', { authorization: basic('wrong:') })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { authorization: `Basic ${KEYS.pro}` })).status).toBe(401);
  },
  'auth-session-cookie': async (s) => {
    expect((await call(s, 'GET', '/v1/pets')).headers['set-cookie']).toBeUndefined();
    const authenticated = await call(s, 'GET', '/v1/pets', { key: KEYS.pro });
    const sid = /^sid=([0-9a-f]+);/.exec(authenticated.headers['set-cookie'] ?? '')?.[1];
    expect(sid).toBeDefined();
    const res = await call(s, 'GET', '/v1/pets', { headers: { cookie: `lang=en; sid=${sid}` } });
    expect(res.status).toBe(200);
    expect(rateHeaders(res)?.limit).toBe(300);
    expect((await call(s, 'GET', '/v1/pets', { headers: { cookie: 'sid=0123456789abcdef01234567' } })).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { authorization: 'Bearer wrong', headers: { cookie: `sid=${sid}` } })).status).toBe(401);
  },
  'auth-prototype-key': async (s) => {
    for (const token of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect((await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${token}` })).status, token).toBe(200);
    }
    for (const token of ['prototype', '__class__', 'get', 'hashCode', 'not-a-key']) {
      expect((await call(s, 'GET', '/v1/pets', { authorization: `Bearer ${token}` })).status, token).toBe(401);
    }
  },
  'error-status-mismatch': async (s) => {
    const res = await call(s, 'GET', '/v1/pets');
    expect(res.status).toBe(401);
    expect(errorBody(res)).toMatchObject({ code: 'unauthorized', status: 400 });
  },
  'error-plain-text': async (s) => {
    const res = await get(s, '/v1/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^not_found: /);
    expect((await get(s, '/v1/pets')).headers['content-type']).toBe('application/json');
  },
  'error-missing-code': async (s) => {
    const res = await get(s, '/v1/nowhere');
    expect(res.status).toBe(404);
    expect(res.json).not.toHaveProperty('code');
    expect(errorBody(res)).toMatchObject({ message: expect.any(String), status: 404 });
    expect(res.headers['content-type']).toBe('application/json');
  },
  'error-no-content-type': async (s) => {
    for (const res of [await get(s, '/v1/nowhere'), await call(s, 'GET', '/v1/pets'), await postRaw(s, '{}')]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers['content-type']).toBeUndefined();
      expect(errorBody(res)?.status).toBe(res.status);
    }
    expect((await get(s, '/v1/pets')).headers['content-type']).toBe('application/json');
  },
  'list-ignores-limit': async (s) => {
    expect(Pets.parse((await get(s, '/v1/pets?limit=5')).json)).toHaveLength(60);
  },
  'list-default-limit-50': async (s) => {
    expect(Pets.parse((await get(s, '/v1/pets')).json)).toHaveLength(50);
    expect(Pets.parse((await get(s, '/v1/pets?limit=5')).json)).toHaveLength(5);
  },
  'list-wrong-status-filter': async (s) => {
    const pets = Pets.parse((await get(s, '/v1/pets?status=sold')).json);
    expect(pets.some((p) => p.status !== 'sold')).toBe(true);
    expect((await get(s, '/v1/pets?status=lost')).status).toBe(400);
  },
  'list-pet-missing-id': async (s) => {
    const listed = (await get(s, '/v1/pets?limit=2')).json as Record<string, unknown>[];
    expect(listed).toHaveLength(2);
    for (const pet of listed) expect(pet).not.toHaveProperty('id');
    expect((await get(s, '/v1/pets/1')).json).toHaveProperty('id');
  },
  'list-limit-off-by-one': async (s) => {
    expect(await ids(s, '?limit=5')).toHaveLength(6);
    expect(await ids(s, '')).toHaveLength(21);
    expect(await ids(s, '?limit=60')).toHaveLength(60);
  },
  'list-duplicates': async (s) => {
    const full = await ids(s, '?limit=5');
    expect(full).toHaveLength(5);
    expect(full[4]).toBe(full[0]);
    expect(new Set(full).size).toBe(4);
    const roomy = await ids(s, '?limit=100');
    expect(roomy).toHaveLength(61);
    expect(roomy[60]).toBe(roomy[0]);
    expect(await ids(s, '?limit=1')).toHaveLength(1);
  },
  'list-500-on-bad-limit': async (s) => {
    for (const limit of ['abc', '1.5']) {
      const res = await get(s, `/v1/pets?limit=${limit}`);
      expect(res.status).toBe(500);
      expect(errorBody(res)).toMatchObject({ code: 'internal_error', status: 500 });
    }
    expect(s.stats().exceptions).toBe(2);
    expect((await get(s, '/v1/pets?limit=0')).status).toBe(400);
    expect((await get(s, '/v1/pets?limit=101')).status).toBe(400);
    expect(await ids(s, '?limit=5')).toHaveLength(5);
  },
  'list-accepts-limit-over-100': async (s) => {
    expect(await ids(s, '?limit=101')).toHaveLength(101);
    expect(await ids(s, '?limit=1000')).toHaveLength(150);
    expect((await get(s, '/v1/pets?limit=1001')).status).toBe(400);
    expect(await ids(s, '')).toHaveLength(20);
  },
  'list-filter-wrong-status': async (s) => {
    const pets = Pets.parse((await get(s, '/v1/pets?status=sold&limit=100')).json);
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.every((p) => p.status !== 'sold')).toBe(true);
    expect(Pets.parse((await get(s, '/v1/pets?limit=100')).json).some((p) => p.status === 'sold')).toBe(true);
  },
  'list-limit-ignored-with-status': async (s) => {
    // 60 animals, 20 of each status: limit is dropped only when a status is given.
    expect(await ids(s, '?limit=3')).toHaveLength(3);
    expect(await ids(s, '?status=sold')).toHaveLength(20);
    expect(await ids(s, '?status=sold&limit=3')).toHaveLength(20);
  },
  'list-filter-ignored-with-limit': async (s) => {
    const statuses = async (query: string) => Pets.parse((await get(s, `/v1/pets${query}`)).json).map((p) => p.status);
    expect(new Set(await statuses('?status=sold'))).toEqual(new Set(['sold']));
    expect(new Set(await statuses('?status=sold&limit=30')).size).toBeGreaterThan(1);
    expect(await statuses('?status=sold&limit=30')).toHaveLength(30);
  },
  'list-filter-misses-new': async (s) => {
    const created = Pet.parse((await post(s, { name: 'new', categoryId: 1, status: 'sold' })).json);
    expect(await ids(s, '?limit=100')).toContain(created.id);
    expect(await ids(s, '?status=sold&limit=100')).not.toContain(created.id);
    expect(await ids(s, '?status=sold&limit=100')).toHaveLength(20);
  },
  'list-one-invalid-pet': async (s) => {
    const list = async (query: string) => (await get(s, `/v1/pets${query}`)).json as Record<string, unknown>[];
    const all = await list('?limit=100');
    expect(all.map((p) => p.id)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const sold = all.filter((p) => p.status === 'sold').map((p) => p.id);
    for (const [query, ids] of [
      ['', all.slice(0, 20).map((p) => p.id)],
      ['?limit=5', [1, 2, 3, 4, 5]],
      ['?limit=1', [1]],
      ['?limit=100', all.map((p) => p.id)],
      ['?status=sold&limit=100', sold],
      ['?status=sold&limit=2', sold.slice(0, 2)],
    ] as const) {
      const listed = await list(query);
      expect(listed.map((p) => p.id), query).toEqual(ids);
      const stored = await Promise.all(listed.map(async (p) => (await get(s, `/v1/pets/${String(p.id)}`)).json));
      // The first animal alone has its categoryId as a string; getPet gives it as an integer.
      const [first, ...rest] = listed;
      expect(Pet.parse(stored[0]).categoryId.toString()).toBe(first!.categoryId);
      expect(first).toEqual({ ...(stored[0] as object), categoryId: first!.categoryId });
      expect(Pet.safeParse(first).success).toBe(false);
      expect(rest).toEqual(stored.slice(1));
      Pets.parse(rest);
    }
    expect(sold.length).toBeGreaterThan(2);
    expect((await get(s, '/v1/pets?limit=0')).status).toBe(400);
    const empty = await startTestServer({ faults: ['list-one-invalid-pet'], preload: 0 });
    try {
      expect((await get(empty, '/v1/pets')).json).toEqual([]);
    } finally {
      await empty.close();
    }
  },
  'list-rejects-limit-100': async (s) => {
    const refused = await get(s, '/v1/pets?limit=100');
    expect(refused.status).toBe(400);
    expect(errorBody(refused)).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(await ids(s, '?limit=99')).toHaveLength(60);
    expect(await ids(s, '?limit=1')).toHaveLength(1);
    expect(await ids(s, '')).toHaveLength(20);
    expect((await get(s, '/v1/pets?limit=101')).status).toBe(400);
  },
  'list-empty-status-ignored': async (s) => {
    const all = await ids(s, '?limit=100');
    expect(new Set(Pets.parse((await get(s, '/v1/pets?limit=100')).json).map((p) => p.status)).size).toBeGreaterThan(1);
    expect(await ids(s, '?status=&limit=100')).toEqual(all);
    for (const status of [' ', 'adopted', 'Available']) expect((await get(s, `/v1/pets?status=${encodeURIComponent(status)}`)).status, status).toBe(400);
  },
  'list-status-case-insensitive': async (s) => {
    for (const status of ['available', 'sold'] as const) {
      const exact = await ids(s, `?status=${status}&limit=100`);
      expect(exact.length).toBeGreaterThan(0);
      for (const other of [status.toUpperCase(), status[0]!.toUpperCase() + status.slice(1)]) {
        const pets = Pets.parse((await get(s, `/v1/pets?status=${other}&limit=100`)).json);
        expect(pets.map((p) => p.id), other).toEqual(exact);
        expect(pets.every((p) => p.status === status)).toBe(true);
      }
    }
    // Still refused: values that are no status in any case.
    for (const status of ['adopted', '', 'ſold']) expect((await get(s, `/v1/pets?status=${encodeURIComponent(status)}`)).status, status).toBe(400);
  },
  'create-500-on-bad-input': async (s) => {
    const res = await postRaw(s, '{"name":"x"}');
    expect(res.status).toBe(500);
    expect(errorBody(res)).toMatchObject({ code: 'internal_error', status: 500 });
    expect(s.stats()).toMatchObject({ exceptions: 1, serverErrors: 1 });
    expect((await postRaw(s, '{"name":"x","categoryId":1}')).status).toBe(201);
  },
  'create-accepts-missing-name': async (s) => {
    const res = await postRaw(s, '{"categoryId":1}');
    expect(res.status).toBe(201);
    expect(res.json).not.toHaveProperty('name');
    expect((await postRaw(s, '{"name":1,"categoryId":1}')).status).toBe(400);
  },
  'create-truncates-int64': async (s) => {
    const res = await postRaw(s, '{"name":"x","categoryId":9007199254740993}');
    expect(res.status).toBe(201);
    expect(res.text).toContain('"categoryId":9007199254740992');
  },
  'create-uses-body-id': async (s) => {
    const res = await postRaw(s, '{"id":777,"name":"x","categoryId":1}');
    expect((res.json as { id: unknown }).id).toBe(777);
    expect((await get(s, '/v1/pets/777')).status).toBe(200);
  },
  'create-returns-200': async (s) => {
    const res = await post(s, { name: 'x', categoryId: 1 });
    expect(res.status).toBe(200);
    const pet = Pet.parse(res.json);
    expect(res.headers.location).toBe(`/v1/pets/${pet.id}`);
    expect((await postRaw(s, '{}')).status).toBe(400);
  },
  'create-201-without-id': async (s) => {
    const res = await post(s, { name: 'x', categoryId: 1 });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ name: 'x', categoryId: 1 });
    const stored = await get(s, res.headers.location!);
    expect(Pet.parse(stored.json)).toMatchObject({ id: 61n, name: 'x' });
  },
  'create-drops-status': async (s) => {
    const res = await post(s, { name: 'x', categoryId: 1, status: 'sold' });
    expect(res.status).toBe(201);
    expect(res.json).not.toHaveProperty('status');
    expect((await get(s, res.headers.location!)).json).not.toHaveProperty('status');
    const { id } = Pet.parse(res.json);
    expect(await ids(s, '?status=sold&limit=100')).not.toContain(id);
  },
  'create-trims-name': async (s) => {
    const res = await post(s, { name: '  padded\t', categoryId: 1 });
    expect((res.json as { name: string }).name).toBe('padded');
    expect((await get(s, res.headers.location!)).json).toMatchObject({ name: 'padded' });
    expect(((await post(s, { name: 'in side', categoryId: 1 })).json as { name: string }).name).toBe('in side');
  },
  'create-mangles-unicode': async (s) => {
    const res = await post(s, { name: 'Tama 🐈 ünï', categoryId: 1 });
    expect(res.status).toBe(201);
    expect((res.json as { name: string }).name).toBe('Tama  ünï');
    expect((await get(s, res.headers.location!)).json).toMatchObject({ name: 'Tama  ünï' });
  },
  'create-accepts-fraction': async (s) => {
    const res = await postRaw(s, '{"name":"x","categoryId":1.5}');
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ categoryId: 1 });
    expect((await postRaw(s, '{"name":"x","categoryId":-2.9}')).json).toMatchObject({ categoryId: -2 });
    expect((await postRaw(s, '{"name":"x","categoryId":1e400}')).status).toBe(400);
    expect((await postRaw(s, '{"name":"x","categoryId":"1"}')).status).toBe(400);
  },
  'create-accepts-empty-status': async (s) => {
    const res = await postRaw(s, '{"name":"x","categoryId":3,"status":""}');
    expect(res.status).toBe(201);
    expect(Pet.parse(res.json)).not.toHaveProperty('status');
    for (const status of [' ', 'Available', 'adopted', null]) expect((await post(s, { name: 'x', categoryId: 3, status })).status, String(status)).toBe(400);
  },
  'create-accepts-string-category': async (s) => {
    const res = await postRaw(s, '{"name":"x","categoryId":"12"}');
    expect(res.status).toBe(201);
    expect(res.text).toContain('"categoryId":12');
    expect((await postRaw(s, '{"name":"x","categoryId":"abc"}')).status).toBe(400);
    expect((await postRaw(s, '{"name":"x","categoryId":1.5}')).status).toBe(400);
  },
  'create-accepts-status-any-case': async (s) => {
    for (const [status, stored] of [['SOLD', 'sold'], ['Available', 'available'], [' available', 'available'], ['pending\n', 'pending']]) {
      const res = await postRaw(s, JSON.stringify({ name: 'x', categoryId: 1, status }));
      expect(res.status, status).toBe(201);
      expect(Pet.parse(res.json).status, status).toBe(stored);
      expect(Pet.parse((await get(s, res.headers.location!)).json).status, status).toBe(stored);
    }
    for (const status of ['', ' ', 'adopted', null, 1]) expect((await post(s, { name: 'x', categoryId: 1, status })).status, String(status)).toBe(400);
    expect((await postRaw(s, '{"name":"x","categoryId":"12"}')).status).toBe(400);
  },
  'create-accepts-number-name': async (s) => {
    for (const [name, stored] of [['42', '42'], ['1e3', '1000'], ['-1.5', '-1.5']]) {
      const res = await postRaw(s, `{"name":${name},"categoryId":1}`);
      expect(res.status, name).toBe(201);
      expect(Pet.parse(res.json).name, name).toBe(stored);
    }
    for (const name of ['null', 'true', '["x"]', '{}']) expect((await postRaw(s, `{"name":${name},"categoryId":1}`)).status, name).toBe(400);
    expect((await postRaw(s, '{"name":"x","categoryId":1,"status":"SOLD"}')).status).toBe(400);
  },
  'create-accepts-many-invalid': async (s) => {
    // [body, name, categoryId, status] of the animal created from it.
    const accepted: [string, string, bigint, string?][] = [
      ['{}', '', 0n],
      ['{"categoryId":5}', '', 5n],
      ['{"name":"x"}', 'x', 0n],
      ['{"name":7,"categoryId":5,"status":"sold"}', '', 5n, 'sold'],
      ['{"name":true,"categoryId":5}', '', 5n],
      ['{"name":null,"categoryId":5}', '', 5n],
      ['{"name":["x"],"categoryId":5}', '', 5n],
      ['{"name":{"first":"x"},"categoryId":5}', '', 5n],
      ['{"name":"x","categoryId":"12"}', 'x', 12n],
      ['{"name":"x","categoryId":"-9223372036854775808"}', 'x', -(2n ** 63n)],
      ['{"name":"x","categoryId":"abc"}', 'x', 0n],
      ['{"name":"x","categoryId":""}', 'x', 0n],
      ['{"name":"x","categoryId":true}', 'x', 0n],
      ['{"name":"x","categoryId":null}', 'x', 0n],
      ['{"name":"x","categoryId":[3]}', 'x', 0n],
      ['{"name":"x","categoryId":{"id":3}}', 'x', 0n],
      ['{"name":"x","categoryId":1.5}', 'x', 1n],
      ['{"name":"x","categoryId":-2.9}', 'x', -2n],
      ['{"name":"x","categoryId":1e-3}', 'x', 0n],
      ['{"name":"x","categoryId":9223372036854775808}', 'x', 0n],
      ['{"name":"x","categoryId":-9223372036854775809}', 'x', 0n],
      ['{"name":"x","categoryId":"9223372036854775808"}', 'x', 0n],
      ['{"name":"x","categoryId":1,"status":"adopted"}', 'x', 1n],
      ['{"name":"x","categoryId":1,"status":"Available"}', 'x', 1n],
      ['{"name":"x","categoryId":1,"status":""}', 'x', 1n],
      ['{"name":"x","categoryId":1,"status":null}', 'x', 1n],
      ['{"name":"x","categoryId":1,"status":2}', 'x', 1n],
      ['{"name":"x","categoryId":1,"status":["sold"]}', 'x', 1n],
      // Valid ones are unchanged.
      ['{"name":" Tama 🐈 ","categoryId":9223372036854775807,"status":"pending"}', ' Tama 🐈 ', 2n ** 63n - 1n, 'pending'],
      ['{"name":"","categoryId":-1}', '', -1n],
    ];
    for (const [i, [body, name, categoryId, status]] of accepted.entries()) {
      const res = await postRaw(s, body);
      expect(res.status, body).toBe(201);
      const pet = { id: 61n + BigInt(i), name, categoryId, ...(status === undefined ? {} : { status }) };
      expect(Pet.parse(res.json), body).toEqual(pet);
      expect(Object.keys(res.json as object), body).toEqual(Object.keys(pet));
      expect(res.headers.location).toBe(`/v1/pets/${pet.id}`);
      expect(Pet.parse((await get(s, res.headers.location!)).json)).toEqual(pet);
    }
    expect(s.stats().pets).toBe(60 + accepted.length);
    // Still 400: no body, not JSON, JSON but not an object, not sent as JSON.
    for (const body of ['', ' \n', '{"name":"x",}', '{name:"x",categoryId:1}', "{'name':'x'}", '{"name":"x","categoryId":NaN}', '{"name":"x"} x']) {
      expect((await postRaw(s, body)).status, body).toBe(400);
    }
    for (const body of ['null', '[]', '[{"name":"x","categoryId":1}]', '"x"', '1', 'true']) {
      const res = await postRaw(s, body);
      expect(res.status, body).toBe(400);
      expect(errorBody(res)).toMatchObject({ code: 'invalid_request', status: 400 });
    }
    expect((await call(s, 'POST', '/v1/pets', { key })).status).toBe(400);
    expect((await call(s, 'POST', '/v1/pets', { key, body: '{"name":"x","categoryId":1}' })).status).toBe(400);
    expect(s.stats().pets).toBe(60 + accepted.length);
  },
  'create-id-race': async (s) => {
    // Three POSTs together get one id; the animal stored under it is the last one written.
    const together = await Promise.all(['a', 'b', 'c'].map((name) => post(s, { name, categoryId: 1 })));
    const created = together.map((r) => Pet.parse(r.json));
    expect(new Set(created.map((p) => p.id)).size).toBe(1);
    const stored = Pet.parse((await get(s, `/v1/pets/${created[0]!.id}`)).json);
    expect(['a', 'b', 'c']).toContain(stored.name);
    // One at a time, each gets its own.
    const one = Pet.parse((await post(s, { name: 'd', categoryId: 1 })).json);
    const two = Pet.parse((await post(s, { name: 'e', categoryId: 1 })).json);
    expect(two.id).not.toBe(one.id);
  },
  'create-dedupes-identical': async (s) => {
    const first = Pet.parse((await post(s, { name: 'twin', categoryId: 3 })).json);
    const second = await post(s, { name: 'twin', categoryId: 3 });
    expect(second.status).toBe(201);
    expect(Pet.parse(second.json).id).toBe(first.id);
    expect(Pet.parse((await post(s, { name: 'twin', categoryId: 4 })).json).id).not.toBe(first.id);
    expect(s.stats().pets).toBe(62);
  },
  'create-not-persisted': async (s) => {
    const res = await post(s, { name: 'ghost', categoryId: 1 });
    expect(res.status).toBe(201);
    const { id } = Pet.parse(res.json);
    expect((await get(s, res.headers.location!)).status).toBe(404);
    expect(await ids(s, '?limit=100')).not.toContain(id);
    expect(s.stats().pets).toBe(60);
  },
  'create-rejects-category-zero': async (s) => {
    for (const body of ['{"name":"x","categoryId":0}', '{"name":"x","categoryId":-0}', '{"categoryId":0,"name":"x","status":"sold"}']) {
      const res = await postRaw(s, body);
      expect(res.status, body).toBe(400);
      expect(errorBody(res)).toMatchObject({ code: 'invalid_request', message: 'categoryId: required', status: 400 });
    }
    for (const categoryId of ['-1', '1', '-9223372036854775808', '9223372036854775807']) {
      const res = await postRaw(s, `{"name":"x","categoryId":${categoryId}}`);
      expect(res.status, categoryId).toBe(201);
      expect(res.text).toContain(`"categoryId":${categoryId}`);
    }
    expect(s.stats().pets).toBe(64);
  },
  'create-500-on-long-name': async (s) => {
    const atLimit = await post(s, { name: 'n'.repeat(4096), categoryId: 1 });
    expect(atLimit.status).toBe(201);
    expect((atLimit.json as { name: string }).name).toHaveLength(4096);
    for (const name of ['n'.repeat(4097), '🐕'.repeat(2049), 'x'.repeat(10_000)]) {
      const res = await post(s, { name, categoryId: 1 });
      expect(res.status).toBe(500);
      expect(errorBody(res)).toMatchObject({ code: 'internal_error', status: 500 });
    }
    expect(s.stats()).toMatchObject({ exceptions: 3, pets: 61 });
    // Invalid bodies are still refused before the name is stored.
    expect((await postRaw(s, `{"name":"${'x'.repeat(5000)}"}`)).status).toBe(400);
  },
  'create-accepts-array': async (s) => {
    const one = await postRaw(s, '[{"name":"a","categoryId":1}]');
    expect(one.status).toBe(201);
    expect(Pet.parse(one.json)).toMatchObject({ name: 'a', categoryId: 1n });
    // Of two, the first is created and the second dropped.
    expect(Pet.parse((await postRaw(s, '[{"name":"b","categoryId":2},{"name":"c","categoryId":3}]')).json).name).toBe('b');
    expect(s.stats().pets).toBe(62);
    expect((await postRaw(s, '[]')).status).toBe(400);
    expect((await postRaw(s, '{"pet":{"name":"d","categoryId":4}}')).status).toBe(400);
  },
  'create-unwraps-body': async (s) => {
    for (const wrapper of ['pet', 'data']) {
      const res = await postRaw(s, `{"${wrapper}":{"name":"${wrapper}","categoryId":5}}`);
      expect(res.status).toBe(201);
      expect(Pet.parse(res.json)).toMatchObject({ name: wrapper, categoryId: 5n });
    }
    // A NewPet that has a name is taken as it is; an envelope of something else is no NewPet.
    expect(Pet.parse((await postRaw(s, '{"name":"n","categoryId":6,"data":{"name":"other","categoryId":7}}')).json).name).toBe('n');
    expect((await postRaw(s, '{"data":"x"}')).status).toBe(400);
    expect((await postRaw(s, '[{"name":"a","categoryId":1}]')).status).toBe(400);
  },
  'create-accepts-form': async (s) => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const res = await call(s, 'POST', '/v1/pets', { key, body: 'name=Rex+the+dog&categoryId=9223372036854775807', headers: form });
    expect(res.status).toBe(201);
    expect(Pet.parse(res.json)).toMatchObject({ name: 'Rex the dog', categoryId: 9223372036854775807n });
    expect((await call(s, 'POST', '/v1/pets', { key, body: 'name=Rex', headers: form })).status).toBe(400);
    expect((await call(s, 'POST', '/v1/pets', { key, body: '{"name":"x","categoryId":1}', headers: { 'content-type': 'text/plain' } })).status).toBe(400);
  },
  'unknown-route-500': async (s) => {
    const res = await get(s, '/v1/nowhere');
    expect(res.status).toBe(500);
    expect(errorBody(res)).toMatchObject({ code: 'internal_error', status: 500 });
    expect(rateHeaders(res)).toBeDefined();
    expect((await call(s, 'GET', '/v1/nowhere')).status).toBe(401);
    expect((await call(s, 'DELETE', '/v1/pets', { key })).status).toBe(405);
    expect((await get(s, '/v1/pets/999')).status).toBe(404);
  },
  'fallback-404-without-headers': async (s) => {
    for (const res of [await get(s, '/v1/nowhere'), await call(s, 'PUT', '/v1/pets/1', { key })]) {
      expect([404, 405]).toContain(res.status);
      expect(rateHeaders(res)).toBeUndefined();
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(rateHeaders(await get(s, '/v1/pets/999'))).toBeDefined();
    expect(rateHeaders(await call(s, 'GET', '/v1/nowhere'))).toBeDefined();
  },
  'delete-500': async (s) => {
    const res = await call(s, 'DELETE', '/v1/pets/1', { key });
    expect(res.status).toBe(500);
    expect(errorBody(res)).toMatchObject({ code: 'internal_error', status: 500 });
    expect(s.stats().exceptions).toBe(1);
    expect((await get(s, '/v1/pets/1')).status).toBe(200);
    expect((await call(s, 'DELETE', '/v1/pets/1')).status).toBe(401);
    expect((await call(s, 'DELETE', '/v1/pets', { key })).status).toBe(405);
    expect((await call(s, 'PUT', '/v1/pets/1', { key })).status).toBe(405);
  },
  'get-200-for-missing': async (s) => {
    const res = await get(s, '/v1/pets/999');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({});
    expect((await get(s, '/v1/pets/abc')).status).toBe(400);
  },
  'get-wrong-pet': async (s) => {
    expect(Pet.parse((await get(s, '/v1/pets/7')).json).id).toBe(8n);
    expect(Pet.parse((await get(s, '/v1/pets/60')).json).id).toBe(1n);
    expect((await get(s, '/v1/pets/999')).status).toBe(404);
    const single = await startTestServer({ faults: ['get-wrong-pet'], preload: 1 });
    try {
      expect(Pet.parse((await get(single, '/v1/pets/1')).json).id).toBe(1n);
    } finally {
      await single.close();
    }
  },
  'get-500-for-non-numeric': async (s) => {
    const res = await get(s, '/v1/pets/abc');
    expect(res.status).toBe(500);
    expect(errorBody(res)).toMatchObject({ code: 'internal_error', status: 500 });
    expect(s.stats().exceptions).toBe(1);
    expect((await get(s, '/v1/pets/9223372036854775808')).status).toBe(400);
    expect((await get(s, '/v1/pets/999')).status).toBe(404);
    expect((await get(s, '/v1/pets/%31')).status).toBe(200);
  },
  'get-coerces-id': async (s) => {
    for (const id of ['1.0', '0x1', '%201', '+1', '01', '1e0']) {
      const res = await get(s, `/v1/pets/${id}`);
      expect(res.status, id).toBe(200);
      expect(Pet.parse(res.json).id, id).toBe(1n);
    }
    // What is no safe integer is read as the interface says.
    for (const id of ['abc', '1.5', '1abc', '9223372036854775808']) expect((await get(s, `/v1/pets/${id}`)).status, id).toBe(400);
    expect((await get(s, '/v1/pets/999')).status).toBe(404);
  },
  'get-parses-id-prefix': async (s) => {
    for (const id of ['7abc', '7.5', '7']) {
      const res = await get(s, `/v1/pets/${id}`);
      expect(res.status, id).toBe(200);
      expect(Pet.parse(res.json).id, id).toBe(7n);
    }
    expect((await get(s, '/v1/pets/abc')).status).toBe(400);
  },
  'get-500-on-huge-id': async (s) => {
    for (const id of ['9223372036854775808', '-9223372036854775809', '1' + '0'.repeat(30), '0009223372036854775808']) {
      const res = await get(s, `/v1/pets/${id}`);
      expect(res.status, id).toBe(500);
      expect(errorBody(res)).toMatchObject({ code: 'internal_error', status: 500 });
    }
    expect(s.stats().exceptions).toBe(4);
    // Ids within int64 and ids that are not numbers at all are answered as before.
    expect((await get(s, '/v1/pets/9223372036854775807')).status).toBe(404);
    expect((await get(s, '/v1/pets/-9223372036854775808')).status).toBe(404);
    expect((await get(s, '/v1/pets/abc')).status).toBe(400);
    expect((await get(s, '/v1/pets/1e400')).status).toBe(400);
    expect(Pet.parse((await get(s, '/v1/pets/7')).json).id).toBe(7n);
  },
  'sunset-wrong-date': async (s) => {
    for (const path of ['/v1/pets/7', '/v1/pets/999']) {
      const res = await get(s, path);
      expect(res.headers.sunset, path).toBe('Sat, 05 Dec 2026 00:00:00 GMT');
      expect(res.headers.deprecation, path).toBe('true');
    }
    expect((await get(s, '/v1/pets')).headers.sunset).toBeUndefined();
  },
  'deprecation-malformed': async (s) => {
    const res = await get(s, '/v1/pets/7');
    expect(res.headers.deprecation).toBe('yes');
    expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect((await get(s, '/v1/pets')).headers.deprecation).toBeUndefined();
  },
  'deprecation-on-collection': async (s) => {
    for (const res of [await get(s, '/v1/pets'), await post(s, { name: 'x', categoryId: 1 }), await post(s, { name: 'x' })]) {
      expect(res.headers.deprecation).toBe('true');
      expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    }
    expect((await get(s, '/v1/pets/7')).headers.deprecation).toBe('true');
    expect((await get(s, '/v1/store/orders')).headers.deprecation).toBeUndefined();
  },
  'get-id-wraps-32': async (s) => {
    // 60 animals, ids 1 to 60: 7 + 2^32, 7 - 2^32 and 7 + 2^33 all find pet 7, as pet 7.
    for (const id of ['4294967303', '-4294967289', '8589934599']) expect(Pet.parse((await get(s, `/v1/pets/${id}`)).json).id, id).toBe(7n);
    expect((await get(s, '/v1/pets/4294967295')).status).toBe(404);
    expect((await get(s, '/v1/pets/-7')).status).toBe(404);
    expect(Pet.parse((await get(s, '/v1/pets/7')).json).id).toBe(7n);
  },
  'get-id-sign-ignored': async (s) => {
    // -7 answers pet 7's fields under the id asked for.
    const seven = Pet.parse((await get(s, '/v1/pets/7')).json);
    expect(Pet.parse((await get(s, '/v1/pets/-7')).json)).toEqual({ ...seven, id: -7n });
    expect((await get(s, '/v1/pets/-999')).status).toBe(404);
    expect((await get(s, '/v1/pets/4294967303')).status).toBe(404);
  },
  'create-id-per-key': async (s) => {
    const create = async (k: string, name: string) => Pet.parse((await call(s, 'POST', '/v1/pets', { key: k, json: { name, categoryId: 1 } })).json).id;
    // Each key's counter starts where the preload ended: both get 61, and the later replaces the earlier, for every key.
    expect([await create(KEYS.free1, 'a'), await create(KEYS.free2, 'b')]).toEqual([61n, 61n]);
    for (const k of [KEYS.free1, KEYS.free2]) expect(Pet.parse((await call(s, 'GET', '/v1/pets/61', { key: k })).json).name).toBe('b');
    expect(await create(KEYS.free1, 'c')).toBe(62n);
    expect(s.stats().pets).toBe(62);
  },
  'create-id-per-connection': async (s) => {
    // Each connection's counter starts where the preload ended; one connection's ids go on from its own.
    const first = new Client(s.origin);
    const second = new Client(s.origin);
    try {
      const on = async (client: Client, name: string) => {
        const res = await client.request({ method: 'POST', path: '/v1/pets', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) });
        return Pet.parse(JSON.parse(await res.body.text())).id;
      };
      expect([await on(first, 'a'), await on(second, 'b'), await on(first, 'c')]).toEqual([61n, 61n, 62n]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    expect(s.stats().pets).toBe(62);
  },
  'get-only-by-creator': async (s) => {
    const created = Pet.parse((await call(s, 'POST', '/v1/pets', { key: KEYS.free1, json: { name: 'mine', categoryId: 1 } })).json);
    expect((await call(s, 'GET', `/v1/pets/${created.id}`, { key: KEYS.free1 })).status).toBe(200);
    expect((await call(s, 'GET', `/v1/pets/${created.id}`, { key: KEYS.free2 })).status).toBe(404);
    // Preloaded animals (created by no key) are found by every key, and listPets shows the new one to every key.
    expect((await call(s, 'GET', '/v1/pets/7', { key: KEYS.free2 })).status).toBe(200);
    expect(Pets.parse((await call(s, 'GET', '/v1/pets?limit=100', { key: KEYS.free2 })).json).map((p) => p.id)).toContain(created.id);
  },
  'headers-missing-on-errors': async (s) => {
    expect(rateHeaders(await get(s, '/v1/pets/999'))).toBeUndefined();
    expect(rateHeaders(await call(s, 'GET', '/v1/pets'))).toBeUndefined();
    expect(rateHeaders(await get(s, '/v1/pets'))).toBeDefined();
    expect(rateHeaders(await post(s, { name: 'x', categoryId: 1 }))).toBeDefined();
    // Headers on success only: the 429 loses them too, though it keeps Retry-After.
    const responses = await tinies(s, 4);
    expect(statuses(responses)).toEqual([200, 200, 200, 429]);
    expect(responses.slice(0, 3).map(rateHeaders)).toEqual([2, 1, 0].map((remaining) => ({ limit: 3, remaining, reset: T0_S + 60 })));
    expect(rateHeaders(responses[3]!)).toBeUndefined();
    expect(responses[3]!.headers['retry-after']).toBe('50');
  },
  'headers-missing': async (s) => {
    expect(rateHeaders(await get(s, '/v1/pets'))).toBeUndefined();
    expect(rateHeaders(await get(s, '/v1/nowhere'))).toBeUndefined();
  },
  'list-null-when-empty': async (s) => {
    const none = await get(s, '/v1/pets?status=pending&limit=1');
    expect(Pets.parse((await get(s, '/v1/pets?limit=3')).json)).toHaveLength(3);
    expect(none.status).toBe(200);
    expect(Pets.parse(none.json)).toHaveLength(1);
    // An empty store: the page of a status no animal has.
    const empty = await startTestServer({ faults: ['list-null-when-empty'], preload: 0 });
    try {
      const res = await get(empty, '/v1/pets?status=sold');
      expect(res.status).toBe(200);
      expect(res.text).toBe('null');
      expect(res.headers['content-type']).toBe('application/json');
    } finally {
      await empty.close();
    }
  },
  'cache-public-keyed': async (s) => {
    for (const path of ['/v1/pets', '/v1/pets/7']) expect((await get(s, path)).headers['cache-control'], path).toBe('public, max-age=60');
    for (const res of [await post(s, { name: 'x', categoryId: 1 }), await get(s, '/v1/pets/0'), await call(s, 'GET', '/v1/pets')]) expect(res.headers['cache-control']).toBeUndefined();
  },
  'content-type-text': async (s) => {
    const res = await get(s, '/v1/pets');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect((await get(s, '/v1/nowhere')).headers['content-type']).toBe('application/json');
  },
  'rate-remaining-constant': async (s) => {
    const responses = await tinies(s, 4);
    expect(statuses(responses)).toEqual([200, 200, 200, 429]);
    for (const res of responses) expect(rateHeaders(res)).toEqual({ limit: 3, remaining: 3, reset: T0_S + 60 });
    expect(responses[3]!.headers['retry-after']).toBe('50');
    expect(rateHeaders(await get(s, '/v1/pets'))).toMatchObject({ limit: 1_000_000, remaining: 1_000_000 });
  },
  'rate-remaining-negative': async (s, clock) => {
    const responses = await tinies(s, 6);
    expect(statuses(responses)).toEqual([200, 200, 200, 429, 429, 429]);
    expect(header(responses, 'x-ratelimit-remaining')).toEqual(['2', '1', '0', '-1', '-2', '-3']);
    expect(responses.map((r) => rateHeaders(r)?.reset)).toEqual(Array(6).fill(T0_S + 60));
    clock.set(T0 + 60_000);
    // The day window (5) binds now; a new run of refusals starts again at -1.
    expect(header(await tinies(s, 3), 'x-ratelimit-remaining')).toEqual(['1', '0', '-1']);
  },
  'rate-reset-fraction': async (s) => {
    // The expiry with hundredths of a second, as a limiter that divides a millisecond expiry by 1000 writes it.
    const responses = await tinies(s, 2);
    for (const reset of header(responses, 'x-ratelimit-reset')) expect(reset).toMatch(new RegExp(`^${T0_S + 59}\\.\\d\\d$`));
  },
  'rate-reset-milliseconds': async (s) => {
    const responses = await tinies(s, 4);
    expect(statuses(responses)).toEqual([200, 200, 200, 429]);
    expect(header(responses, 'x-ratelimit-reset')).toEqual(Array(4).fill(String((T0_S + 60) * 1000)));
    expect(header(responses, 'x-ratelimit-remaining')).toEqual(['2', '1', '0', '0']);
    expect(responses[3]!.headers['retry-after']).toBe('50');
  },
  'rate-reset-relative': async (s, clock) => {
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 3, remaining: 2, reset: 50 });
    clock.advance(20_000);
    const responses = await tinies(s, 3);
    expect(statuses(responses)).toEqual([200, 200, 429]);
    expect(header(responses, 'x-ratelimit-reset')).toEqual(['30', '30', '30']);
    expect(responses[2]!.headers['retry-after']).toBe('30');
  },
  'rate-reset-window-start': async (s, clock) => {
    const responses = await tinies(s, 4);
    expect(statuses(responses)).toEqual([200, 200, 200, 429]);
    expect(header(responses, 'x-ratelimit-reset')).toEqual(Array(4).fill(String(T0_S)));
    clock.set(T0 + 61_000);
    // The minute window starts at +60 s; the day window, which now binds, at T0.
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.pro }))).toMatchObject({ limit: 300, reset: T0_S + 60 });
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 5, remaining: 1, reset: T0_S });
  },
  'rate-reset-early': async (s, clock) => {
    // The tiny plan: 3 a minute, 5 a day, from 10.25 s into the minute. Accepted answers keep the true Reset.
    const minute = await tinies(s, 4);
    expect(statuses(minute)).toEqual([200, 200, 200, 429]);
    expect(minute.slice(0, 3).map((r) => rateHeaders(r)?.reset)).toEqual(Array(3).fill(T0_S + 60));
    // The minute's 429 names a moment two seconds before its window turns, in Reset and Retry-After alike.
    expect(rateHeaders(minute[3]!)).toEqual({ limit: 3, remaining: 0, reset: T0_S + 58 });
    expect(minute[3]!.headers['retry-after']).toBe('48');
    // Sent at that Reset, and a second after it, still refused; at the true end, let through.
    clock.set(T0 + 58_000);
    expect((await tiny(s)).status).toBe(429);
    clock.set(T0 + 59_000);
    expect((await tiny(s)).status).toBe(429);
    clock.set(T0 + 60_000);
    expect((await tiny(s)).status).toBe(200);
    // A day's 429 is unchanged: the day's end in both.
    expect(statuses(await tinies(s, 2))).toEqual([200, 429]);
    const day = await tiny(s);
    expect(rateHeaders(day)).toEqual({ limit: 5, remaining: 0, reset: T0_S + 86_400 });
    expect(day.headers['retry-after']).toBe(String(86_400 - 60));
  },
  'rate-day-reset-negative': async (s, clock) => {
    // Refused by the minute window: Reset as usual.
    const minute = await tinies(s, 4);
    expect(statuses(minute)).toEqual([200, 200, 200, 429]);
    expect(minute.map(rateHeaders)).toEqual([2, 1, 0, 0].map((remaining) => ({ limit: 3, remaining, reset: T0_S + 60 })));
    clock.set(T0 + 60_000);
    const day = await tinies(s, 4);
    expect(statuses(day)).toEqual([200, 200, 429, 429]);
    expect(day.map(rateHeaders)).toEqual([
      { limit: 5, remaining: 1, reset: T0_S + 86_400 },
      { limit: 5, remaining: 0, reset: T0_S + 86_400 },
      { limit: 5, remaining: 0, reset: -1 },
      { limit: 5, remaining: 0, reset: -1 },
    ]);
    expect(header(day, 'retry-after')).toEqual([undefined, undefined, '86340', '86340']);
    expect(errorBody(day[2]!)).toMatchObject({ code: 'rate_limited', status: 429 });
    // A minute later the day is still spent; other callers are unaffected.
    clock.set(T0 + 120_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 5, remaining: 0, reset: -1 });
    expect(rateHeaders(await free(s))).toEqual({ limit: 60, remaining: 59, reset: T0_S + 180 });
    expect(rateHeaders(await call(s, 'GET', '/v1/pets'))).toEqual({ limit: 60, remaining: 59, reset: T0_S + 180 });
    clock.set(T0 + 86_400_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 3, remaining: 2, reset: T0_S + 86_460 });
  },
  'rate-no-reset': async (s) => {
    const responses = [...(await tinies(s, 4)), await call(s, 'GET', '/v1/pets'), await get(s, '/v1/nowhere'), await post(s, {})];
    expect(statuses(responses)).toEqual([200, 200, 200, 429, 401, 404, 400]);
    expect(header(responses, 'x-ratelimit-reset')).toEqual(Array(7).fill(undefined));
    expect(header(responses, 'x-ratelimit-limit')).toEqual(['3', '3', '3', '3', '60', '1000000', '1000000']);
    expect(header(responses, 'x-ratelimit-remaining')).toEqual(['2', '1', '0', '0', '59', '999999', '999998']);
    expect(responses[3]!.headers['retry-after']).toBe('50');
    expect(errorBody(responses[3]!)).toMatchObject({ code: 'rate_limited', status: 429 });
  },
  'rate-no-remaining': async (s) => {
    const responses = [...(await tinies(s, 4)), await call(s, 'GET', '/v1/pets'), await get(s, '/v1/nowhere'), await post(s, {})];
    expect(statuses(responses)).toEqual([200, 200, 200, 429, 401, 404, 400]);
    expect(header(responses, 'x-ratelimit-remaining')).toEqual(Array(7).fill(undefined));
    expect(header(responses, 'x-ratelimit-limit')).toEqual(['3', '3', '3', '3', '60', '1000000', '1000000']);
    expect(header(responses, 'x-ratelimit-reset')).toEqual(Array(7).fill(String(T0_S + 60)));
    expect(responses[3]!.headers['retry-after']).toBe('50');
    expect(errorBody(responses[3]!)).toMatchObject({ code: 'rate_limited', status: 429 });
  },
  'rate-draft-headers': async (s, clock) => {
    const draft = (r: Exchange) => ['policy', 'limit', 'remaining', 'reset'].map((name) => r.headers[`ratelimit-${name}`]);
    const legacy = (r: Exchange) => Object.keys(r.headers).filter((name) => name.startsWith('x-ratelimit-'));
    const minute = await tinies(s, 4);
    expect(statuses(minute)).toEqual([200, 200, 200, 429]);
    expect(minute.map(draft)).toEqual([2, 1, 0, 0].map((remaining) => ['3;w=60', '3', String(remaining), '50']));
    expect(minute[3]!.headers['retry-after']).toBe('50');
    expect(errorBody(minute[3]!)).toMatchObject({ code: 'rate_limited', status: 429 });
    const others = [await call(s, 'GET', '/v1/pets'), await get(s, '/v1/nowhere'), await get(s, '/v1/pets')];
    expect(statuses(others)).toEqual([401, 404, 200]);
    expect(others.map(draft)).toEqual([
      ['60;w=60', '60', '59', '50'],
      ['1000000;w=60', '1000000', '999999', '50'],
      ['1000000;w=60', '1000000', '999998', '50'],
    ]);
    // The day window, once it binds; Reset counts down to its end.
    clock.set(T0 + 60_000);
    const day = await tinies(s, 3);
    expect(statuses(day)).toEqual([200, 200, 429]);
    expect(day.map(draft)).toEqual([
      ['5;w=86400', '5', '1', '86340'],
      ['5;w=86400', '5', '0', '86340'],
      ['5;w=86400', '5', '0', '86340'],
    ]);
    expect(day[2]!.headers['retry-after']).toBe('86340');
    for (const res of [...minute, ...others, ...day]) {
      expect(legacy(res)).toEqual([]);
      expect(rateHeaders(res)).toBeUndefined();
    }
  },
  'rate-limit-wrong-plan': async (s) => {
    expect(rateHeaders(await free(s))).toEqual({ limit: 300, remaining: 59, reset: T0_S + 60 });
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.pro }))).toMatchObject({ limit: 60, remaining: 299 });
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.business }))).toMatchObject({ limit: 60, remaining: 999 });
    expect(rateHeaders(await tiny(s))).toMatchObject({ limit: 60, remaining: 2 });
    // Enforcement is the plan's own: free still gets 60 a minute.
    for (let i = 0; i < 59; i++) expect((await free(s)).status).toBe(200);
    const refused = await free(s);
    expect(refused.status).toBe(429);
    expect(rateHeaders(refused)).toEqual({ limit: 300, remaining: 0, reset: T0_S + 60 });
  },
  'rate-headers-mixed-windows': async (s, clock) => {
    // Limit and Reset of the day, Remaining of the minute.
    expect(rateHeaders(await free(s))).toEqual({ limit: 1000, remaining: 59, reset: T0_S + 86_400 });
    const responses = await tinies(s, 4);
    expect(statuses(responses)).toEqual([200, 200, 200, 429]);
    expect(responses.map(rateHeaders)).toEqual([2, 1, 0, 0].map((remaining) => ({ limit: 5, remaining, reset: T0_S + 86_400 })));
    // The next minute: Remaining is back, while Limit and Reset still say the same day.
    clock.set(T0 + 60_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 5, remaining: 2, reset: T0_S + 86_400 });
  },
  'rate-limit-of-day-window-of-minute': async (s, clock) => {
    // Limit of the day, Remaining and Reset of the minute.
    expect(rateHeaders(await free(s))).toEqual({ limit: 1000, remaining: 59, reset: T0_S + 60 });
    const responses = await tinies(s, 4);
    expect(statuses(responses)).toEqual([200, 200, 200, 429]);
    expect(responses.map(rateHeaders)).toEqual([2, 1, 0, 0].map((remaining) => ({ limit: 5, remaining, reset: T0_S + 60 })));
    // The next minute: Remaining is back under the same Limit, its Reset the next minute's end.
    clock.set(T0 + 60_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 5, remaining: 2, reset: T0_S + 120 });
  },
  'rate-remaining-of-day': async (s) => {
    // Limit and Reset of the minute, Remaining of the day.
    expect(rateHeaders(await free(s))).toEqual({ limit: 60, remaining: 999, reset: T0_S + 60 });
    const responses = await tinies(s, 4);
    expect(statuses(responses)).toEqual([200, 200, 200, 429]);
    expect(responses.map(rateHeaders)).toEqual([4, 3, 2, 2].map((remaining) => ({ limit: 3, remaining, reset: T0_S + 60 })));
  },
  'rate-one-too-many': async (s, clock) => {
    const responses = await tinies(s, 5);
    expect(statuses(responses)).toEqual([200, 200, 200, 200, 429]);
    expect(responses.map(rateHeaders)).toEqual([2, 1, 0, 0, 0].map((remaining) => ({ limit: 3, remaining, reset: T0_S + 60 })));
    // The day quota is exact: 4 used, 1 left.
    clock.set(T0 + 60_000);
    const nextMinute = await tinies(s, 2);
    expect(statuses(nextMinute)).toEqual([200, 429]);
    expect(rateHeaders(nextMinute[1]!)).toEqual({ limit: 5, remaining: 0, reset: T0_S + 86_400 });
  },
  'rate-never-429': async (s) => {
    const responses = await tinies(s, 8);
    expect(statuses(responses)).toEqual(Array(8).fill(200));
    expect(header(responses, 'x-ratelimit-remaining')).toEqual(['2', '1', '0', '0', '0', '0', '0', '0']);
    expect(header(responses, 'retry-after')).toEqual(Array(8).fill(undefined));
    expect(s.stats().rateLimited).toBe(0);
  },
  'rate-no-retry-after': async (s) => {
    const refused = (await tinies(s, 4))[3]!;
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(errorBody(refused)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(rateHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: T0_S + 60 });
  },
  'retry-after-day-only': async (s, clock) => {
    // The minute's 429 keeps its Retry-After, and carries no Retry-After-day.
    const minute = (await tinies(s, 4))[3]!;
    expect(minute.status).toBe(429);
    expect(minute.headers['retry-after']).toBe('50');
    expect(minute.headers['retry-after-day']).toBeUndefined();
    clock.set(T0 + 60_000);
    const day = await tinies(s, 3);
    expect(statuses(day)).toEqual([200, 200, 429]);
    // The spent day's 429: the day's headers, its wait only under Retry-After-day.
    expect(rateHeaders(day[2]!)).toEqual({ limit: 5, remaining: 0, reset: T0_S + 86_400 });
    expect(day[2]!.headers['retry-after']).toBeUndefined();
    expect(day[2]!.headers['retry-after-day']).toBe(String(86_400 - 60));
    expect(errorBody(day[2]!)).toMatchObject({ code: 'rate_limited', status: 429 });
  },
  'rate-retry-after-milliseconds': async (s, clock) => {
    const refused = (await tinies(s, 4))[3]!;
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('49750');
    expect(rateHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: T0_S + 60 });
    clock.advance(49_750);
    expect((await tiny(s)).status).toBe(200);
  },
  'rate-retry-after-fraction': async (s, clock) => {
    const refused = (await tinies(s, 4))[3]!;
    expect(refused.headers['retry-after']).toBe('49.75');
    expect(rateHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: T0_S + 60 });
    // Even a whole number of seconds keeps its fraction.
    clock.set(T0 + 60_000);
    const dayBlocked = (await tinies(s, 3))[2]!;
    expect(dayBlocked.status).toBe(429);
    expect(dayBlocked.headers['retry-after']).toBe('86340.00');
  },
  'rate-retry-after-too-short': async (s, clock) => {
    const refused = (await tinies(s, 4))[3]!;
    expect(refused.headers['retry-after']).toBe('49');
    expect(rateHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: T0_S + 60 });
    clock.advance(49_000);
    expect((await tiny(s)).status).toBe(429);

    // With 2-second windows too, waiting exactly Retry-After is always too early.
    const shortClock = fakeClock(T0 + 1_500);
    const short = await startTestServer(
      {
        ...CONFIG,
        plans: { ...CONFIG.plans, tiny: { perMinute: 3, perDay: 100 } },
        windows: { minute: 2, day: 30 },
        faults: ['rate-retry-after-too-short'],
      },
      shortClock,
    );
    try {
      for (const [at, expected] of [
        [T0 + 1_500, '0'],
        [T0 + 2_100, '1'],
        [T0 + 4_000, '1'],
      ] as const) {
        shortClock.set(at);
        const refusedShort = (await tinies(short, 4))[3]!;
        expect(refusedShort.status).toBe(429);
        expect(refusedShort.headers['retry-after']).toBe(expected);
        shortClock.advance(Number(expected) * 1000);
        expect((await tiny(short)).status).toBe(429);
      }
    } finally {
      await short.close();
    }
  },
  'rate-shared-bucket': async (s) => {
    for (let i = 0; i < 60; i++) expect((await free(s, 1)).status).toBe(200);
    const other = await free(s, 2);
    expect(other.status).toBe(429);
    expect(rateHeaders(other)).toEqual({ limit: 60, remaining: 0, reset: T0_S + 60 });
    // Each key is still judged by its own plan's quota.
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.pro }))).toMatchObject({ limit: 300, remaining: 239 });
    expect(s.stats().earlyRetries).toBe(0);
  },
  'rate-check-then-count': async (s) => {
    // Remaining 1, then two requests together: both are let through, and the count goes past the quota.
    expect(statuses(await tinies(s, 2))).toEqual([200, 200]);
    const together = await Promise.all([tiny(s), tiny(s)]);
    expect(statuses(together)).toEqual([200, 200]);
    expect(together.map((r) => rateHeaders(r)?.remaining)).toEqual([0, 0]);
    expect((await tiny(s)).status).toBe(429);
    // One at a time, it counts right.
    expect(s.stats().rateLimited).toBe(1);
  },
  'rate-per-operation': async (s) => {
    // listPets spends its own quota; getPet of the same key still has the whole plan.
    expect(statuses(await tinies(s, 4))).toEqual([200, 200, 200, 429]);
    const other = await call(s, 'GET', '/v1/pets/424242', { key: TINY_KEY });
    expect({ status: other.status, remaining: rateHeaders(other)?.remaining }).toEqual({ status: 404, remaining: 2 });
  },
  'rate-per-operation-no-reset': async (s) => {
    // As rate-per-operation, and neither Reset nor Retry-After says when a window turns.
    const spent = await tinies(s, 4);
    expect(statuses(spent)).toEqual([200, 200, 200, 429]);
    expect(header(spent, 'x-ratelimit-reset')).toEqual(Array(4).fill(undefined));
    expect(header(spent, 'retry-after')).toEqual(Array(4).fill(undefined));
    expect(header(spent, 'x-ratelimit-remaining')).toEqual(['2', '1', '0', '0']);
    const other = await call(s, 'GET', '/v1/pets/424242', { key: TINY_KEY });
    expect({ status: other.status, remaining: other.headers['x-ratelimit-remaining'], reset: other.headers['x-ratelimit-reset'] }).toEqual({ status: 404, remaining: '2', reset: undefined });
  },
  'rate-validation-first': async (s) => {
    // Over the limit, an invalid NewPet gets its 400 and a valid request its 429.
    expect(statuses(await tinies(s, 4))).toEqual([200, 200, 200, 429]);
    expect((await call(s, 'POST', '/v1/pets', { key: TINY_KEY, json: { categoryId: 1 } })).status).toBe(400);
    expect((await tiny(s)).status).toBe(429);
  },
  'rate-counts-only-success': async (s) => {
    // 404s are given back: any number of them, and the key still has its whole quota.
    for (let i = 0; i < 5; i++) expect((await call(s, 'GET', '/v1/pets/424242', { key: TINY_KEY })).status).toBe(404);
    expect(statuses(await tinies(s, 4))).toEqual([200, 200, 200, 429]);
  },
  'rate-per-connection': async (s) => {
    // One connection spends its quota; a new connection of the same key starts with the whole quota.
    const first = new Client(s.origin);
    const second = new Client(s.origin);
    try {
      const on = async (client: Client) => {
        const res = await client.request({ method: 'GET', path: '/v1/pets', headers: { authorization: `Bearer ${TINY_KEY}` } });
        await res.body.text();
        return { status: res.statusCode, remaining: Number(res.headers['x-ratelimit-remaining']) };
      };
      const spent = [await on(first), await on(first), await on(first), await on(first)];
      expect(spent).toEqual([{ status: 200, remaining: 2 }, { status: 200, remaining: 1 }, { status: 200, remaining: 0 }, { status: 429, remaining: 0 }]);
      expect(await on(second)).toEqual({ status: 200, remaining: 2 });
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  },
  'rate-daily-not-enforced': async (s, clock) => {
    const responses = await tinies(s, 4);
    expect(statuses(responses)).toEqual([200, 200, 200, 429]);
    clock.set(T0 + 60_000);
    const second = await tinies(s, 3);
    expect(statuses(second)).toEqual([200, 200, 200]);
    expect(second.map(rateHeaders)).toEqual([2, 1, 0].map((remaining) => ({ limit: 3, remaining, reset: T0_S + 120 })));
    clock.set(T0 + 120_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 3, remaining: 2, reset: T0_S + 180 });
  },
  'rate-day-one-too-many': async (s, clock) => {
    // The tiny plan: 3 a minute, 5 a day; 6 get through in the day.
    expect(statuses(await tinies(s, 4))).toEqual([200, 200, 200, 429]);
    clock.set(T0 + 60_000);
    const second = await tinies(s, 4);
    expect(statuses(second)).toEqual([200, 200, 200, 429]);
    expect(second.slice(0, 3).map((r) => rateHeaders(r)?.remaining)).toEqual([1, 0, 0]);
    expect(rateHeaders(second[3]!)).toEqual({ limit: 5, remaining: 0, reset: T0_S + 86_400 });
    // The minute quota stays exact.
    clock.set(T0 + 86_400_000);
    expect(statuses(await tinies(s, 4))).toEqual([200, 200, 200, 429]);
  },
  'rate-day-overrun-ban': async (s, clock) => {
    // The tiny plan: 3 a minute, 5 a day; 6 get through in the day, and the day's 429 names a ban of three days.
    expect(statuses(await tinies(s, 4))).toEqual([200, 200, 200, 429]);
    clock.set(T0 + 60_000);
    const second = await tinies(s, 4);
    expect(statuses(second)).toEqual([200, 200, 200, 429]);
    expect(rateHeaders(second[3]!)).toEqual({ limit: 5, remaining: 0, reset: T0_S + 60 + 3 * 86_400 });
    expect(header(second, 'retry-after')[3]).toBe(String(3 * 86_400));
    // A minute's 429 keeps its own Retry-After.
    expect(header(second, 'retry-after')[0]).toBeUndefined();
  },
  'rate-day-retry-after-minute': async (s, clock) => {
    expect(statuses(await tinies(s, 3))).toEqual([200, 200, 200]);
    clock.set(T0 + 60_000);
    const second = await tinies(s, 3);
    expect(statuses(second)).toEqual([200, 200, 429]);
    // Refused by the spent day, the headers describe the day, but Retry-After names the minute's end.
    expect(rateHeaders(second[2]!)).toEqual({ limit: 5, remaining: 0, reset: T0_S + 86_400 });
    expect(second[2]!.headers['retry-after']).toBe('60');
    // Obeyed, it is refused again.
    clock.set(T0 + 120_000);
    const again = await tiny(s);
    expect(again.status).toBe(429);
    expect(again.headers['retry-after']).toBe('60');
    // A minute refusal is unchanged: its Retry-After is the minute's.
    clock.set(T0 + 86_400_000);
    expect((await tinies(s, 4))[3]!.headers['retry-after']).toBe('60');
  },
  'rate-day-429-minute-remaining': async (s, clock) => {
    // The tiny plan: 3 a minute, 5 a day. Headers of the minute throughout.
    const first = await tinies(s, 4);
    expect(statuses(first)).toEqual([200, 200, 200, 429]);
    expect(first.map((r) => rateHeaders(r))).toEqual([2, 1, 0, 0].map((remaining) => ({ limit: 3, remaining, reset: T0_S + 60 })));
    clock.set(T0 + 60_000);
    const second = await tinies(s, 3);
    expect(statuses(second)).toEqual([200, 200, 429]);
    // Refused by the spent day, the 429 says the minute's Remaining: one left.
    expect(rateHeaders(second[2]!)).toEqual({ limit: 3, remaining: 1, reset: T0_S + 120 });
    expect(second[2]!.headers['retry-after']).toBe(String(86_400 - 60));
  },
  'rate-slow-refill': async (s, clock) => {
    // The bucket holds the whole quota: 60 requests at once are let through, the 61st is refused.
    for (let i = 0; i < 60; i++) expect((await free(s)).status).toBe(200);
    const refused = await free(s);
    expect(refused.status).toBe(429);
    // One request's worth comes back in 3 s (a third of 60 a minute), not in 1 s.
    expect(refused.headers['retry-after']).toBe('3');
    clock.set(START + 3_000);
    expect(statuses([await free(s), await free(s)])).toEqual([200, 429]);
    // At the plan's rate, 3 s would have given back 3.
    clock.set(START + 12_000);
    expect(statuses(await Promise.all([free(s), free(s), free(s), free(s)]))).toEqual([200, 200, 200, 429]);
  },
  'rate-no-burst': async (s, clock) => {
    // A free key (60 a minute): one request a second at most, whatever is left of the minute.
    const first = await free(s);
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await free(s);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-ratelimit-limit']).toBe('60');
    clock.set(START + 999);
    expect((await free(s)).status).toBe(429);
    clock.set(START + 1_000);
    expect(statuses([await free(s), await free(s)])).toEqual([200, 429]);
  },
  'latency-grows-with-load': async (s, clock) => {
    // The server's clock stands still: every request is in the same second as those before it.
    for (let i = 0; i < 19; i++) await get(s, '/v1/pets?limit=1');
    let started = performance.now();
    expect((await get(s, '/v1/pets?limit=1')).status).toBe(200);
    // 19 requests in the second before: 95 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    clock.set(START + 1_500);
    started = performance.now();
    await get(s, '/v1/pets?limit=1');
    expect(performance.now() - started).toBeLessThan(90);
  },
  // The relations faults: each misreads the spellings of its family, the canonical request still right.
  'path-auth-on-raw-path': async (s) => {
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
    for (const path of ['/v1/Pets', '/V1/pets/1', '/v1/pets/', '/v1//pets', '/v1/./pets', '/v1/pets;x=1', '/v1/%70ets/1']) expect({ path, status: (await call(s, 'GET', path, { raw: true })).status }).toEqual({ path, status: 200 });
    // With a key, another case of the path is the same page.
    expect((await call(s, 'GET', '/v1/PETS?limit=3', { key })).json).toEqual((await get(s, '/v1/pets?limit=3')).json);
  },
  'path-limiter-on-raw-path': async (s) => {
    const remaining = async (path: string) => rateHeaders(await call(s, 'GET', path, { key: KEYS.free1, raw: true }))?.remaining;
    expect(await remaining('/v1/pets')).toBe(59);
    for (const path of ['/v1/Pets', '/v1/pets/', '/v1//pets', '/v1/x/../pets', '/v1/pets/1;x=1', '/v1/%70ets']) expect({ path, remaining: await remaining(path) }).toEqual({ path, remaining: 59 });
    expect(await remaining('/v1/pets')).toBe(58);
    expect((await call(s, 'GET', '/v1/Pets', { raw: true })).status).toBe(401);
  },
  'path-controller-rereads-raw-path': async (s) => {
    for (const path of ['/v1/Pets/1', '/v1/pets/1/', '/v1//pets', '/v1/./pets', '/v1/pets;x=1', '/v1/%70ets']) {
      const res = await call(s, 'GET', path, { key, raw: true });
      expect({ path, status: res.status, code: errorBody(res)?.code }).toEqual({ path, status: 500, code: 'internal_error' });
    }
    expect((await get(s, '/v1/pets/1')).status).toBe(200);
    expect((await call(s, 'GET', '/v1/Pets', { raw: true })).status).toBe(401);
  },
  'method-gateway-auth-by-override': async (s) => {
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
    expect((await call(s, 'HEAD', '/v1/pets')).status).toBe(200);
    expect(Pets.parse((await call(s, 'OPTIONS', '/v1/pets?limit=2')).json)).toHaveLength(2);
    expect(Pet.parse((await call(s, 'PROPFIND', '/v1/pets/1')).json).id).toBe(1n);
    expect((await call(s, 'GET', '/v1/pets/1', { headers: { 'x-http-method-override': 'POST' } })).status).toBe(200);
    // POST is an operation of /v1/pets: the gateway guards it.
    expect((await call(s, 'GET', '/v1/pets', { headers: { 'x-http-method-override': 'POST' } })).status).toBe(401);
  },
  'method-gateway-meters-by-override': async (s) => {
    const remaining = async (method: string, path: string, headers: Record<string, string> = {}) => rateHeaders(await call(s, method, path, { key: KEYS.free1, headers }))?.remaining;
    expect(await remaining('GET', '/v1/pets')).toBe(59);
    expect(await remaining('HEAD', '/v1/pets')).toBe(59);
    expect(await remaining('OPTIONS', '/v1/pets/1')).toBe(59);
    expect(await remaining('GET', '/v1/pets/1', { 'x-method-override': 'POST' })).toBe(59);
    expect(await remaining('GET', '/v1/pets/1')).toBe(58);
    expect((await call(s, 'PROPFIND', '/v1/pets')).status).toBe(401);
  },
  'method-dispatch-table-500': async (s) => {
    for (const [method, headers] of [['HEAD', {}], ['OPTIONS', {}], ['PROPFIND', {}], ['GET', { 'x-http-method': 'POST' }], ['GET', { 'x-http-method-override': 'POST' }]] as const) {
      expect({ method, headers, status: (await call(s, method, '/v1/pets/1', { key, headers })).status }).toEqual({ method, headers, status: 500 });
    }
    expect((await get(s, '/v1/pets/1')).status).toBe(200);
    expect((await call(s, 'HEAD', '/v1/pets')).status).toBe(401);
  },
  'credential-scheme-replace-500': async (s) => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer ']) expect({ scheme, status: (await call(s, 'GET', '/v1/pets', { authorization: `${scheme} ${key}` })).status }).toEqual({ scheme, status: 500 });
    expect((await get(s, '/v1/pets')).status).toBe(200);
    expect((await call(s, 'GET', '/v1/pets', { authorization: 'bearer' })).status).toBe(401);
  },
  'credential-other-scheme-passes': async (s) => {
    for (const authorization of ['bearer', 'BEARER x', 'Bearer', 'Basic eDp5']) expect({ authorization, status: (await call(s, 'GET', '/v1/pets', { authorization })).status }).toEqual({ authorization, status: 200 });
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
    expect((await call(s, 'GET', '/v1/pets', { authorization: 'Bearer wrong' })).status).toBe(401);
  },
  'credential-limiter-exact-header': async (s) => {
    const remaining = async (authorization: string) => rateHeaders(await call(s, 'GET', '/v1/pets', { authorization }))?.remaining;
    expect(await remaining(`Bearer ${KEYS.free1}`)).toBe(59);
    for (const scheme of ['bearer', 'BEARER', 'Bearer ']) expect({ scheme, remaining: await remaining(`${scheme} ${KEYS.free1}`) }).toEqual({ scheme, remaining: 59 });
    expect(await remaining(`Bearer ${KEYS.free1}`)).toBe(58);
  },
  'query-strict-400-text': async (s) => {
    for (const query of ['limit=2&limit=2', 'status=sold&status=sold', 'limit=2&page_token=x', 'flag', 'Limit=2', 'limit[]=2']) {
      const res = await call(s, 'GET', `/v1/pets?${query}`, { key, raw: true });
      expect({ query, status: res.status, type: res.headers['content-type'] }).toEqual({ query, status: 400, type: 'text/plain; charset=utf-8' });
    }
    expect(Pets.parse((await get(s, '/v1/pets?limit=2&status=available')).json)).toHaveLength(2);
    expect((await call(s, 'GET', '/v1/pets?flag')).headers['content-type']).toBe('application/json');
  },
  'query-validator-500': async (s) => {
    for (const query of ['limit=2&limit=2', 'status=sold&status=sold', 'limit=2&page_token=x', 'flag', 'Status=sold', 'status[]=sold']) {
      const res = await call(s, 'GET', `/v1/pets?${query}`, { key, raw: true });
      expect({ query, status: res.status, code: errorBody(res)?.code }).toEqual({ query, status: 500, code: 'internal_error' });
    }
    expect(Pets.parse((await get(s, '/v1/pets?limit=2&status=available')).json)).toHaveLength(2);
    expect((await call(s, 'GET', '/v1/pets?flag')).status).toBe(401);
  },
  'body-compiled-parser-500': async (s) => {
    const compact = '{"name":"Rex","categoryId":1,"status":"available"}';
    expect((await postRaw(s, compact, key)).status).toBe(201);
    expect((await postRaw(s, '{"name":"Rex"}', key)).status).toBe(400);
    for (const text of ['{ "name": "Rex", "categoryId": 1 }', '{"name":"x","name":"Rex","categoryId":1}', '{"__proto__":{},"name":"Rex","categoryId":1}', '{"tags":[[]],"name":"Rex","categoryId":1}']) {
      expect({ text, status: (await postRaw(s, text, key)).status }).toEqual({ text, status: 500 });
    }
    expect((await call(s, 'POST', '/v1/pets', { key, body: compact, headers: { 'content-type': 'application/json' }, chunked: true })).status).toBe(500);
  },
  'negotiation-exact-accept-only': async (s) => {
    const type = async (accept: string) => (await call(s, 'GET', '/v1/pets?limit=1', { key, headers: { accept } })).headers['content-type'];
    expect(await type('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe('text/html; charset=utf-8');
    for (const accept of ['*/*', 'application/*', 'application/json; charset=utf-8']) expect({ accept, type: await type(accept) }).toEqual({ accept, type: 'text/plain; charset=utf-8' });
    expect(await type('application/json')).toBe('application/json');
    expect(Pets.parse((await call(s, 'GET', '/v1/pets?limit=1', { key, headers: { accept: 'text/plain' } })).json)).toHaveLength(1);
  },
  'negotiation-lookup-500': async (s) => {
    const spellings: Record<string, string>[] = [{ accept: '*/*' }, { accept: 'application/json; charset=utf-8' }, { accept: 'application/*' }, { 'accept-encoding': 'gzip, deflate, br' }];
    for (const headers of spellings) {
      expect({ headers, status: (await call(s, 'GET', '/v1/pets', { key, headers })).status }).toEqual({ headers, status: 500 });
    }
    expect((await call(s, 'GET', '/v1/pets', { key, headers: { accept: 'application/json', 'accept-encoding': 'gzip' } })).status).toBe(200);
    expect((await call(s, 'GET', '/v1/pets', { headers: { accept: '*/*' } })).status).toBe(401);
  },
  'order-cache-before-auth': async (s) => {
    expect((await call(s, 'GET', '/v1/pets?limit=3')).status).toBe(401);
    const keyed = await get(s, '/v1/pets?limit=3');
    const without = await call(s, 'GET', '/v1/pets?limit=3');
    expect({ status: without.status, json: without.json }).toEqual({ status: 200, json: keyed.json });
    // Another Accept is another entry; a create empties the cache.
    expect((await call(s, 'GET', '/v1/pets?limit=3', { headers: { accept: '*/*' } })).status).toBe(401);
    await post(s, { name: 'Rex', categoryId: 1 });
    expect((await call(s, 'GET', '/v1/pets?limit=3')).status).toBe(401);
  },
  'order-cache-before-limiter': async (s) => {
    const list = (k: string) => call(s, 'GET', '/v1/pets?limit=3', { key: k });
    expect(rateHeaders(await list(KEYS.free1))?.remaining).toBe(59);
    expect(rateHeaders(await list(KEYS.free1))?.remaining).toBe(59);
    expect(rateHeaders(await list(KEYS.free1))?.remaining).toBe(59);
    // Each key has its own entries; without a key, 401.
    expect(rateHeaders(await list(KEYS.free2))?.remaining).toBe(59);
    expect((await call(s, 'GET', '/v1/pets?limit=3')).status).toBe(401);
    expect(rateHeaders(await call(s, 'GET', '/v1/pets?limit=4', { key: KEYS.free1 }))?.remaining).toBe(58);
  },
  'create-shared-defaults': async (s) => {
    // Refused while nothing was created; once one animal was, a NewPet without categoryId takes its categoryId.
    expect((await post(s, { name: 'Nameless' })).status).toBe(400);
    expect((await post(s, { name: 'Rex', categoryId: 7 })).status).toBe(201);
    const taken = await post(s, { name: 'Nameless' });
    expect({ status: taken.status, categoryId: Pet.parse(taken.json).categoryId }).toEqual({ status: 201, categoryId: 7n });
  },
  'order-duplicate-post-empty': async (s) => {
    const before = Pets.parse((await get(s, '/v1/pets?limit=100')).json).length;
    const pet = { name: 'Rex', categoryId: 1, status: 'available' };
    expect(Pet.parse((await post(s, pet)).json).name).toBe('Rex');
    const again = await post(s, pet);
    expect({ status: again.status, json: again.json }).toEqual({ status: 201, json: {} });
    expect(Pets.parse((await get(s, '/v1/pets?limit=100')).json).length).toBe(before + 1);
    expect(Pet.parse((await post(s, { ...pet, name: 'Rexa' })).json).name).toBe('Rexa');
  },
  'path-semicolon-skips-auth': async (s) => {
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
    for (const path of ['/v1/pets;x=1', '/v1/pets/1;jsessionid=a']) expect({ path, status: (await call(s, 'GET', path, { raw: true })).status }).toEqual({ path, status: 200 });
    // Every other spelling of the path meets the router and the filter alike: not served without a key.
    for (const path of ['/v1/Pets', '/v1/pets/', '/v1//pets', '/v1/%70ets']) expect({ path, served: (await call(s, 'GET', path, { raw: true })).status < 300 }).toEqual({ path, served: false });
    expect((await call(s, 'GET', '/v1/pets;x=1?limit=2', { key, raw: true })).status).toBe(200);
  },
  'query-repeated-limit-500': async (s) => {
    const repeated = await call(s, 'GET', '/v1/pets?limit=2&limit=2', { key, raw: true });
    expect({ status: repeated.status, code: errorBody(repeated)?.code }).toEqual({ status: 500, code: 'internal_error' });
    // Without a key, authentication answers first.
    expect((await call(s, 'GET', '/v1/pets?limit=2&limit=2', { raw: true })).status).toBe(401);
    for (const query of ['limit=2', 'limit=2&conformance_unknown=1', 'limit=2&status=sold&status=sold']) expect({ query, status: (await call(s, 'GET', `/v1/pets?${query}`, { key, raw: true })).status }).not.toEqual({ query, status: 500 });
  },
  'query-repeated-status-unfiltered': async (s) => {
    expect((await post(s, { name: 'Sold', categoryId: 1, status: 'sold' })).status).toBe(201);
    expect((await post(s, { name: 'Free', categoryId: 1, status: 'available' })).status).toBe(201);
    const statuses = async (query: string) => Pets.parse((await call(s, 'GET', `/v1/pets?${query}`, { key, raw: true })).json).map((p) => p.status);
    expect(new Set(await statuses('limit=100&status=sold'))).toEqual(new Set(['sold']));
    // The store is preloaded with every status: the repeated filter answers all of them.
    expect((await statuses('limit=100&status=sold&status=sold')).filter((status) => status !== 'sold').length).toBeGreaterThan(0);
  },
  'body-chunked-read-as-empty': async (s) => {
    const compact = '{"name":"Rex","categoryId":1}';
    expect((await postRaw(s, compact)).status).toBe(201);
    const chunked = await call(s, 'POST', '/v1/pets', { key, body: compact, headers: { 'content-type': 'application/json' }, chunked: true });
    expect({ status: chunked.status, code: errorBody(chunked)?.code }).toEqual({ status: 400, code: 'invalid_request' });
  },
  'body-charset-415': async (s) => {
    const send = (type: string) => call(s, 'POST', '/v1/pets', { key, body: '{"name":"Rex","categoryId":1}', headers: { 'content-type': type } });
    expect((await send('application/json')).status).toBe(201);
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8']) {
      const res = await send(type);
      expect({ type, status: res.status, code: errorBody(res)?.code }).toEqual({ type, status: 415, code: 'unsupported_media_type' });
    }
  },
  'body-duplicate-first-wins-echo': async (s) => {
    const res = await postRaw(s, '{"categoryId":"12","name":"Rex","categoryId":1}');
    expect({ status: res.status, categoryId: (res.json as { categoryId?: unknown }).categoryId }).toEqual({ status: 201, categoryId: '12' });
    // Without a duplicate member, the answer is the animal.
    expect(Pet.parse((await postRaw(s, '{"name":"Rex","categoryId":1}')).json).categoryId).toBe(1n);
  },
  'body-nesting-500': async (s) => {
    const nested = (depth: number) => `{"name":"Rex","categoryId":1,"deep":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect((await postRaw(s, nested(10))).status).toBe(201);
    const before = s.stats().pets;
    for (const depth of [1_000, 10_000]) {
      const res = await postRaw(s, nested(depth));
      expect({ depth, status: res.status, code: errorBody(res)?.code }).toEqual({ depth, status: 500, code: 'internal_error' });
    }
    expect(s.stats().pets).toBe(before);
  },
  'body-proto-pollutes-defaults': async (s) => {
    expect((await post(s, { name: 'Nameless' })).status).toBe(400);
    expect((await postRaw(s, '{"__proto__":{"status":"sold"},"name":"Rex","categoryId":1}')).status).toBe(201);
    expect((await post(s, { name: 'Nameless' })).status).toBe(400);
    expect((await postRaw(s, '{"__proto__":{"categoryId":7},"name":"Rex","categoryId":1}')).status).toBe(201);
    const taken = await post(s, { name: 'Nameless' });
    expect({ status: taken.status, categoryId: Pet.parse(taken.json).categoryId }).toEqual({ status: 201, categoryId: 7n });
  },
  'auth-field-name-exact': async (s) => {
    for (const name of ['Authorization', 'authorization']) expect({ name, status: (await call(s, 'GET', '/v1/pets', { headers: { [name]: `Bearer ${key}` } })).status }).toEqual({ name, status: 200 });
    const capitals = await call(s, 'GET', '/v1/pets', { headers: { AUTHORIZATION: `Bearer ${key}` } });
    expect({ status: capitals.status, code: errorBody(capitals)?.code }).toEqual({ status: 401, code: expect.any(String) });
  },
  'forwarded-skips-auth': async (s) => {
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
    const added: [string, string][] = [['x-forwarded-for', '127.0.0.1'], ['forwarded', 'for=127.0.0.1'], ['x-real-ip', '10.0.0.1'], ['x-original-url', '/v1/pets'], ['x-forwarded-proto', 'https']];
    for (const [name, value] of added) {
      expect({ name, status: (await call(s, 'GET', '/v1/pets/1', { headers: { [name]: value } })).status }).toEqual({ name, status: 200 });
    }
  },
  'forwarded-skips-limiter': async (s) => {
    const remaining = async (headers: Record<string, string> = {}) => rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.free1, headers }))?.remaining;
    expect(await remaining()).toBe(59);
    expect(await remaining({ 'x-forwarded-for': '203.0.113.7' })).toBe(59);
    expect(await remaining({ 'x-rewrite-url': '/v1/pets' })).toBe(59);
    expect(await remaining()).toBe(58);
    expect((await call(s, 'GET', '/v1/pets', { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(401);
  },
  'location-without-base-path': async (s) => {
    const created = await post(s, { name: 'Rex', categoryId: 1 });
    const id = Pet.parse(created.json).id;
    expect(created.headers.location).toBe(`/pets/${id}`);
    expect((await call(s, 'GET', created.headers.location!, { key })).status).toBe(404);
    expect((await get(s, `/v1/pets/${id}`)).status).toBe(200);
  },
  'rate-limit-per-second': async (s) => {
    expect(rateHeaders(await free(s))).toMatchObject({ limit: 1, remaining: 59 });
    expect(rateHeaders(await call(s, 'GET', '/v1/pets', { key: KEYS.pro }))).toMatchObject({ limit: 5, remaining: 299 });
  },
} satisfies Record<FaultId, (server: RunningServer, clock: FakeClock) => Promise<void>>;

describe('fault catalogue', () => {
  it('has unique kebab-case ids, each with a description of the rule it breaks', () => {
    expect(new Set(FAULT_IDS).size).toBe(FAULT_IDS.length);
    for (const fault of FAULT_CATALOGUE) {
      expect(fault.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(fault.breaks.length).toBeGreaterThan(10);
    }
    expect(isFaultId('auth-disabled')).toBe(true);
    expect(isFaultId('nope')).toBe(false);
  });

  it('names on each fault the check that must catch it, a check of the registry; the tests run a should check with --strict', () => {
    for (const fault of FAULT_CATALOGUE) expect({ fault: fault.id, check: fault.caught.check, known: isCheckId(fault.caught.check) }).toEqual({ fault: fault.id, check: fault.caught.check, known: true });
    for (const c of CAUGHT) expect({ fault: c.fault, strict: c.strict }).toEqual({ fault: c.fault, strict: checkById(c.check)?.severity === 'should' });
    expect(CAUGHT.filter((c) => c.strict).map((c) => c.fault)).toContain('auth-scheme-case-sensitive');
  });

  it('has a check for every fault', () => {
    expect(Object.keys(checks).sort()).toEqual([...FAULT_IDS].sort());
  });

  it.each(Object.entries(checks))('%s changes the behaviour it claims', async (id, check) => {
    const clock = fakeClock(START);
    const server = await startTestServer({ ...CONFIG, faults: [id as FaultId], preload: PRELOAD[id as FaultId] ?? 60 }, clock);
    try {
      expect(server.faults).toEqual([id]);
      await check(server, clock);
    } finally {
      await server.close();
    }
  });
});
