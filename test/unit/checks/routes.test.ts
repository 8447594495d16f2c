// lib/checks/routes.ts: answers outside the three operations (unknown paths, other methods, bodies
// the parser refuses, GET /store/orders with a key): never served without a key, never a 5xx (their
// X-RateLimit-* are headers.rate-limit-present's, with every other answer's); a 5xx shown under
// responses.no-5xx by the answer they share.
import { describe, expect, it } from 'vitest';
import { linkCauses } from '../../../lib/checks/causes.ts';
import { toCheckResult } from '../../../lib/checks/to-check-result.ts';
import { orders, type OutsideCase, otherMethod, refusedBody, ROUTES_CHECKS, unknownPath } from '../../../lib/checks/routes.ts';
import { no5xx, rateLimitHeaders } from '../../../lib/checks/run-level.ts';
import type { Finding } from '../../../lib/checks/types.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { errorBody, expectFinding, type Outcome, seen } from './_seen.ts';

const RATE_LIMIT = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1767225600' };
const HEADERS = { 'content-type': 'application/json', ...RATE_LIMIT };

/** An answer with X-RateLimit-* unless `headers` says otherwise. */
const answer = (status: number, headers: Record<string, string> = HEADERS) => seen(status, status >= 400 ? errorBody(status) : [], headers);
const outside = (request: string, keyed: boolean, status: number, headers?: Record<string, string>, extra: Partial<OutsideCase> = {}): OutsideCase => ({ request, keyed, seen: answer(status, headers), ...extra });

function expectJudged(finding: Finding, outcome: Outcome, code?: string, mentions: string[] = []): void {
  expectFinding(finding, outcome, mentions);
  if (outcome === 'fail') expect(finding).toMatchObject({ outcome: 'fail', code });
}

describe('the routes checks', () => {
  it('are must checks of the routes suite', () => {
    expect(ROUTES_CHECKS.map((c) => c.id)).toEqual(['routes.unknown-path', 'routes.other-method', 'routes.refused-body', 'routes.orders']);
    for (const c of ROUTES_CHECKS) expect([c.suite, c.severity]).toEqual(['routes', 'must']);
  });
});

describe('routes.unknown-path', () => {
  type Case = { title: string; cases: OutsideCase[]; outcome: Outcome; code?: string; mentions?: string[] };
  it.each<Case>([
    {
      title: '401 without a key and 404 with one pass, saying authentication came first',
      cases: [outside('GET /petz', false, 401), outside('GET /petz', true, 404)],
      outcome: 'pass',
      mentions: ['without a key 401 ×1 (authentication first)', 'with a key 404 ×1'],
    },
    {
      title: '404 without a key passes too (the router first), and says so',
      cases: [outside('GET /petz', false, 404), outside('GET /Pets', false, 401), outside('GET /petz', true, 404)],
      outcome: 'pass',
      mentions: ['without a key 404 ×1, 401 ×1 (the router answered before authentication'],
    },
    { title: 'a redirect without a key passes (nothing served)', cases: [outside('GET /pets/', false, 308)], outcome: 'pass', mentions: ['308 ×1'] },
    {
      title: 'a 200 with a key passes (a case-insensitive router), naming the request',
      cases: [outside('GET /Pets', true, 200)],
      outcome: 'pass',
      mentions: ['200 ×1 (GET /Pets)'],
    },
    { title: 'a 500 with a key fails, naming the request', cases: [outside('GET /unknown-conformance-path', true, 500)], outcome: 'fail', code: 'server-error', mentions: ['GET /unknown-conformance-path with a key got 500'] },
    { title: 'a 503 without a key fails too', cases: [outside('GET /petz', false, 503)], outcome: 'fail', code: 'server-error', mentions: ['without a key got 503'] },
    { title: 'a 200 without a key fails: served without a key', cases: [outside('GET /Pets', false, 200)], outcome: 'fail', code: 'served-without-key', mentions: ['GET /Pets without a key was served: 200'] },
    { title: 'a 403 without a key fails: neither 401 nor the router\'s', cases: [outside('GET /petz', false, 403)], outcome: 'fail', code: 'not-401', mentions: ['got 403, not 401 or 404 or 405'] },
    {
      // One cause in the headers, one failure: headers.rate-limit-present's, which sees these answers too.
      title: 'leaves the X-RateLimit-* headers to headers.rate-limit-present: missing or not integers, the status alone is judged',
      cases: [outside('GET /petz', false, 401, { 'content-type': 'application/json', 'x-ratelimit-limit': '60' }), outside('GET /petz', true, 404, { 'content-type': 'application/json' }), outside('GET /Pets', true, 404, { ...HEADERS, 'x-ratelimit-remaining': 'many' })],
      outcome: 'pass',
      mentions: ["their X-RateLimit-* are headers.rate-limit-present's"],
    },
    { title: 'nothing sent skips', cases: [], outcome: 'skip' },
  ])('$title', ({ cases, outcome, code, mentions }) => {
    expectJudged(unknownPath.judge(cases), outcome, code, mentions);
  });

  it('fails on a 501 to GET of an unknown path, with a key or without: GET is a method of the interface', () => {
    expectJudged(unknownPath.judge([outside('GET /petz', true, 501)]), 'fail', 'server-error', ['GET /petz with a key got 501']);
    expectJudged(unknownPath.judge([outside('GET /petz', false, 501)]), 'fail', 'server-error');
  });

  it('judges one case at a time for sendEach: the first that does not pass decides', () => {
    expect(unknownPath.judge.one(outside('GET /petz', true, 404)).outcome).toBe('pass');
    expect(unknownPath.judge([outside('GET /a', true, 500), outside('GET /b', false, 200)])).toMatchObject({ code: 'server-error' });
  });
});

describe('routes.other-method', () => {
  it('passes on 401 without a key and 405 with one, and on 405 without a key (the router first)', () => {
    expectJudged(otherMethod.judge([outside('DELETE /pets/9', false, 401), outside('DELETE /pets/9', true, 405)]), 'pass', undefined, ['authentication first']);
    expectJudged(otherMethod.judge([outside('PUT /pets', false, 405), outside('PUT /pets', true, 405)]), 'pass', undefined, ['the router answered before authentication']);
  });

  it('passes on any answer with a key but a 5xx (a 204 for DELETE of no animal, say)', () => {
    expectJudged(otherMethod.judge([outside('DELETE /pets/9', true, 204, HEADERS)]), 'pass');
  });

  it('fails on a 500 for DELETE with a key, naming it', () => {
    expectJudged(otherMethod.judge([outside('DELETE /pets/9', false, 401), outside('DELETE /pets/9', true, 500)]), 'fail', 'server-error', ['DELETE /pets/9 with a key got 500']);
  });

  it('fails on a 204 for DELETE without a key', () => {
    expectJudged(otherMethod.judge([outside('DELETE /pets/9', false, 204)]), 'fail', 'served-without-key', ['DELETE /pets/9 without a key was served: 204']);
  });

  it('fails on a redirect without a key (not legal here, unlike an unknown path)', () => {
    expectJudged(otherMethod.judge([outside('PUT /pets', false, 301)]), 'fail', 'not-401');
  });

  it('passes on 501 with and without a key: a method no operation has, not implemented (RFC 9110 §9.1), answered before authentication', () => {
    const cases = ['PUT /pets/9', 'PATCH /pets/9', 'DELETE /pets/9', 'PUT /pets (empty body)'].flatMap((request) => [outside(request, false, 501), outside(request, true, 501)]);
    expectJudged(otherMethod.judge(cases), 'pass', undefined, ['without a key 501 ×4 (a method no operation has got 501 before authentication', 'with a key 501 ×4']);
    expectJudged(otherMethod.judge([outside('DELETE /pets/9', false, 401), outside('DELETE /pets/9', true, 501)]), 'pass', undefined, ['authentication first']);
  });

  it('fails on a 500 or 503 to those methods still: only 501 says "not implemented"', () => {
    expectJudged(otherMethod.judge([outside('DELETE /pets/9', false, 503)]), 'fail', 'server-error', ['DELETE /pets/9 without a key got 503']);
    expectJudged(otherMethod.judge([outside('PATCH /pets/9', true, 500)]), 'fail', 'server-error');
  });

  it('passes a 405 with a key, headers or not (headers.rate-limit-present judges them)', () => {
    expectJudged(otherMethod.judge([outside('PUT /pets', true, 405, { 'content-type': 'application/json', allow: 'GET, POST' })]), 'pass');
  });
});

describe('routes.refused-body', () => {
  const oversized = { alsoWithoutKey: [413] } as const;
  it('passes on 401 without a key, and 413 for an oversized body before authentication', () => {
    expectJudged(refusedBody.judge([outside('POST /pets (text/plain)', false, 401), outside('POST /pets (1153434 bytes)', false, 413, HEADERS, oversized), outside('POST /pets (1153434 bytes)', true, 413)]), 'pass', undefined, ['401 ×1, 413 ×1']);
  });

  it('fails on 413 without a key for a body that is not oversized: authentication comes first on createPet', () => {
    expectJudged(refusedBody.judge([outside('POST /pets (text/plain)', false, 415)]), 'fail', 'not-401', ['POST /pets (text/plain) without a key got 415, not 401']);
    expectJudged(refusedBody.judge([outside('POST /pets (malformed JSON)', false, 400)]), 'fail', 'not-401');
  });

  it('takes a body parser\'s 400 before authentication for the form, which is no JSON, and only for it', () => {
    const form = { alsoWithoutKey: [400] } as const;
    expectJudged(refusedBody.judge([outside('POST /pets (a NewPet form-encoded)', false, 400, HEADERS, form)]), 'pass', undefined, ['400 ×1', 'a body parser answered before authentication']);
    expectJudged(refusedBody.judge([outside('POST /pets (a NewPet as text/plain)', false, 400)]), 'fail', 'not-401', ['POST /pets (a NewPet as text/plain) without a key got 400, not 401']);
  });

  it('fails when a body the parser must refuse is accepted with a key', () => {
    expectJudged(refusedBody.judge([outside('POST /pets (malformed JSON)', true, 201)]), 'fail', 'accepted', ['POST /pets (malformed JSON) with a key was accepted: 201']);
  });

  it('fails on a 500 for an oversized body', () => {
    expectJudged(refusedBody.judge([outside('POST /pets (1153434 bytes)', true, 500)]), 'fail', 'server-error');
  });
});

describe('routes.orders', () => {
  it('passes on any status with a key', () => {
    expectJudged(orders.judge([outside('GET /store/orders', true, 200)]), 'pass', undefined, ['1 answer: with a key 200 ×1']);
    expectJudged(orders.judge([outside('GET /store/orders', true, 403)]), 'pass');
  });

  it('fails on a 5xx, a 501 included: GET is a method of the interface', () => {
    expectJudged(orders.judge([outside('GET /store/orders', true, 501)]), 'fail', 'server-error', ['GET /store/orders with a key got 501']);
  });
});

let seq = 0;
function exchange(suite: string, method: string, path: string, status: number, headers: Record<string, string> = HEADERS): Exchange {
  seq += 1;
  return { seq, suite, method, url: `http://127.0.0.1:8080/v1${path}`, auth: { kind: 'none' }, requestHeaders: {}, status, responseHeaders: headers, responseBody: '', startedAt: '2030-01-01T00:00:00.000Z', durationMs: 1 };
}

describe('a routes failure and the run-level checks over the same answers', () => {
  const run = (def: typeof no5xx | typeof rateLimitHeaders, exchanges: Exchange[]) => toCheckResult(def, def.judge(exchanges), { subject: 'every response of the run', durationMs: 0, exchanges: [] });

  it('a 5xx is under responses.no-5xx, by the answer they share, as any check\'s 5xx is', () => {
    const delete500 = exchange('routes', 'DELETE', '/pets/9', 500);
    const finding = otherMethod.judge([outside('DELETE /pets/9', true, 500)]);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'server-error', explainedBy: 'responses.no-5xx' });
    const routesFailure = toCheckResult(otherMethod, finding, { durationMs: 0, exchanges: [delete500] });
    const linked = linkCauses([routesFailure, run(no5xx, [exchange('auth', 'GET', '/pets', 200), delete500])]);
    expect(linked.map((c) => [c.id, c.causedBy])).toEqual([
      ['routes.other-method', { id: 'responses.no-5xx', subject: 'every response of the run' }],
      ['responses.no-5xx', undefined],
    ]);
    // Another 5xx than the routes check's: no shared answer, two roots.
    const apart = linkCauses([toCheckResult(otherMethod, finding, { durationMs: 0, exchanges: [exchange('routes', 'DELETE', '/pets/8', 500)] }), run(no5xx, [delete500])]);
    expect(apart.map((c) => c.causedBy)).toEqual([undefined, undefined]);
  });

  it('a run-level failure over routes answers is its own root', () => {
    const finding = rateLimitHeaders.judge([exchange('routes', 'GET', '/petz', 404, {}), exchange('get-pet', 'GET', '/pets/9', 404, {})]);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'rate-limit-header-missing' });
    expect(finding.outcome === 'fail' && finding.explainedBy).toBeUndefined();
    const linked = linkCauses([toCheckResult(unknownPath, { outcome: 'pass' }, { durationMs: 0, exchanges: [] }), run(rateLimitHeaders, [exchange('routes', 'GET', '/petz', 404, {})])]);
    expect(linked.map((c) => c.causedBy)).toEqual([undefined, undefined]);
  });
});
