// The relations engine: families of spellings crossed with invariants, sent by the suite's driver
// (lib/suite-kit/relations.ts) to a server that is a pure function here (what it answers to a
// request and a credential): a conforming one, and ones with a fault of a family's kind. A limiter
// in front of every server counts each keyed request in X-RateLimit-*. No sockets.
import { describe, expect, it } from 'vitest';
import { AUTH_INVARIANT, INVARIANTS, type Invariant, judgeInvariant, LISTED_BODY_INVARIANT, type Observation, SAME_MEANING_INVARIANT, sameMeaning, unnamedMembers } from '../../../lib/checks/invariants.ts';
import { planRelations, relationsBudget } from '../../../lib/checks/relations.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import type { ApiRequest, ApiResponse } from '../../../lib/client/client.ts';
import type { TargetKey } from '../../../lib/config/schema.ts';
import { BODY_FAMILY, type Credential, CREDENTIAL_FAMILY, FAMILIES, type Family, METHOD_FAMILY, PATH_FAMILY, requestLine, type Spelled, spellingsOf } from '../../../lib/generators/transformations.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { observeRelations } from '../../../lib/suite-kit/relations.ts';

const LIST: Spelled = { operation: 'listPets', method: 'GET', base: ['v1'], path: ['pets'], query: [['limit', '2']], headers: [] };
const GET: Spelled = { operation: 'getPet', method: 'GET', base: ['v1'], path: ['pets', '7'], parameters: [1], query: [], headers: [] };
const CREATE: Spelled = { operation: 'createPet', method: 'POST', base: ['v1'], path: ['pets'], query: [], headers: [], body: '{"name":"Rex","categoryId":1}' };
const CANONICALS = [LIST, GET, CREATE];
const KEY = { key: 'sk-relations-unit-1', label: 'pro#1', plan: 'pro', env: 'PRO_KEY', quota: { perMinute: 300, perDay: 10_000 } } as unknown as TargetKey;

const json = (status: number, body: unknown): Seen => ({ status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) });
const error = (status: number, code: string) => json(status, { code, message: code, status });

type Server = (r: Spelled, credential: Credential) => Seen;

/** Every kind a finding names: its code, and its others'. */
const codesOf = (f: Finding) => (f.outcome === 'fail' ? [f.code, ...(f.others ?? []).map((o) => o.code)] : []);

/** A request on the wire as a spelling again: the path split into the base's segment and the rest, the query into pairs. */
function spelledOf(req: ApiRequest): { r: Spelled; credential: Credential } {
  const [path, query] = (req.target ?? req.path).split('?') as [string, string | undefined];
  const segments = path.split('/').slice(1);
  const trailingSlash = segments.length > 1 && segments.at(-1) === '';
  const all = trailingSlash ? segments.slice(0, -1) : segments;
  const r: Spelled = {
    operation: 'listPets',
    method: req.method,
    base: all.slice(0, 1),
    path: all.slice(1),
    ...(trailingSlash ? { trailingSlash } : {}),
    query: (query ?? '').split('&').filter((q) => q !== '').map((q) => [q.split('=')[0]!, q.split('=')[1] ?? ''] as const),
    headers: Object.entries(req.headers ?? {}),
    ...(req.body !== undefined ? { body: req.body } : {}),
    ...(req.chunked ? { chunked: true } : {}),
    ...(req.headerNames ? { headerNames: req.headerNames } : {}),
    ...('key' in req.auth && req.auth.scheme !== undefined ? { scheme: req.auth.scheme } : {}),
  };
  return { r, credential: 'key' in req.auth ? 'key' : 'none' };
}

/** The interface as a strict router reads it: exact paths (a parameter's value decoded), no trailing slash, headers that change nothing; a NewPet needs its categoryId. */
const conforming: Server = (r, credential) => {
  const path = `/${[...r.base, ...r.path].join('/')}${r.trailingSlash ? '/' : ''}`;
  const id = /^\/v1\/pets\/([^/]+)$/.exec(path)?.[1];
  const route = path === '/v1/pets' ? (r.method === 'POST' ? 'create' : 'list') : id !== undefined && /^\d+$/.test(decodeURIComponent(id)) ? 'get' : undefined;
  if (!route || !['GET', 'HEAD', 'POST'].includes(r.method)) return error(404, 'not-found');
  if (credential === 'none') return error(401, 'unauthorized');
  if (route === 'create' && !/"categoryId"/.test(r.body ?? '')) return error(400, 'invalid');
  const answer = route === 'list' ? json(200, [{ id: 7, name: 'Rex', categoryId: 1 }]) : route === 'get' ? json(200, { id: Number(decodeURIComponent(id!)), name: 'Rex', categoryId: 1 }) : json(201, { id: 8, name: 'Rex', categoryId: 1 });
  return r.method === 'HEAD' ? { ...answer, text: '' } : answer;
};

/** Every planned spelling sent by the suite's driver to `server`, behind a limiter that counts each keyed request. */
async function observe(server: Server, families: readonly Family[], invariants: readonly Invariant[], budget = 5_000): Promise<Observation[]> {
  const plan = planRelations(CANONICALS, families, invariants, { budget });
  let remaining = 10_000;
  let sent = 0;
  const send = async (req: ApiRequest): Promise<ApiResponse> => {
    const { r, credential } = spelledOf(req);
    const seen = server(r, credential);
    if (credential === 'key') remaining -= 1;
    const headers = { 'x-ratelimit-limit': '10000', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': '2000000000', ...seen.headers };
    sent += 1;
    return { exchange: { method: req.method, url: req.target, startedAt: new Date(Date.UTC(2026, 0, 1) + sent).toISOString(), durationMs: 0 } as unknown as Exchange, status: seen.status, headers, text: seen.text };
  };
  return (await observeRelations(plan.spellings, { send, key: KEY, windows: { minute: 60, day: 86_400 }, baseUrl: 'http://127.0.0.1:9/v1' })).observations;
}

describe('families × invariants', () => {
  it('the conforming server keeps every invariant on every family, and each pass says which legal answers it saw', async () => {
    const observations = await observe(conforming, FAMILIES, INVARIANTS);
    for (const invariant of INVARIANTS) {
      const finding = judgeInvariant(invariant, observations);
      expect({ id: invariant.id, outcome: finding.outcome }).toEqual({ id: invariant.id, outcome: 'pass' });
      // A strict router refuses every spelling of the path but the path parameter's percent-encoding: one quota, judged
      // on what is served, sees all eight families; store integrity, judged after every createPet spelling, the six
      // families with spellings of it.
      const families = { 'relations.store-integrity': 6 }[invariant.id as string] ?? 8;
      expect(finding.outcome === 'pass' && finding.message).toMatch(new RegExp(`of ${families} families`));
    }
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observations)).toMatchObject({ message: expect.stringMatching(/refused with 404 ×\d+.*answered as the canonical request ×\d+|answered as the canonical request ×\d+.*refused with 404/) });
  });

  it('a family added in a few lines meets every invariant: planned for each operation, judged on every answer', async () => {
    const unknownParameter: Family = {
      id: 'unknown-parameter',
      title: 'a parameter the interface does not name',
      variants: (c) => [{ name: 'debug=1', request: { ...c, query: [...c.query, ['debug', '1']] }, keeps: 'meaning' }],
    };
    const plan = planRelations(CANONICALS, [unknownParameter], INVARIANTS, { budget: 100 });
    for (const invariant of INVARIANTS) for (const op of ['listPets', 'getPet', 'createPet']) expect(plan.covered).toContain(`unknown-parameter / ${invariant.id} / ${op}`);
    expect(plan.uncovered).toEqual([]);

    // A router whose debug parameter skips authentication: the auth invariant names the spelling.
    const debugOpen: Server = (r, credential) => conforming(r, r.query.some(([k]) => k === 'debug') ? 'key' : credential);
    const observations = await observe(debugOpen, [unknownParameter], INVARIANTS);
    const auth = judgeInvariant(AUTH_INVARIANT, observations);
    expect(auth).toMatchObject({ outcome: 'fail', code: 'served-without-key' });
    expect(auth.outcome === 'fail' && auth.message).toMatch(/^(GET|POST) \/v1\/pets\S*debug=1 without a key \(debug=1\): 20[01], (GET|POST) \/v1\/pets\S*: 401( \(and \d+ more of \d+ spellings\))?$/);
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observations).outcome).toBe('pass');
  });

  it('an invariant added in a few lines is judged on every family', async () => {
    const noServerHeader: Invariant = {
      id: 'relations.no-powered-by',
      clause: 'Responses',
      severity: 'should',
      title: 'No X-Powered-By on any answer',
      needs: ['key', 'none'],
      judge: (o) => (o.seen.headers['x-powered-by'] === undefined ? { holds: true, reading: 'none' } : { holds: false, code: 'powered-by', what: requestLine(o.transformed.request) }),
    };
    const plan = planRelations(CANONICALS, FAMILIES, [noServerHeader], { budget: 5_000 });
    for (const family of FAMILIES) expect(plan.covered.filter((c) => c.startsWith(`${family.id} / relations.no-powered-by /`)).length).toBeGreaterThan(0);
    const observations = await observe(conforming, FAMILIES, [noServerHeader]);
    expect(judgeInvariant(noServerHeader, observations)).toMatchObject({ outcome: 'pass', message: expect.stringMatching(/of 8 families/) });
    const express: Server = (r, c) => ({ ...conforming(r, c), headers: { ...conforming(r, c).headers, 'x-powered-by': 'Express' } });
    expect(judgeInvariant(noServerHeader, await observe(express, FAMILIES, [noServerHeader])).outcome).toBe('fail');
  });

  it('a failure names the spelling, what it got, and the canonical request with what that got', async () => {
    // A HEAD route registered before the auth middleware (a framework's automatic HEAD for every GET).
    const headOpen: Server = (r, credential) => conforming(r, r.method === 'HEAD' ? 'key' : credential);
    const auth = judgeInvariant(AUTH_INVARIANT, await observe(headOpen, [METHOD_FAMILY], [AUTH_INVARIANT]));
    expect(auth).toMatchObject({ outcome: 'fail', code: 'served-without-key' });
    expect(auth.outcome === 'fail' && auth.message).toMatch(/^HEAD \/v1\/pets(\/7|\?limit=2) without a key \(HEAD for GET\): 200, GET \/v1\/pets(\/7|\?limit=2): 401( \(and \d+ more of \d+ spellings\))?$/);
  });

  it('where the interface leaves room, every legal answer holds: a 404, a redirect for a spelling it does not describe, or the canonical answer', async () => {
    const lenient: Server = (r, c) => conforming({ ...r, base: r.base.map((s) => s.toLowerCase()).filter((s) => s !== '' && s !== '.'), path: r.path.map((s) => s.toLowerCase().replace(/;.*$/, '')), trailingSlash: false }, c);
    const redirecting: Server = (r, c) => (r.trailingSlash ? { status: 308, headers: { location: '/v1/pets' }, text: '' } : conforming(r, c));
    // Nothing fails; an invariant with nothing to judge among the path's spellings (one quota, of a router that serves none) skips.
    for (const server of [conforming, lenient, redirecting]) {
      const observations = await observe(server, [PATH_FAMILY], INVARIANTS);
      for (const invariant of INVARIANTS) expect({ id: invariant.id, outcome: judgeInvariant(invariant, observations).outcome }).toEqual({ id: invariant.id, outcome: expect.stringMatching(/^(pass|skip)$/) });
    }
    // A server without HEAD (405, no body: a HEAD answer has none to carry an Error), and a limiter's
    // 429 in plain text (its body is not shown) are legal too.
    const noHead: Server = (r, c) => (r.method === 'HEAD' ? { status: 405, headers: { allow: 'GET' }, text: '' } : conforming(r, c));
    const plainLimiter: Server = (r, c) => (r.headers.length > 0 ? { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, text: 'Too Many Requests' } : conforming(r, c));
    for (const server of [noHead, plainLimiter]) {
      const observations = await observe(server, FAMILIES, INVARIANTS);
      for (const invariant of INVARIANTS) expect({ id: invariant.id, outcome: judgeInvariant(invariant, observations).outcome }).toEqual({ id: invariant.id, outcome: 'pass' });
    }
    // But a refusal of GET without an Error body is still one.
    const bareRefusal: Server = (r, c) => (r.headers.length > 0 && c === 'key' ? { status: 400, headers: {}, text: '' } : conforming(r, c));
    expect(codesOf(judgeInvariant(SAME_MEANING_INVARIANT, await observe(bareRefusal, FAMILIES, INVARIANTS)))).toContain('refused-without-error-body');
    // But another answer than the canonical one is not the same request, and a 5xx never holds.
    const otherPage: Server = (r, c) => (r.path[0] === 'Pets' && r.method === 'GET' && c === 'key' ? json(200, []) : conforming(r, c));
    expect(judgeInvariant(SAME_MEANING_INVARIANT, await observe(otherPage, [PATH_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'other-meaning' });
    const crashes: Server = (r, c) => (r.path.some((s) => s.includes(';')) ? error(500, 'internal') : conforming(r, c));
    expect(judgeInvariant(SAME_MEANING_INVARIANT, await observe(crashes, [PATH_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'server-error' });
  });

  it('a 501 to a method no operation has (OPTIONS, PROPFIND) keeps every invariant; a 501 to HEAD or GET breaks same-meaning', async () => {
    const notImplemented = (methods: readonly string[]): Server => (r, c) => (methods.includes(r.method) ? error(501, 'not_implemented') : conforming(r, c));
    const legal = await observe(notImplemented(['OPTIONS', 'PROPFIND']), [METHOD_FAMILY], INVARIANTS);
    expect(legal.some((o) => o.seen.status === 501 && o.credential === 'key')).toBe(true);
    for (const invariant of INVARIANTS) expect({ id: invariant.id, outcome: judgeInvariant(invariant, legal).outcome }).not.toEqual({ id: invariant.id, outcome: 'fail' });
    expect(judgeInvariant(SAME_MEANING_INVARIANT, legal)).toMatchObject({ outcome: 'pass', message: expect.stringContaining('501 where the interface leaves the answer open') });
    expect(judgeInvariant(SAME_MEANING_INVARIANT, await observe(notImplemented(['HEAD']), [METHOD_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'server-error', message: expect.stringMatching(/^HEAD .*: 501/) });
    const getFails: Server = (r, c) => (r.method === 'GET' && r.headers.some(([n]) => /override/i.test(n)) ? error(501, 'not_implemented') : conforming(r, c));
    expect(judgeInvariant(SAME_MEANING_INVARIANT, await observe(getFails, [METHOD_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'server-error' });
  });
});

describe('what a spelling keeps: the same message, the same meaning, nothing, anything', () => {
  const headerNamed = (r: Spelled, lower: string, spelled: string) => r.headerNames?.[lower] === spelled;
  const contentType = (r: Spelled) => r.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];

  it('the same message refused fails same-meaning, naming both answers: chunked read as empty, 415 for a charset, 401 for a field name in capitals', async () => {
    const chunkedEmpty: Server = (r, c) => (r.chunked && c === 'key' ? error(400, 'body-required') : conforming(r, c));
    const charset415: Server = (r, c) => (/charset/i.test(contentType(r) ?? '') && c === 'key' ? error(415, 'unsupported-media-type') : conforming(r, c));
    const capitals401: Server = (r, c) => (headerNamed(r, 'authorization', 'AUTHORIZATION') ? error(401, 'unauthorized') : conforming(r, c));
    for (const [server, line] of [
      [chunkedEmpty, /^POST \/v1\/pets \(chunked transfer\): 400, POST \/v1\/pets: 201/],
      [charset415, /^POST \/v1\/pets \(Content-Type: application\/json; charset=utf-8\): 415, POST \/v1\/pets: 201/],
      [capitals401, /^GET \/v1\/pets\?limit=2 \(field name 'AUTHORIZATION'\): 401, GET \/v1\/pets\?limit=2: 200/],
    ] as const) {
      const finding = judgeInvariant(SAME_MEANING_INVARIANT, await observe(server, FAMILIES, INVARIANTS));
      expect(finding).toMatchObject({ outcome: 'fail', code: 'same-message-refused' });
      expect(finding.outcome === 'fail' && finding.message).toMatch(line);
    }
  });

  it('a spelling that keeps the meaning only may still be refused with an Error body: two spaces after Bearer, a repeated parameter', async () => {
    const strict: Server = (r, c) => (c === 'key' && (r.scheme === 'Bearer ' || new Set(r.query.map(([k]) => k)).size < r.query.length) ? error(400, 'bad-request') : conforming(r, c));
    const observations = await observe(strict, FAMILIES, INVARIANTS);
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observations)).toMatchObject({ outcome: 'pass', message: expect.stringMatching(/refused with 400 ×\d+/) });
  });

  it('a listed status carries its listed body whatever the spelling: a duplicate member stored with the other type and answered 201 fails listed-body', async () => {
    // First member wins in storage, last in validation: {"categoryId":"12",…,"categoryId":1} is valid, and stored as "12".
    const firstWins: Server = (r, c) => {
      const answer = conforming(r, c);
      const first = /^\{"categoryId":("[^"]*")/.exec(r.body ?? '')?.[1];
      return answer.status === 201 && first !== undefined ? json(201, { id: 8, name: 'Rex', categoryId: JSON.parse(first) }) : answer;
    };
    const finding = judgeInvariant(LISTED_BODY_INVARIANT, await observe(firstWins, [BODY_FAMILY], INVARIANTS));
    expect(finding).toMatchObject({ outcome: 'fail', code: 'not-a-pet' });
    expect(finding.outcome === 'fail' && finding.message).toMatch(/^POST \/v1\/pets \('categoryId' twice, "12" first\): 201 whose body is not a Pet: \{"id":8,"name":"Rex","categoryId":"12"\}, POST \/v1\/pets: 201$/);
    // A 401 without an Error body, to a spelling without a key, is one too; a 429's body is not shown.
    const bare401: Server = (r, c) => (c === 'none' && r.headers.some(([n]) => n === 'authorization') ? { status: 401, headers: {}, text: 'Unauthorized' } : conforming(r, c));
    expect(judgeInvariant(LISTED_BODY_INVARIANT, await observe(bare401, [CREDENTIAL_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'not-an-error' });
    const plain429: Server = (r, c) => (r.scheme !== undefined ? { status: 429, headers: { 'retry-after': '1' }, text: 'Slow down' } : conforming(r, c));
    expect(judgeInvariant(LISTED_BODY_INVARIANT, await observe(plain429, [CREDENTIAL_FAMILY], INVARIANTS)).outcome).toBe('pass');
  });

  it('compares only what the interface names of a Pet: members it does not name are recorded, never compared', async () => {
    let n = 0;
    // Every Pet with createdAt (another each time) and _links.
    const decorated: Server = (r, c) => {
      const answer = conforming(r, c);
      if (answer.status >= 300 || answer.text === '') return answer;
      const add = (pet: Record<string, unknown>) => ({ ...pet, createdAt: new Date(Date.UTC(2026, 0, 1) + n++).toISOString(), _links: { self: { href: `/v1/pets/${String(pet.id)}` } } });
      const value = JSON.parse(answer.text) as unknown;
      return { ...answer, text: JSON.stringify(Array.isArray(value) ? value.map(add) : add(value as Record<string, unknown>)) };
    };
    const observations = await observe(decorated, FAMILIES, INVARIANTS);
    for (const invariant of INVARIANTS) expect({ id: invariant.id, outcome: judgeInvariant(invariant, observations).outcome }).toEqual({ id: invariant.id, outcome: 'pass' });
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observations)).toMatchObject({ message: expect.stringContaining('members the interface does not name, not compared: _links, createdAt') });
    expect(unnamedMembers('[{"id":1,"name":"a","categoryId":2,"createdAt":"x"},{"id":2,"name":"b","categoryId":2,"_links":{}}]')).toEqual(['_links', 'createdAt']);
    // What it names still counts: another name is another animal.
    expect(sameMeaning(GET, '{"id":7,"name":"Rex","categoryId":1,"createdAt":"a"}', '{"id":7,"name":"Max","categoryId":1,"createdAt":"a"}')).toBe(false);
  });

  it('a failure names every kind it found: each code its count and first example', async () => {
    const both: Server = (r, c) => (r.chunked && c === 'key' ? error(400, 'x') : r.path.some((p) => p.includes(';')) && c === 'key' ? error(500, 'boom') : conforming(r, c));
    const finding = judgeInvariant(SAME_MEANING_INVARIANT, await observe(both, FAMILIES, INVARIANTS));
    expect(codesOf(finding).sort()).toEqual(['same-message-refused', 'server-error']);
    const other = finding.outcome === 'fail' ? finding.others?.[0] : undefined;
    expect(other).toMatchObject({ count: expect.any(Number), example: expect.any(String), exchanges: expect.any(Array) });
  });
});

describe('sameMeaning', () => {
  const FILTERED: Spelled = { ...LIST, query: [['limit', '2'], ['status', 'available']] };
  const page = (...pets: [number, string][]) => JSON.stringify(pets.map(([id, status]) => ({ id, name: 'Rex', categoryId: 1, status })));
  it('a page of listPets means the same with other animals of the filter in another order (neither is fixed by the interface)', () => {
    expect(sameMeaning(FILTERED, page([9, 'available'], [3, 'available']), page([1, 'available'], [2, 'available']))).toBe(true);
  });
  it('but not with another page size, or an animal of another status', () => {
    expect(sameMeaning(FILTERED, page([1, 'available'], [2, 'available'], [3, 'available']), page([1, 'available'], [2, 'available']))).toBe(false);
    expect(sameMeaning(FILTERED, page([1, 'available'], [4, 'sold']), page([1, 'available'], [2, 'available']))).toBe(false);
  });
  it('getPet means the same animal exactly, int64 digits and all; createPet the same animal but its id', () => {
    expect(sameMeaning(GET, '{"id":9007199254740993,"name":"Rex"}', '{"name":"Rex","id":9007199254740993}')).toBe(true);
    expect(sameMeaning(GET, '{"id":9007199254740993,"name":"Rex"}', '{"id":9007199254740992,"name":"Rex"}')).toBe(false);
    expect(sameMeaning(CREATE, '{"id":8,"name":"Rex","categoryId":1}', '{"id":9,"name":"Rex","categoryId":1}')).toBe(true);
    expect(sameMeaning(CREATE, '{"id":8,"name":"Rex","categoryId":1}', '{"id":9,"name":"Rex","categoryId":2}')).toBe(false);
  });
});

describe('the plan', () => {
  const everySpelling = CANONICALS.flatMap((c) => FAMILIES.flatMap((f) => spellingsOf(f, c).map((t) => `${f.id} / ${c.operation}: ${t.name}`)));

  it('holds every spelling of every family for every operation and credential where the budget allows, in one order, whatever the seed', () => {
    const plan = planRelations(CANONICALS, FAMILIES, INVARIANTS, { budget: 5_000 });
    expect(plan.uncovered).toEqual([]);
    expect(plan.unsent).toEqual([]);
    // Every spelling, with and without a key.
    expect(plan.spellings).toHaveLength(everySpelling.length * 2);
    expect(plan.total).toBe(plan.spellings.length);
    expect(new Set(plan.spellings.map((s) => `${s.transformed.family} / ${s.canonical.operation}: ${s.transformed.name}`))).toEqual(new Set(everySpelling));
    // The method family has variants of the reads only.
    expect(plan.covered.filter((c) => c.startsWith('method /')).every((c) => !c.endsWith('createPet'))).toBe(true);
    expect(plan.covered).toHaveLength((3 + 2 + 3 + 1 + 1 + 3 + 3 + 3) * INVARIANTS.length);
    // Nothing in it depends on a seed: the same plan every time.
    expect(planRelations(CANONICALS, FAMILIES, INVARIANTS, { budget: 5_000 })).toEqual(plan);
  });

  it('costs what the driver sends: a createPet spelling with a key four requests, the order family two, the canonical answers two per operation', () => {
    const plan = planRelations(CANONICALS, FAMILIES, INVARIANTS, { budget: 5_000 });
    const createdWithKey = plan.spellings.filter((s) => s.credential === 'key' && s.canonical.operation === 'createPet').length;
    const order = plan.spellings.filter((s) => s.transformed.family === 'order' && !(s.credential === 'key' && s.canonical.operation === 'createPet')).length;
    expect(plan.cost).toBe(plan.spellings.length + 3 * createdWithKey + order + 2 * 3);
  });

  it('with a small budget, meets every family × operation × credential first, the same message first, and lists what it leaves out', () => {
    const groups = 19 * 2;
    const small = planRelations(CANONICALS, FAMILIES, INVARIANTS, { budget: 120 });
    expect(small.uncovered).toEqual([]);
    expect(small.cost).toBeLessThanOrEqual(120);
    expect(small.spellings.length + small.unsent.length).toBe(small.total);
    // The first round is one spelling of each group, each family's first: the strictest it has where it has one.
    const first = small.spellings.slice(0, groups);
    expect(new Set(first.map((s) => `${s.transformed.family} / ${s.canonical.operation} / ${s.credential}`)).size).toBe(groups);
    expect(first.filter((s) => ['path', 'credential', 'body', 'query', 'negotiation'].includes(s.transformed.family) && !(s.transformed.family === 'path' && s.canonical.operation !== 'getPet')).every((s) => s.transformed.keeps === 'message')).toBe(true);
    expect(small.unsent[0]).toMatch(/^[a-z-]+ \/ (listPets|getPet|createPet) \/ (key|none): /);
    // The same budget, the same plan.
    expect(planRelations(CANONICALS, FAMILIES, INVARIANTS, { budget: 120 })).toEqual(small);
    const tiny = planRelations(CANONICALS, FAMILIES, INVARIANTS, { budget: 10 });
    expect(tiny.cost).toBeLessThanOrEqual(10);
    expect(tiny.uncovered.filter((u) => u.endsWith('beyond the budget of 10 requests')).length).toBe(groups - new Set(tiny.spellings.map((s) => `${s.transformed.family}${s.canonical.operation}${s.credential}`)).size);
  });

  it('a production target gets only spellings that read', async () => {
    const plan = planRelations(CANONICALS, FAMILIES, INVARIANTS, { budget: 5_000, readOnly: true });
    expect(plan.spellings.length).toBeGreaterThan(0);
    expect(plan.spellings.every((s) => ['GET', 'HEAD'].includes(s.transformed.request.method))).toBe(true);
    expect(plan.covered.some((c) => c.endsWith('createPet'))).toBe(false);
  });
});

describe('the budget the relations plan may cost', () => {
  const free = { perMinute: 60, perDay: 1_000 };
  const pro = { perMinute: 300, perDay: 10_000 };

  it("what is left of the run's budget and of the key's day, the tighter", () => {
    expect(relationsBudget({ remaining: 4_000, key: { quota: pro, sent: 500 }, later: [] })).toBe(4_000);
    // A lone Free key: 720 of its 1,000 sent by the suites before.
    expect(relationsBudget({ remaining: 4_000, key: { quota: free, sent: 720 }, later: [] })).toBe(280);
    expect(relationsBudget({ remaining: 100, key: { quota: free, sent: 720 }, later: [] })).toBe(100);
    expect(relationsBudget({ remaining: 4_000, key: { quota: free, sent: 1_200 }, later: [] })).toBe(0);
  });

  it('less what the suites after it need where it does not run last (vitest running the files alone)', () => {
    expect(relationsBudget({ remaining: 4_000, key: { quota: pro, sent: 0 }, later: ['routes', 'stateful'] })).toBe(4_000 - 100);
    expect(relationsBudget({ remaining: 4_000, key: { quota: pro, sent: 0 }, later: ['some-new-suite'] })).toBe(4_000 - 60);
  });
});
