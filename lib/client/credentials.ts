// The client's credentials: how a request carries a key (or none, or a credential a check made up:
// a near miss of a key, the key in other carriers), what that sets on the request (Authorization,
// other headers, cookies, query parameters, fields of the body), and what the record says of it
// (AuthUsed: the key's label and variable, never the key). Pure: a request's credential in, what
// to send and to record out.
import type { TargetKey } from '../config/schema.ts';
import { carrierName, carrierValue, type KeyCarrier } from '../generators/key-carriers.ts';
import type { NearMissKey } from '../generators/near-miss-key.ts';
import type { AuthUsed } from '../result/exchange.ts';

/** How a request authenticates: a configured key, none, or a credential made up by a check. */
export type Auth =
  | { key: TargetKey; scheme?: string }
  | { none: true }
  | { header: string }
  | { queryParam: string; value: string }
  /** A configured key sent as a query parameter instead of the header (it must be refused). */
  | { keyInQuery: TargetKey; param: string }
  /**
   * A credential close to a configured key (its prefix, another case...), made from the key: a
   * secret like the key. Recorded as the shell text that rebuilds it from the key's variable.
   */
  | { nearMissOf: TargetKey; nearMiss: NearMissKey }
  /**
   * A configured key sent by other carriers than `Authorization: Bearer` (another scheme, another
   * header, a query parameter, a cookie, a field of the JSON or form body), one or several at once,
   * without an Authorization header unless a carrier is one: it must be refused. Recorded redacted,
   * as kind `key-carrier`; reproductions rebuild each value from the key's variable.
   */
  | { carrierOf: TargetKey; carriers: readonly KeyCarrier[] };

/** A credential that carries a configured key as such, in the header or the query: a 429 to it is the key's. */
export function carriesKey(auth: Auth): boolean {
  return 'key' in auth || 'keyInQuery' in auth;
}

/**
 * Throws unless a credential made from a key (a near miss holds the key or its prefix, in some
 * case; a carrier the key, maybe encoded) is made from one of `keys`: the client's redactor scrubs
 * what is made from the client's own keys, and made from any other key, it would be recorded as sent.
 */
export function assertMadeFromOwnKey(credential: Auth, keys: readonly TargetKey[]): void {
  const madeFrom = 'nearMissOf' in credential ? { key: credential.nearMissOf, what: `a near miss of ${credential.nearMissOf.label}` } : 'carrierOf' in credential ? { key: credential.carrierOf, what: `${credential.carrierOf.label} in other carriers` } : undefined;
  if (madeFrom && !keys.some((k) => k.key === madeFrom.key.key)) {
    throw new Error(`${madeFrom.what}, which is not one of this client's keys: it would not be redacted`);
  }
}

/** Appends the query parameters the credential is carried in, if any, to the request's URL. */
export function addQueryCredential(url: URL, auth: Auth): void {
  if ('queryParam' in auth) url.searchParams.append(auth.queryParam, auth.value);
  if ('keyInQuery' in auth) url.searchParams.append(auth.param, auth.keyInQuery.key);
  if ('carrierOf' in auth) {
    for (const c of auth.carriers) if (c.place === 'query') url.searchParams.append(c.name, carrierValue(c, auth.carrierOf.key));
  }
}

/**
 * Sets the Authorization header (or the carriers' headers and cookies) and describes it without
 * the secret; `scrub` is the client's redactor, for a literal credential a check made up.
 */
export function authorise(auth: Auth, headers: Record<string, string>, scrub: (text: string) => string): AuthUsed {
  if ('key' in auth) {
    // An empty scheme sends the bare key, as a client that forgot "Bearer " would.
    const scheme = auth.scheme ?? 'Bearer';
    headers.authorization = scheme ? `${scheme} ${auth.key.key}` : auth.key.key;
    return { kind: 'key', label: auth.key.label, env: auth.key.env, header: scheme ? `${scheme} $${auth.key.env}` : `$${auth.key.env}` };
  }
  if ('keyInQuery' in auth) {
    return { kind: 'key-in-query', label: auth.keyInQuery.label, env: auth.keyInQuery.env, param: auth.param };
  }
  if ('carrierOf' in auth) {
    const { key } = auth.carrierOf;
    const cookies: string[] = [];
    for (const c of auth.carriers) {
      if (c.place === 'header') headers[c.name.toLowerCase()] = carrierValue(c, key);
      else if (c.place === 'cookie') cookies.push(`${c.name}=${carrierValue(c, key)}`);
    }
    if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join('; ');
    return { kind: 'key-carrier', label: auth.carrierOf.label, env: auth.carrierOf.env, carriers: auth.carriers.map(carrierName) };
  }
  if ('nearMissOf' in auth) {
    headers.authorization = auth.nearMiss.header;
    return { kind: 'key', label: auth.nearMissOf.label, env: auth.nearMissOf.env, header: auth.nearMiss.shell(auth.nearMissOf.env) };
  }
  if ('header' in auth) {
    headers.authorization = auth.header;
    return { kind: 'literal', header: scrub(auth.header), where: 'header' };
  }
  if ('queryParam' in auth) return { kind: 'literal', header: scrub(auth.value), where: 'query' };
  return { kind: 'none' };
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The Content-Type of a body the request names none for: a form's when a carrier is a field of a form body, else JSON. */
export function bodyType(auth: Auth): string {
  return 'carrierOf' in auth && auth.carriers.some((c) => c.place === 'form-body') ? FORM_TYPE : 'application/json';
}

/**
 * The body to send: the request's, with the key added by body carriers: as fields of its JSON
 * object (a body that is not one gets an object of them alone), or as fields of its form body.
 */
export function bodyWithCarriers(auth: Auth, requestBody: string | undefined): string | undefined {
  if (!('carrierOf' in auth)) return requestBody;
  const { key } = auth.carrierOf;
  const json = auth.carriers.filter((c) => c.place === 'json-body');
  const form = auth.carriers.filter((c) => c.place === 'form-body');
  let body = requestBody;
  if (json.length > 0) {
    const fields = json.map((c) => `${JSON.stringify(c.name)}:${JSON.stringify(carrierValue(c, key))}`).join(',');
    const object = /^\s*\{([\s\S]*)\}\s*$/.exec(body ?? '');
    body = object ? `{${object[1]!.trim() === '' ? '' : `${object[1]!.replace(/\s+$/, '')},`}${fields}}` : `{${fields}}`;
  }
  if (form.length > 0) {
    const fields = new URLSearchParams(form.map((c): [string, string] => [c.name, carrierValue(c, key)])).toString();
    body = body ? `${body}&${fields}` : fields;
  }
  return body;
}
