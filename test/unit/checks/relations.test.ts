// The relations engine's core (issue 35, started): families of spellings crossed with invariants.
// A server is a pure function here (what it answers to a spelling and a credential): a conforming
// one, and ones with a fault of a family's kind. No sockets.
import { describe, expect, it } from 'vitest';
import { AUTH_INVARIANT, INVARIANTS, type Invariant, judgeInvariant, type Observation, SAME_MEANING_INVARIANT } from '../../../lib/checks/invariants.ts';
import { planRelations } from '../../../lib/checks/relations.ts';
import type { Seen } from '../../../lib/checks/types.ts';
import { type Credential, FAMILIES, type Family, METHOD_FAMILY, PATH_FAMILY, requestLine, type Spelled } from '../../../lib/generators/transformations.ts';

const LIST: Spelled = { operation: 'listPets', method: 'GET', base: ['v1'], path: ['pets'], query: [['limit', '2']], headers: [] };
const GET: Spelled = { operation: 'getPet', method: 'GET', base: ['v1'], path: ['pets', '7'], query: [], headers: [] };
const CREATE: Spelled = { operation: 'createPet', method: 'POST', base: ['v1'], path: ['pets'], query: [], headers: [], body: '{"name":"Rex","categoryId":1}' };
const CANONICALS = [LIST, GET, CREATE];

const json = (status: number, body: unknown): Seen => ({ status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) });
const error = (status: number, code: string) => json(status, { code, message: code, status });

type Server = (r: Spelled, credential: Credential) => Seen;

/** The interface as a strict router reads it: exact paths, no trailing slash, headers that change nothing. */
const conforming: Server = (r, credential) => {
  const path = `/${[...r.base, ...r.path].join('/')}${r.trailingSlash ? '/' : ''}`;
  const route = path === '/v1/pets' ? (r.method === 'POST' ? 'create' : 'list') : /^\/v1\/pets\/\d+$/.test(path) ? 'get' : undefined;
  if (!route || !['GET', 'HEAD', 'POST'].includes(r.method)) return error(404, 'not-found');
  if (credential === 'none') return error(401, 'unauthorized');
  const answer = route === 'list' ? json(200, [{ id: 7, name: 'Rex' }]) : route === 'get' ? json(200, { id: 7, name: 'Rex' }) : json(201, { id: 8, name: 'Rex' });
  return r.method === 'HEAD' ? { ...answer, text: '' } : answer;
};

/** Every planned spelling sent to `server`, beside the canonical request's answer with the same credential. */
function observe(server: Server, families: readonly Family[], invariants: readonly Invariant[], budget = 500): Observation[] {
  const plan = planRelations(CANONICALS, families, invariants, { seed: 1, budget });
  return plan.spellings.map((s) => ({ ...s, seen: server(s.transformed.request, s.credential), canonicalSeen: server(s.canonical, s.credential) }));
}

describe('families × invariants', () => {
  it('the conforming server keeps every invariant on every family, and each pass says which legal answers it saw', () => {
    const observations = observe(conforming, FAMILIES, INVARIANTS);
    for (const invariant of INVARIANTS) {
      const finding = judgeInvariant(invariant, observations);
      expect({ id: invariant.id, outcome: finding.outcome }).toEqual({ id: invariant.id, outcome: 'pass' });
      expect(finding.outcome === 'pass' && finding.message).toMatch(/of 8 families/);
    }
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observations)).toMatchObject({ message: expect.stringMatching(/refused with 404 ×\d+.*answered as the canonical request ×\d+|answered as the canonical request ×\d+.*refused with 404/) });
  });

  it('a family added in a few lines meets every invariant: planned for each operation, judged on every answer', () => {
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
    const observations = observe(debugOpen, [unknownParameter], INVARIANTS);
    const auth = judgeInvariant(AUTH_INVARIANT, observations);
    expect(auth).toMatchObject({ outcome: 'fail', code: 'served-without-key' });
    expect(auth.outcome === 'fail' && auth.message).toMatch(/^(GET|POST) \/v1\/pets\S*debug=1 without a key \(debug=1\): 20[01], (GET|POST) \/v1\/pets\S*: 401$/);
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observations).outcome).toBe('pass');
  });

  it('an invariant added in a few lines is judged on every family', () => {
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
    const observations = observe(conforming, FAMILIES, [noServerHeader]);
    expect(judgeInvariant(noServerHeader, observations)).toMatchObject({ outcome: 'pass', message: expect.stringMatching(/of 8 families/) });
    const express: Server = (r, c) => ({ ...conforming(r, c), headers: { ...conforming(r, c).headers, 'x-powered-by': 'Express' } });
    expect(judgeInvariant(noServerHeader, observe(express, FAMILIES, [noServerHeader])).outcome).toBe('fail');
  });

  it('a failure names the spelling, what it got, and the canonical request with what that got', () => {
    // A HEAD route registered before the auth middleware (a framework's automatic HEAD for every GET).
    const headOpen: Server = (r, credential) => conforming(r, r.method === 'HEAD' ? 'key' : credential);
    const auth = judgeInvariant(AUTH_INVARIANT, observe(headOpen, [METHOD_FAMILY], [AUTH_INVARIANT]));
    expect(auth).toMatchObject({ outcome: 'fail', code: 'served-without-key' });
    expect(auth.outcome === 'fail' && auth.message).toMatch(/^HEAD \/v1\/pets(\/7|\?limit=2) without a key \(HEAD for GET\): 200, GET \/v1\/pets(\/7|\?limit=2): 401$/);
  });

  it('where the interface leaves room, every legal answer holds: a 404, a redirect for a spelling it does not describe, or the canonical answer', () => {
    const lenient: Server = (r, c) => conforming({ ...r, base: r.base.map((s) => s.toLowerCase()).filter((s) => s !== '' && s !== '.'), path: r.path.map((s) => s.toLowerCase().replace(/;.*$/, '')), trailingSlash: false }, c);
    const redirecting: Server = (r, c) => (r.trailingSlash ? { status: 308, headers: { location: '/v1/pets' }, text: '' } : conforming(r, c));
    for (const server of [conforming, lenient, redirecting]) {
      const observations = observe(server, [PATH_FAMILY], INVARIANTS);
      for (const invariant of INVARIANTS) expect({ id: invariant.id, outcome: judgeInvariant(invariant, observations).outcome }).toEqual({ id: invariant.id, outcome: 'pass' });
    }
    // A server without HEAD (405, no body: a HEAD answer has none to carry an Error), and a limiter's
    // 429 in plain text (its body is not shown) are legal too.
    const noHead: Server = (r, c) => (r.method === 'HEAD' ? { status: 405, headers: { allow: 'GET' }, text: '' } : conforming(r, c));
    const plainLimiter: Server = (r, c) => (r.headers.length > 0 ? { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, text: 'Too Many Requests' } : conforming(r, c));
    for (const server of [noHead, plainLimiter]) {
      const observations = observe(server, FAMILIES, INVARIANTS);
      for (const invariant of INVARIANTS) expect({ id: invariant.id, outcome: judgeInvariant(invariant, observations).outcome }).toEqual({ id: invariant.id, outcome: 'pass' });
    }
    // But a refusal of GET without an Error body is still one.
    const bareRefusal: Server = (r, c) => (r.headers.length > 0 && c === 'key' ? { status: 400, headers: {}, text: '' } : conforming(r, c));
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observe(bareRefusal, FAMILIES, INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'refused-without-error-body' });
    // But another answer than the canonical one is not the same request, and a 5xx never holds.
    const otherPage: Server = (r, c) => (r.path[0] === 'Pets' && r.method === 'GET' && c === 'key' ? json(200, []) : conforming(r, c));
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observe(otherPage, [PATH_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'other-meaning' });
    const crashes: Server = (r, c) => (r.path.some((s) => s.includes(';')) ? error(500, 'internal') : conforming(r, c));
    expect(judgeInvariant(SAME_MEANING_INVARIANT, observe(crashes, [PATH_FAMILY], INVARIANTS))).toMatchObject({ outcome: 'fail', code: 'server-error' });
  });
});

describe('the plan', () => {
  it('covers every family × invariant pair for every operation the family applies to, the same for the same seed', () => {
    const plan = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 7, budget: 500 });
    expect(plan.uncovered).toEqual([]);
    // The method family has variants of the reads only.
    expect(plan.covered.filter((c) => c.startsWith('method /')).every((c) => !c.endsWith('createPet'))).toBe(true);
    expect(plan.covered).toHaveLength((3 + 2 + 3 + 1 + 1 + 3 + 3 + 3) * INVARIANTS.length);
    expect(planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 7, budget: 500 })).toEqual(plan);
    expect(planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 8, budget: 500 }).spellings).not.toEqual(plan.spellings);
  });

  it('meets every pair first, then spends what is left of the budget; what the budget leaves out is said', () => {
    const small = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 1, budget: 38 });
    expect(small.spellings).toHaveLength(38);
    expect(small.uncovered).toEqual([]); // 19 family × operation groups × 2 credentials
    const tiny = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 1, budget: 5 });
    expect(tiny.spellings).toHaveLength(5);
    expect(tiny.uncovered).toHaveLength(33);
    expect(tiny.uncovered.every((u) => u.endsWith('beyond the budget of 5 spellings'))).toBe(true);
  });

  it('a production target gets only spellings that read', () => {
    const plan = planRelations(CANONICALS, FAMILIES, INVARIANTS, { seed: 1, budget: 500, readOnly: true });
    expect(plan.spellings.length).toBeGreaterThan(0);
    expect(plan.spellings.every((s) => ['GET', 'HEAD'].includes(s.transformed.request.method))).toBe(true);
    expect(plan.covered.some((c) => c.endsWith('createPet'))).toBe(false);
  });
});
