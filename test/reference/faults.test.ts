// Each fault, switched on alone, changes exactly the behaviour its catalogue entry claims. The
// conforming behaviour of the same requests is covered by the other files in this folder.
import { describe, expect, it } from 'vitest';
import { Pets } from '../../lib/models.ts';
import { FAULT_CATALOGUE, FAULT_IDS, isFaultId, type FaultId } from '../../targets/reference/faults.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { KEYS, call, errorBody, postRaw, rateHeaders, startTestServer } from './helpers.ts';

const key = KEYS.bulk;
const get = (s: RunningServer, path: string) => call(s, 'GET', path, { key });

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
  'get-200-for-missing': async (s) => {
    const res = await get(s, '/v1/pets/999');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({});
    expect((await get(s, '/v1/pets/abc')).status).toBe(400);
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
    const server = await startTestServer({ faults: [id as FaultId], preload: 60 });
    try {
      expect(server.faults).toEqual([id]);
      await check(server);
    } finally {
      await server.close();
    }
  });
});
