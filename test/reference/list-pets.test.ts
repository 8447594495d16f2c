import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pets } from '../../lib/models.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { KEYS, call, expectError, startTestServer } from './helpers.ts';

// 130 preloaded animals, ids 1..130, statuses cycling available, pending, sold, (none).
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
    expect(sold).toHaveLength(32);
  });

  it.each(['available', 'pending', 'sold'])('filters by status=%s', async (status) => {
    const pets = await list(`?status=${status}&limit=100`);
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.every((p) => p.status === status)).toBe(true);
  });

  it('combines the filter with the limit', async () => {
    const pets = await list('?status=pending&limit=3');
    expect(pets.map((p) => p.id)).toEqual([2n, 6n, 10n]);
  });

  it('ignores unknown query parameters', async () => {
    expect(await list('?page=2&cursor=abc')).toHaveLength(20);
  });

  it.each(['0', '101', '-1', '1.5', 'abc', '', '1e1', '+5', ' 5', '99999999999999999999', '0x10'])(
    'answers 400 to limit=%j',
    async (limit) => {
      const res = await call(server, 'GET', `/v1/pets?limit=${encodeURIComponent(limit)}`, { key: KEYS.bulk });
      expectError(res, 400, 'invalid_request');
    },
  );

  it.each(['lost', '', 'Available', 'available,sold'])('answers 400 to status=%j', async (status) => {
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
