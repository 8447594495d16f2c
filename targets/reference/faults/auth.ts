// Faults in authentication.
import type { FaultDefinition } from '../fault-definition.ts';
import { HEADER, isErrorBody, withoutHeaders } from '../http.ts';

export const AUTH_FAULTS = [
  {
    id: 'auth-disabled',
    breaks: 'Authentication: requests without a valid key are served instead of answered 401.',
    caught: { check: 'auth.missing-key', code: 'not-401' },
  },
  {
    id: 'auth-wrong-status',
    breaks: 'Authentication: a missing or invalid key gets 403 instead of 401.',
    caught: { check: 'auth.invalid-key', code: 'not-401' },
    rewrite: (reply) =>
      reply.status !== 401
        ? reply
        : {
            status: 403,
            headers: withoutHeaders(reply.headers, [HEADER.wwwAuthenticate]),
            json: { code: 'forbidden', message: isErrorBody(reply.json) ? reply.json.message : 'forbidden', status: 403 },
          },
  },
  {
    id: 'auth-no-error-body',
    breaks: 'Authentication: the 401 has an empty body instead of an Error body.',
    caught: { check: 'errors.error-body', code: 'no-error-body' },
    rewrite: (reply) =>
      reply.status !== 401 ? reply : { status: 401, headers: withoutHeaders(reply.headers, [HEADER.contentType]) },
  },
  {
    id: 'auth-scheme-case-sensitive',
    breaks: 'Authentication (RFC 9110 auth-scheme is case-insensitive): "bearer <key>" gets 401.',
    caught: { check: 'auth.scheme-case-insensitive', code: 'scheme-case-refused' },
  },
  {
    id: 'auth-after-validation',
    breaks: 'Authentication: validation and lookup run before the key check, so an unauthenticated bad request gets 400/404.',
    caught: { check: 'auth.before-validation', code: 'not-401' },
  },
  {
    id: 'auth-after-store',
    breaks:
      'Authentication ("the response is 401"): createPet checks the key in a hook that runs after the handler (an after-filter ' +
      'or onSend hook that replaces the answer with 401), so a refused createPet has stored its animal all the same.',
    caught: { check: 'auth.refused-no-effect', code: 'refused-create-stored' },
  },
  {
    id: 'auth-query-key-accepted',
    breaks: 'Authentication is the Authorization header: a key in the query (api_key, access_token, key) is accepted without one.',
    caught: { check: 'auth.key-in-query', code: 'not-401' },
  },
  {
    id: 'auth-empty-bearer-accepted',
    breaks: 'Authentication: "Authorization: Bearer " with an empty token is served as the first configured key.',
    caught: { check: 'auth.empty-token', code: 'not-401' },
  },
  {
    id: 'auth-key-prefix-accepted',
    breaks: 'Authentication: keys are compared over the shorter length only, so a prefix of a configured key, or a key with characters after it ("<key>x", "<key>;x"), is accepted as that key.',
    caught: { check: 'auth.near-miss-key', code: 'not-401' },
  },
  {
    id: 'auth-key-case-insensitive',
    breaks: 'Authentication: keys are compared ignoring case, so a configured key in upper or lower case is accepted as that key.',
    caught: { check: 'auth.near-miss-key', code: 'not-401' },
  },
  {
    id: 'auth-credential-list',
    breaks: 'Authentication ("Authorization: Bearer <API_KEY>"): the header is read as a list of credentials and cut at its first "," or ";", so `Bearer <key>,x` and `Bearer <key>;x` are served as the key.',
    // The whole key spelled otherwise and served: another spelling of the credential (a should).
    caught: { check: 'auth.credential-syntax', code: 'credential-accepted' },
  },
  // One way in: see other-ways-in.ts for where each is taken.
  {
    id: 'auth-api-key-header-accepted',
    breaks: 'Authentication is "Authorization: Bearer": a configured key in an X-API-Key header is accepted without one (passport-headerapikey\'s default, API gateways).',
    caught: { check: 'auth.other-carrier', code: 'header-key-accepted' },
  },
  {
    id: 'auth-basic-key-accepted',
    breaks: 'Authentication is the Bearer scheme: "Authorization: Basic" with a configured key base64-encoded as the user name or the password is accepted.',
    caught: { check: 'auth.other-carrier', code: 'scheme-key-accepted' },
  },
  {
    id: 'auth-session-cookie',
    breaks: 'Authentication is the Authorization header: every authenticated answer sets a session cookie (sid), and a request with that cookie alone is served as the key.',
    caught: { check: 'auth.cookie-not-credential', code: 'set-cookie-accepted' },
  },
  {
    id: 'auth-prototype-key',
    breaks: 'Authentication: keys are looked up in a plain object, so a bearer token naming a member every object has ("__proto__", "constructor", "toString") is found and served.',
    caught: { check: 'auth.object-member-key', code: 'member-key-accepted' },
  },
] as const satisfies readonly FaultDefinition[];
