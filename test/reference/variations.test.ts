// Legal variations: each one does what its catalogue entry says, and a server with any of them
// (or all) still answers every operation as the interface requires.
import { describe, expect, it } from 'vitest';
import { INT64_MAX, Pet, Pets } from '../../lib/models.ts';
import type { ServerConfigInput } from '../../targets/reference/config.ts';
import { CLOCK_SKEW_MS, type RunningServer } from '../../targets/reference/server.ts';
import { AnimalStore, READ_LAG, readLagMs } from '../../targets/reference/store.ts';
import {
  AFFINITY_COOKIE,
  DEPRECATION_DATE,
  SUNSET_END_OF_DAY,
  VARIATION_CATALOGUE,
  VARIATION_IDS,
  isVariationId,
  type VariationId,
} from '../../targets/reference/variations.ts';
import {
  closedAfterEach,
  KEYS,
  T0,
  TEST_CONFIG,
  call,
  errorBody,
  fakeClock,
  postRaw,
  rateHeaders,
  rawHttp,
  startTestServer,
  type Exchange,
  type FakeClock,
} from './helpers.ts';

const T0_S = T0 / 1000;
const key = KEYS.bulk;
const TINY_KEY = 'test-tiny-key';
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

const track = closedAfterEach();

async function start(
  variations: VariationId[],
  config: Partial<ServerConfigInput> = {},
  clock: FakeClock = fakeClock(T0 + 10_250),
): Promise<RunningServer> {
  const server = await startTestServer({ variations, ...config }, clock);
  track(server);
  return server;
}

/** TEST_CONFIG plus a key of a plan with the given quota. */
function withTinyPlan(perMinute: number, perDay: number): Partial<ServerConfigInput> {
  return { keys: [...TEST_CONFIG.keys, { key: TINY_KEY, plan: 'tiny' }], plans: { ...TEST_CONFIG.plans, tiny: { perMinute, perDay } } };
}

const get = (s: RunningServer, path: string) => call(s, 'GET', path, { key });
const list = async (s: RunningServer, query = '') => Pets.parse((await get(s, `/v1/pets${query}`)).json);
const listIds = async (s: RunningServer, query = '') => (await list(s, query)).map((p) => p.id);

function isJson(res: Exchange): boolean {
  return /^application\/json(\s*;|$)/i.test(res.headers['content-type'] ?? '');
}

/** An Error body whose status repeats the HTTP status, served as JSON (any parameters), with rate-limit headers. */
function expectError(res: Exchange, ...statuses: number[]): void {
  expect(statuses, res.text).toContain(res.status);
  expect(isJson(res)).toBe(true);
  const body = errorBody(res);
  expect(body?.status).toBe(res.status);
  expect(typeof body?.code).toBe('string');
  expect(typeof body?.message).toBe('string');
  expect(rateHeaders(res)).toBeDefined();
}

/** Seconds until a Retry-After value lets the client back in, for either RFC 9110 form. */
function retryAfterMs(value: string | undefined, nowMs: number): number {
  expect(value).toBeDefined();
  if (/^[0-9]+$/.test(value!)) return Number(value) * 1000;
  expect(value).toMatch(IMF_FIXDATE);
  return Date.parse(value!) - nowMs;
}

/** How far the server's clock is from the test's. */
function skewMs(s: RunningServer): number {
  return (s.variations.includes('clock-ahead') ? CLOCK_SKEW_MS : 0) - (s.variations.includes('clock-behind') ? CLOCK_SKEW_MS : 0);
}

/** Variations whose Reset, rounded from a moment that is not a whole second, may be one second beyond a window. */
const RESET_BEYOND_WINDOW: readonly VariationId[] = ['window-per-key', 'sliding-log', 'reset-jitter', 'retry-after-fractional-wait'];

/** A walk through every operation that accepts every legal reading the variations allow. */
async function expectConforming(s: RunningServer, clock: FakeClock): Promise<void> {
  const anonymous = await call(s, 'GET', '/v1/pets');
  expectError(anonymous, 401);
  expect(anonymous.headers['www-authenticate']).toBe('Bearer');
  expectError(await call(s, 'GET', `/v1/pets?api_key=${key}`), 401);
  expectError(await call(s, 'GET', '/v1/pets', { authorization: 'Bearer ' }), 401);
  expectError(await call(s, 'POST', '/v1/pets', { json: {} }), 401);
  expect((await call(s, 'GET', '/v1/pets', { authorization: `bearer ${key}` })).status).toBe(200);

  const name = '  Ünï 🐈 ';
  const createdA = await postRaw(s, `{"name":${JSON.stringify(name)},"categoryId":9223372036854775807,"status":"sold"}`);
  expect(createdA.status, createdA.text).toBe(201);
  expect(isJson(createdA)).toBe(true);
  const a = Pet.parse(createdA.json);
  expect(a).toEqual({ id: a.id, name, categoryId: INT64_MAX, status: 'sold' });
  // Written exactly (variation json-reformatted puts a space after the colon).
  expect(createdA.text).toMatch(new RegExp(`"id":\\s*${a.id}[,\\s}]`));
  // Variation location-absolute: the same place, as an absolute URL.
  const location = createdA.headers.location!;
  expect(new URL(location, s.origin).href).toBe(`${s.origin}/v1/pets/${a.id}`);
  if (s.variations.includes('location-absolute')) expect(location).toBe(`${s.origin}/v1/pets/${a.id}`);
  else expect(location).toBe(`/v1/pets/${a.id}`);
  expect(rateHeaders(createdA)).toBeDefined();

  const createdB = await call(s, 'POST', '/v1/pets', { key, json: { name: 'Rex', categoryId: -1 } });
  expect(createdB.status).toBe(201);
  const b = Pet.parse(createdB.json);
  expect([undefined, 'available']).toContain(b.status);
  expect(b.id).not.toBe(a.id);
  // Variation read-lag: reads show the animals once the longest lag has passed (the same minute).
  if (s.variations.includes('read-lag')) clock.advance(READ_LAG.maxMs);

  const read = await get(s, new URL(location, s.origin).pathname);
  expect(read.status).toBe(200);
  expect(isJson(read)).toBe(true);
  expect(Pet.parse(read.json)).toEqual(a);
  expect(read.headers.deprecation).toMatch(/^(true|@-?[0-9]+)$/);
  expect(['Thu, 05 Dec 2030 00:00:00 GMT', SUNSET_END_OF_DAY]).toContain(read.headers.sunset);
  expect(Pet.parse((await get(s, `/v1/pets/${b.id}`)).json)).toEqual(b);
  expectError(await get(s, '/v1/pets/0'), 404);
  expectError(await get(s, '/v1/pets/abc'), 400, 404);

  expect(await listIds(s)).toHaveLength(20);
  const badLimit = await get(s, '/v1/pets?limit=abc');
  if (badLimit.status === 200) expect(Pets.parse(badLimit.json)).toHaveLength(20);
  else expectError(badLimit, 400);
  const page = await listIds(s, '?limit=3');
  expect(page).toHaveLength(3);
  expect(new Set(page).size).toBe(3);
  const all = await list(s, '?limit=100');
  expect(all).toHaveLength(s.stats().pets);
  expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
  expect(all).toEqual(expect.arrayContaining([a, b]));
  const sold = await list(s, '?status=sold&limit=100');
  expect(sold.every((p) => p.status === 'sold')).toBe(true);
  expect(sold).toContainEqual(a);
  expect(sold).toHaveLength(all.filter((p) => p.status === 'sold').length);
  const unknownStatus = await get(s, '/v1/pets?status=lost');
  // Variation unknown-filter-ignored: a status that is no PetStatus is no filter.
  if (s.variations.includes('unknown-filter-ignored')) expect(Pets.parse(unknownStatus.json)).toHaveLength(20);
  else expectError(unknownStatus, 400);

  expectError(await postRaw(s, '{"name":"x"}'), 400);
  expectError(await postRaw(s, '{"categoryId":1}'), 400);
  // A value of another type is invalid under every variation.
  expectError(await postRaw(s, '{"name":"x","categoryId":"12"}'), 400);
  const nullStatus = await postRaw(s, '{"name":"x","categoryId":1,"status":null}');
  // Variation lenient-values: a null status is none.
  if (s.variations.includes('lenient-values')) expect(Pet.parse(nullStatus.json)).toMatchObject({ name: 'x', categoryId: 1n });
  else expectError(nullStatus, 400);
  const withId = await postRaw(s, '{"id":424242,"name":"x","categoryId":1}');
  if (withId.status === 201) expect(Pet.parse(withId.json).id).not.toBe(424242n);
  else expectError(withId, 400);
  expectError(await postRaw(s, '{"name":"x","categoryId":1.5}'), 400);
  expectError(await postRaw(s, '{"name":'), 400);
  expectError(await get(s, '/v1/nowhere'), 404);
  const wrongMethod = await call(s, 'DELETE', '/v1/pets', { key });
  if (s.variations.includes('unknown-method-501')) {
    // No route has DELETE: the method is not implemented, on any path.
    expectError(wrongMethod, 501);
    expectError(await call(s, 'POST', '/v1/pets/1', { key, json: {} }), 405);
  } else {
    expectError(wrongMethod, 405);
    // Variation head-405: HEAD is not served, so Allow does not list it.
    expect(wrongMethod.headers.allow).toBe(s.variations.includes('head-405') ? 'GET, POST' : 'GET, HEAD, POST');
  }
  const orders = await get(s, '/v1/store/orders');
  expect(orders.status).toBe(200);
  expect(orders.json).toEqual([]);

  const accepted: Exchange[] = [];
  for (let i = 0; i < 3; i++) accepted.push(await call(s, 'GET', '/v1/pets', { key: TINY_KEY }));
  expect(accepted.map((r) => r.status)).toEqual([200, 200, 200]);
  const refused = await call(s, 'GET', '/v1/pets', { key: TINY_KEY });
  // The body of a 429 is "not shown": an Error body, or nothing at all.
  if (refused.text === '') expect(refused.status).toBe(429);
  else expectError(refused, 429);
  const limits = rateHeaders(refused)!;
  // Reset and an HTTP-date Retry-After are on the server's clock.
  const serverNow = clock.now() + skewMs(s);
  const waitMs = retryAfterMs(refused.headers['retry-after'], serverNow);
  if (s.variations.includes('headers-day-window')) {
    // The headers describe the day (100 a day); Retry-After is the minute's, within a window.
    expect(accepted.map((r) => rateHeaders(r)?.remaining)).toEqual([99, 98, 97]);
    expect(limits.limit).toBe(100);
    // 97 left of the day, or 96 where refused requests count too (rejected-count-against-quota).
    expect([96, 97]).toContain(limits.remaining);
    expect(waitMs).toBeLessThanOrEqual(61_000);
  } else {
    expect(accepted.map((r) => rateHeaders(r)?.remaining)).toEqual([2, 1, 0]);
    expect(limits).toMatchObject({ limit: 3, remaining: 0 });
    expect(rateHeaders(accepted[0]!)?.limit).toBe(3);
    const slack = s.variations.some((v) => RESET_BEYOND_WINDOW.includes(v)) ? 1 : 0;
    for (const res of [...accepted, refused]) expectResetInWindow(rateHeaders(res)!.reset, serverNow, 60 + slack);
    expect(Math.abs(serverNow + waitMs - limits.reset * 1000)).toBeLessThanOrEqual(1000);
  }
  clock.advance(waitMs);
  expect((await call(s, 'GET', '/v1/pets', { key: TINY_KEY })).status).toBe(200);
  // The one 5xx of the walk is unknown-method-501's answer to DELETE, a deliberate 501.
  expect(s.stats()).toMatchObject({ earlyRetries: 0, bans: 0, exceptions: 0, serverErrors: s.variations.includes('unknown-method-501') ? 1 : 0 });
}

/** X-RateLimit-Reset is a Unix second after now and at most one window after the current whole second. */
function expectResetInWindow(reset: number, nowMs: number, windowSeconds: number): void {
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset * 1000).toBeGreaterThan(nowMs);
  expect(reset).toBeLessThanOrEqual(Math.floor(nowMs / 1000) + windowSeconds);
}

describe('variation catalogue', () => {
  it('has unique ids, each with a description of what it allows', () => {
    expect(new Set(VARIATION_IDS).size).toBe(VARIATION_IDS.length);
    for (const variation of VARIATION_CATALOGUE) {
      expect(variation.id).toMatch(/^[a-z0-9^]+(-[a-z0-9^]+)*$/);
      expect(variation.allows.length).toBeGreaterThan(10);
    }
    expect(isVariationId('charset-utf8')).toBe(true);
    expect(isVariationId('auth-disabled')).toBe(false);
  });

  it('reports the switched-on variations in catalogue order', async () => {
    const s = await start(['limit-clamp', 'charset-utf8']);
    expect(s.variations).toEqual(['limit-clamp', 'charset-utf8']);
    expect(s.faults).toEqual([]);
    expect((await start([])).variations).toEqual([]);
  });
});

describe('a server with a variation still answers every operation correctly', () => {
  const cases: [string, VariationId[]][] = [
    ...VARIATION_IDS.map((id): [string, VariationId[]] => [id, [id]]),
    ['all variations at once', [...VARIATION_IDS]],
  ];

  it.each(cases)('%s', async (_name, variations) => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(variations, { ...withTinyPlan(3, 100), preload: 20 }, clock);
    await expectConforming(s, clock);
  });

  it('and so does the server without any', async () => {
    const clock = fakeClock(T0 + 10_250);
    await expectConforming(await start([], { ...withTinyPlan(3, 100), preload: 20 }, clock), clock);
  });
});

describe('each variation does what it says', () => {
  it('read-lag: an animal created is shown by getPet and listPets only after its write\'s lag (0 to 1 s, the same on every run); createPet answers at once', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['read-lag'], { preload: 2 }, clock);
    // Preloaded animals are there from the start.
    expect(await listIds(s)).toHaveLength(2);
    const created = await call(s, 'POST', '/v1/pets', { key, json: { name: 'Lagging', categoryId: 4, status: 'sold' } });
    expect(created.status).toBe(201);
    const pet = Pet.parse(created.json);
    expect(pet).toEqual({ id: pet.id, name: 'Lagging', categoryId: 4n, status: 'sold' });
    const lag = readLagMs(0);
    expect(lag).toBeGreaterThan(1);
    expectError(await get(s, `/v1/pets/${pet.id}`), 404);
    expect(await listIds(s, '?limit=100')).not.toContain(pet.id);
    expect(await listIds(s, '?status=sold&limit=100')).not.toContain(pet.id);
    clock.advance(lag - 1);
    expectError(await get(s, `/v1/pets/${pet.id}`), 404);
    clock.advance(1);
    expect(Pet.parse((await get(s, `/v1/pets/${pet.id}`)).json)).toEqual(pet);
    expect(await listIds(s, '?status=sold&limit=100')).toContain(pet.id);
    expect(await listIds(s, '?limit=100')).toHaveLength(3);
    // Each write its own lag, spread over 0..1000 ms, the same on every run.
    const lags = Array.from({ length: 500 }, (_, n) => readLagMs(n));
    expect(Math.min(...lags)).toBeLessThan(50);
    expect(Math.max(...lags)).toBeGreaterThan(950);
    expect(Math.max(...lags)).toBeLessThanOrEqual(READ_LAG.maxMs);
    expect(lags.every(Number.isInteger)).toBe(true);
    expect(Array.from({ length: 500 }, (_, n) => readLagMs(n))).toEqual(lags);
    // The store alone: only writes through the API lag.
    let now = 0;
    const store = new AnimalStore({ now: () => now, readLagMs: () => 300 });
    store.preload(1);
    const stored = store.create({ name: 'x', categoryId: 1n });
    expect(store.list().map((p) => p.id)).toEqual([1n]);
    expect(store.get(stored.id)).toBeUndefined();
    now = 300;
    expect(store.get(stored.id)).toEqual(stored);
    expect(store.list().map((p) => p.id)).toEqual([1n, stored.id]);
  });

  it('ids-beyond-2^53: ids start at 2^53 + 1, spread towards 2^62, unique, written and read exactly', async () => {
    const s = await start(['ids-beyond-2^53'], { preload: 3 });
    const created: bigint[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await call(s, 'POST', '/v1/pets', { key, json: { name: `n${i}`, categoryId: 1 } });
      const { id } = Pet.parse(res.json);
      expect(res.text).toContain(`"id":${id}`);
      expect(res.headers.location).toBe(`/v1/pets/${id}`);
      expect((await get(s, `/v1/pets/${id}`)).text).toBe(res.text);
      created.push(id);
    }
    const ids = await listIds(s, '?limit=100');
    expect(ids.slice(0, 3)).toEqual([2n ** 53n + 1n, ...ids.slice(1, 3)]);
    expect(ids.slice(3)).toEqual(created);
    expect(new Set(ids).size).toBe(15);
    expect(ids.every((id) => id > 2n ** 53n && id <= INT64_MAX)).toBe(true);
    expect(ids.some((id) => id > 2n ** 61n)).toBe(true);
    expect((await get(s, `/v1/pets/${2n ** 53n}`)).status).toBe(404);
  });

  it('ids-beyond-2^53: ids stay unique and within int64 over many animals', () => {
    const store = new AnimalStore({ idsBeyond2to53: true });
    store.preload(100_000);
    const ids = store.list().map((p) => p.id);
    expect(new Set(ids).size).toBe(100_000);
    expect(ids.every((id) => id > 2n ** 53n && id <= INT64_MAX)).toBe(true);
  });

  it('ids-sharded: ids are a sequence times 2^32 plus 7, so an id plus or minus 2^32 is another animal', async () => {
    const s = await start(['ids-sharded'], { preload: 3 });
    const res = await call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1 } });
    const { id } = Pet.parse(res.json);
    expect(id).toBe(4n * 2n ** 32n + 7n);
    expect(await listIds(s, '?limit=100')).toEqual([1n, 2n, 3n, 4n].map((n) => n * 2n ** 32n + 7n));
    const previous = Pet.parse((await get(s, `/v1/pets/${id - 2n ** 32n}`)).json);
    expect(previous.id).toBe(id - 2n ** 32n);
    expect((await get(s, `/v1/pets/${id + 2n ** 32n}`)).status).toBe(404);
    expect((await get(s, '/v1/pets/7')).status).toBe(404);
  });

  it('status-null: an animal without status is written with "status": null, in every operation', async () => {
    const s = await start(['status-null'], { preload: 20 });
    const res = await call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1 } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: null });
    expect((await get(s, res.headers.location!)).json).toMatchObject({ status: null });
    const page = (await get(s, '/v1/pets?limit=100')).json as { status: unknown }[];
    expect(page.some((p) => p.status === null)).toBe(true);
    expect(page.every((p) => 'status' in p)).toBe(true);
    expect((await call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1, status: 'sold' } })).json).toMatchObject({ status: 'sold' });
  });

  it('pet-extra-members: every Pet answered carries createdAt and _links.self, its id written exactly, in every operation', async () => {
    const s = await start(['pet-extra-members', 'ids-beyond-2^53'], { preload: 3 });
    const res = await call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1 } });
    expect(res.status).toBe(201);
    const { id } = Pet.parse(res.json);
    expect(id).toBeGreaterThan(2n ** 53n);
    expect(res.text).toContain(`"_links":{"self":{"href":"/v1/pets/${id}"}}`);
    const { createdAt } = res.json as { createdAt: string };
    expect(new Date(createdAt).toISOString()).toBe(createdAt);
    const read = await get(s, `/v1/pets/${id}`);
    expect(read.text).toBe(res.text);
    const page = (await get(s, '/v1/pets?limit=100')).json as { id: unknown; createdAt?: unknown; _links?: { self?: { href?: unknown } } }[];
    expect(page).toHaveLength(4);
    for (const pet of page) {
      expect(typeof pet.createdAt).toBe('string');
      expect(pet._links?.self?.href).toBe(`/v1/pets/${Pet.parse(pet).id}`);
    }
    // The members the interface names are as without the variation.
    expect(Pet.parse(read.json)).toEqual({ id, name: 'n', categoryId: 1n });
  });

  it('status-default-available: an omitted status is stored and returned as available', async () => {
    const s = await start(['status-default-available'], { preload: 40 });
    const res = await call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1 } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: 'available' });
    expect((await get(s, res.headers.location!)).json).toMatchObject({ status: 'available' });
    const { id } = Pet.parse(res.json);
    expect(await listIds(s, '?status=available&limit=100')).toContain(id);
    expect((await call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1, status: 'pending' } })).json).toMatchObject({
      status: 'pending',
    });
    expect((await list(s, '?limit=100')).every((p) => p.status !== undefined)).toBe(true);
  });

  it.each([
    ['500', 100],
    ['101', 100],
    ['99999999999999999999', 100],
    ['0', 1],
    ['-1', 1],
    ['-99999999999999999999', 1],
    ['abc', 20],
    ['1.5', 20],
    ['', 20],
    ['+5', 20],
    ['5', 5],
  ])('limit-clamp: limit=%j gives %i animals', async (limit, expected) => {
    const s = await start(['limit-clamp'], { preload: 130 });
    const res = await get(s, `/v1/pets?limit=${encodeURIComponent(limit)}`);
    expect(res.status).toBe(200);
    expect(Pets.parse(res.json)).toHaveLength(expected);
  });

  it('limit-clamp: a repeated limit is read as its first value, a bad one gets the default, a bad status is still 400', async () => {
    const s = await start(['limit-clamp'], { preload: 130 });
    expect(await listIds(s, '?limit=2&limit=2')).toHaveLength(2);
    expect(await listIds(s, '?limit=1&limit=2')).toHaveLength(1);
    expect(await listIds(s, '?limit=two')).toHaveLength(20);
    expectError(await get(s, '/v1/pets?status=lost&limit=500'), 400);
  });

  it('charset-utf8: every JSON response is labelled application/json; charset=utf-8', async () => {
    const s = await start(['charset-utf8'], { ...withTinyPlan(1, 100), preload: 2 });
    const responses = [
      await get(s, '/v1/pets'),
      await get(s, '/v1/pets/1'),
      await get(s, '/v1/store/orders'),
      await call(s, 'POST', '/v1/pets', { key, json: { name: 'x', categoryId: 1 } }),
      await call(s, 'GET', '/v1/pets'),
      await get(s, '/v1/pets/999'),
      await get(s, '/v1/pets?limit=0'),
      await call(s, 'PUT', '/v1/pets', { key }),
      await postRaw(s, JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 })),
      await call(s, 'GET', '/v1/pets', { key: TINY_KEY }),
      await call(s, 'GET', '/v1/pets', { key: TINY_KEY }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 201, 401, 404, 400, 405, 413, 200, 429]);
    for (const res of responses) expect(res.headers['content-type'], String(res.status)).toBe('application/json; charset=utf-8');

    const raw = await rawHttp(s.port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expect(raw).toContain('Content-Type: application/json; charset=utf-8\r\n');
  });

  it('shuffled-order: every call is another permutation of the first animals in some order', async () => {
    const s = await start(['shuffled-order'], { preload: 30 });
    const everyId = Array.from({ length: 30 }, (_, i) => BigInt(i + 1));
    let previous = await listIds(s, '?limit=100');
    for (let i = 0; i < 10; i++) {
      const ids = await listIds(s, '?limit=100');
      expect([...ids].sort((x, y) => Number(x - y))).toEqual(everyId);
      expect(ids).not.toEqual(previous);
      previous = ids;
    }
    const sold = (await list(s, '?limit=100')).filter((p) => p.status === 'sold').map((p) => p.id);
    const filtered = await listIds(s, '?status=sold&limit=100');
    expect(new Set(filtered)).toEqual(new Set(sold));
    const pages = await Promise.all(Array.from({ length: 5 }, () => listIds(s, '?limit=5')));
    for (const page of pages) {
      expect(new Set(page).size).toBe(5);
      expect(page.every((id) => id >= 1n && id <= 30n)).toBe(true);
    }
    expect(new Set(pages.map(String)).size).toBeGreaterThan(1);
  });

  it('shuffled-order: even with two animals and limit=1, consecutive calls differ', async () => {
    const s = await start(['shuffled-order'], { preload: 2 });
    let previous = await listIds(s, '?limit=1');
    for (let i = 0; i < 20; i++) {
      const ids = await listIds(s, '?limit=1');
      expect(ids).not.toEqual(previous);
      previous = ids;
    }
  });

  it.each(['abc', '1.5', '0x1', '%E0%A4%A', '-', '1e3'])('non-numeric-id-404: petId %s gets 404 with an Error body', async (id) => {
    const s = await start(['non-numeric-id-404'], { preload: 2 });
    const res = await get(s, `/v1/pets/${id}`);
    expectError(res, 404);
    expect(errorBody(res)?.code).toBe('not_found');
    expect(res.headers.deprecation).toBe('true');
  });

  it('non-numeric-id-404: ids outside int64 are still 400, and found ids 200', async () => {
    const s = await start(['non-numeric-id-404'], { preload: 2 });
    expectError(await get(s, '/v1/pets/9223372036854775808'), 400);
    expect((await get(s, '/v1/pets/1')).status).toBe(200);
    expectError(await call(s, 'GET', '/v1/pets/abc'), 401);
  });

  it('extra-fields-rejected: a NewPet with unknown fields gets 400 naming the field', async () => {
    const s = await start(['extra-fields-rejected']);
    const res = await postRaw(s, '{"name":"x","categoryId":1,"colour":"red"}');
    expectError(res, 400);
    expect(errorBody(res)?.message).toMatch(/^colour: /);
    expectError(await postRaw(s, '{"id":5,"name":"x","categoryId":1}'), 400);
    expect((await postRaw(s, '{"name":"x","categoryId":1,"status":"sold"}')).status).toBe(201);
    expect(s.stats().pets).toBe(1);
  });

  it('routing-before-auth: without a key, an unknown path gets 404 and another method 405; the operations still 401', async () => {
    const s = await start(['routing-before-auth']);
    expectError(await call(s, 'GET', '/v1/nowhere'), 404);
    expectError(await call(s, 'GET', '/v1/Pets'), 404);
    const wrongMethod = await call(s, 'DELETE', '/v1/pets/1');
    expectError(wrongMethod, 405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    for (const res of [await call(s, 'GET', '/v1/pets'), await call(s, 'GET', '/v1/pets/1'), await call(s, 'POST', '/v1/pets', { json: {} }), await call(s, 'GET', '/v1/store/orders')]) {
      expectError(res, 401);
    }
    expectError(await get(s, '/v1/nowhere'), 404);
  });

  it('json-parser-first: malformed JSON without a key gets the parser\'s 400 before authentication; a JSON body that is no NewPet still gets 401', async () => {
    const s = await start(['json-parser-first']);
    const json = { 'content-type': 'application/json' };
    expectError(await call(s, 'POST', '/v1/pets', { body: 'not json', headers: json }), 400);
    expectError(await call(s, 'POST', '/v1/pets', { body: '{"name":', headers: json }), 400);
    expectError(await call(s, 'POST', '/v1/pets', { body: '{}', headers: json }), 401);
    expectError(await call(s, 'POST', '/v1/pets', { body: '{"name": 1}', headers: json }), 401);
    expectError(await call(s, 'POST', '/v1/pets', { body: '{"name":"x","categoryId":1}', headers: json }), 401);
    expectError(await call(s, 'GET', '/v1/pets'), 401);
    expect((await postRaw(s, '{"name":"x","categoryId":1}')).status).toBe(201);
    expectError(await call(s, 'POST', '/v1/pets', { key, body: 'not json', headers: json }), 400);
  });

  it('media-type-415: a body labelled other than application/json, or unlabelled, gets 415; JSON as before', async () => {
    const s = await start(['media-type-415']);
    const body = '{"name":"x","categoryId":1}';
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await call(s, 'POST', '/v1/pets', { key, body, headers: { 'content-type': type } });
      expectError(res, 415);
      expect(errorBody(res)?.code).toBe('unsupported_media_type');
    }
    expectError(await call(s, 'POST', '/v1/pets', { key, body }), 415);
    expectError(await call(s, 'POST', '/v1/pets', { key }), 415);
    expectError(await call(s, 'POST', '/v1/pets', { body, headers: { 'content-type': 'text/plain' } }), 401);
    expect((await postRaw(s, body)).status).toBe(201);
  });

  it('any-body-as-json: a NewPet\'s JSON under any Content-Type (or none) is created; a form, no JSON, gets 400', async () => {
    const s = await start(['any-body-as-json']);
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/xml' }, {}] as Record<string, string>[]) {
      const res = await call(s, 'POST', '/v1/pets', { key, body: '{"name":"x","categoryId":7}', headers });
      expect(res.status, JSON.stringify(headers)).toBe(201);
      expect(Pet.parse(res.json)).toMatchObject({ name: 'x', categoryId: 7n });
    }
    expectError(await call(s, 'POST', '/v1/pets', { key, body: 'name=x&categoryId=7', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 400);
    expectError(await call(s, 'POST', '/v1/pets', { body: '{"name":"x","categoryId":7}', headers: { 'content-type': 'text/plain' } }), 401);
    expect(s.stats().pets).toBe(3);
  });

  it('lenient-values: a null status is none and the listPets status filter ignores case; every other spelling of a value is 400', async () => {
    const s = await start(['lenient-values'], { preload: 0 });
    const noStatus = await postRaw(s, '{"name":"x","categoryId":1,"status":null}');
    expect(noStatus.status).toBe(201);
    expect(Pet.parse(noStatus.json)).not.toHaveProperty('status');
    const sold = await postRaw(s, '{"name":"x","categoryId":1,"status":"sold"}');
    expect(sold.status).toBe(201);
    const invalid = ['{"name":"x","categoryId":"12"}', '{"name":"x","categoryId":""}', '{"name":"x","categoryId":1,"status":"Available"}', '{"name":"x","categoryId":1,"status":"SOLD"}', '{"name":"x","categoryId":1,"status":" sold\\n"}', '{"name":"x","categoryId":1,"status":""}', '{"name":"x","categoryId":1,"status":"adopted"}', '{"name":42,"categoryId":1}', '{"name":null,"categoryId":1}', '{"name":"x","categoryId":1.5}', '{"name":"x","categoryId":12,}'];
    for (const body of invalid) expectError(await postRaw(s, body), 400);
    expect((await list(s, '?status=SOLD')).map((p) => p.status)).toEqual(['sold']);
    expectError(await get(s, '/v1/pets?status=%20sold'), 400);
  });

  it('lenient-bearer: a leading Bearer stripped, the first word left is the key; without a configured key still 401', async () => {
    const s = await start(['lenient-bearer']);
    for (const header of [`Bearer ${key} ${key}`, `Bearer ${key} other`, `bearer ${key}  x y`, `Bearer${key}`, key]) expect((await call(s, 'GET', '/v1/pets', { authorization: header })).status, header).toBe(200);
    for (const header of [`Bearer ${key};x`, `Bearer ${key},x`, `Bearer other ${key}`, 'Bearer ', 'Bearer', `Basic ${key}`, `${key}x`]) expectError(await call(s, 'GET', '/v1/pets', { authorization: header }), 401);
  });

  it('unknown-filter-ignored: a status filter that is no PetStatus lists every animal; the three values still filter', async () => {
    const s = await start(['unknown-filter-ignored']);
    const all = await listIds(s, '?limit=100');
    for (const status of ['adopted', '', 'SOLD']) expect(await listIds(s, `?status=${status}&limit=100`), status).toEqual(all);
    expect((await list(s, '?status=sold&limit=100')).every((p) => p.status === 'sold')).toBe(true);
  });

  it('affinity-cookie: every answer sets lb=…, which authenticates nothing', async () => {
    const s = await start(['affinity-cookie']);
    const answers = [await get(s, '/v1/pets'), await call(s, 'GET', '/v1/pets'), await get(s, '/v1/pets/999')];
    for (const res of answers) expect(res.headers['set-cookie']).toBe(`${AFFINITY_COOKIE}; Path=/; HttpOnly`);
    expectError(await call(s, 'GET', '/v1/pets', { headers: { cookie: AFFINITY_COOKIE } }), 401);
  });

  // Other spellings of a request, as some stack's router, parser or middleware reads them (spelling-variations.ts).
  const raw = (s: RunningServer, method: string, path: string, options: { key?: string; headers?: Record<string, string>; body?: string } = {}) => call(s, method, path, { ...options, raw: true });

  it('case-insensitive-routing: /V1/Pets is served as /v1/pets with a key, 401 without; the id as sent', async () => {
    const s = await start(['case-insensitive-routing'], { preload: 3 });
    const canonical = await get(s, '/v1/pets?limit=3');
    for (const path of ['/V1/Pets?limit=3', '/v1/PETS?limit=3']) expect((await get(s, path)).text).toBe(canonical.text);
    const one = await get(s, '/v1/Pets/1');
    expect(Pet.parse(one.json).id).toBe(1n);
    expect(one.headers.deprecation).toBe('true');
    expectError(await call(s, 'GET', '/V1/Pets'), 401);
    expectError(await get(s, '/v1/Pets/ABC'), 400);
    expect((await call(s, 'POST', '/v1/Pets', { key, json: { name: 'x', categoryId: 1 } })).status).toBe(201);
  });

  it('trailing-slash-served: /v1/pets/ is /v1/pets, counted the same, 401 without a key; one slash only', async () => {
    const s = await start(['trailing-slash-served'], { preload: 3 });
    const canonical = await get(s, '/v1/pets');
    const slashed = await get(s, '/v1/pets/');
    expect(slashed.text).toBe(canonical.text);
    expect(rateHeaders(slashed)!.remaining).toBe(rateHeaders(canonical)!.remaining - 1);
    expect(Pet.parse((await get(s, '/v1/pets/2/')).json).id).toBe(2n);
    expectError(await call(s, 'GET', '/v1/pets/'), 401);
    expectError(await raw(s, 'GET', '/v1/pets//', { key }), 404);
  });

  it('trailing-slash-redirect: a trailing slash 307, an empty or dot segment 301, to the clean path with the query, with Go\'s HTML note; before authentication', async () => {
    const s = await start(['trailing-slash-redirect'], { preload: 1 });
    const cases: [string, number, string][] = [
      ['/v1/pets/?limit=2', 307, '/v1/pets?limit=2'],
      ['/v1/pets/1/', 307, '/v1/pets/1'],
      ['/v1//pets', 301, '/v1/pets'],
      ['/v1/./pets?status=sold', 301, '/v1/pets?status=sold'],
      ['/v1/x/../pets/1', 301, '/v1/pets/1'],
      ['/v1//pets/', 301, '/v1/pets/'],
    ];
    for (const [path, status, location] of cases) {
      for (const res of [await raw(s, 'GET', path, { key }), await raw(s, 'GET', path)]) {
        // Go's http.Redirect: a short HTML note naming the Location.
        expect({ path, status: res.status, location: res.headers.location, type: res.headers['content-type'], text: res.text }).toEqual({ path, status, location, type: 'text/html; charset=utf-8', text: expect.stringContaining(`<a href="${location}">`) });
        expect(rateHeaders(res)).toBeDefined();
      }
    }
    expect((await raw(s, 'POST', '/v1/pets/', { key, headers: { 'content-type': 'application/json' }, body: '{"name":"x","categoryId":1}' })).status).toBe(307);
    expect(s.stats().pets).toBe(1);
    expectError(await raw(s, 'GET', '/v1/nowhere/', { key }), 404);
    expect((await get(s, '/v1/pets')).status).toBe(200);
  });

  it('merged-slashes: doubled slashes are one, 401 without a key', async () => {
    const s = await start(['merged-slashes'], { preload: 2 });
    expect((await raw(s, 'GET', '/v1///pets', { key })).text).toBe((await get(s, '/v1/pets')).text);
    expect(Pet.parse((await raw(s, 'GET', '/v1/pets//2', { key })).json).id).toBe(2n);
    expectError(await raw(s, 'GET', '/v1//pets'), 401);
  });

  it('path-parameters-ignored: what follows a ";" in a segment is dropped before routing', async () => {
    const s = await start(['path-parameters-ignored'], { preload: 2 });
    expect((await get(s, '/v1/pets;x=1?limit=1')).text).toBe((await get(s, '/v1/pets?limit=1')).text);
    expect(Pet.parse((await get(s, '/v1/pets/2;jsessionid=abc')).json).id).toBe(2n);
    expect(Pet.parse((await get(s, '/v1;v=2/pets/1')).json).id).toBe(1n);
    expectError(await call(s, 'GET', '/v1/pets;x=1'), 401);
  });

  it('percent-decoded-path: encoded unreserved characters are decoded before routing, nothing else', async () => {
    const s = await start(['percent-decoded-path'], { preload: 2 });
    expect((await get(s, '/v1/%70ets')).text).toBe((await get(s, '/v1/pets')).text);
    expect(Pet.parse((await get(s, '/%76%31/pets/%32')).json).id).toBe(2n);
    expectError(await get(s, '/v1/pets%2F1'), 404);
    expectError(await call(s, 'GET', '/v1/%70ets'), 401);
  });

  it('strict-path-400: a path that is not normalised gets 400 with an Error body, with a key or without', async () => {
    const s = await start(['strict-path-400'], { preload: 1 });
    for (const path of ['/v1//pets', '/v1/./pets', '/v1/x/../pets', '/v1/pets/.', '/v1/pets;x=1', '/v1/pets/1%3Bx', '/v1/%2e/pets', '/v1/pets%2F1', '/v1/pets/1%25']) {
      expectError(await raw(s, 'GET', path, { key }), 400);
      expectError(await raw(s, 'GET', path), 400);
    }
    expectError(await get(s, '/v1/pets/'), 404);
    expect((await get(s, '/v1/pets/1')).status).toBe(200);
    expect((await get(s, '/v1/.well-known')).status).toBe(404);
  });

  it('strict-query: an unknown query parameter gets 400 naming it, after authentication', async () => {
    const s = await start(['strict-query'], { preload: 2 });
    const unknown = await get(s, '/v1/pets?limit=2&page=2');
    expectError(unknown, 400);
    expect(errorBody(unknown)?.message).toMatch(/^page: /);
    expectError(await get(s, '/v1/pets?flag'), 400);
    expectError(await get(s, '/v1/pets/1?x=1'), 400);
    expectError(await call(s, 'POST', '/v1/pets?x=1', { key, json: { name: 'x', categoryId: 1 } }), 400);
    expect(s.stats().pets).toBe(2);
    expectError(await call(s, 'GET', '/v1/pets?page=2'), 401);
    expect((await get(s, '/v1/pets?limit=2&status=sold')).status).toBe(200);
    expect((await get(s, '/v1/pets/1')).status).toBe(200);
  });

  it('accept-406: an Accept without JSON gets 406 with an Error body after authentication; one that admits JSON is served', async () => {
    const s = await start(['accept-406'], { preload: 1 });
    for (const accept of ['text/plain', 'text/html', 'application/xml', 'application/json;q=0', 'application/problem+json']) {
      expectError(await call(s, 'GET', '/v1/pets', { key, headers: { accept } }), 406);
    }
    for (const accept of ['*/*', 'application/*', 'application/json; charset=utf-8', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/plain, application/json;q=0.1']) {
      expect((await call(s, 'GET', '/v1/pets/1', { key, headers: { accept } })).status, accept).toBe(200);
    }
    expectError(await call(s, 'POST', '/v1/pets', { key, json: { name: 'x', categoryId: 1 }, headers: { accept: 'text/plain' } }), 406);
    expect(s.stats().pets).toBe(1);
    expectError(await call(s, 'GET', '/v1/pets', { headers: { accept: 'text/plain' } }), 401);
  });

  it('head-405: HEAD gets 405 without a body after authentication, Allow without HEAD', async () => {
    const s = await start(['head-405'], { preload: 1 });
    const list = await call(s, 'HEAD', '/v1/pets', { key });
    expect({ status: list.status, allow: list.headers.allow, text: list.text }).toEqual({ status: 405, allow: 'GET, POST', text: '' });
    expect(rateHeaders(list)).toBeDefined();
    const one = await call(s, 'HEAD', '/v1/pets/1', { key });
    expect({ status: one.status, allow: one.headers.allow, deprecation: one.headers.deprecation }).toEqual({ status: 405, allow: 'GET', deprecation: 'true' });
    expect((await call(s, 'HEAD', '/v1/pets')).status).toBe(401);
    expect((await call(s, 'DELETE', '/v1/pets/1', { key })).headers.allow).toBe('GET');
    expect((await get(s, '/v1/pets/1')).status).toBe(200);
  });

  it('options-cors: every OPTIONS gets the CORS layer\'s 204, without X-RateLimit-*, uncounted', async () => {
    const s = await start(['options-cors']);
    const before = rateHeaders(await get(s, '/v1/pets'))!.remaining;
    for (const [path, headers] of [['/v1/pets', {}], ['/v1/pets/1', { 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization', origin: 'https://shop.example' }], ['/v1/nowhere', {}]] as const) {
      const res = await call(s, 'OPTIONS', path, { headers });
      expect({ status: res.status, text: res.text, origin: res.headers['access-control-allow-origin'], methods: res.headers['access-control-allow-methods'] }).toEqual({ status: 204, text: '', origin: '*', methods: 'GET,HEAD,POST' });
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      if ('access-control-request-headers' in headers) expect(res.headers['access-control-allow-headers']).toBe('authorization');
    }
    expect(rateHeaders(await get(s, '/v1/pets'))!.remaining).toBe(before - 1);
    expect(s.stats().byStatus['204']).toBe(3);
  });

  it('location-absolute: Location is an absolute URL, from the forwarded proto and host when sent', async () => {
    const s = await start(['location-absolute']);
    const created = await call(s, 'POST', '/v1/pets', { key, json: { name: 'x', categoryId: 1 } });
    const id = Pet.parse(created.json).id;
    expect(created.headers.location).toBe(`${s.origin}/v1/pets/${id}`);
    const forwarded = await call(s, 'POST', '/v1/pets', { key, json: { name: 'y', categoryId: 1 }, headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example, proxy.internal' } });
    expect(forwarded.headers.location).toBe(`https://api.example/v1/pets/${Pet.parse(forwarded.json).id}`);
    expect(Pet.parse((await get(s, new URL(created.headers.location!).pathname)).json).id).toBe(id);
  });

  it('duplicate-member-last-wins: a member given twice counts with its last value; by default it is refused', async () => {
    const s = await start(['duplicate-member-last-wins']);
    expect(Pet.parse((await postRaw(s, '{"name":"decoy","name":"Rex","categoryId":1}')).json)).toMatchObject({ name: 'Rex', categoryId: 1n });
    expect(Pet.parse((await postRaw(s, '{"name":"x","categoryId":1,"categoryId":9223372036854775807}')).json).categoryId).toBe(INT64_MAX);
    expectError(await postRaw(s, '{"name":"x","categoryId":1,"categoryId":"one"}'), 400);
    expectError(await postRaw(await start([]), '{"name":"decoy","name":"Rex","categoryId":1}'), 400);
  });

  it('cache-control-keyed: a 200 private, max-age=60, a 404 public, max-age=0, every other answer no-store', async () => {
    const s = await start(['cache-control-keyed'], { preload: 3 });
    const cacheControl = async (res: Promise<Exchange>) => (await res).headers['cache-control'];
    expect(await cacheControl(get(s, '/v1/pets'))).toBe('private, max-age=60');
    expect(await cacheControl(get(s, '/v1/pets/1'))).toBe('private, max-age=60');
    expect(await cacheControl(get(s, '/v1/pets/0'))).toBe('public, max-age=0');
    expect(await cacheControl(call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1 } }))).toBe('no-store');
    expect(await cacheControl(call(s, 'GET', '/v1/pets'))).toBe('no-store');
  });

  it('deprecation-date-form: Deprecation is @1735689600 on every getPet response', async () => {
    const s = await start(['deprecation-date-form'], { preload: 1 });
    expect(DEPRECATION_DATE).toBe('@1735689600');
    for (const res of [await get(s, '/v1/pets/1'), await get(s, '/v1/pets/2'), await get(s, '/v1/pets/x'), await call(s, 'GET', '/v1/pets/1')]) {
      expect(res.headers.deprecation).toBe('@1735689600');
      expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    }
    expect(1_735_689_600_000).toBeLessThan(Date.parse('Thu, 05 Dec 2030 00:00:00 GMT'));
    expect((await get(s, '/v1/pets')).headers.deprecation).toBeUndefined();
  });

  it('sunset-end-of-day: Sunset names the last second of 5 December 2030 on every getPet response', async () => {
    const s = await start(['sunset-end-of-day'], { preload: 1 });
    for (const res of [await get(s, '/v1/pets/1'), await get(s, '/v1/pets/2'), await call(s, 'GET', '/v1/pets/1')]) {
      expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 23:59:59 GMT');
      expect(res.headers.deprecation).toBe('true');
    }
    expect((await get(s, '/v1/pets')).headers.sunset).toBeUndefined();
  });

  it('retry-after-http-date: a 429 gives the HTTP-date at which the blocking window resets', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['retry-after-http-date'], withTinyPlan(1, 3), clock);
    const tiny = () => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
    expect((await tiny()).status).toBe(200);
    const refused = await tiny();
    expectError(refused, 429);
    expect(refused.headers['retry-after']).toBe('Tue, 01 Jan 2030 00:01:00 GMT');
    expect(refused.headers['retry-after']).toMatch(IMF_FIXDATE);
    expect(Date.parse(refused.headers['retry-after']!)).toBe(T0 + 60_000);
    // Exactly at the date is not early, although delta-seconds rounded up would have said 50 s.
    clock.set(T0 + 60_000);
    expect((await tiny()).status).toBe(200);
    expect(s.stats().earlyRetries).toBe(0);
    clock.set(T0 + 120_000);
    expect((await tiny()).status).toBe(200);
    const dayBlocked = await tiny();
    expect(dayBlocked.status).toBe(429);
    expect(dayBlocked.headers['retry-after']).toBe(new Date(T0 + 86_400_000).toUTCString());
  });

  it('rejected-count-against-quota: 429s consume quota', async () => {
    const clock = fakeClock(T0);
    const s = await start(['rejected-count-against-quota'], withTinyPlan(2, 6), clock);
    const tiny = () => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
    expect([(await tiny()).status, (await tiny()).status, (await tiny()).status, (await tiny()).status]).toEqual([200, 200, 429, 429]);
    clock.advance(60_000);
    // Four requests counted against the day's six: the day window binds at once.
    expect(rateHeaders(await tiny())).toEqual({ limit: 6, remaining: 1, reset: T0_S + 86_400 });
    expect(rateHeaders(await tiny())).toEqual({ limit: 6, remaining: 0, reset: T0_S + 86_400 });
    const refused = await tiny();
    expectError(refused, 429);
    expect(refused.headers['retry-after']).toBe(String(86_400 - 60));
  });

  it('sliding-window: token buckets, Remaining = floor(tokens), Reset = full again, or on a 429 the next token', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['sliding-window'], withTinyPlan(3, 100), clock);
    const tiny = () => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
    // 3 a minute: a token every 20 s. Full again 20, 40, 60 s later (capped at one window).
    const accepted = [await tiny(), await tiny(), await tiny()];
    expect(accepted.map(rateHeaders)).toEqual([
      { limit: 3, remaining: 2, reset: T0_S + 31 },
      { limit: 3, remaining: 1, reset: T0_S + 51 },
      { limit: 3, remaining: 0, reset: T0_S + 70 },
    ]);
    const refused = await tiny();
    expectError(refused, 429);
    expect(errorBody(refused)?.code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe('20');
    expect(rateHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: T0_S + 31 });
    // 429s take no token: half-way, the next token is 10 s off.
    clock.advance(10_000);
    expect((await tiny()).headers['retry-after']).toBe('10');
    clock.advance(10_000);
    expect(rateHeaders(await tiny())).toEqual({ limit: 3, remaining: 0, reset: T0_S + 90 });
    clock.advance(60_000);
    expect(rateHeaders(await tiny())).toEqual({ limit: 3, remaining: 2, reset: T0_S + 111 });
    // The early retry was the one 10 s in; the request at the next token was on time.
    expect(s.stats().byKey['tiny#1']).toMatchObject({ requests: 7, rateLimited: 2, earlyRetries: 1 });
  });

  it('sliding-window: the day bucket binds when it holds fewer tokens, and refills over the day', async () => {
    const clock = fakeClock(T0);
    const s = await start(['sliding-window'], { ...withTinyPlan(10, 12), windows: { minute: 60, day: 600 } }, clock);
    const tiny = () => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
    for (let i = 0; i < 10; i++) expect((await tiny()).status).toBe(200);
    expect((await tiny()).headers['retry-after']).toBe('6');
    clock.advance(60_000);
    // 1.2 day tokens back (12 per 600 s): 3.2 left.
    expect(rateHeaders(await tiny())).toEqual({ limit: 12, remaining: 2, reset: T0_S + 550 });
    await tiny();
    await tiny();
    const refused = await tiny();
    expectError(refused, 429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(rateHeaders(refused)).toEqual({ limit: 12, remaining: 0, reset: T0_S + 100 });
    clock.advance(40_000);
    expect(rateHeaders(await tiny())).toMatchObject({ limit: 12, remaining: 0 });
    expect(s.stats().earlyRetries).toBe(0);
  });

  it('sliding-window with retry-after-http-date: the date is the next token, and a request then is on time', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['sliding-window', 'retry-after-http-date', 'ban-after-ignoring-429'], withTinyPlan(3, 100), clock);
    const tiny = () => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
    for (let cycle = 0; cycle < 8; cycle++) {
      let refused: Exchange;
      for (;;) {
        refused = await tiny();
        if (refused.status !== 200) break;
      }
      expectError(refused, 429);
      expect(refused.headers['retry-after']).toMatch(IMF_FIXDATE);
      expect(Date.parse(refused.headers['retry-after']!)).toBe(rateHeaders(refused)!.reset * 1000);
      clock.set(Date.parse(refused.headers['retry-after']!));
    }
    expect(s.stats()).toMatchObject({ earlyRetries: 0, bans: 0, rateLimited: 8 });
  });

  it('429-empty-body: a 429 has no body and no Content-Type, but its headers', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['429-empty-body'], withTinyPlan(1, 100), clock);
    expect((await call(s, 'GET', '/v1/pets', { key: TINY_KEY })).status).toBe(200);
    const refused = await call(s, 'GET', '/v1/pets', { key: TINY_KEY });
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('');
    expect(refused.headers['content-type']).toBeUndefined();
    expect(refused.headers['content-length']).toBe('0');
    expect(refused.headers['retry-after']).toBe('50');
    expect(rateHeaders(refused)).toEqual({ limit: 1, remaining: 0, reset: T0_S + 60 });
    expectError(await get(s, '/v1/pets/999'), 404);
    expectError(await call(s, 'GET', '/v1/pets'), 401);
  });

  it('ban-after-ignoring-429: 5 early retries in a row ban the key for one minute window', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['ban-after-ignoring-429'], withTinyPlan(1, 100), clock);
    const tiny = () => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
    expect((await tiny()).status).toBe(200);
    const first = await tiny();
    expect(errorBody(first)?.code).toBe('rate_limited');
    expect(first.headers['retry-after']).toBe('50');
    for (let i = 0; i < 4; i++) {
      const res = await tiny();
      expectError(res, 429);
      expect(errorBody(res)?.code).toBe('rate_limited');
    }
    expect(s.stats()).toMatchObject({ earlyRetries: 4, bans: 0 });

    const banned = await tiny();
    expectError(banned, 429);
    expect(errorBody(banned)?.code).toBe('banned');
    expect(banned.headers['retry-after']).toBe('60');
    expect(rateHeaders(banned)).toEqual({ limit: 1, remaining: 0, reset: T0_S + 70 });
    expect(s.stats()).toMatchObject({ earlyRetries: 5, bans: 1, byKey: { 'tiny#1': { earlyRetries: 5, bans: 1 } } });
    // Other keys are not affected.
    expect((await get(s, '/v1/pets')).status).toBe(200);

    // The minute window resets; the ban does not, and further requests do not start another.
    clock.set(T0 + 60_000);
    const stillBanned = await tiny();
    expect(errorBody(stillBanned)?.code).toBe('banned');
    expect(stillBanned.headers['retry-after']).toBe('10');
    clock.set(T0 + 70_000);
    expect(rateHeaders(await tiny())).toEqual({ limit: 1, remaining: 0, reset: T0_S + 120 });
    expect(s.stats()).toMatchObject({ earlyRetries: 6, bans: 1, rateLimited: 7 });
  });

  it('ban-after-ignoring-429: a client that honours Retry-After is never banned', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['ban-after-ignoring-429'], withTinyPlan(2, 1_000), clock);
    const tiny = () => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
    for (let cycle = 0; cycle < 10; cycle++) {
      const statuses = [(await tiny()).status, (await tiny()).status];
      const refused = await tiny();
      expect([...statuses, refused.status]).toEqual([200, 200, 429]);
      expect(errorBody(refused)?.code).toBe('rate_limited');
      // Four early retries now and then (fewer than five in a row) are tolerated.
      if (cycle % 3 === 0) for (let i = 0; i < 4; i++) expect(errorBody(await tiny())?.code).toBe('rate_limited');
      clock.advance(retryAfterMs(refused.headers['retry-after'], clock.now()));
    }
    expect(s.stats().byKey['tiny#1']).toMatchObject({ bans: 0, earlyRetries: 16 });
  });

  it('unknown-method-501: a method no route has gets 501 with an Error body on any path, before authentication; GET, HEAD and POST as before', async () => {
    const s = await start(['unknown-method-501'], { preload: 1 });
    for (const [method, path] of [['PUT', '/v1/pets'], ['PATCH', '/v1/pets'], ['DELETE', '/v1/pets/1'], ['PROPFIND', '/v1/pets'], ['OPTIONS', '/v1/pets/1'], ['PUT', '/v1/nowhere']] as const) {
      for (const res of [await call(s, method, path, { key }), await call(s, method, path)]) {
        expectError(res, 501);
        expect(errorBody(res)?.code).toBe('not_implemented');
        expect(res.headers.allow).toBeUndefined();
      }
    }
    expect(s.stats().pets).toBe(1);
    // A made-up method, which node's parser refuses before any handler, gets the parser's 400.
    expect(await rawHttp(s.port, `FROB /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
    expect((await call(s, 'HEAD', '/v1/pets', { key })).status).toBe(200);
    expectError(await call(s, 'POST', '/v1/pets/1', { key, json: {} }), 405);
    expectError(await call(s, 'GET', '/v1/pets'), 401);
    expectError(await get(s, '/v1/nowhere'), 404);
    expect((await get(s, '/v1/pets/1')).status).toBe(200);
  });

  it('unknown-method-501: a key over its quota still gets 429 first', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['unknown-method-501'], withTinyPlan(1, 100), clock);
    expectError(await call(s, 'PUT', '/v1/pets', { key: TINY_KEY }), 501);
    expectError(await call(s, 'PUT', '/v1/pets', { key: TINY_KEY }), 429);
  });

  it('error-extra-members: every Error body also carries timestamp, path, error, type, title and detail', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['error-extra-members'], { ...withTinyPlan(1, 100), preload: 1 }, clock);
    const asked: [string, Promise<Exchange>][] = [
      ['/v1/pets/999', get(s, '/v1/pets/999')],
      ['/v1/pets', call(s, 'GET', '/v1/pets')],
      ['/v1/pets', postRaw(s, '{"name":"x"}')],
      ['/v1/pets/1', call(s, 'DELETE', '/v1/pets/1', { key })],
    ];
    const answers: [string, Exchange][] = [];
    for (const [path, res] of asked) answers.push([path, await res]);
    expect((await call(s, 'GET', '/v1/pets', { key: TINY_KEY })).json).toEqual([expect.not.objectContaining({ timestamp: expect.anything() })]);
    answers.push(['/v1/pets', await call(s, 'GET', '/v1/pets', { key: TINY_KEY })]);
    expect(answers.map(([, r]) => r.status)).toEqual([404, 401, 400, 405, 429]);
    for (const [path, res] of answers) {
      expectError(res, res.status);
      const body = res.json as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'error', 'message', 'path', 'status', 'timestamp', 'title', 'type']);
      expect(body).toMatchObject({ timestamp: new Date(T0 + 10_250).toISOString(), path, type: 'about:blank', detail: body.message });
      expect(body.error).toBe(body.title);
    }
    expect(answers[0]![1].json).toMatchObject({ title: 'Not Found', error: 'Not Found' });
  });

  it('json-reformatted: members reversed, two-space indentation, a trailing newline, non-ASCII and "/" escaped; the same values, big ids exact', async () => {
    const s = await start(['json-reformatted', 'ids-beyond-2^53', 'pet-extra-members']);
    const created = await postRaw(s, '{"name":"Été/🐈","categoryId":9223372036854775807,"status":"sold"}');
    expect(created.status).toBe(201);
    const { id } = Pet.parse(created.json);
    expect(id).toBeGreaterThan(2n ** 53n);
    expect(created.text).toBe(
      `{\n  "_links": {\n    "self": {\n      "href": "\\/v1\\/pets\\/${id}"\n    }\n  },\n  "createdAt": ${JSON.stringify((created.json as { createdAt: string }).createdAt)},\n` +
        `  "status": "sold",\n  "categoryId": 9223372036854775807,\n  "name": "\\u00c9t\\u00e9\\/\\ud83d\\udc08",\n  "id": ${id}\n}\n`,
    );
    expect(Pet.parse(created.json)).toEqual({ id, name: 'Été/🐈', categoryId: INT64_MAX, status: 'sold' });
    const page = await get(s, '/v1/pets');
    expect(page.text).toMatch(/^\[\n  \{\n    "_links"/);
    expect(Pets.parse(page.json)).toEqual([Pet.parse(created.json)]);
    const missing = await get(s, '/v1/pets/1');
    expectError(missing, 404);
    expect(missing.text).toBe(`{\n  "status": 404,\n  "message": "no animal with id 1",\n  "code": "not_found"\n}\n`);
  });

  it('ids-negative: ids are -1, -2, -3, …, found at their ids; 0 and the positive ids are no animal', async () => {
    const s = await start(['ids-negative'], { preload: 3 });
    const res = await call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1 } });
    const { id } = Pet.parse(res.json);
    expect(id).toBe(-4n);
    expect(res.headers.location).toBe('/v1/pets/-4');
    expect(await listIds(s, '?limit=100')).toEqual([-1n, -2n, -3n, -4n]);
    expect(Pet.parse((await get(s, '/v1/pets/-4')).json).id).toBe(-4n);
    for (const missing of ['0', '1', '4', '-5']) expectError(await get(s, `/v1/pets/${missing}`), 404);
  });

  it('ids-near-2^63: ids count down from 2^63 - 1, found at their ids, within int64', async () => {
    const s = await start(['ids-near-2^63'], { preload: 3 });
    const res = await call(s, 'POST', '/v1/pets', { key, json: { name: 'n', categoryId: 1 } });
    const { id } = Pet.parse(res.json);
    expect(id).toBe(INT64_MAX - 3n);
    expect(res.text).toContain(`"id":${INT64_MAX - 3n}`);
    expect(await listIds(s, '?limit=100')).toEqual([INT64_MAX, INT64_MAX - 1n, INT64_MAX - 2n, INT64_MAX - 3n]);
    expect(Pet.parse((await get(s, `/v1/pets/${INT64_MAX}`)).json).id).toBe(INT64_MAX);
    expectError(await get(s, `/v1/pets/${INT64_MAX - 4n}`), 404);
    expectError(await get(s, `/v1/pets/${INT64_MAX + 1n}`), 400);
  });

  it('ids-negative and ids-near-2^63: ids stay unique and within int64 over many animals', () => {
    for (const options of [{ idsNegative: true }, { idsNearMax: true }]) {
      const store = new AnimalStore(options);
      store.preload(10_000);
      const ids = store.list().map((p) => p.id);
      expect(new Set(ids).size).toBe(10_000);
      expect(ids.every((id) => id >= -(2n ** 63n) && id <= INT64_MAX && id !== 0n)).toBe(true);
    }
  });
});
