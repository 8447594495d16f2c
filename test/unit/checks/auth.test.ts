// lib/checks/auth.ts: "When the key is missing or invalid, the response is 401 with an Error body."
import { describe, expect, it } from 'vitest';
import { AUTH_CHECKS, beforeLookup, beforeValidation, credentialSyntax, expectAccepted, expectUnauthorized, idsBetween, keyWithoutScheme, MAX_IDS_BETWEEN, missingKey, nearMissKey, type ReadBack, type RefusedCreate, refusedNoEffect, schemeCaseInsensitive, UNAUTHORIZED_CHECKS } from '../../../lib/checks/auth.ts';
import { errorBodyProblems } from '../../../lib/checks/bodies.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import { errorBody, expectFinding, type Outcome, pet, pets, seen } from './_seen.ts';

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

describe('auth.refused-no-effect', () => {
  const NO_KEY = 'conformance-harness refused without a key 1';
  const WRONG_KEY = 'conformance-harness refused with a wrong key 1';
  const created = (id: bigint, name = `pet ${id}`) => seen(201, pet(id, undefined, name));
  const refused = (status = 401): RefusedCreate[] => [
    { how: 'without a key', name: NO_KEY, seen: status === 401 ? seen(401, errorBody(401)) : seen(status, pet(99n, undefined, NO_KEY)) },
    { how: 'with a wrong key', name: WRONG_KEY, seen: seen(401, errorBody(401)) },
  ];
  const missing = (id: bigint) => ({ id, seen: seen(404, errorBody(404)) });
  const found = (id: bigint, name: string) => ({ id, seen: seen(200, pet(id, undefined, name)) });

  it('reads back the ids between the animals created before and after, when few, in order and whichever came first', () => {
    expect(idsBetween(created(12n), created(15n))).toEqual({ ids: [13n, 14n] });
    expect(idsBetween(created(15n), created(12n))).toEqual({ ids: [13n, 14n] });
    expect(idsBetween(created(12n), created(13n))).toEqual({ ids: [] });
    expect(idsBetween(created(1n), created(1n + BigInt(MAX_IDS_BETWEEN) + 1n))).toEqual({ ids: Array.from({ length: MAX_IDS_BETWEEN }, (_, i) => 2n + BigInt(i)) });
    expect(idsBetween(created(1n), created(2n ** 62n))).toEqual({ none: expect.stringContaining('too many to read one by one') });
    expect(idsBetween(seen(400, errorBody(400)), created(3n))).toEqual({ none: expect.stringContaining('not both created (400, 201)') });
  });

  it.each<{ title: string; back: () => ReadBack; outcome: Outcome; mentions?: string[]; code?: string }>([
    {
      title: 'passes when neither name is at the ids between nor on the page, saying how it looked',
      back: () => ({ refused: refused(), before: created(12n), after: created(15n), between: [missing(13n), missing(14n)], page: seen(200, pets(3)) }),
      outcome: 'pass',
      mentions: ['without a key got 401', 'neither NewPet was stored', 'getPet of the 2 ids between 12 and 15', '13: 404, 14: 404', 'listPets?limit=100 (3 animals) lists neither name'],
    },
    {
      title: 'passes with ids too far apart to read, by the page alone',
      back: () => ({ refused: refused(), before: created(9007199254740993n), after: created(2n ** 62n), between: [], page: seen(200, pets(100)) }),
      outcome: 'pass',
      mentions: ['too many to read one by one', '(100 animals)'],
    },
    {
      title: 'passes other animals (another client\'s) between the two, by their names',
      back: () => ({ refused: refused(), before: created(12n), after: created(14n), between: [found(13n, 'Rex')], page: seen(200, []) }),
      outcome: 'pass',
    },
    {
      title: 'fails a refused NewPet found between the two created, naming the id and how it was sent',
      back: () => ({ refused: refused(), before: created(12n), after: created(15n), between: [found(13n, NO_KEY), missing(14n)], page: seen(200, []) }),
      outcome: 'fail',
      code: 'refused-create-stored',
      mentions: ['POST /pets without a key got 401', 'yet a refused NewPet was stored', `GET /pets/13 → 200 with "${NO_KEY}", the NewPet sent without a key`],
    },
    {
      title: 'fails a refused NewPet listed on the page, its id anywhere',
      back: () => ({ refused: refused(), before: created(1n), after: created(2n ** 62n), between: [], page: seen(200, [pet(5n), pet(2n ** 61n, 'sold', WRONG_KEY)]) }),
      outcome: 'fail',
      code: 'refused-create-stored',
      mentions: [`GET /pets?limit=100 lists "${WRONG_KEY}", the NewPet sent with a wrong key`],
    },
    {
      title: 'judges only refused createPets: one let in (201) is auth.missing-key\'s, and said',
      back: () => ({ refused: refused(201), before: created(12n), after: created(15n), between: [found(13n, NO_KEY), missing(14n)], page: seen(200, [pet(13n, undefined, NO_KEY)]) }),
      outcome: 'pass',
      mentions: ['without a key: 201, not refused with 401 (auth.missing-key and auth.invalid-key judge it)'],
    },
    {
      title: 'skips when nothing was refused',
      back: () => ({ refused: refused(201).slice(0, 1), before: created(12n), after: created(14n), between: [], page: seen(200, []) }),
      outcome: 'skip',
      mentions: ['no createPet was refused with 401'],
    },
    {
      title: 'skips when it could not be read back at all',
      back: () => ({ refused: refused(), before: seen(429, errorBody(429)), between: [] }),
      outcome: 'skip',
      mentions: ['could not be read back'],
    },
  ])('$title', ({ back, ...c }) => {
    expectJudged(refusedNoEffect.judge(back()), c);
  });
});
