// Faults in how a server reads the spellings of a request (the relations suite, issue 35): the
// path, the method, the credential, the query, the body, content negotiation, the order of
// requests and headers a proxy adds, each read by one layer of a stack (router, auth filter,
// limiter, cache, parser) otherwise than by another. Each fires on every spelling of its family
// (or, where a family sends its variants in pairs, on enough of them that every pair holds one), so
// that whichever spelling the run's seed picks shows it. The flags are read in spelling-faults.ts
// (the app's hooks) and operations.ts (createPet's body and the duplicate guard); the last two are
// rewrites of the finished reply.
import type { FaultDefinition } from '../fault-definition.ts';
import { HEADER, headerValue } from '../http.ts';

/** The base path the interface's server addresses end with, as Location must keep it. */
const BASE_PATH = '/v1';

export const RELATIONS_FAULTS = [
  // The path.
  {
    id: 'path-auth-on-raw-path',
    breaks:
      'Authentication: the auth filter matches its patterns (/v1/pets, /v1/pets/{digits}) against the raw path while the router matches a normalised one (case-insensitive, non-strict, dot segments, `;` parameters and percent-encoding resolved), so any other spelling of the path is served without a key (the Spring Security / Tomcat `;` bypass).',
    caught: { check: 'relations.auth', code: 'served-without-key', family: 'path' },
  },
  {
    id: 'path-limiter-on-raw-path',
    breaks:
      'One quota per key: the limiter is mounted on the raw paths /v1/pets and /v1/pets/{digits} only, while the router serves a normalised path (case-insensitive, trailing slash, empty and dot segments, `;` parameters, percent-encoding), so other spellings of the path are served uncounted.',
    caught: { check: 'relations.one-quota', code: 'not-counted', family: 'path' },
  },
  {
    id: 'path-controller-rereads-raw-path',
    breaks:
      'No operation lists a 5xx: the router matches a normalised path, but the controller reads resource and id again from the raw URL by position (`req.originalUrl.split("/")`), so any other spelling of the path finds no handler under its raw segment and throws (500).',
    caught: { check: 'relations.same-meaning', code: 'server-error', family: 'path' },
  },
  {
    id: 'path-semicolon-skips-auth',
    breaks:
      'Authentication: the router drops `;` path parameters (Tomcat\'s and Jetty\'s reading of a matrix parameter) while the auth filter matches its patterns against the raw path, so `/v1/pets;x=1` is routed to listPets and served without a key (CVE-2016-5007 style); every other spelling of the path meets both alike.',
    caught: { check: 'relations.auth', code: 'served-without-key', family: 'path' },
  },
  // The method.
  {
    id: 'method-gateway-auth-by-override',
    breaks:
      'Authentication: the gateway authenticates only the (method, path) pairs of the operations (GET and POST as the interface names them), reading the method after X-HTTP-Method-Override and the like, and lets any other request through, while the backend serves any method on an operation\'s path as its GET: HEAD, OPTIONS, PROPFIND, and an override on getPet\'s path are served without a key (HTTP verb tampering).',
    caught: { check: 'relations.auth', code: 'served-without-key', family: 'method' },
  },
  {
    id: 'method-gateway-meters-by-override',
    breaks:
      'One quota per key: the gateway meters only the (method, path) pairs of its usage plan (GET and POST as the interface names them), reading the method after X-HTTP-Method-Override and the like, while the backend serves any method on an operation\'s path as its GET: HEAD, OPTIONS, PROPFIND, and an override on getPet\'s path are served uncounted.',
    caught: { check: 'relations.one-quota', code: 'not-counted', family: 'method' },
  },
  {
    id: 'method-dispatch-table-500',
    breaks:
      'No operation lists a 5xx: a hand-rolled dispatcher calls `handlers[method]` with the method after X-HTTP-Method-Override / X-HTTP-Method / X-Method-Override and no 405 fallback: HEAD, OPTIONS and PROPFIND find no handler, and an overridden POST runs createPet on a GET without a body; both throw (500).',
    caught: { check: 'relations.same-meaning', code: 'server-error', family: 'method' },
  },
  // The credential.
  {
    id: 'credential-scheme-replace-500',
    breaks:
      'No operation lists a 5xx (and the auth-scheme is case-insensitive): the key is taken as `header.replace("Bearer ", "")`, so `bearer <key>`, `BEARER <key>` and `Bearer  <key>` leave a token with a space in it, which the key store\'s format assertion rejects with an exception (500).',
    caught: { check: 'relations.same-meaning', code: 'server-error', family: 'credential' },
  },
  {
    id: 'credential-other-scheme-passes',
    breaks:
      'Authentication: the bearer filter acts only on an Authorization that starts with exactly "Bearer " and leaves any other to a session strategy that is not configured, so a request with `Authorization: bearer` (or `BEARER`, or a bare `Bearer`) and no key is served.',
    caught: { check: 'relations.auth', code: 'served-without-key', family: 'credential' },
  },
  {
    id: 'credential-limiter-exact-header',
    breaks:
      'One quota per key: the limiter finds the key by the exact header value `Bearer <key>` and skips the requests it cannot attribute (auth would refuse them anyway), while auth reads the scheme case-insensitively and any spaces: `bearer <key>`, `BEARER <key>` and `Bearer  <key>` are served uncounted.',
    caught: { check: 'relations.one-quota', code: 'not-counted', family: 'credential' },
  },
  // The query.
  {
    id: 'query-strict-400-text',
    breaks:
      'Every error is an Error body as application/json: a strict query validator refuses a parameter it does not know or one given twice with its own `400 Bad Request` in text/plain, before the handler.',
    caught: { check: 'relations.representation', code: 'not-json-media-type', family: 'query' },
  },
  {
    id: 'query-validator-500',
    breaks:
      'No operation lists a 5xx: listPets validates its query against a schema of known, single-valued parameters (Joi-style, unknown keys refused) whose ValidationError the error handler does not map, so an unknown or repeated parameter throws (500).',
    caught: { check: 'relations.same-meaning', code: 'server-error', family: 'query' },
  },
  {
    id: 'query-repeated-limit-500',
    breaks:
      'No operation lists a 5xx: listPets reads `req.query.limit.trim()`, and a query parser that gives a repeated parameter as an array (qs, Express\'s default) makes `limit=2&limit=2` an array, which has no trim (500); every other spelling of the query reads a string.',
    caught: { check: 'relations.same-meaning', code: 'server-error', family: 'query' },
  },
  {
    id: 'query-repeated-status-unfiltered',
    breaks:
      'A spelling that keeps the meaning is answered as the request it stands for: a repeated `status` arrives as an array, which the filter does not recognise as a PetStatus and ignores, so `status=sold&status=sold` answers the unfiltered store.',
    caught: { check: 'relations.same-meaning', code: 'other-meaning', family: 'query' },
  },
  // The body.
  {
    id: 'body-compiled-parser-500',
    breaks:
      'No operation lists a 5xx: createPet reads its body through a fast path, a parser generated from the NewPet schema (turbo-json-parse style) fed Content-Length bytes, which expects the schema\'s members once each and compact: a chunked body (no Content-Length), whitespace between tokens, a member it has no slot for or one given twice throws (500).',
    caught: { check: 'relations.same-meaning', code: 'server-error', family: 'body' },
  },
  {
    id: 'body-chunked-read-as-empty',
    breaks:
      'A body is the same message chunked or under Content-Length (RFC 9112 §7.1: a recipient MUST parse chunked): the body reader takes `Content-Length` bytes, so a chunked NewPet reads as no body and is refused 400 "request body is required".',
    caught: { check: 'relations.same-meaning', code: 'same-message-refused', family: 'body' },
  },
  {
    id: 'body-charset-415',
    breaks:
      'application/json with a charset parameter (which JSON defines none of, RFC 8259 §11), or in other case, is the same media type (RFC 9110 §8.3.1): the JSON body parser is registered for the exact header value `application/json`, so `application/json; charset=utf-8` (what .NET and Java clients send by default) and `Application/JSON` get 415.',
    caught: { check: 'relations.same-meaning', code: 'same-message-refused', family: 'body' },
  },
  {
    id: 'body-duplicate-first-wins-echo',
    breaks:
      'createPet answers a Pet: the body is validated as JSON.parse reads it (the last of a duplicate member wins) but the created animal is answered from a streaming reader where the first wins, so `{"categoryId":"12",…,"categoryId":1}` is answered 201 with `"categoryId": "12"`.',
    caught: { check: 'relations.listed-body', code: 'not-a-pet', family: 'body' },
  },
  {
    id: 'body-nesting-500',
    breaks:
      'No operation lists a 5xx: the JSON parser stops at 512 levels of nesting with an error the handler does not map, so a NewPet with a member nested 1,000 (or 10,000) arrays deep is answered 500.',
    caught: { check: 'relations.same-meaning', code: 'server-error', family: 'body' },
  },
  {
    id: 'body-proto-pollutes-defaults',
    breaks:
      "NewPet requires categoryId after any body: each body is deep-merged into the NewPet defaults with a merge that follows `__proto__` (lodash.merge before 4.6.2), so a body carrying `\"__proto__\": {\"categoryId\": 1}` gives every later object that categoryId, and a NewPet without one is created.",
    caught: { check: 'relations.store-integrity', code: 'schema-not-enforced', family: 'body' },
  },
  {
    id: 'auth-field-name-exact',
    breaks:
      'A field name is case-insensitive (RFC 9110 §5.1): the hand-written header reader looks the key up under `Authorization` and `authorization` only, so `AUTHORIZATION: Bearer <key>` is refused 401.',
    caught: { check: 'relations.same-meaning', code: 'same-message-refused', family: 'credential' },
  },
  // Content negotiation.
  {
    id: 'negotiation-exact-accept-only',
    breaks:
      'Responses are application/json: a hand-written negotiator labels the answer JSON only when Accept is exactly `application/json` (or absent), by string equality; any other Accept, `application/json; charset=utf-8`, `*/*`, `application/*` and a browser\'s included, gets the same body labelled text/plain (text/html when it names html).',
    caught: { check: 'relations.representation', code: 'not-json-media-type', family: 'negotiation' },
  },
  {
    id: 'negotiation-lookup-500',
    breaks:
      'No operation lists a 5xx: the Accept and Accept-Encoding values are looked up whole in tables of serialisers and encoders (`serializers[req.headers.accept]`), with no parsing, so any value but `application/json` (Accept) and `gzip` or `identity` (Accept-Encoding) finds nothing, and calling it throws (500).',
    caught: { check: 'relations.same-meaning', code: 'server-error', family: 'negotiation' },
  },
  // The order of requests.
  {
    id: 'order-cache-before-auth',
    breaks:
      'Authentication: a response cache between the limiter and auth keys GET answers on the URL, Accept and Accept-Encoding (Vary without Authorization), so an answer cached for a key is served to the same request without one.',
    caught: { check: 'relations.auth', code: 'served-without-key', family: 'order' },
  },
  {
    id: 'order-cache-before-limiter',
    breaks:
      'One quota per key: a per-key response cache of GET answers (URL, Accept, Accept-Encoding) sits before the limiter\'s counting, so a request answered from it is not counted (X-RateLimit-* still written from the key\'s counters).',
    caught: { check: 'relations.one-quota', code: 'not-counted', family: 'order' },
  },
  {
    id: 'create-shared-defaults',
    breaks:
      "NewPet requires categoryId after any body: the handler merges each body into one defaults object it keeps (`Object.assign(DEFAULTS, req.body)` instead of `{ ...DEFAULTS, ...req.body }`), so once an animal was created, a NewPet without categoryId takes the last one's and is created.",
    caught: { check: 'relations.store-integrity', code: 'schema-not-enforced' },
  },
  {
    id: 'order-duplicate-post-empty',
    breaks:
      'createPet answers a Pet: a double-submit guard answers a POST with the same key, target and body as the key\'s previous one within 10 s with 201 and `{}` (the stored answer\'s status kept, not its body), creating nothing.',
    caught: { check: 'relations.listed-body', code: 'not-a-pet' },
  },
  // Headers a client or a proxy adds.
  {
    id: 'forwarded-skips-auth',
    breaks:
      'Authentication: authentication is left to the internal gateway, and the backend takes a request bearing the gateway\'s headers (X-Forwarded-For/-Host/-Proto, Forwarded, X-Real-IP, X-Original-URL, X-Rewrite-URL) as authenticated by it, so a client that adds one is served without a key.',
    caught: { check: 'relations.auth', code: 'served-without-key', family: 'added-headers' },
  },
  {
    id: 'forwarded-skips-limiter',
    breaks:
      'One quota per key: the limiter exempts internal traffic, recognised by the internal gateway\'s headers (X-Forwarded-For/-Host/-Proto, Forwarded, X-Real-IP, X-Original-URL, X-Rewrite-URL), so a key\'s request bearing one is served uncounted.',
    caught: { check: 'relations.one-quota', code: 'not-counted', family: 'added-headers' },
  },
  // Headers that state facts.
  {
    id: 'location-without-base-path',
    breaks:
      'Location leads to the created animal (RFC 9110 §10.2.2): createPet\'s Location is built from the route\'s own path, /pets/{id}, without the base path /v1, so it names a resource that does not exist.',
    caught: { check: 'relations.header-facts', code: 'location-elsewhere' },
    rewrite: (reply) => {
      const location = reply.status === 201 ? headerValue(reply.headers, 'Location') : undefined;
      if (location === undefined || !location.startsWith(`${BASE_PATH}/`)) return reply;
      const others = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name.toLowerCase() !== 'location'));
      return { ...reply, headers: { ...others, Location: location.slice(BASE_PATH.length) } };
    },
  },
  {
    id: 'rate-limit-per-second',
    breaks:
      'Rate limit headers describe one window: X-RateLimit-Limit states the plan\'s rate per second (the quota over the window\'s length) while X-RateLimit-Remaining counts what is left of the whole window, so Remaining stands above Limit.',
    caught: { check: 'relations.header-facts', code: 'remaining-above-limit' },
    rewrite: (reply, { rate }) => {
      if (!rate || headerValue(reply.headers, HEADER.limit) === undefined) return reply;
      const perSecond = Math.max(1, Math.round(rate.decision.limit / rate.decision.windowSeconds));
      const others = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => name.toLowerCase() !== HEADER.limit.toLowerCase()));
      return { ...reply, headers: { ...others, [HEADER.limit]: String(perSecond) } };
    },
  },
] as const satisfies readonly FaultDefinition[];
