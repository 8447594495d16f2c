import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundaryNewPet } from '../../lib/generators/boundary-new-pet.ts';
import { Pet } from '../../lib/models.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import { KEYS, call, expectError, postRaw, rateHeaders, rawHttp, startTestServer } from './helpers.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('createPet: valid bodies', () => {
  it('creates an animal: 201, the Pet with an assigned id, Location, JSON', async () => {
    const res = await call(server, 'POST', '/v1/pets', { key: KEYS.bulk, json: { name: 'Rex', categoryId: 3, status: 'available' } });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    const pet = Pet.parse(res.json);
    expect(pet).toMatchObject({ name: 'Rex', categoryId: 3n, status: 'available' });
    expect(res.headers.location).toBe(`/v1/pets/${pet.id}`);
    expect(rateHeaders(res)).toBeDefined();
    const read = await call(server, 'GET', res.headers.location!, { key: KEYS.bulk });
    expect(read.text).toBe(res.text);
  });

  it('assigns increasing ids and ignores an id in the body', async () => {
    const create = async (json: object) => Pet.parse((await call(server, 'POST', '/v1/pets', { key: KEYS.bulk, json })).json);
    const first = await create({ name: 'a', categoryId: 1, id: 424242 });
    const second = await create({ name: 'b', categoryId: 1, id: first.id });
    expect(first.id).not.toBe(424242n);
    expect(second.id).toBeGreaterThan(first.id);
    expect((await call(server, 'GET', '/v1/pets/424242', { key: KEYS.bulk })).status).toBe(404);
  });

  it.each(['9223372036854775807', '-9223372036854775808', '9007199254740993', '0', '-1'])(
    'keeps categoryId %s exactly',
    async (literal) => {
      const res = await postRaw(server, `{"name":"big","categoryId":${literal}}`);
      expect(res.status).toBe(201);
      expect(res.text).toContain(`"categoryId":${literal}`);
      const location = res.headers.location!;
      expect((await call(server, 'GET', location, { key: KEYS.bulk })).text).toContain(`"categoryId":${literal}`);
      const listed = await call(server, 'GET', '/v1/pets?limit=100', { key: KEYS.bulk });
      expect(listed.text).toContain(`"categoryId":${literal}`);
    },
  );

  it('keeps the name exactly, whitespace and all, and accepts the empty string', async () => {
    for (const name of ['  padded  ', '\ttab\nnewline', '', 'ünïcödé 🐈']) {
      const res = await call(server, 'POST', '/v1/pets', { key: KEYS.bulk, json: { name, categoryId: 1 } });
      expect(res.status).toBe(201);
      expect((res.json as { name: string }).name).toBe(name);
    }
  });

  it('creates every NewPet at an edge the harness sends exactly as sent: none is refused', async () => {
    const samples = fc.sample(boundaryNewPet({ namePrefix: 'edge ' }), { seed: 11, numRuns: 400 });
    const reasons = new Set<string>();
    for (const c of samples.filter((s) => !reasons.has(s.reason) && reasons.add(s.reason))) {
      const res = await postRaw(server, c.body);
      expect(res.status, c.reason).toBe(201);
      const pet = Pet.parse(res.json);
      expect({ name: pet.name, categoryId: pet.categoryId, status: pet.status }, c.reason).toEqual({ status: undefined, ...c.pet });
      expect(Pet.parse((await call(server, 'GET', res.headers.location!, { key: KEYS.bulk })).json)).toEqual(pet);
    }
    expect(reasons.size).toBe(12);
  });

  it('stores no status when none is given', async () => {
    const res = await call(server, 'POST', '/v1/pets', { key: KEYS.bulk, json: { name: 'n', categoryId: 1 } });
    expect(res.status).toBe(201);
    expect(res.json).not.toHaveProperty('status');
  });

  it('ignores unknown fields and accepts a charset parameter and 1.0', async () => {
    const res = await postRaw(server, '{"name":"x","categoryId":1.0,"colour":"red","tags":[1]}');
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ id: expect.anything(), name: 'x', categoryId: 1 });
    const utf8 = await call(server, 'POST', '/v1/pets', {
      key: KEYS.bulk,
      body: '{"name":"y","categoryId":2}',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(utf8.status).toBe(201);
  });
});

describe('createPet: invalid bodies get 400 with an Error body', () => {
  const invalid: [string, string][] = [
    ['categoryId 2^63', '{"name":"x","categoryId":9223372036854775808}'],
    ['categoryId below int64', '{"name":"x","categoryId":-9223372036854775809}'],
    ['categoryId 1.5', '{"name":"x","categoryId":1.5}'],
    ['categoryId "1"', '{"name":"x","categoryId":"1"}'],
    ['categoryId null', '{"name":"x","categoryId":null}'],
    ['categoryId true', '{"name":"x","categoryId":true}'],
    ['categoryId 1e400', '{"name":"x","categoryId":1e400}'],
    ['categoryId missing', '{"name":"x"}'],
    ['name missing', '{"categoryId":1}'],
    ['name null', '{"name":null,"categoryId":1}'],
    ['name a number', '{"name":5,"categoryId":1}'],
    ['name an object', '{"name":{"first":"x"},"categoryId":1}'],
    ['status null', '{"name":"x","categoryId":1,"status":null}'],
    ['status outside the enum', '{"name":"x","categoryId":1,"status":"lost"}'],
    ['status in the wrong case', '{"name":"x","categoryId":1,"status":"Available"}'],
    ['status in upper case', '{"name":"x","categoryId":1,"status":"SOLD"}'],
    ['status with a long s', '{"name":"x","categoryId":1,"status":"ſold"}'],
    ['categoryId 1e19', '{"name":"x","categoryId":1e19}'],
    ['an empty object', '{}'],
    ['an array', '[{"name":"x","categoryId":1}]'],
    ['a string', '"x"'],
    ['a number', '1'],
    ['null', 'null'],
    ['malformed JSON', '{"name":"x",'],
    ['trailing garbage', '{"name":"x","categoryId":1} x'],
    ['a duplicate key with two values', '{"name":"x","name":"y","categoryId":1}'],
    ['fields only on the prototype', '{"__proto__":{"name":"x","categoryId":1}}'],
    ['an empty body', ''],
    ['a blank body', '  \n'],
    ['deeply nested arrays', '['.repeat(20_000)],
  ];

  it.each(invalid)('%s', async (_name, body) => {
    expectError(await postRaw(server, body), 400, 'invalid_request');
  });

  it('names the field at fault', async () => {
    const res = await postRaw(server, '{"name":"x","categoryId":"1"}');
    expect((res.json as { message: string }).message).toMatch(/^categoryId/);
  });

  it.each([
    ['no Content-Type', {}],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form encoding', { 'content-type': 'application/x-www-form-urlencoded' }],
  ])('refuses %s', async (_name, headers) => {
    const res = await call(server, 'POST', '/v1/pets', { key: KEYS.bulk, body: '{"name":"x","categoryId":1}', headers });
    expectError(res, 400, 'invalid_request');
  });

  it('refuses a body that is not UTF-8', async () => {
    const res = await call(server, 'POST', '/v1/pets', {
      key: KEYS.bulk,
      body: Buffer.from('{"name":"\xff","categoryId":1}', 'latin1'),
      headers: { 'content-type': 'application/json; charset=latin1' },
    });
    expectError(res, 400);
  });

  it('answers 413 to a body over 64 KiB', async () => {
    const res = await postRaw(server, JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 }));
    expectError(res, 413, 'payload_too_large');
  });

  it('answers 413 without closing the connection: the rest of the body is read and dropped, the next request on it served', async () => {
    // Closing while a client still sends resets the connection before it reads the 413 (RFC 9112 §9.6).
    const body = JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 });
    const host = 'Host: 127.0.0.1\r\n';
    const text = await rawHttp(
      Number(new URL(server.baseUrl).port),
      `POST /v1/pets HTTP/1.1\r\n${host}Authorization: Bearer ${KEYS.bulk}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
        `GET /v1/pets?limit=1 HTTP/1.1\r\n${host}Authorization: Bearer ${KEYS.bulk}\r\nConnection: close\r\n\r\n`,
    );
    const heads = [...text.matchAll(/HTTP\/1\.1 \d{3} [^\r]*/g)].map((m) => m[0]);
    expect(heads).toEqual(['HTTP/1.1 413 Payload Too Large', 'HTTP/1.1 200 OK']);
    const first = text.slice(0, text.indexOf('HTTP/1.1 200'));
    expect(first.toLowerCase()).not.toContain('connection: close');
    expect(first).toContain('"code":"payload_too_large"');
  });

  it('creates nothing when refusing', async () => {
    const before = server.stats().pets;
    await postRaw(server, '{"name":"x","categoryId":"1"}');
    expect(server.stats().pets).toBe(before);
  });
});
