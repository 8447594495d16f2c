// Each fault, switched on alone, changes exactly the behaviour its catalogue entry claims. The
// conforming behaviour of the same requests is covered by the other files in this folder.
import { describe, expect, it } from 'vitest';
import { Pet, Pets } from '../../lib/models.ts';
import { FAULT_CATALOGUE, FAULT_IDS, isFaultId, type FaultId } from '../../targets/reference/faults.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { KEYS, call, errorBody, postRaw, rateHeaders, startTestServer } from './helpers.ts';

const key = KEYS.bulk;
const get = (s: RunningServer, path: string) => call(s, 'GET', path, { key });
const post = (s: RunningServer, json: unknown) => call(s, 'POST', '/v1/pets', { key, json });
const ids = async (s: RunningServer, query: string) => Pets.parse((await get(s, `/v1/pets${query}`)).json).map((p) => p.id);

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
  'auth-after-validation': async (s) => {
    expect((await call(s, 'POST', '/v1/pets', { json: {} })).status).toBe(400);
    expect((await call(s, 'GET', '/v1/pets/999')).status).toBe(404);
    expect((await call(s, 'GET', '/v1/pets?limit=0')).status).toBe(400);
    expect((await call(s, 'GET', '/v1/pets')).status).toBe(401);
    expect((await call(s, 'POST', '/v1/pets', { json: { name: 'x', categoryId: 1 } })).status).toBe(401);
    expect(s.stats().pets).toBe(60);
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
  'create-accepts-string-category': async (s) => {
    const res = await postRaw(s, '{"name":"x","categoryId":"12"}');
    expect(res.status).toBe(201);
    expect(res.text).toContain('"categoryId":12');
    expect((await postRaw(s, '{"name":"x","categoryId":"abc"}')).status).toBe(400);
    expect((await postRaw(s, '{"name":"x","categoryId":1.5}')).status).toBe(400);
  },
  'create-not-persisted': async (s) => {
    const res = await post(s, { name: 'ghost', categoryId: 1 });
    expect(res.status).toBe(201);
    const { id } = Pet.parse(res.json);
    expect((await get(s, res.headers.location!)).status).toBe(404);
    expect(await ids(s, '?limit=100')).not.toContain(id);
    expect(s.stats().pets).toBe(60);
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
  'headers-missing-on-errors': async (s) => {
    expect(rateHeaders(await get(s, '/v1/pets/999'))).toBeUndefined();
    expect(rateHeaders(await call(s, 'GET', '/v1/pets'))).toBeUndefined();
    expect(rateHeaders(await get(s, '/v1/pets'))).toBeDefined();
  },
  'headers-missing': async (s) => {
    expect(rateHeaders(await get(s, '/v1/pets'))).toBeUndefined();
    expect(rateHeaders(await get(s, '/v1/nowhere'))).toBeUndefined();
  },
  'content-type-text': async (s) => {
    const res = await get(s, '/v1/pets');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect((await get(s, '/v1/nowhere')).headers['content-type']).toBe('application/json');
  },
} satisfies Record<FaultId, (server: RunningServer) => Promise<void>>;

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

  it('has a check for every fault', () => {
    expect(Object.keys(checks).sort()).toEqual([...FAULT_IDS].sort());
  });

  it.each(Object.entries(checks))('%s changes the behaviour it claims', async (id, check) => {
    const server = await startTestServer({ faults: [id as FaultId], preload: PRELOAD[id as FaultId] ?? 60 });
    try {
      expect(server.faults).toEqual([id]);
      await check(server);
    } finally {
      await server.close();
    }
  });
});
