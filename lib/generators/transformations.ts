// Families of transformations of a valid request (issues 35 and 42): each family spells a canonical
// request otherwise, the way a router, an auth filter, a cache, a limiter or a parser of some stack
// may read differently, and says what the interface keeps of it. Families only generate; the
// invariants (lib/checks/invariants.ts) judge every answer to every spelling. A family is a few
// lines: an id, the operations it applies to, and its variants of one canonical request. Where
// the interface has a model, the instances come from it (the body family from NewPet's members,
// the query family from listPets' parameters, the path family from every segment), so adding a
// member adds its spellings. Pure.
//
// The families: the path, the method, the credential, the query, the body, content negotiation,
// the order of requests, and headers a client or a proxy may add (FAMILIES, in that order).
import { NewPet } from '../models.ts';
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
  /** Which segments of `path` are a path parameter's value (getPet's petId: [1]); the others are the route's own words. */
  parameters?: readonly number[];
  /** A trailing slash after the last segment. */
  trailingSlash?: boolean;
  /** Query parameters in order (a name may repeat). */
  query: readonly (readonly [string, string])[];
  /** Headers the spelling adds, besides the credential's. */
  headers: readonly (readonly [string, string])[];
  /** Header field names as sent, by their lower-case name ({ authorization: 'AUTHORIZATION' }): the credential's and the client's own included. */
  headerNames?: Readonly<Record<string, string>>;
  body?: string;
  /** The body sent in chunks (Transfer-Encoding: chunked) instead of under Content-Length. */
  chunked?: boolean;
  /** The Authorization scheme as sent before the key (default "Bearer"): "bearer", "Bearer " (two spaces before the key). Sent alone without a key. */
  scheme?: string;
}

/** Which credential a spelling is sent with: the invariants need some of each. */
export type Credential = 'key' | 'none';

/**
 * What the interface keeps of a spelling, from the strictest:
 * - `message`: the same message by the standards the interface rests on (HTTP, URI, JSON): a body
 *   chunked or under Content-Length, a header field name or the auth scheme in another case, a
 *   media type's case and a charset parameter JSON defines none of, a percent-encoded unreserved
 *   character where every reader decodes it (a value), the order of named parameters or of a JSON
 *   object's members. Answered as the canonical request; refusing it is a failure.
 * - `meaning`: the same request, spelled in a way a server may refuse: answered as the canonical
 *   one, or refused with a 4xx and an Error body.
 * - `nothing`: a request the interface does not describe, which a server may also read as the
 *   canonical one: answered as it, refused, or redirected.
 * - `anything`: a request whose answer the interface leaves open (an unknown method, a duplicate
 *   member, a member of another type): any answer but a 5xx, a listed status with its listed body,
 *   and nothing of the operation's data without a key.
 */
export const KEEPS = ['message', 'meaning', 'nothing', 'anything'] as const;
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

/** A text with its first unreserved character (RFC 3986 §2.3) percent-encoded; undefined when it has none. */
function firstUnreservedEncoded(text: string): string | undefined {
  const i = text.search(/[A-Za-z0-9\-._~]/);
  return i < 0 ? undefined : `${text.slice(0, i)}${percentEncoded(text.charAt(i))}${text.slice(i + 1)}`;
}

/**
 * Each segment of the whole path, the base path's included: in another case; with a
 * percent-encoded unreserved character. And a trailing slash; an empty segment (a doubled slash:
 * "/v1//pets"), a dot and a dot-dot segment; a `;` parameter. RFC 9110 §4.2.3 makes "%70ets" and
 * "pets" equivalent but lets any component normalise or not (MAY), and routers match the route's
 * own words on the raw path (Express's does): those keep nothing. A path parameter's value is
 * decoded by every router before the handler reads it, so "%37" for the id 7 is the same message.
 */
export const PATH_FAMILY: Family = {
  id: 'path',
  title: 'the path spelled otherwise',
  variants(c) {
    const all = [...c.base, ...c.path];
    const isParameter = (i: number) => i >= c.base.length && (c.parameters ?? []).includes(i - c.base.length);
    const respelled = (i: number, segment: string): Spelled => {
      const inBase = i < c.base.length;
      const base = inBase ? c.base.map((s, j) => (j === i ? segment : s)) : c.base;
      const path = inBase ? c.path : c.path.map((s, j) => (j === i - c.base.length ? segment : s));
      return { ...c, base, path };
    };
    const out: Variant[] = [];
    all.forEach((segment, i) => {
      if (!/[a-z]/.test(segment)) return;
      out.push({ name: `segment '${segment}' as '${upperFirst(segment)}'`, request: respelled(i, upperFirst(segment)), keeps: 'nothing' });
    });
    all.forEach((segment, i) => {
      const encoded = firstUnreservedEncoded(segment);
      if (encoded === undefined) return;
      out.push({ name: `'${segment}' as '${encoded}'${isParameter(i) ? ' (a path parameter\'s value)' : ''}`, request: respelled(i, encoded), keeps: isParameter(i) ? 'message' : 'nothing' });
    });
    out.push({ name: 'a trailing slash', request: { ...c, trailingSlash: true }, keeps: 'nothing' });
    out.push({ name: 'an empty segment', request: { ...c, base: [...c.base, ''] }, keeps: 'nothing' });
    out.push({ name: 'a dot segment', request: { ...c, base: [...c.base, '.'] }, keeps: 'nothing' });
    out.push({ name: "a '..' segment back to the same path", request: { ...c, base: [...c.base, 'x', '..'] }, keeps: 'nothing' });
    const last = c.path.length - 1;
    out.push({ name: "a ';' parameter on the last segment", request: { ...c, path: c.path.map((s, j) => (j === last ? `${s};x=1` : s)) }, keeps: 'nothing' });
    // The same message first: a small budget sends a family's first spellings.
    return [...out.filter((v) => v.keeps === 'message'), ...out.filter((v) => v.keeps !== 'message')];
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
 * The credential spelled otherwise. The auth-scheme is a case-insensitive token (RFC 9110 §11.1)
 * and a field name is case-insensitive (§5.1): the same message. `credentials = auth-scheme [ 1*SP
 * ( token68 / #auth-param ) ]` (§11.4) allows more than one space before the key, but common
 * bearer parsers split on one space and refuse the rest with a 400: a refusal is legal there. The
 * client writes `${scheme} ${key}`, so the scheme "Bearer " sends two.
 */
export const CREDENTIAL_FAMILY: Family = {
  id: 'credential',
  title: 'the credential spelled otherwise',
  variants(c) {
    return [
      { name: "scheme 'bearer'", request: { ...c, scheme: 'bearer' }, keeps: 'message' },
      { name: "scheme 'BEARER'", request: { ...c, scheme: 'BEARER' }, keeps: 'message' },
      { name: "field name 'AUTHORIZATION'", request: { ...c, headerNames: { ...c.headerNames, authorization: 'AUTHORIZATION' } }, keeps: 'message' },
      { name: "two spaces after 'Bearer'", request: { ...c, scheme: 'Bearer ' }, keeps: 'meaning' },
    ];
  },
};

/**
 * listPets's query spelled otherwise, from its own parameters. The named parameters in another
 * order, and a value with a percent-encoded unreserved character (every query parser decodes
 * values: RFC 3986 §6.2.2.2), are the same message. A parameter repeated with its value, an
 * unknown parameter and one without a value ask the same thing: a server ignores them or refuses
 * them with a 400 (meaning); the unknown names are ones no server pages with (paging parameters
 * other than limit are "not shown", so a `page` or `offset` may exist and mean something). A
 * parameter without a value, named with `[]` or in another case is another request, which a
 * server may refuse, ignore or read as the one named (anything).
 */
export const QUERY_FAMILY: Family = {
  id: 'query',
  title: 'the query spelled otherwise',
  operations: ['listPets'],
  variants(c) {
    const each = (change: (p: readonly [string, string]) => readonly [string, string]) => (i: number): Spelled => ({ ...c, query: c.query.map((p, j) => (j === i ? change(p) : p)) });
    const repeated = (i: number): Spelled => ({ ...c, query: c.query.flatMap((p, j) => (j === i ? [p, p] : [p])) });
    const added = (name: string, value: string): Spelled => ({ ...c, query: [...c.query, [name, value]] });
    const encoded = c.query.flatMap(([k, v], i) => {
      const value = firstUnreservedEncoded(v);
      return value === undefined ? [] : [{ name: `'${k}=${v}' as '${k}=${value}'`, request: each(([name]) => [name, value])(i), keeps: 'message' as const }];
    });
    return [
      ...(c.query.length > 1 ? [{ name: 'the parameters in reverse order', request: { ...c, query: [...c.query].reverse() }, keeps: 'message' as const }] : []),
      ...encoded,
      ...c.query.map(([k, v], i) => ({ name: `'${k}=${v}' repeated`, request: repeated(i), keeps: 'meaning' as const })),
      { name: "an unknown parameter 'conformance_unknown=1'", request: added('conformance_unknown', '1'), keeps: 'meaning' },
      { name: "an unknown parameter 'conformance_flag' without a value", request: added('conformance_flag', ''), keeps: 'meaning' },
      // Written bare ("limit"), as requestTarget writes an empty value: query parsers read "limit" and "limit=" alike.
      ...c.query.map(([k], i) => ({ name: `'${k}' without a value`, request: each(([name]) => [name, ''])(i), keeps: 'anything' as const })),
      ...c.query.map(([k], i) => ({ name: `'${k}' as '${k}[]'`, request: each(([name, v]) => [`${name}[]`, v])(i), keeps: 'anything' as const })),
      ...c.query.map(([k], i) => ({ name: `'${k}' as '${upperFirst(k)}'`, request: each(([name, v]) => [upperFirst(name), v])(i), keeps: 'anything' as const })),
    ];
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON object's text from its members as written (a name may repeat), each value as JSON text. */
const objectText = (members: readonly (readonly [string, string])[]) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/** A value as JSON text in a spelling's name, cut short: '"12"', '[…]'. */
const shown = (text: string) => (text.length > 24 ? `${text.slice(0, 22)}…` : text);

/**
 * The JSON types (RFC 8259 §3), each with the values of it a member may be sent as (the member's
 * own value in an array): a NewPet member is sent as the first value of each type its model
 * refuses, so a string member is never sent as a string, an integer as a fraction only.
 */
const JSON_TYPES: readonly { type: string; values: (own: unknown) => unknown[] }[] = [
  { type: 'a string', values: () => ['12'] },
  { type: 'a number', values: () => [12, 1.5] },
  { type: 'a boolean', values: () => [true] },
  { type: 'null', values: () => [null] },
  { type: 'an array', values: (own) => [[own ?? 1]] },
  { type: 'an object', values: () => [{}] },
];

/** Names of a JavaScript object's internals, which a parser or a merge may take for the object's own (prototype pollution). */
const INTERNALS = ['__proto__', 'constructor', 'prototype'] as const;

/** How deep a member is nested, in arrays: within every parser's limit, past serde_json's 128, past a recursive parser's stack. */
export const NESTING_LADDER = [10, 1_000, 10_000] as const;
/** Whole body sizes, bytes, padded by one member: within, near and past common body-size limits (Express's 100 kb, the reference's 64 KiB). */
export const SIZE_LADDER = [1_024, 60 * 1_024, 1_024 * 1_024] as const;

const sizeName = (bytes: number) => (bytes >= 1_024 * 1_024 ? `${bytes / (1_024 * 1_024)} MiB` : `${bytes / 1_024} KiB`);

/**
 * createPet's body spelled otherwise, from NewPet's members (lib/models.ts): a member added to the
 * model adds its spellings.
 *
 * The same message (RFC 9112 §7.1 chunked framing, which a recipient MUST parse; RFC 8259 §2
 * insignificant whitespace and §4 an object's members unordered; RFC 9110 §8.3.1 a media type's
 * case, and RFC 8259 §11 "no charset parameter is defined" for application/json, so adding one
 * "has no effect on compliant recipients"; §5.1 a field name's case): chunked, pretty-printed, the
 * members in reverse order, Content-Type `application/json; charset=utf-8`, `Application/JSON`,
 * `application/json;charset=UTF-8`, the field name `CONTENT-TYPE`.
 *
 * Bodies whose answer the interface leaves open (anything): each member as each JSON type its
 * model refuses; each member twice, the second of another type, in both orders (RFC 8259 §4 leaves
 * which counts to the parser); a member named after an object's internals carrying each NewPet
 * member; a member nested 10, 1,000 and 10,000 arrays deep; the body padded to 1 KiB, 60 KiB and
 * 1 MiB. A server may take them, ignore what it does not know, or refuse them: never a 5xx, a
 * listed status with its body, and the store intact after them (the invariants).
 */
export const BODY_FAMILY: Family = {
  id: 'body',
  title: 'the body spelled otherwise',
  operations: ['createPet'],
  variants(c) {
    if (c.body === undefined) return [];
    const message = (name: string, request: Spelled): Variant => ({ name, request, keeps: 'message' });
    const out: Variant[] = [message('chunked transfer', { ...c, chunked: true })];
    const contentType = (value: string) => message(`Content-Type: ${value}`, withHeader(c, 'Content-Type', value));
    out.push(contentType('application/json; charset=utf-8'), message("field name 'CONTENT-TYPE'", { ...c, headerNames: { ...c.headerNames, 'content-type': 'CONTENT-TYPE' } }));
    const parsed = tryParseJson(c.body);
    if (!parsed.ok || !isObject(parsed.value)) return out;
    const own = Object.entries(parsed.value).map(([k, v]) => [k, stringifyJson(v)] as const);
    const withBody = (members: readonly (readonly [string, string])[]): Spelled => ({ ...c, body: objectText(members) });
    out.push(
      message('the members in reverse order', withBody([...own].reverse())),
      message('pretty-printed', { ...c, body: stringifyJson(parsed.value, 2) }),
      contentType('Application/JSON'),
      contentType('application/json;charset=UTF-8'),
    );
    const anything = (name: string, members: readonly (readonly [string, string])[]): Variant => ({ name, request: withBody(members), keeps: 'anything' });
    const value = (member: string) => (parsed.value as Record<string, unknown>)[member];
    const refused = (member: string, values: readonly unknown[]) => values.find((v) => !NewPet.shape[member as keyof typeof NewPet.shape].safeParse(v).success);
    const members = Object.keys(NewPet.shape);
    // Each member twice, the second of another type (a string, or a number where a string is the member's type), in both orders.
    for (const member of members.filter((m) => own.some(([k]) => k === m))) {
      const other = refused(member, ['12', 12]);
      if (other === undefined) continue;
      const text = stringifyJson(other);
      out.push(anything(`'${member}' twice, ${shown(text)} first`, [[member, text], ...own]), anything(`'${member}' twice, ${shown(text)} last`, [...own, [member, text]]));
    }
    // A member named after an object's internals, carrying each NewPet member as the body has it.
    for (const internal of INTERNALS) {
      for (const member of members.filter((m) => own.some(([k]) => k === m))) {
        out.push(anything(`a '${internal}' member carrying '${member}'`, [[internal, objectText([[member, stringifyJson(value(member))]])], ...own]));
      }
    }
    // Each member as each JSON type its model refuses, in its place (or added, for a member the body leaves out).
    for (const member of members) {
      for (const { type, values } of JSON_TYPES) {
        const other = refused(member, values(value(member)));
        if (other === undefined) continue;
        const text = stringifyJson(other);
        const replaced = own.some(([k]) => k === member) ? own.map(([k, v]) => [k, k === member ? text : v] as const) : [...own, [member, text] as const];
        out.push(anything(text === type ? `'${member}' as null` : `'${member}' as ${type} (${shown(text)})`, replaced));
      }
    }
    for (const depth of NESTING_LADDER) {
      out.push(anything(`a member nested ${depth.toLocaleString('en-US')} arrays deep`, [...own, ['conformance_deep', `${'['.repeat(depth)}${']'.repeat(depth)}`]]));
    }
    for (const bytes of SIZE_LADDER) {
      const bare = objectText([...own, ['conformance_padding', '""']]).length;
      out.push(anything(`the body padded to ${sizeName(bytes)}`, [...own, ['conformance_padding', `"${'x'.repeat(Math.max(0, bytes - bare))}"`]]));
    }
    return out;
  },
};

/**
 * Accept and Accept-Encoding as clients send them. The client sends `accept: application/json` by
 * default; a variant's Accept replaces it. `APPLICATION/JSON` is the same media range (RFC 9110
 * §8.3.1: case-insensitive): the same message. Every other Accept here but text/plain admits JSON,
 * so the answer is the canonical one (meaning); with text/plain alone a server may answer JSON
 * anyway or 406 (RFC 9110 §12.5.1: anything). An Accept-Encoding the server may use or ignore
 * changes only the bytes on the wire, which the client decodes.
 */
export const NEGOTIATION_FAMILY: Family = {
  id: 'negotiation',
  title: 'content negotiation as clients spell it',
  variants(c) {
    const accept = (name: string, value: string, keeps: Keeps): Variant => ({ name, request: withHeader(c, 'Accept', value), keeps });
    return [
      accept('Accept: APPLICATION/JSON', 'APPLICATION/JSON', 'message'),
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
 * The canonical request again. The relations suite sends the canonical request with a key right
 * before it, so this one, sent without a key, catches a cache that serves the keyed answer to a
 * request without one.
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
