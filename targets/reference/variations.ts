// The catalogue of legal variations: behaviours the interface allows that this server does not
// show by default (see DESIGN.md, "Severity": every legal reading must pass). Config
// `variations: [...]` switches them on; the harness must accept each of them.
//
// Same two forms as faults (faults.ts): a *rewrite* of the finished Reply, or a *flag* consulted
// with `variations.has(id)` where the behaviour lives (the store, the limiter, validation).
// Variation rewrites run before fault rewrites.
import { STATUS_CODES } from 'node:http';
import { stringifyJson } from '../../lib/json.ts';
import { HEADER, JSON_TYPE, isErrorBody, withoutHeaders, type ErrorBody, type ReplyRewrite } from './http.ts';
import { Switches } from './switches.ts';

interface VariationDefinition {
  readonly id: string;
  /** What the interface leaves open that this variation takes, in one line. */
  readonly allows: string;
  readonly rewrite?: ReplyRewrite;
  /** Changes only how replies go on the wire: a server on sockets shows it, the in-process one cannot. */
  readonly wire?: true;
}

export const JSON_TYPE_UTF8 = `${JSON_TYPE}; charset=utf-8`;

/** RFC 9745 form of Deprecation: 2025-01-01T00:00:00Z as a structured-field Date. */
export const DEPRECATION_DATE = '@1735689600';

/** The last second of the announced removal day, as variation sunset-end-of-day writes Sunset. */
export const SUNSET_END_OF_DAY = 'Thu, 05 Dec 2030 23:59:59 GMT';

/** Variation affinity-cookie: the instance a load balancer would send the client back to. */
export const AFFINITY_COOKIE = 'lb=instance-1';

/** Variation cache-control-keyed: the Cache-Control an answer of this status carries. */
export function cacheControlOf(status: number): string {
  return status === 200 ? 'private, max-age=60' : status === 404 ? 'public, max-age=0' : 'no-store';
}

/**
 * Variation error-extra-members: an Error body with Spring Boot's members (`timestamp` when the
 * request was decided, on the server's clock, `path`, `error` the reason phrase) and RFC 9457's (`type`, `title`, `detail`).
 */
function withErrorExtras(body: ErrorBody, status: number, path: string | undefined, atMs: number | undefined): Record<string, unknown> {
  const reason = STATUS_CODES[status] ?? 'Error';
  return {
    timestamp: new Date(atMs ?? Date.now()).toISOString(),
    ...body,
    path: path ?? '/',
    error: reason,
    type: 'about:blank',
    title: reason,
    detail: body.message,
  };
}

/** A JSON value's members in reverse order, at every depth (arrays keep their order). */
function reversedMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedMembers);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([name, v]) => [name, reversedMembers(v)]));
}

/**
 * Variation json-reformatted: members reversed, two-space indentation, a trailing newline, every
 * character beyond ASCII as \uXXXX (UTF-16 code units, so a surrogate pair for an astral one) and
 * every `/` as `\/`. Both occur only inside strings, so the escapes are applied to the whole text.
 */
function reformattedJson(value: unknown): string {
  const text = stringifyJson(reversedMembers(value), 2);
  return `${text.replace(/\//g, '\\/').replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

export const VARIATION_CATALOGUE = [
  {
    id: 'ids-beyond-2^53',
    allows: 'Pet id is int64: ids start at 2^53 + 1 and spread up to about 2^62, beyond what a double holds.',
  },
  {
    id: 'ids-sharded',
    allows:
      'Ids are only said to be unique int64s assigned by the service: each is a sequence number times 2^32 plus a shard ' +
      'number (7), so ids lie 2^32 apart and an animal\'s id plus or minus 2^32 is the id of another animal.',
  },
  {
    id: 'status-default-available',
    allows: 'The status stored when it is omitted is "not shown": it is stored and returned as `available`.',
  },
  {
    id: 'status-null',
    allows:
      'What an animal created without status holds is "not shown": it is written with `"status": null` (Jackson\'s default, ' +
      'Pydantic\'s model_dump, a nullable column), in createPet, getPet and listPets alike.',
    rewrite: (reply, { operation }) => {
      if (reply.status >= 300 || reply.json === undefined || (operation !== 'listPets' && operation !== 'createPet' && operation !== 'getPet')) return reply;
      const withNull = (pet: unknown) => (typeof pet === 'object' && pet !== null && !('status' in pet) ? { ...pet, status: null } : pet);
      return { ...reply, json: Array.isArray(reply.json) ? reply.json.map(withNull) : withNull(reply.json) };
    },
  },
  {
    id: 'pet-extra-members',
    allows:
      'Pet "has all fields of NewPet plus" id, and other members are not forbidden: every Pet answered (listPets, createPet, ' +
      'getPet) also carries `createdAt` (when it was stored, ISO 8601) and a HAL link to itself, `_links: { self: { href: ' +
      '"/v1/pets/{id}" } }`.',
  },
  {
    id: 'limit-clamp',
    allows: 'A limit outside 1..100 may be clamped: over 100 gives 100, under 1 gives 1, a non-integer the default 20 (a repeated limit is read as its first value); never 400.',
  },
  {
    id: 'charset-utf8',
    allows: 'JSON responses are labelled `application/json; charset=utf-8`.',
    rewrite: (reply) =>
      reply.headers[HEADER.contentType] === JSON_TYPE
        ? { ...reply, headers: { ...reply.headers, [HEADER.contentType]: JSON_TYPE_UTF8 } }
        : reply,
  },
  {
    id: 'shuffled-order',
    allows: 'The order of listPets is not given: every call returns the matching animals in a new random order.',
  },
  {
    id: 'non-numeric-id-404',
    allows: 'getPet lists no 400: a non-numeric petId gets 404 with an Error body.',
  },
  {
    id: 'extra-fields-rejected',
    allows: 'A NewPet with fields the interface does not define gets 400 with an Error body.',
  },
  {
    id: 'affinity-cookie',
    allows:
      'Deployment is not given: a load balancer sets an affinity cookie (Set-Cookie: lb=…) on every answer; it authenticates ' +
      'nothing, so sent back without Authorization it gets 401 like any request without a key.',
    rewrite: (reply) => ({ ...reply, headers: { ...reply.headers, 'Set-Cookie': `${AFFINITY_COOKIE}; Path=/; HttpOnly` } }),
  },
  {
    id: 'routing-before-auth',
    allows:
      'Authentication is stated for the operations only: a path no route matches gets 404, and another method on a known ' +
      'path 405, even without a key (the router answers before a per-route guard), with X-RateLimit-* and an Error body.',
  },
  {
    id: 'json-parser-first',
    allows:
      'Authentication comes first for the interface\'s rules, but a body parser mounted before it (express.json(), ' +
      'koa-bodyparser, NestJS\'s) refuses a body it cannot read before any key is looked at: malformed JSON sent to ' +
      'POST /pets without a key gets 400 (413 when too large); a JSON body that is no NewPet still gets 401.',
  },
  {
    id: 'media-type-415',
    allows:
      'createPet lists 400 for invalid requests; 415 is the usual HTTP answer to another media type: a request labelled other ' +
      'than application/json, or not labelled at all, gets 415 with an Error body (as Spring and ASP.NET Core answer).',
  },
  {
    id: 'any-body-as-json',
    allows:
      'createPet takes a NewPet "as application/json" and says nothing of other media types: every body is read as JSON ' +
      'whatever its Content-Type (a NewPet\'s JSON as text/plain is created; a form, being no JSON, gets 400).',
  },
  {
    id: 'lenient-values',
    allows:
      'The interface says nothing of null for a NewPet\'s optional status nor of the case of a query value: a null status is ' +
      'none (as many clients and validators read it), and the listPets status filter is matched ignoring case. A value ' +
      'of another type or outside the enum in a NewPet is still 400 (faults create-accepts-string-category, ' +
      'create-accepts-status-any-case, create-accepts-number-name).',
  },
  {
    id: 'lenient-bearer',
    allows:
      'The interface says nothing of other spellings of the credential: a leading `Bearer` is stripped and the first word ' +
      'of what is left is the key (`Bearer <key> <key>`, `Bearer <key> other`, `Bearer<key>` and a bare `<key>` are served ' +
      'as the key); still 401 without a configured key.',
  },
  {
    id: 'unknown-filter-ignored',
    allows: 'listPets lists no 400 and says nothing of a status filter outside the enumeration: such a filter is ignored (every animal).',
  },
  {
    id: 'cache-control-keyed',
    allows:
      'Caching is not described: answers carry Cache-Control, none of it shareable with requests without a key (RFC 9111 ' +
      '§3.5): a 200 `private, max-age=60` (a browser may keep it a minute), a 404 `public, max-age=0` (stored, but revalidated ' +
      'at every use), every other answer `no-store`.',
    rewrite: (reply) => ({ ...reply, headers: { ...reply.headers, 'Cache-Control': cacheControlOf(reply.status) } }),
  },
  {
    id: 'deprecation-date-form',
    allows: 'Deprecation uses the RFC 9745 form `@1735689600` (when it took effect) instead of `true`.',
    rewrite: (reply) =>
      reply.headers.Deprecation === undefined ? reply : { ...reply, headers: { ...reply.headers, Deprecation: DEPRECATION_DATE } },
  },
  {
    id: 'sunset-end-of-day',
    allows: 'The hour of the removal is not given: getPet\'s Sunset names the last second of 5 December 2030 (Thu, 05 Dec 2030 23:59:59 GMT).',
    rewrite: (reply) => (reply.headers.Sunset === undefined ? reply : { ...reply, headers: { ...reply.headers, Sunset: SUNSET_END_OF_DAY } }),
  },
  {
    id: 'retry-after-http-date',
    allows: 'The format of Retry-After is "not shown": a 429 gives the HTTP-date at which the blocking window resets.',
    // The whole second from which a request is let through again: the end of a fixed window (a
    // 429's X-RateLimit-Reset), the next token of a bucket, the end of a ban. The limiter notes the
    // date as sent, so a request at that moment is not early.
    rewrite: (reply, { rate }) => {
      const retryAtMs = rate?.decision.retryAtMs;
      if (reply.status !== 429 || reply.headers[HEADER.retryAfter] === undefined || retryAtMs === undefined) return reply;
      const date = new Date(Math.ceil(retryAtMs / 1000) * 1000).toUTCString();
      return { ...reply, headers: { ...reply.headers, [HEADER.retryAfter]: date } };
    },
  },
  {
    id: 'retry-after-fractional-wait',
    allows:
      'Where windows start is not shown: the fixed windows end 498 ms after a whole second (counted from the limiter\'s ' +
      'start, not the epoch\'s whole second), so every wait is fractional (a 429 half a second into a second waits, ' +
      'say, 1.998 s): Retry-After is that wait rounded up to delta-seconds, Reset the end rounded up, Date whole seconds.',
  },
  {
    id: 'rejected-count-against-quota',
    allows: 'Whether refused requests count is not shown: 429 responses consume quota too.',
  },
  {
    id: 'sliding-window',
    allows:
      'The kind of window is not shown: token buckets (capacity = quota, refilled continuously over the window) ' +
      'instead of fixed windows; Reset is when the bucket is full again, or on a 429 when the next token arrives.',
  },
  {
    id: '429-empty-body',
    allows: 'The body of a 429 is not shown: it is empty, without Content-Type.',
    rewrite: (reply) => (reply.status !== 429 ? reply : { status: 429, headers: withoutHeaders(reply.headers, [HEADER.contentType]) }),
  },
  {
    id: 'ban-after-ignoring-429',
    allows:
      'A key that keeps sending after a 429 may be banned for a time not shown: 5 requests in a row before Retry-After ' +
      'has passed ban it for one minute window (429, Error code "banned", Retry-After until the ban ends).',
  },
  {
    id: 'ban-after-3-early',
    allows:
      'The ban and its length are not shown: 3 requests in a row before Retry-After has passed ban the key for two minute ' +
      'windows (429, Error code "banned", Retry-After and X-RateLimit-Reset at the ban\'s end, beyond one window).',
  },
  {
    id: 'first-key-banned',
    allows:
      'A key may be banned for a time not shown: the first configured key starts banned for ten minute windows, as after ' +
      'an earlier run that ignored its 429s (429, Error code "banned", Retry-After and X-RateLimit-Reset at the ban\'s end).',
  },
  {
    id: 'window-per-key',
    allows:
      'The kind of window is not shown: fixed windows that start at each key\'s first request (the next at its first request ' +
      'after the last ended), minute and day alike; Reset is that window\'s end, rounded up.',
  },
  {
    id: 'sliding-log',
    allows:
      'The kind of window is not shown: a sliding log lets a request through while fewer than the quota were let through in ' +
      'the last window length; Reset is when the log would be empty, or at Remaining 0 when its oldest request leaves, ' +
      'which a 429\'s Retry-After waits for.',
  },
  {
    id: 'headers-day-window',
    allows:
      'X-RateLimit-* give "the applicable request limit" and "requests remaining in the current window": they always describe ' +
      'the day window (Limit the per-day quota, Remaining what is left of the day, Reset its end), a 429 of the minute quota ' +
      'included, whose Retry-After is still when the minute lets a request through again.',
  },
  {
    id: 'headers-minute-window',
    allows:
      'X-RateLimit-* give "the applicable request limit": they always describe the minute window (Limit the per-minute ' +
      'quota, Remaining what is left of the minute, Reset its end), a 429 of the spent day included, whose Retry-After ' +
      'is still when the day lets a request through again (and whose Remaining is 0: nothing of the minute is let through).',
  },
  {
    id: 'reset-jitter',
    allows:
      'How Reset is rounded is not shown: it is rounded from a millisecond expiry read with up to ±600 ms of noise, so ' +
      'responses in one window may give Resets a second apart.',
  },
  {
    id: 'clock-ahead',
    allows:
      'Server clocks are not given: the server\'s clock is 5 s ahead; Date, X-RateLimit-Reset, HTTP-date Retry-Afters and ' +
      'the windows all follow it, and delta-seconds Retry-Afters stay true durations.',
  },
  {
    id: 'clock-behind',
    allows: 'Server clocks are not given: the server\'s clock is 5 s behind, followed by Date, Reset, HTTP-dates and the windows.',
  },
  {
    id: 'several-instances',
    allows:
      'Deployment is not given: three instances behind one port, round-robin, share one store and limiter (on the true ' +
      'clock); their Date headers are 1 s behind, right and 1 s ahead, and they add 0, 5 and 10 ms.',
  },
  {
    id: 'instances-clock-skew',
    allows:
      'Deployment and clocks are not given: two instances behind one port share one store and limiter (on the true clock), ' +
      'each serving every other connection; the second\'s clock is 1 s behind, so the Date of every even-numbered ' +
      'connection is a second behind the others\'.',
  },
  {
    id: 'slow-responses',
    allows:
      'Response times are not given: every response is held 20 to 100 ms (a key\'s first 5 requests 300 ms) after the ' +
      'limiter has decided it.',
  },
  {
    id: 'keep-alive-1s',
    allows:
      'Connection handling is not given: idle keep-alive connections are closed after 1 s, and the first response on a ' +
      'connection older than 1 s carries Connection: close and ends it.',
  },
  {
    id: 'slow-day',
    allows:
      'Response times are not given: a key that has spent half its day\'s quota is answered 1.2 s after its request was ' +
      'counted (de-prioritised), so its answers are dated after the second they were counted in and its day\'s spending ' +
      'may span two day windows.',
  },
  {
    id: 'far-away',
    allows:
      'Network distance is not given: every response is held 120 ms after the limiter has decided it (a far server, a ' +
      'busy machine), so that four connections send fewer than a Pro key\'s minute quota within one short window.',
  },
  {
    id: 'answers-reordered',
    allows:
      'Response times are not given, nor the order of answers on different connections: every reply is held 0 to 6 ms ' +
      '(at random per request and connection) after the limiter has counted it, so that answers sent together on ' +
      'several connections arrive in another order than they were counted, one often in the millisecond another is sent.',
  },
  {
    id: 'read-lag',
    allows:
      'Read-after-write is not described: a replicated store shows an animal created to getPet and listPets only after a ' +
      'lag of 0 to 1,000 ms (pseudo-random per write, the same on every run: half within 63 ms, one in ten beyond 650 ms); ' +
      'createPet answers with the Pet at once.',
  },
  // How a router, a parser or a middleware of some stack reads other spellings of a request (the
  // relations suite's families): spelling-variations.ts, hooked into app.ts and operations.ts.
  {
    id: 'case-insensitive-routing',
    allows:
      'Paths are given in lower case; other cases are not described: the router matches paths ignoring case (express\'s and ' +
      'ASP.NET Core\'s default), so /V1/Pets with a key is served as /v1/pets and without one gets 401 like it.',
  },
  {
    id: 'trailing-slash-served',
    allows:
      'A trailing slash is not described: it is served as the path without it (express\'s `strict: false`, the default; ' +
      'Spring MVC before 6), authentication and the limiter the same.',
  },
  {
    id: 'trailing-slash-redirect',
    allows:
      'Paths that are not the canonical one are not described: before authentication, a path with an empty or a dot ' +
      'segment gets 301 to the cleaned path (Go\'s ServeMux), and a trailing slash 307 to the path without it ' +
      '(FastAPI/Starlette\'s redirect_slashes); the query kept, Go\'s short HTML note as the body (RFC 9110 §15.4), X-RateLimit-*. Wins over every other variation ' +
      'of the path but strict-path-400.',
  },
  {
    id: 'merged-slashes',
    allows:
      'Empty segments are not described: doubled slashes are merged before routing (nginx\'s merge_slashes, on by default; ' +
      'Tomcat), so /v1//pets is served as /v1/pets.',
  },
  {
    id: 'path-parameters-ignored',
    allows:
      'Path parameters (RFC 3986 §3.3) are not described: a `;` and what follows it in a segment is dropped before ' +
      'routing (Tomcat, Jetty: `;jsessionid=`), so /v1/pets;x=1 is served as /v1/pets.',
  },
  {
    id: 'percent-decoded-path',
    allows:
      'Percent-encoded unreserved characters are decoded before routing (RFC 3986 §6.2.2.2; Go\'s ServeMux and Spring\'s ' +
      'UrlPathHelper decode the path): /v1/%70ets is served as /v1/pets.',
  },
  {
    id: 'strict-path-400',
    allows:
      'Paths that are not normalised are not described: a firewall before authentication (Spring Security\'s ' +
      'StrictHttpFirewall) refuses a path with `;`, an empty, a dot or a dot-dot segment, a backslash, or an encoded ' +
      '`;`, `.`, `/`, `\\`, `%` or NUL, with 400 and an Error body. Wins over every other variation of the path.',
  },
  {
    id: 'strict-query',
    allows:
      'Query parameters other than listPets\'s limit and status are not described: an unknown one gets 400 with an Error ' +
      'body (fastify/ajv `additionalProperties: false`, Joi `unknown(false)`), after authentication; a repeated one 400 ' +
      'as by default.',
  },
  {
    id: 'accept-406',
    allows:
      'Responses use JSON; other Accepts are not described: after authentication, an Accept that admits no JSON ' +
      '(application/json, application/*, */* with q above 0) gets 406 with an Error body (Spring MVC, JAX-RS, ASP.NET ' +
      'Core with ReturnHttpNotAcceptable); every Accept that admits JSON is served as usual.',
  },
  {
    id: 'head-405',
    allows:
      'HEAD is not an operation of the interface: after authentication it gets 405 with `Allow: GET` (`GET, POST` on ' +
      '/pets) and no body, as routers without an automatic HEAD answer (ASP.NET Core\'s MapGet, actix-web); 405s list ' +
      'no HEAD in Allow.',
  },
  {
    id: 'options-cors',
    allows:
      'OPTIONS is not an operation of the interface: a CORS layer before authentication and the limiter (express\'s ' +
      'cors() middleware) answers every OPTIONS with 204, Access-Control-Allow-* and no X-RateLimit-*; it is not counted.',
  },
  {
    id: 'location-absolute',
    allows:
      'createPet names no Location: it is an absolute URL, the origin taken from X-Forwarded-Proto and -Host when a proxy ' +
      'sent them (express\'s `trust proxy`, Spring\'s ForwardedHeaderFilter), else http and the Host header, then ' +
      '/v1/pets/{id}.',
  },
  {
    id: 'duplicate-member-last-wins',
    allows:
      'RFC 8259 §4 leaves duplicate member names to the parser: the last one counts, as JSON.parse, Jackson, Go\'s ' +
      'encoding/json and Python\'s json read them (a NewPet whose "name" comes twice is created with the second).',
  },
  {
    id: 'unknown-method-501',
    allows:
      'RFC 9110 §9.1: a method the origin server does not recognise or implement SHOULD get 501, and the interface ' +
      'lists no operation for any method but GET and POST: every other method (PUT, PATCH, DELETE, OPTIONS, PROPFIND, a ' +
      'made-up one) gets 501 with an Error body, on any path, before authentication (as Go, Jetty and nginx answer a ' +
      'method they do not know), X-RateLimit-* as on any answer; a 429 still comes first for a key over its quota. ' +
      'HEAD, which every general-purpose server MUST support (§9.1), is served as before.',
  },
  {
    id: 'error-extra-members',
    allows:
      'Error names code, message and status and forbids no other member: every Error body also carries Spring Boot\'s ' +
      '`timestamp`, `path` and `error` and RFC 9457\'s `type`, `title` and `detail`.',
    rewrite: (reply, { path, rate }) => (isErrorBody(reply.json) ? { ...reply, json: withErrorExtras(reply.json, reply.status, path, rate?.decision.at) } : reply),
  },
  {
    id: 'json-reformatted',
    allows:
      'JSON (RFC 8259) leaves member order and whitespace open and lets any character be escaped: every JSON answer is ' +
      'written with its members in reverse order, indented by two spaces with a trailing newline, every non-ASCII ' +
      'character as `\\uXXXX` and every `/` as `\\/`: the same values, integers beyond 2^53 written exactly.',
    rewrite: (reply) => (reply.json === undefined || reply.text !== undefined ? reply : { ...reply, text: reformattedJson(reply.json) }),
  },
  {
    id: 'ids-negative',
    allows: 'Pet id is an int64 assigned by the service, nothing more: ids are negative, -1 for the first animal, then -2, -3, ….',
  },
  {
    id: 'ids-near-2^63',
    allows:
      'Pet id is an int64 assigned by the service: ids count down from 2^63 - 1 (9223372036854775807, then ...806, ...), ' +
      'so the largest id is the largest int64, and one more would overflow it.',
  },
  // How replies go on the wire (RFC 9110 §15.2, RFC 9112 §6, RFC 9110 §12.5.3): a server on sockets only.
  {
    id: 'early-hints-103',
    wire: true,
    allows: 'A client must read any 1xx answer before the final one: a `103 Early Hints` (with a Link header) comes before every answer.',
  },
  {
    id: 'interim-100-102',
    wire: true,
    allows: 'A client must read any 1xx answer before the final one: `100 Continue` then `102 Processing` come before every answer, unasked for.',
  },
  {
    id: 'chunked-bodies',
    wire: true,
    allows: 'HTTP/1.1 frames a body by Content-Length, chunks or the connection\'s close: every body is sent in chunked transfer coding, in two chunks, without Content-Length.',
  },
  {
    id: 'close-delimited',
    wire: true,
    allows: 'HTTP/1.1 frames a body by Content-Length, chunks or the connection\'s close: no Content-Length, no chunks, `Connection: close`, and the body ends with the connection.',
  },
  {
    id: 'gzip-always',
    wire: true,
    allows: 'Without Accept-Encoding any content coding is acceptable: every body is gzip-coded (Content-Encoding: gzip, Vary: Accept-Encoding).',
  },
  {
    id: 'deflate-always',
    wire: true,
    allows: 'Without Accept-Encoding any content coding is acceptable: every body is deflate-coded (Content-Encoding: deflate, Vary: Accept-Encoding).',
  },
  {
    id: 'br-always',
    wire: true,
    allows: 'Without Accept-Encoding any content coding is acceptable: every body is Brotli-coded (Content-Encoding: br, Vary: Accept-Encoding).',
  },
  {
    id: 'slow-body',
    wire: true,
    allows:
      'Response times are not given: every 5th response\'s head is held 30 ms (a slow first byte) and its body is ' +
      'written in two pieces 20 ms apart (with Content-Length), well within any timeout.',
  },
] as const satisfies readonly VariationDefinition[];

export type VariationId = (typeof VARIATION_CATALOGUE)[number]['id'];

export const VARIATION_IDS: readonly VariationId[] = VARIATION_CATALOGUE.map((variation) => variation.id);

/** The variations of the wire's form: the in-process server (no socket) does not show them. */
export const WIRE_VARIATIONS: readonly VariationId[] = VARIATION_CATALOGUE.filter((v) => 'wire' in v).map((v) => v.id);

export function isVariationId(name: string): name is VariationId {
  return (VARIATION_IDS as readonly string[]).includes(name);
}

/** The variations switched on for one server. Empty for the default behaviour. */
export class Variations extends Switches<VariationId> {
  constructor(ids: Iterable<VariationId> = []) {
    super(VARIATION_CATALOGUE, ids);
  }
}
