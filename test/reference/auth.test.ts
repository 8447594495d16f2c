import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyRing } from '../../targets/reference/auth.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { KEYS, call, expectError, rateHeaders, startTestServer } from './helpers.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('authentication', () => {
  const rejected: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['an empty Authorization header', { authorization: '' }],
    ['the scheme alone', { authorization: 'Bearer' }],
    ['the scheme and a space', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: `Basic ${KEYS.free1}` }],
    ['a Token scheme', { authorization: `Token ${KEYS.free1}` }],
    ['the key without a scheme', { authorization: KEYS.free1 }],
    ['an unknown key', { authorization: 'Bearer not-a-key' }],
    ['a configured key with a suffix', { authorization: `Bearer ${KEYS.free1}x` }],
    ['a prefix of a configured key', { authorization: `Bearer ${KEYS.free1.slice(0, -1)}` }],
    ['a very long key', { authorization: `Bearer ${'k'.repeat(4000)}` }],
    ['the key followed by more words', { authorization: `Bearer ${KEYS.free1} extra` }],
    ['the key twice', { authorization: `Bearer ${KEYS.free1} ${KEYS.free1}` }],
    ['the key followed by ";x"', { authorization: `Bearer ${KEYS.free1};x` }],
    ['the key followed by ",x"', { authorization: `Bearer ${KEYS.free1},x` }],
    ['the key in upper case', { authorization: `Bearer ${KEYS.free1.toUpperCase()}` }],
    ['the key glued to the scheme', { authorization: `Bearer${KEYS.free1}` }],
  ];

  it.each(rejected)('answers 401 with an Error body to %s', async (_name, headers) => {
    const res = await call(server, 'GET', '/v1/pets', { headers });
    expectError(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the scheme spelt %s', async (scheme) => {
    const res = await call(server, 'GET', '/v1/pets', { authorization: `${scheme} ${KEYS.free1}` });
    expect(res.status).toBe(200);
  });

  it.each(['api_key', 'key', 'access_token'])('does not accept a key in the query string (%s)', async (param) => {
    const res = await call(server, 'GET', `/v1/pets?${param}=${KEYS.free1}`);
    expectError(res, 401, 'unauthorized');
  });

  it('checks the key before validation, lookup and routing', async () => {
    expectError(await call(server, 'POST', '/v1/pets', { json: { nonsense: true } }), 401);
    expectError(await call(server, 'POST', '/v1/pets', { body: '{', headers: { 'content-type': 'text/plain' } }), 401);
    expectError(await call(server, 'GET', '/v1/pets?limit=0'), 401);
    expectError(await call(server, 'GET', '/v1/pets/not-a-number'), 401);
    expectError(await call(server, 'GET', '/v1/pets/999999'), 401);
    expectError(await call(server, 'GET', '/v1/nowhere'), 401);
    expectError(await call(server, 'DELETE', '/v1/pets'), 401);
  });

  it('counts unauthenticated requests in an anonymous bucket with the free numbers, not against any key', async () => {
    const before = rateHeaders(await call(server, 'GET', '/v1/pets', { key: KEYS.pro }))!;
    const anon = rateHeaders(await call(server, 'GET', '/v1/pets', { authorization: `Bearer ${KEYS.pro}-wrong` }))!;
    const after = rateHeaders(await call(server, 'GET', '/v1/pets', { key: KEYS.pro }))!;
    expect(anon.limit).toBe(60);
    expect(after.remaining).toBe(before.remaining - 1);
    const stats = server.stats();
    expect(stats.byKey.anonymous?.byStatus['401']).toBeGreaterThan(0);
    expect(stats.byKey['pro#1']?.byStatus['401']).toBeUndefined();
  });

  it('never puts a key into stats', () => {
    const text = JSON.stringify(server.stats());
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
    expect(Object.keys(server.stats().byKey)).toEqual(expect.arrayContaining(['free#1', 'pro#1', 'anonymous']));
  });
});

describe('KeyRing', () => {
  const ring = new KeyRing([
    { key: 'short', plan: 'free' },
    { key: 'a-much-longer-key-than-the-other', plan: 'free' },
    { key: 'pro-key', plan: 'pro' },
  ]);

  it('labels keys by plan and position, never by value', () => {
    expect(ring.clients()).toEqual([
      { label: 'free#1', plan: 'free' },
      { label: 'free#2', plan: 'free' },
      { label: 'pro#1', plan: 'pro' },
    ]);
  });

  it('compares keys of any length without throwing', () => {
    expect(ring.find('short')).toEqual({ label: 'free#1', plan: 'free' });
    expect(ring.find('a-much-longer-key-than-the-other')).toEqual({ label: 'free#2', plan: 'free' });
    for (const other of ['', 's', 'shor', 'shortx', 'x'.repeat(100_000), 'pro-key\u0000', 'SHORT']) {
      expect(ring.find(other)).toBeUndefined();
    }
  });

  describe('loose matching (the faults auth-key-prefix-accepted and auth-key-case-insensitive)', () => {
    const loose = new KeyRing([{ key: 'short', plan: 'free' }, { key: 'pro-Key', plan: 'pro' }], { looseMatching: true });
    const free = { label: 'free#1', plan: 'free' };
    const pro = { label: 'pro#1', plan: 'pro' };

    it('finds exactly as the conforming ring does when asked for no loose comparison', () => {
      expect(loose.find('short')).toEqual(free);
      for (const other of ['shor', 'shortx', 'SHORT', 'pro-key', '']) expect(loose.find(other)).toBeUndefined();
    });

    it('over the shorter length: a prefix of a key, or a key followed by anything, is that key', () => {
      const prefix = { prefixAccepted: true };
      for (const near of ['short', 'shor', 's', 'shortx', 'short;x', 'short '.repeat(3)]) expect(loose.find(near, prefix), near).toEqual(free);
      expect(loose.find('pro-K', prefix)).toEqual(pro);
      for (const other of ['SHORT', 'shirt', 'x', 'pro-key', '']) expect(loose.find(other, prefix), other).toBeUndefined();
    });

    it('ignoring case: the key in any case is that key, but not a prefix or a longer key', () => {
      const folded = { caseInsensitive: true };
      for (const near of ['short', 'SHORT', 'sHoRt']) expect(loose.find(near, folded), near).toEqual(free);
      for (const near of ['pro-key', 'PRO-KEY', 'pro-Key']) expect(loose.find(near, folded), near).toEqual(pro);
      for (const other of ['shor', 'shortx', 'SHORTX', 'PRO-KE', '']) expect(loose.find(other, folded), other).toBeUndefined();
    });

    it('both faults together: a prefix in another case', () => {
      expect(loose.find('SHO', { prefixAccepted: true, caseInsensitive: true })).toEqual(free);
    });

    it('is not available on a ring built without it (no prefix digests are held)', () => {
      expect(() => ring.find('shor', { prefixAccepted: true })).toThrow(/loose matching/);
    });
  });
});
