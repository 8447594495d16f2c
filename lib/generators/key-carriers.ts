// Other ways than `Authorization: Bearer <key>` to present a configured key, each of which must get
// 401 ("Authentication": every operation requires the header `Authorization: Bearer <API_KEY>`;
// a missing key gets 401 with an Error body). Each is a way that a popular framework, auth library
// or gateway takes a credential, and that a server built on one may accept beside the bearer header:
//
// - other schemes that carry a key in their own encoding: Basic with the key as user name
//   (base64 "key:"), as password (base64 ":key") or alone (base64 "key"), DRF's and GitHub's
//   `Token`, Elasticsearch's `ApiKey`, passport-headerapikey's `Api-Key` prefix, passport-jwt's `JWT`;
// - the bearer credential under another header: Proxy-Authorization, X-Authorization,
//   X-Forwarded-Authorization (what Google's ESP forwards), Authentication (a common misspelling);
// - the bare key under the header names APIs and gateways use: X-API-Key (passport-headerapikey's
//   default, AWS API Gateway, Envoy examples), Api-Key, apikey (Kong key-auth, APISIX),
//   X-Auth-Token, X-Access-Token, X-Api-Token, X-Token;
// - query parameters beyond the three auth.key-in-query tries (api_key, access_token, key):
//   apikey (Kong, APISIX), apiKey, api-key, token, access-token, accessToken, bearer, auth;
// - cookies: token, access_token, accessToken, api_key, apikey, auth, auth_token, jwt, session;
// - the body: access_token (passport-http-bearer, RFC 6750 §2.2) and api_key/apikey (Kong) in a
//   JSON body and in a form-encoded body.
//
// Every value here is made from a real key, so it is a secret like the key: the client records
// the request through the Redactor (which knows the key and the base64 forms of KEY_ENCODINGS),
// and reproductions rebuild each value from the key's environment variable.

/** How the key is written into the carrier. */
export type KeyEncoding = 'raw' | 'base64-user' | 'base64-password' | 'base64';

/** Where the key goes. A body carrier adds a field to the request's JSON object or form body. */
export type CarrierPlace = 'header' | 'query' | 'cookie' | 'json-body' | 'form-body';

export interface KeyCarrier {
  place: CarrierPlace;
  /** The header, query parameter, cookie or body field. */
  name: string;
  /** Text before the (encoded) key: an auth scheme and its space, e.g. "Basic ". */
  prefix?: string;
  /** Default raw. */
  encoding?: KeyEncoding;
}

/** Families of carriers: a failure's code names the family (scheme-key-accepted, header-key-accepted, …). */
export type CarrierFamily = 'scheme' | 'header' | 'query' | 'cookie' | 'body';

export function familyOf(carrier: KeyCarrier): CarrierFamily {
  switch (carrier.place) {
    case 'header':
      return carrier.name.toLowerCase() === 'authorization' ? 'scheme' : 'header';
    case 'json-body':
    case 'form-body':
      return 'body';
    default:
      return carrier.place;
  }
}

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/**
 * The encodings of a key other than itself that the harness sends, each with the name the
 * Redactor gives it ("[REDACTED:free#1 base64(key:)]") and shell text that rebuilds it from the
 * key's variable, for inside double quotes.
 */
export const KEY_ENCODINGS: readonly { encoding: Exclude<KeyEncoding, 'raw'>; name: string; encode: (key: string) => string; shell: (variable: string) => string }[] = [
  { encoding: 'base64-user', name: 'base64(key:)', encode: (key) => base64(`${key}:`), shell: (v) => `$(printf '%s:' "\${${v}}" | base64 | tr -d '\\n')` },
  { encoding: 'base64-password', name: 'base64(:key)', encode: (key) => base64(`:${key}`), shell: (v) => `$(printf ':%s' "\${${v}}" | base64 | tr -d '\\n')` },
  { encoding: 'base64', name: 'base64(key)', encode: (key) => base64(key), shell: (v) => `$(printf '%s' "\${${v}}" | base64 | tr -d '\\n')` },
];

export function encodeKey(key: string, encoding: KeyEncoding = 'raw'): string {
  if (encoding === 'raw') return key;
  return KEY_ENCODINGS.find((e) => e.encoding === encoding)!.encode(key);
}

/** The value the carrier sends. Secret: never print it. */
export function carrierValue(carrier: KeyCarrier, key: string): string {
  return `${carrier.prefix ?? ''}${encodeKey(key, carrier.encoding)}`;
}

const ENCODED: Record<KeyEncoding, string> = { raw: '<key>', 'base64-user': 'base64(<key>:)', 'base64-password': 'base64(:<key>)', base64: 'base64(<key>)' };

/**
 * The carrier's name, never the key: "Authorization: Basic base64(<key>:)", "X-API-Key header",
 * "Proxy-Authorization: Bearer <key>", "apikey query parameter", "token cookie",
 * "access_token field of a JSON body", "access_token field of a form body".
 */
export function carrierName(carrier: KeyCarrier): string {
  const value = `${carrier.prefix ?? ''}${ENCODED[carrier.encoding ?? 'raw']}`;
  switch (carrier.place) {
    case 'header':
      return carrier.prefix || carrier.encoding ? `${carrier.name}: ${value}` : `${carrier.name} header`;
    case 'query':
      return `${carrier.name} query parameter`;
    case 'cookie':
      return `${carrier.name} cookie`;
    case 'json-body':
      return `${carrier.name} field of a JSON body`;
    case 'form-body':
      return `${carrier.name} field of a form body`;
  }
}

const header = (name: string, prefix?: string, encoding?: KeyEncoding): KeyCarrier => ({ place: 'header', name, ...(prefix ? { prefix } : {}), ...(encoding ? { encoding } : {}) });
const scheme = (prefix: string, encoding?: KeyEncoding): KeyCarrier => header('Authorization', prefix, encoding);
const each = (place: CarrierPlace, names: readonly string[]): KeyCarrier[] => names.map((name) => ({ place, name }));

/**
 * One request each: a request has one Authorization header. `Basic` alone with the raw key is
 * auth.wrong-scheme's, and a bare key is auth.key-without-scheme's.
 */
export const SCHEME_CARRIERS: readonly KeyCarrier[] = [
  scheme('Basic ', 'base64-user'),
  scheme('Basic ', 'base64-password'),
  scheme('Basic ', 'base64'),
  scheme('Token '),
  scheme('ApiKey '),
  scheme('Api-Key '),
  scheme('JWT '),
];

/** The bearer credential under another header, and the bare key under the names APIs use: one request for all. */
export const HEADER_CARRIERS: readonly KeyCarrier[] = [
  header('Proxy-Authorization', 'Bearer '),
  header('X-Authorization', 'Bearer '),
  header('X-Forwarded-Authorization', 'Bearer '),
  header('Authentication', 'Bearer '),
  ...each('header', ['X-API-Key', 'Api-Key', 'apikey', 'X-Auth-Token', 'X-Access-Token', 'X-Api-Token', 'X-Token']),
];

/** Beyond auth.key-in-query's api_key, access_token and key: one request for all. */
export const QUERY_CARRIERS: readonly KeyCarrier[] = each('query', ['apikey', 'apiKey', 'api-key', 'token', 'access-token', 'accessToken', 'bearer', 'auth']);

/** One request for all (one Cookie header). */
export const COOKIE_CARRIERS: readonly KeyCarrier[] = each('cookie', ['token', 'access_token', 'accessToken', 'api_key', 'apikey', 'auth', 'auth_token', 'jwt', 'session']);

/** Fields added to a valid NewPet: one request for the JSON body, one for the form body. */
export const JSON_BODY_CARRIERS: readonly KeyCarrier[] = each('json-body', ['access_token', 'api_key', 'apikey']);
export const FORM_BODY_CARRIERS: readonly KeyCarrier[] = each('form-body', ['access_token', 'api_key', 'apikey']);
