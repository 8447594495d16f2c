// lib/checks/auth.ts: "When the key is missing or invalid, the response is 401 with an Error body."
import { describe, expect, it } from 'vitest';
import { AUTH_CHECKS, beforeLookup, beforeValidation, credentialSyntax, expectAccepted, expectUnauthorized, keyWithoutScheme, missingKey, nearMissKey, schemeCaseInsensitive, UNAUTHORIZED_CHECKS } from '../../../lib/checks/auth.ts';
import { errorBodyProblems } from '../../../lib/checks/bodies.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import { errorBody, expectFinding, type Outcome, seen } from './_seen.ts';

type Case = { title: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string };

/** The outcome and mentions asked for; a failure also of the code asked for (every failing case names one). */
function expectJudged(finding: Finding, { outcome, mentions, code }: Omit<Case, 'title' | 'seen'>): void {
  expectFinding(finding, outcome, mentions);
  if (outcome === 'fail') expect(finding).toMatchObject({ outcome: 'fail', code: code ?? '(the case names no code)' });
}

describe('expectUnauthorized', () => {
  it.each<Case>([
    { title: '401 with an Error body passes', seen: seen(401, errorBody(401)), outcome: 'pass' },
    { title: '401 with an Error body and a charset passes', seen: seen(401, errorBody(401), { 'content-type': 'application/json; charset=UTF-8' }), outcome: 'pass' },
    // The body of a 401 is errors.error-body's (judged once over the run): the status is this check's.
    { title: '401 with an empty body passes, leaving the body to errors.error-body', seen: seen(401, ''), outcome: 'pass', mentions: ["401; its body is errors.error-body's to judge: body is empty"] },
    { title: '401 with a text/plain body passes, saying what errors.error-body will find', seen: seen(401, 'Unauthorized', { 'content-type': 'text/plain' }), outcome: 'pass', mentions: ['Content-Type is "text/plain"'] },
    { title: '401 with {} passes, naming the missing fields for errors.error-body', seen: seen(401, {}), outcome: 'pass', mentions: ['Error.code', 'Error.message', 'Error.status'] },
    { title: '401 whose Error.status is 400 passes, naming both', seen: seen(401, errorBody(400)), outcome: 'pass', mentions: ['Error.status is 400', '401'] },
    { title: '403 fails naming 403', seen: seen(403, errorBody(403)), outcome: 'fail', code: 'not-401', mentions: ['403', 'not 401'] },
    { title: '200 fails naming 200', seen: seen(200, []), outcome: 'fail', code: 'not-401', mentions: ['200', 'not 401'] },
    { title: '400 (validation before authentication) fails naming 400', seen: seen(400, errorBody(400)), outcome: 'fail', code: 'not-401', mentions: ['400', 'not 401'] },
    { title: '404 (lookup before authentication) fails naming 404', seen: seen(404, errorBody(404)), outcome: 'fail', code: 'not-401', mentions: ['404', 'not 401'] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(expectUnauthorized(s), c);
  });

  it('describes the response it got in `actual`', () => {
    const finding = expectUnauthorized(seen(403, errorBody(403)));
    expect(finding.outcome === 'fail' && finding.actual).toContain('403 (application/json)');
  });
});

describe('expectAccepted', () => {
  it.each<Case>([
    { title: '200 passes', seen: seen(200, []), outcome: 'pass' },
    { title: '201 passes', seen: seen(201, { id: 1, name: 'Rex', categoryId: 1 }), outcome: 'pass' },
    { title: '404 (key accepted, animal missing) passes', seen: seen(404, errorBody(404)), outcome: 'pass' },
    { title: '400 (key accepted, body refused) passes', seen: seen(400, errorBody(400)), outcome: 'pass' },
    { title: '401 fails: the key refused for the scheme\'s case', seen: seen(401, errorBody(401)), outcome: 'fail', code: 'scheme-case-refused' },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(expectAccepted(s), c);
  });
});

describe('auth.scheme-case-insensitive', () => {
  it('fails on the first scheme refused, naming it, with the code of expectAccepted', () => {
    const finding = schemeCaseInsensitive.judge([{ scheme: 'bearer', seen: seen(200, []) }, { scheme: 'BEARER', seen: seen(401, errorBody(401)) }]);
    expectJudged(finding, { outcome: 'fail', code: 'scheme-case-refused', mentions: ['"BEARER <key>"'] });
  });
});

describe('auth.before-validation and auth.before-lookup', () => {
  it('pass on 401', () => {
    expectFinding(beforeValidation.judge([{ body: '{}', seen: seen(401, errorBody(401)) }]), 'pass');
    expectFinding(beforeLookup.judge(seen(401, errorBody(401))), 'pass');
  });

  it('fail on a 400 or a 404 (validated or looked up before authentication), naming the status', () => {
    expectJudged(beforeValidation.judge([{ body: '{"name":1}', seen: seen(400, errorBody(400)) }]), { outcome: 'fail', code: 'not-401', mentions: ['{"name":1}', 'got 400, not 401'] });
    expectJudged(beforeLookup.judge(seen(404, errorBody(404))), { outcome: 'fail', code: 'not-401', mentions: ['got 404, not 401'] });
  });

  it('a body that is not JSON at all may get the body parser\'s 400 (said); anything else, or 400 for JSON, still fails', () => {
    expectJudged(beforeValidation.judge([{ body: 'not json', unreadable: true, seen: seen(400, errorBody(400)) }]), { outcome: 'pass', mentions: ['body parser answered before authentication'] });
    expectJudged(beforeValidation.judge([{ body: 'not json', unreadable: true, seen: seen(422, errorBody(422)) }]), { outcome: 'fail', code: 'not-401', mentions: ['got 422'] });
    expectJudged(beforeValidation.judge([{ body: '{}', unreadable: false, seen: seen(400, errorBody(400)) }]), { outcome: 'fail', code: 'not-401' });
  });
});

describe('AUTH_CHECKS', () => {
  it('are checks of the Authentication clause with unique ids, must but for the scheme case (RFC 9110, not the interface) and the credential\'s spelling (the bare key among them)', () => {
    expect(new Set(AUTH_CHECKS.map((c) => c.id)).size).toBe(AUTH_CHECKS.length);
    for (const c of AUTH_CHECKS) {
      expect(c.clause).toBe('Authentication');
      expect(c.suite).toBe('auth');
      expect(c.severity).toBe(c === schemeCaseInsensitive || c === credentialSyntax || c === keyWithoutScheme ? 'should' : 'must');
    }
  });

  it('auth.key-without-scheme: a bare key served is a should failure; 401 and 400 pass', () => {
    expectJudged(keyWithoutScheme.judge([seen(200, [])]), { outcome: 'fail', code: 'credential-accepted', mentions: ['"<key>" got 200'] });
    expectFinding(keyWithoutScheme.judge([seen(400, errorBody(400))]), 'pass');
    expectFinding(keyWithoutScheme.judge([seen(401, errorBody(401))]), 'pass');
  });

  it('judge several responses: the first that is not a 401 with an Error body decides', () => {
    expectFinding(missingKey.judge([seen(401, errorBody(401)), seen(401, errorBody(401))]), 'pass');
    expectJudged(missingKey.judge([seen(401, errorBody(401)), seen(200, [])]), { outcome: 'fail', code: 'not-401', mentions: ['200', 'not 401'] });
    expectFinding(missingKey.judge([]), 'skip');
  });
});

describe('auth.near-miss-key', () => {
  it('is a must of the Authentication clause, run with the other ways of not presenting a valid key', () => {
    expect(nearMissKey).toMatchObject({ id: 'auth.near-miss-key', clause: 'Authentication', severity: 'must', suite: 'auth' });
    expect(UNAUTHORIZED_CHECKS).toContain(nearMissKey);
    expect(nearMissKey.explainedBy).toEqual(['auth.missing-key']);
  });

  it('passes when every near miss gets 401 with an Error body, and fails on the first that is served', () => {
    expectFinding(nearMissKey.judge([seen(401, errorBody(401)), seen(401, errorBody(401))]), 'pass');
    expectJudged(nearMissKey.judge([seen(401, errorBody(401)), seen(200, []), seen(403, errorBody(403))]), { outcome: 'fail', code: 'not-401', mentions: ['got 200, not 401'] });
    expectJudged(nearMissKey.judge.one(seen(201, { id: 1, name: 'x', categoryId: 1 })), { outcome: 'fail', code: 'not-401', mentions: ['201'] });
  });

  it('leaves a 401 without an Error body to errors.error-body: one cause, one failure', () => {
    const finding = nearMissKey.judge([seen(401, '')]);
    expect(finding.outcome).toBe('pass');
    // The rule errors.error-body applies to every error response of the run.
    expect(errorBodyProblems(seen(401, '')).map((p) => p.code)).toEqual(['no-error-body']);
  });
});

describe('auth.credential-syntax', () => {
  it('is a should, apart from the must of other keys', () => {
    expect(credentialSyntax).toMatchObject({ id: 'auth.credential-syntax', clause: 'Authentication', severity: 'should', suite: 'auth' });
    expect(UNAUTHORIZED_CHECKS).not.toContain(credentialSyntax);
  });

  const spelling = (status: number, body: unknown = errorBody(status)) => ({ shape: 'Bearer <key> <key>', seen: seen(status, body) });
  it.each<{ title: string; c: ReturnType<typeof spelling>; outcome: Outcome; code?: string; mentions?: string[] }>([
    { title: '401 passes', c: spelling(401), outcome: 'pass', mentions: ['"Bearer <key> <key>": 401'] },
    { title: '400 passes, naming RFC 6750', c: spelling(400), outcome: 'pass', mentions: ['400 (a malformed credential, RFC 6750 §3.1)'] },
    { title: '401 without an Error body passes, leaving the body to errors.error-body', c: spelling(401, ''), outcome: 'pass', mentions: ["errors.error-body's to judge"] },
    { title: 'a 2xx fails: the key was read out of it', c: spelling(200, []), outcome: 'fail', code: 'credential-accepted', mentions: ['"Bearer <key> <key>" got 200: the key was read out of another spelling of the credential'] },
    { title: '403 fails as not 401', c: spelling(403), outcome: 'fail', code: 'not-401', mentions: ['got 403, not 401 (or 400)'] },
  ])('$title', ({ c, ...expected }) => {
    expectJudged(credentialSyntax.judge.one(c), expected);
  });

  it('passes the set saying which got 400; fails on the first served; skips with nothing sent', () => {
    expectFinding(credentialSyntax.judge([spelling(401), { shape: 'Bearer <key>;x', seen: seen(400, errorBody(400)) }]), 'pass', ['2 spellings refused: 400 for "Bearer <key>;x"']);
    expectFinding(credentialSyntax.judge([spelling(401), spelling(401)]), 'pass', ['each with 401']);
    expectJudged(credentialSyntax.judge([spelling(401), spelling(200, []), spelling(403)]), { outcome: 'fail', code: 'credential-accepted' });
    expectFinding(credentialSyntax.judge([]), 'skip');
  });
});
