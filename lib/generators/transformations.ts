// Families of transformations of a valid request (issue 35): each family spells a canonical
// request otherwise, the way a router, an auth filter, a cache, a limiter or a parser of some stack
// may read differently, and says what the interface keeps of it. Families only generate; the
// invariants (lib/checks/invariants.ts) judge every answer to every spelling. A family is a few
// lines: an id, the operations it applies to, and its variants of one canonical request. Pure.
//
// Not wired into a suite yet. The families are issue 35's list: the path, the method, the
// credential, the query, the body, content negotiation, the order of requests, and headers a client
// or a proxy may add (FAMILIES, in that order).
import { stringifyJson, tryParseJson } from '../json.ts';

/** The operations of the interface a canonical request is one of. */
export type Operation = 'listPets' | 'createPet' | 'getPet';

/** A request as the harness would send it, in parts a transformation can respell. */
export interface Spelled {
  operation: Operation;
  method: string;
  /** The base URL's path, as segments: ['v1']. */
  base: readonly string[];
  /** The operation's path below the base, as segments: ['pets', '7']. */
  path: readonly string[];
  /** A trailing slash after the last segment. */
  trailingSlash?: boolean;
  /** Query parameters in order (a name may repeat). */
  query: readonly (readonly [string, string])[];
  /** Headers the spelling adds, besides the credential's. */
  headers: readonly (readonly [string, string])[];
  body?: string;
  /** The body sent in chunks (Transfer-Encoding: chunked) instead of under Content-Length. */
  chunked?: boolean;
  /** The Authorization scheme as sent before the key (default "Bearer"): "bearer", "Bearer " (two spaces before the key). Sent alone without a key. */
  scheme?: string;
}

/** Which credential a spelling is sent with: the invariants need some of each. */
export type Credential = 'key' | 'none';

/**
 * What the interface keeps of a spelling. `meaning`: the same request (answered as the canonical
 * one, or refused with a 4xx and an Error body). `nothing`: a request the interface does not
 * describe, which a server may also read as the canonical one (answered as it, refused, or
 * redirected). `anything`: a request whose answer the interface leaves open (an unknown method, a
 * duplicate member): any answer but a 5xx, and nothing of the operation's data without a key.
 */
export const KEEPS = ['meaning', 'nothing', 'anything'] as const;
export type Keeps = (typeof KEEPS)[number];

/** One spelling a family makes of a canonical request. */
export interface Variant {
  /** What was done, in words a failure message quotes: "segment 'pets' as 'Pets'". */
  name: string;
  request: Spelled;
  keeps: Keeps;
}

/** A variant with the family that made it. */
export interface Transformed extends Variant {
  family: string;
}

export interface Family {
  id: string;
  title: string;
  /** The operations it has variants of (all when absent). */
  operations?: readonly Operation[];
  variants(canonical: Spelled): Variant[];
}

/** A family's spellings of a canonical request, each named by the family (none for an operation it does not apply to). */
export function spellingsOf(family: Family, canonical: Spelled): Transformed[] {
  if (family.operations && !family.operations.includes(canonical.operation)) return [];
  return family.variants(canonical).map((v) => ({ ...v, family: family.id }));
}

/** The request-target as sent, path and query, written as spelled (a parameter with an empty value bare): "/v1/./pets?limit=2&limit=2". */
export function requestTarget(r: Spelled): string {
  const path = `/${[...r.base, ...r.path].join('/')}${r.trailingSlash ? '/' : ''}`;
  const query = r.query.length === 0 ? '' : `?${r.query.map(([k, v]) => (v === '' ? k : `${k}=${v}`)).join('&')}`;
  return path + query;
}

/** The request line a message quotes: "HEAD /v1/pets/7?limit=2". */
export function requestLine(r: Spelled): string {
  return `${r.method} ${requestTarget(r)}`;
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The canonical request with the header `name` set to `value`, in place of any it had under that name in any case (header names are case-insensitive). */
function withHeader(c: Spelled, name: string, value: string): Spelled {
  const others = c.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
  return { ...c, headers: [...others, [name, value]] };
}

/** A character's percent-encoding, with the upper-case hex digits RFC 3986 §2.1 recommends. */
const percentEncoded = (ch: string) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * Each segment of the whole path in another case, the base path's included; a trailing slash; an
 * empty segment (a doubled slash: "/v1//pets"), a dot and a dot-dot segment; a `;` parameter; an
 * unreserved character percent-encoded. RFC 3986 (§2.3, §6.2.2) says a URI normaliser SHOULD read
 * "%70ets" as "pets" and remove dot segments, but many routers match the raw path: none of these is
 * a request the interface describes, so each keeps nothing.
 */
export const PATH_FAMILY: Family = {
  id: 'path',
  title: 'the path spelled otherwise',
  variants(c) {
    const all = [...c.base, ...c.path];
    const out: Variant[] = [];
    all.forEach((segment, i) => {
      if (!/[a-z]/.test(segment)) return;
      const respelled = upperFirst(segment);
      const inBase = i < c.base.length;
      const base = inBase ? c.base.map((s, j) => (j === i ? respelled : s)) : c.base;
      const path = inBase ? c.path : c.path.map((s, j) => (j === i - c.base.length ? respelled : s));
      out.push({ name: `segment '${segment}' as '${respelled}'`, request: { ...c, base, path }, keeps: 'nothing' });
    });
    out.push({ name: 'a trailing slash', request: { ...c, trailingSlash: true }, keeps: 'nothing' });
    out.push({ name: 'an empty segment', request: { ...c, base: [...c.base, ''] }, keeps: 'nothing' });
    out.push({ name: 'a dot segment', request: { ...c, base: [...c.base, '.'] }, keeps: 'nothing' });
    out.push({ name: "a '..' segment back to the same path", request: { ...c, base: [...c.base, 'x', '..'] }, keeps: 'nothing' });
    const last = c.path.length - 1;
    out.push({ name: "a ';' parameter on the last segment", request: { ...c, path: c.path.map((s, j) => (j === last ? `${s};x=1` : s)) }, keeps: 'nothing' });
    const first = c.path.findIndex((s) => /^[a-z]/i.test(s));
    if (first >= 0) {
      const segment = c.path[first]!;
      const encoded = `${percentEncoded(segment.charAt(0))}${segment.slice(1)}`;
      out.push({ name: `'${segment}' as '${encoded}'`, request: { ...c, path: c.path.map((s, j) => (j === first ? encoded : s)) }, keeps: 'nothing' });
    }
    return out;
  },
};

/**
 * On a GET: HEAD (RFC 9110 §9.3.2: GET's answer without its body); method-override headers, which
 * the interface does not name, so a GET carrying one is still a GET; OPTIONS and a method no
 * registry knows, whose answer the interface leaves open (a 404, a 405, a 501, an Allow list).
 */
export const METHOD_FAMILY: Family = {
  id: 'method',
  title: 'the method spelled otherwise',
  operations: ['listPets', 'getPet'],
  variants(c) {
    const overrides = ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override'];
    return [
      { name: 'HEAD for GET', request: { ...c, method: 'HEAD' }, keeps: 'meaning' },
      ...overrides.map((header) => ({ name: `${header}: POST`, request: withHeader(c, header, 'POST'), keeps: 'meaning' as const })),
      { name: 'OPTIONS for GET', request: { ...c, method: 'OPTIONS' }, keeps: 'anything' },
      // A method no route has but HTTP parsers know: servers on node (llhttp) answer a token they do
      // not know with a bare 400 before any handler, so a made-up one would meet only the parser.
      { name: "a method no operation has, 'PROPFIND'", request: { ...c, method: 'PROPFIND' }, keeps: 'anything' },
    ];
  },
};

/**
 * The Authorization scheme spelled otherwise: auth-scheme is case-insensitive (RFC 9110 §11.1) and
 * `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]` (§11.4) allows more than one space
 * before the key. The client writes `${scheme} ${key}`, so the scheme "Bearer " sends two.
 */
export const CREDENTIAL_FAMILY: Family = {
  id: 'credential',
  title: 'the credential spelled otherwise',
  variants(c) {
    return [
      { name: "scheme 'bearer'", request: { ...c, scheme: 'bearer' }, keeps: 'meaning' },
      { name: "scheme 'BEARER'", request: { ...c, scheme: 'BEARER' }, keeps: 'meaning' },
      { name: "two spaces after 'Bearer'", request: { ...c, scheme: 'Bearer ' }, keeps: 'meaning' },
    ];
  },
};

/**
 * listPets's query spelled otherwise. A parameter repeated with its value, an unknown parameter and
 * one without a value ask the same thing: a server ignores them or refuses them with a 400 (meaning).
 * The unknown names are ones no server pages with: paging parameters other than limit are "not
 * shown", so a `page` or `offset` may exist and mean something. A parameter named with `[]` or in
 * another case is another parameter, which a server may ignore (another page size, no filter) or
 * read as the one named (anything).
 */
export const QUERY_FAMILY: Family = {
  id: 'query',
  title: 'the query spelled otherwise',
  operations: ['listPets'],
  variants(c) {
    const repeated = (i: number): Spelled => ({ ...c, query: c.query.flatMap((p, j) => (j === i ? [p, p] : [p])) });
    const renamed = (i: number, name: string): Spelled => ({ ...c, query: c.query.map((p, j) => (j === i ? ([name, p[1]] as const) : p)) });
    const added = (name: string, value: string): Spelled => ({ ...c, query: [...c.query, [name, value]] });
    return [
      ...c.query.map(([k, v], i) => ({ name: `'${k}=${v}' repeated`, request: repeated(i), keeps: 'meaning' as const })),
      { name: "an unknown parameter 'conformance_unknown=1'", request: added('conformance_unknown', '1'), keeps: 'meaning' },
      { name: "an unknown parameter 'conformance_flag' without a value", request: added('conformance_flag', ''), keeps: 'meaning' },
      ...c.query.map(([k], i) => ({ name: `'${k}' as '${k}[]'`, request: renamed(i, `${k}[]`), keeps: 'anything' as const })),
      ...c.query.map(([k], i) => ({ name: `'${k}' as '${upperFirst(k)}'`, request: renamed(i, upperFirst(k)), keeps: 'anything' as const })),
    ];
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON object's text with `members` written before its own, the rest spelled as it was. */
function withMembersFirst(body: string, members: string): string {
  const inner = body.trim().slice(1);
  return inner.trimStart().startsWith('}') ? `{${members}${inner}` : `{${members},${inner}`;
}

/** How deep the nested member goes: past some parsers' nesting limit (serde_json's is 128), whose refusal must be a 4xx, not a 5xx. */
const DEPTH = 200;

/**
 * createPet's body spelled otherwise. Chunked or pretty-printed, it is the same NewPet (meaning);
 * the pretty print goes through the lossless reader and writer, so an int64 beyond 2^53 keeps its
 * digits. A duplicate member (RFC 8259 §4 leaves which one counts to the parser), members named
 * after a JavaScript object's internals, and a member nested deep are bodies the interface does not
 * describe: a server may take them, ignore what it does not know, or refuse them (anything).
 */
export const BODY_FAMILY: Family = {
  id: 'body',
  title: 'the body spelled otherwise',
  operations: ['createPet'],
  variants(c) {
    if (c.body === undefined) return [];
    const chunked: Variant = { name: 'chunked transfer', request: { ...c, chunked: true }, keeps: 'meaning' };
    const parsed = tryParseJson(c.body);
    if (!parsed.ok || !isObject(parsed.value)) return [chunked];
    const body = c.body;
    const prefixed = (name: string, members: string): Variant => ({ name, request: { ...c, body: withMembersFirst(body, members) }, keeps: 'anything' });
    const out: Variant[] = [chunked, { name: 'pretty-printed', request: { ...c, body: stringifyJson(parsed.value, 2) }, keeps: 'meaning' }];
    if ('name' in parsed.value) out.push(prefixed("a duplicate 'name' member first", '"name":"decoy"'));
    out.push(prefixed("a '__proto__' member", '"__proto__":{"status":"sold"}'));
    out.push(prefixed("a 'constructor' member", '"constructor":{"prototype":{}}'));
    out.push(prefixed(`a member nested ${DEPTH} arrays deep`, `"conformance_deep":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`));
    return out;
  },
};

/**
 * Accept and Accept-Encoding as clients send them. The client sends `accept: application/json` by
 * default; a variant's Accept replaces it. Every Accept here but text/plain admits JSON, so the
 * answer is the canonical one (meaning); with text/plain alone a server may answer JSON anyway or
 * 406 (RFC 9110 §12.5.1: anything). An Accept-Encoding the server may use or ignore changes only
 * the bytes on the wire, which the client decodes.
 */
export const NEGOTIATION_FAMILY: Family = {
  id: 'negotiation',
  title: 'content negotiation as clients spell it',
  variants(c) {
    const accept = (name: string, value: string, keeps: Keeps): Variant => ({ name, request: withHeader(c, 'Accept', value), keeps });
    return [
      accept("a browser's Accept", 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'meaning'),
      accept("curl's Accept: */*", '*/*', 'meaning'),
      accept('Accept: application/json; charset=utf-8', 'application/json; charset=utf-8', 'meaning'),
      accept('Accept: application/*', 'application/*', 'meaning'),
      accept('Accept: text/plain', 'text/plain', 'anything'),
      { name: 'Accept-Encoding: gzip, deflate, br', request: withHeader(c, 'Accept-Encoding', 'gzip, deflate, br'), keeps: 'meaning' },
    ];
  },
};

/**
 * The canonical request again. The relations suite (not wired yet) is to send the canonical request
 * with a key right before each spelling, so this one, sent without a key, catches a cache that
 * serves the keyed answer to a request without one.
 */
export const ORDER_FAMILY: Family = {
  id: 'order',
  title: 'the same request in another order',
  variants: (c) => [{ name: 'the same request again, after it was sent with a key', request: { ...c }, keeps: 'meaning' }],
};

/** Headers a client or a proxy may add that must change nothing: forwarding and URL-override headers. */
export const ADDED_HEADERS_FAMILY: Family = {
  id: 'added-headers',
  title: 'headers that must change nothing',
  variants(c) {
    const ownPath = `/${[...c.base, ...c.path].join('/')}`;
    const added: [string, string][] = [
      ['X-Forwarded-For', '127.0.0.1'],
      ['Forwarded', 'for=127.0.0.1;proto=https'],
      ['X-Real-IP', '127.0.0.1'],
      ['X-Original-URL', ownPath],
      ['X-Rewrite-URL', ownPath],
      ['X-Forwarded-Host', 'localhost'],
      ['X-Forwarded-Proto', 'https'],
    ];
    return added.map(([name, value]) => ({ name: `${name}: ${value}`, request: withHeader(c, name, value), keeps: 'meaning' as const }));
  },
};

export const FAMILIES: readonly Family[] = [PATH_FAMILY, METHOD_FAMILY, CREDENTIAL_FAMILY, QUERY_FAMILY, BODY_FAMILY, NEGOTIATION_FAMILY, ORDER_FAMILY, ADDED_HEADERS_FAMILY];
