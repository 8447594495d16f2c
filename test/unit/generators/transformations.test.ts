// The families of spellings (issue 35): what each makes of the three canonical requests, to the
// request line and the keeping, and that none touches its canonical.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../lib/json.ts';
import { NewPet } from '../../../lib/models.ts';
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
const GET: Spelled = deepFreeze({ operation: 'getPet', method: 'GET', base: ['v1'], path: ['pets', '7'], parameters: [1], query: [], headers: [] });
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
        // A spelling that keeps the message or the meaning sends the same NewPet, every digit of it.
        if ((v.keeps === 'meaning' || v.keeps === 'message') && canonical.body !== undefined) expect(parseJson(v.request.body!), v.name).toEqual(parseJson(canonical.body));
      }
    }
  });

  it('lists the families in a stable order', () => {
    expect(FAMILIES.map((f) => f.id)).toEqual(['path', 'method', 'credential', 'query', 'body', 'negotiation', 'order', 'added-headers']);
  });
});

describe('the path family', () => {
  it('respells every segment, the base path included, and adds segments that lead back to the same path; a path parameter\'s value percent-encoded is the same message, the rest keep nothing', () => {
    expect(lines(PATH_FAMILY, GET)).toEqual([
      ["'7' as '%37' (a path parameter's value)", 'GET /v1/pets/%37', 'message'],
      ["segment 'v1' as 'V1'", 'GET /V1/pets/7', 'nothing'],
      ["segment 'pets' as 'Pets'", 'GET /v1/Pets/7', 'nothing'],
      ["'v1' as '%761'", 'GET /%761/pets/7', 'nothing'],
      ["'pets' as '%70ets'", 'GET /v1/%70ets/7', 'nothing'],
      ['a trailing slash', 'GET /v1/pets/7/', 'nothing'],
      ['an empty segment', 'GET /v1//pets/7', 'nothing'],
      ['a dot segment', 'GET /v1/./pets/7', 'nothing'],
      ["a '..' segment back to the same path", 'GET /v1/x/../pets/7', 'nothing'],
      ["a ';' parameter on the last segment", 'GET /v1/pets/7;x=1', 'nothing'],
    ]);
    expect(lines(PATH_FAMILY, LIST).map(([, line]) => line)).toEqual([
      'GET /V1/pets?limit=2&status=available',
      'GET /v1/Pets?limit=2&status=available',
      'GET /%761/pets?limit=2&status=available',
      'GET /v1/%70ets?limit=2&status=available',
      'GET /v1/pets/?limit=2&status=available',
      'GET /v1//pets?limit=2&status=available',
      'GET /v1/./pets?limit=2&status=available',
      'GET /v1/x/../pets?limit=2&status=available',
      'GET /v1/pets;x=1?limit=2&status=available',
    ]);
    expect(spellingsOf(PATH_FAMILY, CREATE).every((v) => v.request.method === 'POST' && v.request.body === CREATE.body)).toBe(true);
  });

  it('derives its spellings from every segment: a longer base path has more', () => {
    const deeper: Spelled = deepFreeze({ ...GET, base: ['api', 'v1'] });
    expect(spellingsOf(PATH_FAMILY, deeper).map((v) => v.name)).toEqual(expect.arrayContaining(["segment 'api' as 'Api'", "'api' as '%61pi'", "segment 'v1' as 'V1'"]));
    expect(spellingsOf(PATH_FAMILY, deeper)).toHaveLength(spellingsOf(PATH_FAMILY, GET).length + 2);
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
  it("spells the scheme in other cases and the field name in capitals (the same message), and with a second space before the key (the same meaning), on every operation", () => {
    for (const canonical of CANONICALS) {
      const variants = spellingsOf(CREDENTIAL_FAMILY, canonical);
      expect(variants.map((v) => [v.name, v.request.scheme, v.request.headerNames, requestLine(v.request), v.keeps])).toEqual([
        ["scheme 'bearer'", 'bearer', undefined, requestLine(canonical), 'message'],
        ["scheme 'BEARER'", 'BEARER', undefined, requestLine(canonical), 'message'],
        ["field name 'AUTHORIZATION'", undefined, { authorization: 'AUTHORIZATION' }, requestLine(canonical), 'message'],
        ["two spaces after 'Bearer'", 'Bearer ', undefined, requestLine(canonical), 'meaning'],
      ]);
      expect(variants.every((v) => v.request.headers.length === 0 && v.request.body === canonical.body)).toBe(true);
    }
  });
});

describe('the query family', () => {
  it("from listPets' own parameters: reordered and percent-encoded (the same message); repeated and unknown ones added (meaning); without a value, named with '[]' and in another case (anything)", () => {
    expect(lines(QUERY_FAMILY, LIST)).toEqual([
      ['the parameters in reverse order', 'GET /v1/pets?status=available&limit=2', 'message'],
      ["'limit=2' as 'limit=%32'", 'GET /v1/pets?limit=%32&status=available', 'message'],
      ["'status=available' as 'status=%61vailable'", 'GET /v1/pets?limit=2&status=%61vailable', 'message'],
      ["'limit=2' repeated", 'GET /v1/pets?limit=2&limit=2&status=available', 'meaning'],
      ["'status=available' repeated", 'GET /v1/pets?limit=2&status=available&status=available', 'meaning'],
      ["an unknown parameter 'conformance_unknown=1'", 'GET /v1/pets?limit=2&status=available&conformance_unknown=1', 'meaning'],
      ["an unknown parameter 'conformance_flag' without a value", 'GET /v1/pets?limit=2&status=available&conformance_flag', 'meaning'],
      ["'limit' without a value", 'GET /v1/pets?limit&status=available', 'anything'],
      ["'status' without a value", 'GET /v1/pets?limit=2&status', 'anything'],
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
  const variants = spellingsOf(BODY_FAMILY, CREATE);
  const byName = (name: string) => variants.find((v) => v.name === name)!;

  it('sends the same NewPet as the same message: chunked, another Content-Type spelling, the field name in capitals, members reordered, pretty-printed', () => {
    expect(variants.filter((v) => v.keeps === 'message').map((v) => [v.name, v.request.chunked, v.request.headers, v.request.headerNames])).toEqual([
      ['chunked transfer', true, [], undefined],
      ['Content-Type: application/json; charset=utf-8', undefined, [['Content-Type', 'application/json; charset=utf-8']], undefined],
      ["field name 'CONTENT-TYPE'", undefined, [], { 'content-type': 'CONTENT-TYPE' }],
      ['the members in reverse order', undefined, [], undefined],
      ['pretty-printed', undefined, [], undefined],
      ['Content-Type: Application/JSON', undefined, [['Content-Type', 'Application/JSON']], undefined],
      ['Content-Type: application/json;charset=UTF-8', undefined, [['Content-Type', 'application/json;charset=UTF-8']], undefined],
    ]);
    expect(byName('the members in reverse order').request.body).toBe('{"categoryId":9007199254740993,"name":"Rex"}');
    expect(byName('pretty-printed').request.body).toBe('{\n  "name": "Rex",\n  "categoryId": 9007199254740993\n}');
  });

  it("keeps every digit of an int64 beyond 2^53 in a body that is the same message", () => {
    const canonical = parseJson(CREATE.body!);
    expect(canonical).toEqual({ name: 'Rex', categoryId: 9_007_199_254_740_993n });
    for (const v of variants.filter((v) => v.keeps === 'message')) expect(parseJson(v.request.body!), v.name).toEqual(canonical);
  });

  it("derives the rest from NewPet's members: each as each JSON type its model refuses, each twice with another type in both orders, carried by an object's internals", () => {
    const members = Object.keys(NewPet.shape);
    expect(members).toEqual(['name', 'categoryId', 'status']);
    const typed = variants.filter((v) => / as (a |an |null)/.test(v.name)).map((v) => v.name);
    expect(typed).toEqual([
      "'name' as a number (12)", "'name' as a boolean (true)", "'name' as null", "'name' as an array ([\"Rex\"])", "'name' as an object ({})",
      "'categoryId' as a string (\"12\")", "'categoryId' as a number (1.5)", "'categoryId' as a boolean (true)", "'categoryId' as null", "'categoryId' as an array ([9007199254740993])", "'categoryId' as an object ({})",
      "'status' as a string (\"12\")", "'status' as a number (12)", "'status' as a boolean (true)", "'status' as null", "'status' as an array ([1])", "'status' as an object ({})",
    ]);
    // A member the body leaves out (status) is added; one it has is replaced in place.
    expect(byName("'status' as null").request.body).toBe('{"name":"Rex","categoryId":9007199254740993,"status":null}');
    expect(byName("'categoryId' as a string (\"12\")").request.body).toBe('{"name":"Rex","categoryId":"12"}');
    expect(byName("'categoryId' twice, \"12\" first").request.body).toBe('{"categoryId":"12","name":"Rex","categoryId":9007199254740993}');
    expect(byName("'categoryId' twice, \"12\" last").request.body).toBe('{"name":"Rex","categoryId":9007199254740993,"categoryId":"12"}');
    expect(byName("'name' twice, 12 first").request.body).toBe('{"name":12,"name":"Rex","categoryId":9007199254740993}');
    expect(byName("a '__proto__' member carrying 'categoryId'").request.body).toBe('{"__proto__":{"categoryId":9007199254740993},"name":"Rex","categoryId":9007199254740993}');
    for (const internal of ['__proto__', 'constructor', 'prototype']) for (const m of ['name', 'categoryId']) expect(byName(`a '${internal}' member carrying '${m}'`).keeps).toBe('anything');
    expect(variants.filter((v) => v.keeps !== 'message').every((v) => v.keeps === 'anything')).toBe(true);
  });

  it('climbs the nesting ladder (10, 1,000, 10,000 arrays deep) and the size ladder (1 KiB, 60 KiB, 1 MiB)', () => {
    for (const depth of [10, 1_000, 10_000]) expect(byName(`a member nested ${depth.toLocaleString('en-US')} arrays deep`).request.body).toContain(`"conformance_deep":${'['.repeat(depth)}]`);
    for (const [name, bytes] of [['1 KiB', 1024], ['60 KiB', 61_440], ['1 MiB', 1_048_576]] as const) {
      const body = byName(`the body padded to ${name}`).request.body!;
      expect(Buffer.byteLength(body)).toBe(bytes);
      expect(parseJson(body)).toMatchObject({ name: 'Rex', categoryId: 9_007_199_254_740_993n });
    }
  });

  it('writes an empty object without a stray comma, and only chunks and relabels a body that is not a JSON object', () => {
    const empty: Spelled = deepFreeze({ ...CREATE, body: '{ }' });
    const bodies = spellingsOf(BODY_FAMILY, empty).map((v) => v.request.body!);
    expect(bodies).toContain('{}');
    // A member the body leaves out is added as each type its model refuses.
    expect(bodies).toContain('{"name":12}');
    for (const body of bodies) expect(() => JSON.parse(body.replace(/"conformance_deep":\[+\]+/, '"d":0'))).not.toThrow();
    const list: Spelled = deepFreeze({ ...CREATE, body: '[1]' });
    expect(spellingsOf(BODY_FAMILY, list).map((v) => v.name)).toEqual(['chunked transfer', 'Content-Type: application/json; charset=utf-8', "field name 'CONTENT-TYPE'"]);
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
        ['Accept: APPLICATION/JSON', [['Accept', 'APPLICATION/JSON']], requestLine(canonical), 'message'],
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
    expect(spellingsOf(NEGOTIATION_FAMILY, accepting)[2]?.request.headers).toEqual([['Accept', '*/*']]);
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
