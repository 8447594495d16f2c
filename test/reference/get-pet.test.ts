import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pet } from '../../lib/models.ts';
import { preloadedPet } from '../../targets/reference/preload.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { KEYS, call, expectError, startTestServer, type Exchange } from './helpers.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ preload: 3 });
});
afterAll(() => server.close());

function expectDeprecated(res: Exchange): void {
  expect(res.headers.deprecation).toBe('true');
  expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
}

describe('getPet (deprecated)', () => {
  it('returns the animal with Deprecation and Sunset headers', async () => {
    const res = await call(server, 'GET', '/v1/pets/2', { key: KEYS.bulk });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Pet.parse(res.json)).toEqual({ id: 2n, ...preloadedPet(1) });
    expectDeprecated(res);
  });

  const missing = ['0', '4', '-1', '9223372036854775807', '-9223372036854775808', '0002000'];
  it.each(missing)('answers 404 to missing petId %s', async (id) => {
    const res = await call(server, 'GET', `/v1/pets/${id}`, { key: KEYS.bulk });
    expectError(res, 404, 'not_found');
    expectDeprecated(res);
  });

  it('accepts leading zeros and percent-encoded digits', async () => {
    expect((await call(server, 'GET', '/v1/pets/001', { key: KEYS.bulk })).status).toBe(200);
    expect((await call(server, 'GET', '/v1/pets/%31', { key: KEYS.bulk })).status).toBe(200);
  });

  it.each(['abc', '1.5', '1e3', '1e400', '0x1', '+1', '%20%31', '9223372036854775808', '-9223372036854775809', '1' + '0'.repeat(30), '%E0%A4%A', '-'])(
    'answers 400 to petId %s',
    async (id) => {
      const res = await call(server, 'GET', `/v1/pets/${id}`, { key: KEYS.bulk });
      expectError(res, 400, 'invalid_request');
      expectDeprecated(res);
    },
  );

  it('sends the deprecation headers on a 401 too', async () => {
    const res = await call(server, 'GET', '/v1/pets/1');
    expectError(res, 401);
    expectDeprecated(res);
  });

  it('does not send them on other operations', async () => {
    const res = await call(server, 'GET', '/v1/pets', { key: KEYS.bulk });
    expect(res.headers.deprecation).toBeUndefined();
  });
});
