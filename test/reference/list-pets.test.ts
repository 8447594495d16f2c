import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pets } from '../../lib/models.ts';
import { preloadedPet } from '../../targets/reference/preload.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { KEYS, call, expectError, startTestServer } from './helpers.ts';

// 130 preloaded animals, ids 1..130, statuses as preloadedPet(id - 1) gives them.
const PRELOADED = Array.from({ length: 130 }, (_, i) => ({ id: BigInt(i + 1), ...preloadedPet(i) }));
const idsWithStatus = (status: string) => PRELOADED.filter((p) => p.status === status).map((p) => p.id);

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ preload: 130 });
});
afterAll(() => server.close());

async function list(query: string) {
  const res = await call(server, 'GET', `/v1/pets${query}`, { key: KEYS.bulk });
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toBe('application/json');
  return Pets.parse(res.json);
}

describe('listPets', () => {
  it('returns 20 animals by default, in insertion order', async () => {
    const pets = await list('');
    expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i + 1)));
    expect(pets[1]).toEqual({ id: 2n, ...preloadedPet(1) });
  });

  it.each([
    ['1', 1],
    ['5', 5],
    ['100', 100],
    ['007', 7],
  ])('returns at most limit=%s animals', async (limit, expected) => {
    expect(await list(`?limit=${limit}`)).toHaveLength(expected);
  });

  it('returns fewer than limit when fewer animals match', async () => {
    const sold = await list('?status=sold&limit=100');
    expect(idsWithStatus('sold').length).toBeLessThan(100);
    expect(sold.map((p) => p.id)).toEqual(idsWithStatus('sold'));
  });

  it.each(['available', 'pending', 'sold'])('filters by status=%s', async (status) => {
    const pets = await list(`?status=${status}&limit=100`);
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.every((p) => p.status === status)).toBe(true);
  });

  it('lists preloaded animals without status, and categoryIds beyond 2^53, exactly', async () => {
    const res = await call(server, 'GET', '/v1/pets?limit=100', { key: KEYS.bulk });
    const pets = Pets.parse(res.json);
    expect(pets.some((p) => p.status === undefined)).toBe(true);
    const big = PRELOADED.slice(0, 100).filter((p) => p.categoryId > 2n ** 53n);
    expect(big.length).toBeGreaterThan(0);
    for (const p of big) expect(res.text).toContain(`"categoryId":${p.categoryId}`);
  });

  it('combines the filter with the limit', async () => {
    const pets = await list('?status=pending&limit=3');
    expect(pets.map((p) => p.id)).toEqual(idsWithStatus('pending').slice(0, 3));
  });

  it('ignores unknown query parameters', async () => {
    expect(await list('?page=2&cursor=abc')).toHaveLength(20);
  });

  it.each(['0', '101', '-1', '1.5', 'abc', '', '1e1', '+5', ' 5', '99999999999999999999', '0x10', 'Infinity', '1e400', '9223372036854775808'])(
    'answers 400 to limit=%j',
    async (limit) => {
      const res = await call(server, 'GET', `/v1/pets?limit=${encodeURIComponent(limit)}`, { key: KEYS.bulk });
      expectError(res, 400, 'invalid_request');
    },
  );

  it.each(['lost', '', 'Available', 'AVAILABLE', 'SOLD', 'pEnding', 'ſold', 'availabl', 'available,sold'])('answers 400 to status=%j', async (status) => {
    expectError(await call(server, 'GET', `/v1/pets?status=${encodeURIComponent(status)}`, { key: KEYS.bulk }), 400);
  });

  it('answers 400 to a repeated parameter', async () => {
    expectError(await call(server, 'GET', '/v1/pets?limit=1&limit=2', { key: KEYS.bulk }), 400);
    expectError(await call(server, 'GET', '/v1/pets?status=sold&status=sold', { key: KEYS.bulk }), 400);
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await call(server, 'HEAD', '/v1/pets', { key: KEYS.bulk });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('returns an empty array from an empty store', async () => {
    const empty = await startTestServer();
    try {
      const res = await call(empty, 'GET', '/v1/pets', { key: KEYS.bulk });
      expect(res.status).toBe(200);
      expect(res.text).toBe('[]');
    } finally {
      await empty.close();
    }
  });
});

describe('preload', () => {
  const sample = Array.from({ length: 1000 }, (_, i) => preloadedPet(i));

  it('is the same on every run', () => {
    expect(Array.from({ length: 1000 }, (_, i) => preloadedPet(i))).toEqual(sample);
  });

  it('mixes the three statuses and none, varied names, and categoryIds across int64', () => {
    const statuses = new Set(sample.map((p) => p.status));
    expect(statuses).toEqual(new Set(['available', 'pending', 'sold', undefined]));
    expect(new Set(sample.map((p) => p.name)).size).toBeGreaterThan(50);
    expect(sample.some((p) => /[^\x00-\x7f]/.test(p.name!))).toBe(true);
    const ids = sample.map((p) => p.categoryId);
    expect(ids.every((id) => id >= -(2n ** 63n) && id < 2n ** 63n)).toBe(true);
    expect(ids.some((id) => id > 2n ** 53n && id < 2n ** 54n)).toBe(true);
    expect(ids.some((id) => id > 2n ** 62n)).toBe(true);
    expect(ids.some((id) => id < 0n)).toBe(true);
    expect(ids.filter((id) => id >= 1n && id <= 12n).length).toBeGreaterThan(500);
  });
});
