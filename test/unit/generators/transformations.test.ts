// The families of spellings (issue 35): what each makes of the three canonical requests, to the
// request line and the keeping, and that none touches its canonical.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../lib/json.ts';
import { ADDED_HEADERS_FAMILY, BODY_FAMILY, CREDENTIAL_FAMILY, type Family, FAMILIES, METHOD_FAMILY, NEGOTIATION_FAMILY, ORDER_FAMILY, PATH_FAMILY, QUERY_FAMILY, requestLine, type Spelled, spellingsOf, type Variant } from '../../../lib/generators/transformations.ts';

/** Freezes a value and everything it holds, so a variant that writes into its canonical throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const LIST: Spelled = deepFreeze({ operation: 'listPets', method: 'GET', base: ['v1'], path: ['pets'], query: [['limit', '2'], ['status', 'available']], headers: [] });
const GET: Spelled = deepFreeze({ operation: 'getPet', method: 'GET', base: ['v1'], path: ['pets', '7'], query: [], headers: [] });
// A categoryId beyond 2^53, which JSON.parse would round to ...992.
const CREATE: Spelled = deepFreeze({ operation: 'createPet', method: 'POST', base: ['v1'], path: ['pets'], query: [], headers: [], body: '{"name":"Rex","categoryId":9007199254740993}' });
const CANONICALS = [LIST, GET, CREATE];

/** What a message shows of a variant: its name, its request line and what it keeps. */
const lines = (family: Family, canonical: Spelled) => spellingsOf(family, canonical).map((v) => [v.name, requestLine(v.request), v.keeps]);
/** The headers each variant adds, by name. */
const headersOf = (variants: readonly Variant[]) => variants.map((v) => [v.name, v.request.headers] as const);

describe('every family', () => {
  it.each(FAMILIES.map((f) => [f.id, f] as const))('%s: leaves its canonical untouched, names each variant once, respells into fresh objects', (_, family) => {
    for (const canonical of CANONICALS) {
      const before = structuredClone(canonical);
      const variants = spellingsOf(family, canonical);
      expect(canonical).toEqual(before);
      const names = variants.map((v) => v.name);
      expect(new Set(names).size).toBe(names.length);
      for (const v of variants) {
        expect(v.request).not.toBe(canonical);
        expect(v.family).toBe(family.id);
        // A spelling that keeps the meaning sends the same NewPet, every digit of it.
        if (v.keeps === 'meaning' && canonical.body !== undefined) expect(parseJson(v.request.body!), v.name).toEqual(parseJson(canonical.body));
      }
    }
  });

  it('lists the families in a stable order', () => {
    expect(FAMILIES.map((f) => f.id)).toEqual(['path', 'method', 'credential', 'query', 'body', 'negotiation', 'order', 'added-headers']);
  });
});

describe('the path family', () => {
  it('respells every segment, the base path included, and adds segments that lead back to the same path; all keep nothing', () => {
    expect(lines(PATH_FAMILY, GET)).toEqual([
      ["segment 'v1' as 'V1'", 'GET /V1/pets/7', 'nothing'],
      ["segment 'pets' as 'Pets'", 'GET /v1/Pets/7', 'nothing'],
      ['a trailing slash', 'GET /v1/pets/7/', 'nothing'],
      ['an empty segment', 'GET /v1//pets/7', 'nothing'],
      ['a dot segment', 'GET /v1/./pets/7', 'nothing'],
      ["a '..' segment back to the same path", 'GET /v1/x/../pets/7', 'nothing'],
      ["a ';' parameter on the last segment", 'GET /v1/pets/7;x=1', 'nothing'],
      ["'pets' as '%70ets'", 'GET /v1/%70ets/7', 'nothing'],
    ]);
    expect(lines(PATH_FAMILY, LIST).map(([, line]) => line)).toEqual([
      'GET /V1/pets?limit=2&status=available',
      'GET /v1/Pets?limit=2&status=available',
      'GET /v1/pets/?limit=2&status=available',
      'GET /v1//pets?limit=2&status=available',
      'GET /v1/./pets?limit=2&status=available',
      'GET /v1/x/../pets?limit=2&status=available',
      'GET /v1/pets;x=1?limit=2&status=available',
      'GET /v1/%70ets?limit=2&status=available',
    ]);
    expect(spellingsOf(PATH_FAMILY, CREATE).every((v) => v.request.method === 'POST' && v.request.body === CREATE.body)).toBe(true);
  });
});

describe('the method family', () => {
  it('spells a GET as HEAD, with override headers, as OPTIONS and as an unknown method', () => {
    expect(lines(METHOD_FAMILY, GET)).toEqual([
      ['HEAD for GET', 'HEAD /v1/pets/7', 'meaning'],
      ['X-HTTP-Method-Override: POST', 'GET /v1/pets/7', 'meaning'],
      ['X-HTTP-Method: POST', 'GET /v1/pets/7', 'meaning'],
      ['X-Method-Override: POST', 'GET /v1/pets/7', 'meaning'],
      ['OPTIONS for GET', 'OPTIONS /v1/pets/7', 'anything'],
      ["a method no operation has, 'PROPFIND'", 'PROPFIND /v1/pets/7', 'anything'],
    ]);
    expect(headersOf(spellingsOf(METHOD_FAMILY, LIST)).filter(([, h]) => h.length > 0)).toEqual([
      ['X-HTTP-Method-Override: POST', [['X-HTTP-Method-Override', 'POST']]],
      ['X-HTTP-Method: POST', [['X-HTTP-Method', 'POST']]],
      ['X-Method-Override: POST', [['X-Method-Override', 'POST']]],
    ]);
  });

  it('has no variants of a POST', () => {
    expect(spellingsOf(METHOD_FAMILY, CREATE)).toEqual([]);
  });
});

describe('the credential family', () => {
  it("spells the scheme in other cases and with a second space before the key, on every operation, each keeping the meaning", () => {
    for (const canonical of CANONICALS) {
      const variants = spellingsOf(CREDENTIAL_FAMILY, canonical);
      expect(variants.map((v) => [v.name, v.request.scheme, requestLine(v.request), v.keeps])).toEqual([
        ["scheme 'bearer'", 'bearer', requestLine(canonical), 'meaning'],
        ["scheme 'BEARER'", 'BEARER', requestLine(canonical), 'meaning'],
        ["two spaces after 'Bearer'", 'Bearer ', requestLine(canonical), 'meaning'],
      ]);
      expect(variants.every((v) => v.request.headers.length === 0 && v.request.body === canonical.body)).toBe(true);
    }
  });
});

describe('the query family', () => {
  it("repeats each parameter and adds unknown ones (meaning), names parameters with '[]' and in another case (anything)", () => {
    expect(lines(QUERY_FAMILY, LIST)).toEqual([
      ["'limit=2' repeated", 'GET /v1/pets?limit=2&limit=2&status=available', 'meaning'],
      ["'status=available' repeated", 'GET /v1/pets?limit=2&status=available&status=available', 'meaning'],
      ["an unknown parameter 'conformance_unknown=1'", 'GET /v1/pets?limit=2&status=available&conformance_unknown=1', 'meaning'],
      ["an unknown parameter 'conformance_flag' without a value", 'GET /v1/pets?limit=2&status=available&conformance_flag', 'meaning'],
      ["'limit' as 'limit[]'", 'GET /v1/pets?limit[]=2&status=available', 'anything'],
      ["'status' as 'status[]'", 'GET /v1/pets?limit=2&status[]=available', 'anything'],
      ["'limit' as 'Limit'", 'GET /v1/pets?Limit=2&status=available', 'anything'],
      ["'status' as 'Status'", 'GET /v1/pets?limit=2&Status=available', 'anything'],
    ]);
  });

  it('adds no paging parameter the interface leaves unshown, and has no variants of the other operations', () => {
    const names = spellingsOf(QUERY_FAMILY, LIST).flatMap((v) => v.request.query.map(([k]) => k.toLowerCase()));
    for (const paging of ['page', 'offset', 'cursor', 'after', 'page_token']) expect(names).not.toContain(paging);
    expect(spellingsOf(QUERY_FAMILY, GET)).toEqual([]);
    expect(spellingsOf(QUERY_FAMILY, CREATE)).toEqual([]);
  });
});

describe('the body family', () => {
  const deep = `${'['.repeat(200)}${']'.repeat(200)}`;

  it('sends the same NewPet chunked and pretty-printed (meaning), and with members the interface does not describe (anything)', () => {
    const variants = spellingsOf(BODY_FAMILY, CREATE);
    expect(variants.map((v) => [v.name, requestLine(v.request), v.keeps])).toEqual([
      ['chunked transfer', 'POST /v1/pets', 'meaning'],
      ['pretty-printed', 'POST /v1/pets', 'meaning'],
      ["a duplicate 'name' member first", 'POST /v1/pets', 'anything'],
      ["a '__proto__' member", 'POST /v1/pets', 'anything'],
      ["a 'constructor' member", 'POST /v1/pets', 'anything'],
      ['a member nested 200 arrays deep', 'POST /v1/pets', 'anything'],
    ]);
    expect(variants.map((v) => [v.request.body, v.request.chunked])).toEqual([
      [CREATE.body, true],
      ['{\n  "name": "Rex",\n  "categoryId": 9007199254740993\n}', undefined],
      ['{"name":"decoy","name":"Rex","categoryId":9007199254740993}', undefined],
      ['{"__proto__":{"status":"sold"},"name":"Rex","categoryId":9007199254740993}', undefined],
      ['{"constructor":{"prototype":{}},"name":"Rex","categoryId":9007199254740993}', undefined],
      [`{"conformance_deep":${deep},"name":"Rex","categoryId":9007199254740993}`, undefined],
    ]);
  });

  it("keeps every digit of an int64 beyond 2^53 in a body that keeps the meaning", () => {
    const canonical = parseJson(CREATE.body!);
    expect(canonical).toEqual({ name: 'Rex', categoryId: 9_007_199_254_740_993n });
    for (const v of spellingsOf(BODY_FAMILY, CREATE).filter((v) => v.keeps === 'meaning')) expect(parseJson(v.request.body!), v.name).toEqual(canonical);
  });

  it('adds its members to an empty object without a stray comma, and only chunks a body that is not a JSON object', () => {
    const empty: Spelled = deepFreeze({ ...CREATE, body: '{ }' });
    expect(spellingsOf(BODY_FAMILY, empty).map((v) => v.request.body)).toEqual(['{ }', '{}', '{"__proto__":{"status":"sold"} }', '{"constructor":{"prototype":{}} }', `{"conformance_deep":${deep} }`]);
    const list: Spelled = deepFreeze({ ...CREATE, body: '[1]' });
    expect(spellingsOf(BODY_FAMILY, list).map((v) => v.name)).toEqual(['chunked transfer']);
  });

  it('has no variants of the reads', () => {
    expect(spellingsOf(BODY_FAMILY, LIST)).toEqual([]);
    expect(spellingsOf(BODY_FAMILY, GET)).toEqual([]);
  });
});

describe('the negotiation family', () => {
  it("sends Accepts that admit JSON (meaning), one that does not (anything) and an Accept-Encoding, on every operation", () => {
    for (const canonical of CANONICALS) {
      const variants = spellingsOf(NEGOTIATION_FAMILY, canonical);
      expect(variants.map((v) => [v.name, v.request.headers, requestLine(v.request), v.keeps])).toEqual([
        ["a browser's Accept", [['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']], requestLine(canonical), 'meaning'],
        ["curl's Accept: */*", [['Accept', '*/*']], requestLine(canonical), 'meaning'],
        ['Accept: application/json; charset=utf-8', [['Accept', 'application/json; charset=utf-8']], requestLine(canonical), 'meaning'],
        ['Accept: application/*', [['Accept', 'application/*']], requestLine(canonical), 'meaning'],
        ['Accept: text/plain', [['Accept', 'text/plain']], requestLine(canonical), 'anything'],
        ['Accept-Encoding: gzip, deflate, br', [['Accept-Encoding', 'gzip, deflate, br']], requestLine(canonical), 'meaning'],
      ]);
    }
  });

  it('replaces an Accept the canonical has under any case', () => {
    const accepting: Spelled = deepFreeze({ ...GET, headers: [['accept', 'application/json']] });
    expect(spellingsOf(NEGOTIATION_FAMILY, accepting)[1]?.request.headers).toEqual([['Accept', '*/*']]);
  });
});

describe('the order family', () => {
  it('sends the canonical request again, a fresh copy of it, keeping the meaning', () => {
    for (const canonical of CANONICALS) {
      const [again, ...more] = spellingsOf(ORDER_FAMILY, canonical);
      expect(more).toEqual([]);
      expect(again).toMatchObject({ name: 'the same request again, after it was sent with a key', keeps: 'meaning' });
      expect(again?.request).toEqual(canonical);
      expect(again?.request).not.toBe(canonical);
    }
  });
});

describe('the added-headers family', () => {
  it('adds forwarding and URL-override headers to every operation, each keeping the meaning', () => {
    for (const canonical of CANONICALS) {
      const variants = spellingsOf(ADDED_HEADERS_FAMILY, canonical);
      expect(variants.map((v) => requestLine(v.request))).toEqual(variants.map(() => requestLine(canonical)));
      expect(variants.every((v) => v.keeps === 'meaning')).toBe(true);
    }
    expect(headersOf(spellingsOf(ADDED_HEADERS_FAMILY, GET))).toEqual([
      ['X-Forwarded-For: 127.0.0.1', [['X-Forwarded-For', '127.0.0.1']]],
      ['Forwarded: for=127.0.0.1;proto=https', [['Forwarded', 'for=127.0.0.1;proto=https']]],
      ['X-Real-IP: 127.0.0.1', [['X-Real-IP', '127.0.0.1']]],
      ['X-Original-URL: /v1/pets/7', [['X-Original-URL', '/v1/pets/7']]],
      ['X-Rewrite-URL: /v1/pets/7', [['X-Rewrite-URL', '/v1/pets/7']]],
      ['X-Forwarded-Host: localhost', [['X-Forwarded-Host', 'localhost']]],
      ['X-Forwarded-Proto: https', [['X-Forwarded-Proto', 'https']]],
    ]);
  });

  it('replaces a header the canonical already has under another case, rather than sending two', () => {
    const withOwn: Spelled = deepFreeze({ ...GET, headers: [['x-forwarded-proto', 'http'], ['X-Trace', '1']] });
    const proto = spellingsOf(ADDED_HEADERS_FAMILY, withOwn).find((v) => v.name === 'X-Forwarded-Proto: https');
    expect(proto?.request.headers).toEqual([['X-Trace', '1'], ['X-Forwarded-Proto', 'https']]);
  });
});
