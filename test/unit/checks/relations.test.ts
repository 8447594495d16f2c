// The relations engine: families of spellings crossed with invariants, sent by the suite's driver
// (lib/suite-kit/relations.ts) to a server that is a pure function here (what it answers to a
// request and a credential): a conforming one, and ones with a fault of a family's kind. A limiter
// in front of every server counts each keyed request in X-RateLimit-*. No sockets.
import { describe, expect, it } from 'vitest';
import { AUTH_INVARIANT, INVARIANTS, type Invariant, judgeInvariant, type Observation, SAME_MEANING_INVARIANT, sameMeaning } from '../../../lib/checks/invariants.ts';
import { planRelations } from '../../../lib/checks/relations.ts';
import type { Seen } from '../../../lib/checks/types.ts';
import type { ApiRequest, ApiResponse } from '../../../lib/client/client.ts';
import type { TargetKey } from '../../../lib/config/schema.ts';
import { type Credential, FAMILIES, type Family, METHOD_FAMILY, PATH_FAMILY, requestLine, type Spelled, spellingsOf } from '../../../lib/generators/transformations.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { observeRelations } from '../../../lib/suite-kit/relations.ts';

const LIST: Spelled = { operation: 'listPets', method: 'GET', base: ['v1'], path: ['pets'], query: [['limit', '2']], headers: [] };
const GET: Spelled = { operation: 'getPet', method: 'GET', base: ['v1'], path: ['pets', '7'], query: [], headers: [] };
const CREATE: Spelled = { operation: 'createPet', method: 'POST', base: ['v1'], path: ['pets'], query: [], headers: [], body: '{"name":"Rex","categoryId":1}' };
const CANONICALS = [LIST, GET, CREATE];
const KEY = { key: 'sk-relations-unit-1', label: 'pro#1', plan: 'pro', env: 'PRO_KEY', quota: { perMinute: 300, perDay: 10_000 } } as unknown as TargetKey;

const json = (status: number, body: unknown): Seen => ({ status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) });
const error = (status: number, code: string) => json(status, { code, message: code, status });

type Server = (r: Spelled, credential: Credential) => Seen;

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
    ...('key' in req.auth && req.auth.scheme !== undefined ? { scheme: req.auth.scheme } : {}),
  };
  return { r, credential: 'key' in req.auth ? 'key' : 'none' };
}

/** The interface as a strict router reads it: exact paths, no trailing slash, headers that change nothing; a NewPet needs its categoryId. */
const conforming: Server = (r, credential) => {
  const path = `/${[...r.base, ...r.path].join('/')}${r.trailingSlash ? '/' : ''}`;
  const route = path === '/v1/pets' ? (r.method === 'POST' ? 'create' : 'list') : /^\/v1\/pets\/\d+$/.test(path) ? 'get' : undefined;
  if (!route || !['GET', 'HEAD', 'POST'].includes(r.method)) return error(404, 'not-found');
  if (credential === 'none') return error(401, 'unauthorized');
  if (route === 'create' && !/"categoryId"/.test(r.body ?? '')) return error(400, 'invalid');
  const answer = route === 'list' ? json(200, [{ id: 7, name: 'Rex', categoryId: 1 }]) : route === 'get' ? json(200, { id: Number(r.path[1]), name: 'Rex', categoryId: 1 }) : json(201, { id: 8, name: 'Rex', categoryId: 1 });
  return r.method === 'HEAD' ? { ...answer, text: '' } : answer;
};

/** Every planned spelling sent by the suite's driver to `server`, behind a limiter that counts each keyed request. */
async function observe(server: Server, families: readonly Family[], invariants: readonly Invariant[], budget = 500): Promise<Observation[]> {
  const plan = planRelations(CANONICALS, families, invariants, { seed: 1, budget });
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
      // A strict router refuses every spelling of the path: one quota, judged on what is served, sees the other seven;
      // store integrity, judged after every createPet spelling, the six families with spellings of it.
      const families = { 'relations.one-quota': 7, 'relations.store-integrity': 6 }[invariant.id as string] ?? 8;
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
    const plan = planRelations(CANONICALS, [unknownParameter], INVARIANTS, { seed: 1, budget: 100 });
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
    const plan = planRelations(CANONICALS, FAMILIES, [noServerHeader], { seed: 1, budget: 500 });
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
    expect(judgeInvariant(SAME_MEANING_INVARIANT, await observe(bareRefusal, FAMILIES, INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'refused-without-error-body' });
    // But another answer than the canonical one is not the same request, and a 5xx never holds.
    const otherPage: Server = (r, c) => (r.path[0] === 'Pets' && r.method === 'GET' && c === 'key' ? json(200, []) : conforming(r, c));
    expect(judgeInvariant(SAME_MEANING_INVARIANT, await observe(otherPage, [PATH_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'other-meaning' });
    const crashes: Server = (r, c) => (r.path.some((s) => s.includes(';')) ? error(500, 'internal') : conforming(r, c));
    expect(judgeInvariant(SAME_MEANING_INVARIANT, await observe(crashes, [PATH_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'server-error' });
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
  it('covers every family × invariant pair for every operation the family applies to, the same for the same seed', async () => {
    const plan = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 7, budget: 500 });
    expect(plan.uncovered).toEqual([]);
    // The method family has variants of the reads only.
    expect(plan.covered.filter((c) => c.startsWith('method /')).every((c) => !c.endsWith('createPet'))).toBe(true);
    expect(plan.covered).toHaveLength((3 + 2 + 3 + 1 + 1 + 3 + 3 + 3) * INVARIANTS.length);
    expect(planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 7, budget: 500 })).toEqual(plan);
    expect(planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 8, budget: 500 }).spellings).not.toEqual(plan.spellings);
  });

  it('meets every pair first, then spends what is left of the budget; what the budget leaves out is said', async () => {
    const small = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 1, budget: 38 });
    expect(small.spellings).toHaveLength(38);
    expect(small.uncovered).toEqual([]); // 19 family × operation groups × 2 credentials
    const tiny = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 1, budget: 5 });
    expect(tiny.spellings).toHaveLength(5);
    expect(tiny.uncovered).toHaveLength(33);
    expect(tiny.uncovered.every((u) => u.endsWith('beyond the budget of 5 spellings'))).toBe(true);
  });

  it('each group picks its spellings in its own order: over a few seeds, every variant of every family is sent', () => {
    const all = new Set(CANONICALS.flatMap((c) => FAMILIES.flatMap((f) => spellingsOf(f, c).map((t) => `${f.id}: ${t.name}`))));
    const sent = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) for (const s of planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed, budget: 60 }).spellings) sent.add(`${s.transformed.family}: ${s.transformed.name}`);
    expect([...all].filter((v) => !sent.has(v))).toEqual([]);
    // Within one seed, the path family's groups do not all take the same place in their lists.
    const path = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 1, budget: 38 }).spellings.filter((s) => s.transformed.family === 'path');
    expect(new Set(path.map((s) => s.transformed.name)).size).toBeGreaterThan(1);
  });

  it('a production target gets only spellings that read', async () => {
    const plan = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 1, budget: 500, readOnly: true });
    expect(plan.spellings.length).toBeGreaterThan(0);
    expect(plan.spellings.every((s) => ['GET', 'HEAD'].includes(s.transformed.request.method))).toBe(true);
    expect(plan.covered.some((c) => c.endsWith('createPet'))).toBe(false);
  });
});
