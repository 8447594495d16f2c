// lib/checks/auth-carriers.ts: one way in. A key by any other carrier, the server's cookies sent back
// alone, and tokens named like object members each get 401 with an Error body.
import { describe, expect, it } from 'vitest';
import { AUTH_CARRIER_CHECKS, cookieNotCredential, objectMemberKey, otherCarrier, parseSetCookie, type WayCase } from '../../../lib/checks/auth-carriers.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import { COOKIE_CARRIERS, carrierName, familyOf, FORM_BODY_CARRIERS, HEADER_CARRIERS, JSON_BODY_CARRIERS, QUERY_CARRIERS, SCHEME_CARRIERS } from '../../../lib/generators/key-carriers.ts';
import { OBJECT_MEMBER_KEYS, objectMemberKeys } from '../../../lib/generators/object-member-keys.ts';
import { errorBody, expectFinding, seen } from './_seen.ts';

const refused = (): Seen => seen(401, errorBody(401));
const served = (): Seen => seen(200, []);
const way = (carriers: string[], s: Seen, family = 'header', operation = 'listPets'): WayCase => ({ carriers, family, operation, seen: s });

function expectFailure(finding: Finding, code: string, mentions: string[] = []): void {
  expectFinding(finding, 'fail', mentions);
  expect(finding).toMatchObject({ outcome: 'fail', code });
}

describe('auth.other-carrier', () => {
  it('passes when every request is refused with 401 and an Error body, counting the carriers', () => {
    const finding = otherCarrier.judge([way(['Authorization: Token <key>'], refused(), 'scheme'), way(['X-API-Key header', 'apikey header'], refused())]);
    expectFinding(finding, 'pass', ['3 ways of carrying the key refused on listPets, in 2 requests']);
  });

  it.each([
    ['scheme', 'Authorization: Basic base64(<key>:)', 'the key as "Authorization: Basic base64(<key>:)" was accepted on listPets (200)'],
    ['header', 'X-API-Key header', 'the key in the X-API-Key header was accepted on listPets (200)'],
    ['query', 'apikey query parameter', 'the key in the apikey query parameter was accepted on listPets (200)'],
    ['cookie', 'token cookie', 'the key in the token cookie was accepted on listPets (200)'],
  ])('fails with %s-key-accepted when a carrier is served, naming it', (family, name, message) => {
    expectFailure(otherCarrier.judge([way([name], served(), family)]), `${family}-key-accepted`, [message]);
  });

  it('names the body carrier and the operation', () => {
    const finding = otherCarrier.judge([way(['access_token field of a JSON body'], seen(201, { id: 1, name: 'x', categoryId: 1 }), 'body', 'createPet')]);
    expectFailure(finding, 'body-key-accepted', ['the key in the access_token field of a JSON body was accepted on createPet (201)']);
  });

  it('takes a body parser\'s 400 for a form body (no JSON) before authentication, never for a JSON body', () => {
    const form: WayCase = { ...way(['access_token field of a form body'], seen(400, errorBody(400)), 'body', 'createPet'), unreadableBody: true };
    expectFinding(otherCarrier.judge([form]), 'pass', ['a form body got 400 from a body parser before authentication']);
    expectFailure(otherCarrier.judge([way(['access_token field of a JSON body'], seen(400, errorBody(400)), 'body', 'createPet')]), 'not-401', ['got 400 on createPet, not 401']);
    expectFailure(otherCarrier.judge([{ ...form, seen: seen(201, { id: 1, name: 'x', categoryId: 1 }) }]), 'body-key-accepted');
  });

  it('fails with not-401 for another refusal (403), naming the status', () => {
    expectFailure(otherCarrier.judge([way(['X-API-Key header'], seen(403, errorBody(403)))]), 'not-401', ['the key in the X-API-Key header got 403 on listPets, not 401']);
  });

  it('passes a 401 without an Error body: the body is errors.error-body\'s, judged once over the run', () => {
    const finding = otherCarrier.judge([way(['token cookie'], seen(401, ''), 'cookie')]);
    expect(finding.outcome).toBe('pass');
  });

  it('a family sent at once and served, then its carriers alone: the one served decides, by name', () => {
    const finding = otherCarrier.judge([
      way(['X-API-Key header', 'Api-Key header', 'apikey header'], served()),
      way(['X-API-Key header'], refused()),
      way(['Api-Key header'], served()),
    ]);
    expectFailure(finding, 'header-key-accepted', ['the key in the Api-Key header was accepted on listPets (200)']);
  });

  it('a family sent at once and not refused, each carrier alone refused: legal (a 400 for several credentials), said in the pass', () => {
    const finding = otherCarrier.judge([way(['X-API-Key header', 'Api-Key header'], seen(400, errorBody(400))), way(['X-API-Key header'], refused()), way(['Api-Key header'], refused())]);
    expectFinding(finding, 'pass', ['all 2 at once got 400, each alone 401']);
  });

  it('a family sent at once and served, its carriers never sent alone: fails naming them all', () => {
    const finding = otherCarrier.judge([way(['X-API-Key header', 'Api-Key header'], served())]);
    expectFailure(finding, 'header-key-accepted', ['the key in 2 carriers at once (X-API-Key header, Api-Key header) was accepted on listPets (200)']);
  });

  it('skips when nothing was sent', () => {
    expectFinding(otherCarrier.judge([]), 'skip');
  });
});

describe('the carriers tried', () => {
  const all = [...SCHEME_CARRIERS, ...HEADER_CARRIERS, ...QUERY_CARRIERS, ...COOKIE_CARRIERS, ...JSON_BODY_CARRIERS, ...FORM_BODY_CARRIERS];

  it('have distinct names that never hold a key, and one family per batch', () => {
    const names = all.map(carrierName);
    expect(new Set(names).size).toBe(names.length);
    for (const batch of [HEADER_CARRIERS, QUERY_CARRIERS, COOKIE_CARRIERS, JSON_BODY_CARRIERS, FORM_BODY_CARRIERS]) expect(new Set(batch.map(familyOf)).size).toBe(1);
    expect(SCHEME_CARRIERS.every((c) => familyOf(c) === 'scheme')).toBe(true);
  });

  it('leave the ones other checks send to them: Bearer, raw Basic, a bare key, api_key/access_token/key in the query', () => {
    expect(SCHEME_CARRIERS.map((c) => c.prefix)).not.toContain('Bearer ');
    expect(SCHEME_CARRIERS.filter((c) => c.prefix === 'Basic ').every((c) => c.encoding !== undefined && c.encoding !== 'raw')).toBe(true);
    for (const name of ['api_key', 'access_token', 'key']) expect(QUERY_CARRIERS.map((c) => c.name)).not.toContain(name);
  });
});

describe('parseSetCookie', () => {
  it('reads each cookie of a joined Set-Cookie, keeping the comma of an Expires inside', () => {
    const header = 'sid=abc123; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly, lb=instance-1; Path=/, theme=dark';
    expect(parseSetCookie(header)).toEqual([
      { name: 'sid', value: 'abc123' },
      { name: 'lb', value: 'instance-1' },
      { name: 'theme', value: 'dark' },
    ]);
  });

  it('reads none from nothing, and leaves deletions (empty values) out', () => {
    expect(parseSetCookie(undefined)).toEqual([]);
    expect(parseSetCookie('')).toEqual([]);
    expect(parseSetCookie('sid=; Max-Age=0; Path=/')).toEqual([]);
  });
});

describe('auth.cookie-not-credential', () => {
  const back = (names: string[], s: Seen) => way(names, s, 'set-cookie');

  it('skips, saying so, when the server set no cookie', () => {
    expectFinding(cookieNotCredential.judge({ setOn: 'listPets', cookies: [], sent: [] }), 'skip', ['set no cookie on an authenticated answer to listPets']);
  });

  it('passes when the cookies sent back alone get 401: an affinity cookie that authenticates nothing is legal', () => {
    expectFinding(cookieNotCredential.judge({ setOn: 'listPets', cookies: ['lb'], sent: [back(['lb'], refused())] }), 'pass', ['the cookie lb set on an authenticated answer to listPets', 'got 401']);
  });

  it('fails with set-cookie-accepted when a session cookie alone is served, naming it', () => {
    const finding = cookieNotCredential.judge({ setOn: 'listPets', cookies: ['lb', 'sid'], sent: [back(['lb', 'sid'], served()), back(['lb'], refused()), back(['sid'], served())] });
    expectFailure(finding, 'set-cookie-accepted', ['the cookie sid set on an authenticated answer, sent back without Authorization, was accepted on listPets (200)']);
  });

  it('fails with not-401 for another status', () => {
    expectFailure(cookieNotCredential.judge({ setOn: 'listPets', cookies: ['sid'], sent: [back(['sid'], seen(403, errorBody(403)))] }), 'not-401', ['got 403']);
  });
});

describe('auth.object-member-key', () => {
  const member = (token: string, s: Seen, language = 'JavaScript') => ({ token, language, operation: 'listPets', seen: s });

  it('passes when every token is refused', () => {
    expectFinding(objectMemberKey.judge([member('constructor', refused()), member('__class__', refused(), 'Python')]), 'pass', ['2 tokens']);
  });

  it('fails with member-key-accepted when a token is served, naming it and its language', () => {
    const finding = objectMemberKey.judge([member('__proto__', refused()), member('constructor', served())]);
    expectFailure(finding, 'member-key-accepted', ['"Bearer constructor" (an object member in JavaScript) was accepted on listPets (200)']);
  });

  it('fails with not-401 on a 500 (the lookup crashed)', () => {
    expectFailure(objectMemberKey.judge([member('toString', seen(500, errorBody(500)))]), 'not-401', ['got 500']);
  });

  it('skips when nothing was sent', () => {
    expectFinding(objectMemberKey.judge([]), 'skip');
  });

  it('tries the members of JavaScript, Python, Ruby and Java objects, but never a configured key', () => {
    expect(new Set(OBJECT_MEMBER_KEYS.map((k) => k.language))).toEqual(new Set(['JavaScript', 'Python', 'Ruby', 'Java']));
    expect(OBJECT_MEMBER_KEYS.map((k) => k.token)).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__', '__class__', '__dict__', 'get', 'keys', 'class', 'to_s', 'hashCode']));
    expect(objectMemberKeys(['constructor']).map((k) => k.token)).not.toContain('constructor');
  });
});

describe('AUTH_CARRIER_CHECKS', () => {
  it('are must checks of the Authentication clause in the auth suite, explained by auth.missing-key', () => {
    for (const c of AUTH_CARRIER_CHECKS) {
      expect(c).toMatchObject({ clause: 'Authentication', suite: 'auth', severity: 'must', explainedBy: expect.arrayContaining(['auth.missing-key']) });
    }
    // A key in a body validated before authentication gets that body's 400: auth.before-validation's failure.
    expect(otherCarrier.explainedBy).toEqual(['auth.missing-key', 'auth.before-validation']);
  });
});
