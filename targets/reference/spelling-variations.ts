// How the legal variations of this file read other spellings of a request, as a router, a parser or
// a middleware of some stack does where the interface leaves room (the relations suite's families):
// the path (case-insensitive-routing, trailing-slash-served, trailing-slash-redirect,
// merged-slashes, path-parameters-ignored, percent-decoded-path, strict-path-400), the method
// (head-405, options-cors), the query (strict-query), content negotiation (accept-406), the body
// (duplicate-member-last-wins) and the Location of a created animal (location-absolute).
//
// app.ts asks at four points, in the order a request meets them: `preflight` before anything (a
// CORS layer in front of the limiter), `match` where the route is looked up, `beforeAuth` first
// in the handling (a firewall, a router's redirect), `refuse` after authentication and the limiter
// for an operation (negotiation, a query schema). operations.ts asks `locationOf` and `parseBody`.
// With none of these variations on, each answers as if it were not there.
import type { IncomingMessage } from 'node:http';
import { isInteger, isSafeNumber, parse } from 'lossless-json';
import { tryParseJson } from '../../lib/json.ts';
import { errorReply, type Reply } from './http.ts';
import { matchRoute, type OperationId, type RouteMatch } from './routes.ts';
import type { Target } from './target.ts';
import type { Variations } from './variations.ts';

/** Variation strict-query: the query parameters each operation knows. */
const KNOWN_PARAMETERS: Readonly<Record<OperationId, readonly string[]>> = {
  listPets: ['limit', 'status'],
  createPet: [],
  getPet: [],
  listOrders: [],
};

/** Variation options-cors: what express's cors() answers a preflight with (its default origin, our methods). */
const CORS_METHODS = 'GET,HEAD,POST';

/** RFC 3986 §2.3: the characters a percent-encoding of which a normaliser decodes. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Variation strict-path-400: what StrictHttpFirewall refuses in a path (`;`, `//`, `/./`, `/../`, a trailing `/.` or `/..`, a backslash; encoded, `;`, `.`, `/`, `\`, `%` and NUL). */
const UNNORMALISED = /;|\/\/|\/\.\.?(\/|$)|\\|%(3b|2e|2f|5c|25|00)/i;

/** The path of a request-target in origin form, as sent (no dot segment resolved); undefined for any other form. */
function rawPath(target: string | undefined): { path: string; query: string } | undefined {
  if (target === undefined || !target.startsWith('/')) return undefined;
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  const query = end !== -1 && target[end] === '?' ? target.slice(end).split('#')[0]! : '';
  return { path, query };
}

/** Go's path.Clean as ServeMux applies it: doubled slashes merged, dot and dot-dot segments resolved, a trailing slash kept. */
function cleanPath(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  const cleaned = `/${out.join('/')}`;
  return path.endsWith('/') && cleaned !== '/' ? `${cleaned}/` : cleaned;
}

/** Percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2); every other encoding left as it is. */
function decodeUnreserved(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : encoded;
  });
}

/** Whether an Accept value admits a JSON answer: no Accept, or a range application/json, application/* or * / * with q above 0. */
function admitsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((p) => p.trim());
    if (!['application/json', 'application/*', '*/*'].includes(type.toLowerCase())) return false;
    const q = params.find((p) => /^q\s*=/i.test(p));
    return q === undefined || Number(q.split('=')[1]) > 0;
  });
}

/** As Go's http.Redirect writes it: a short HTML note for a GET (RFC 9110 §15.4: a redirect's body is usually such a note). */
const redirect = (status: 301 | 307, location: string): Reply => ({
  status,
  headers: { Location: location, 'Content-Type': 'text/html; charset=utf-8' },
  text: `<a href="${location}">${status === 301 ? 'Moved Permanently' : 'Temporary Redirect'}</a>.\n\n`,
});

export class SpellingVariations {
  private readonly caseInsensitive: boolean;
  private readonly trailingServed: boolean;
  private readonly redirects: boolean;
  private readonly mergedSlashes: boolean;
  private readonly pathParameters: boolean;
  private readonly percentDecoded: boolean;
  private readonly firewall: boolean;
  private readonly strictQuery: boolean;
  private readonly accept406: boolean;
  private readonly head405: boolean;
  private readonly cors: boolean;
  /** Whether the path is read other than as the URL parser gives it. */
  private readonly rewritesPath: boolean;

  constructor(variations: Variations) {
    this.caseInsensitive = variations.has('case-insensitive-routing');
    this.trailingServed = variations.has('trailing-slash-served');
    this.redirects = variations.has('trailing-slash-redirect');
    this.mergedSlashes = variations.has('merged-slashes');
    this.pathParameters = variations.has('path-parameters-ignored');
    this.percentDecoded = variations.has('percent-decoded-path');
    this.firewall = variations.has('strict-path-400');
    this.strictQuery = variations.has('strict-query');
    this.accept406 = variations.has('accept-406');
    this.head405 = variations.has('head-405');
    this.cors = variations.has('options-cors');
    this.rewritesPath = this.caseInsensitive || this.trailingServed || this.mergedSlashes || this.pathParameters || this.percentDecoded;
  }

  /** Variation options-cors: a CORS layer's 204 to any OPTIONS, before authentication and the limiter. */
  preflight(req: IncomingMessage): Reply | undefined {
    if (!this.cors || req.method !== 'OPTIONS') return undefined;
    const requested = req.headers['access-control-request-headers'];
    return {
      status: 204,
      headers: {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': CORS_METHODS,
        ...(typeof requested === 'string' ? { 'Access-Control-Allow-Headers': requested, Vary: 'Access-Control-Request-Headers' } : {}),
      },
    };
  }

  /** The route of a request as the routers of the path's variations read its path name; head-405 takes HEAD off every route. */
  match(method: string, pathname: string): RouteMatch {
    let path = pathname;
    if (this.rewritesPath) {
      if (this.pathParameters) path = path.split('/').map((segment) => segment.split(';')[0]).join('/');
      if (this.percentDecoded) path = decodeUnreserved(path);
      if (this.mergedSlashes) path = path.replace(/\/{2,}/g, '/');
      if (this.trailingServed && path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    }
    let route = matchRoute(method, this.caseInsensitive ? path.toLowerCase() : path);
    // The id as sent, not in lower case: only getPet has a parameter, its last segment.
    if (this.caseInsensitive && route.kind === 'operation' && route.params.length === 1) route = { ...route, params: [path.slice(path.lastIndexOf('/') + 1)] };
    if (!this.head405 || route.kind === 'not-found') return route;
    if (route.kind === 'operation' && method !== 'HEAD') return route;
    // No route has OPTIONS: its 405 lists every method of the path.
    const every = route.kind === 'method-not-allowed' ? route.allow : (matchRoute('OPTIONS', this.caseInsensitive ? path.toLowerCase() : path) as { allow: string }).allow;
    return { kind: 'method-not-allowed', allow: every.split(', ').filter((m) => m !== 'HEAD').join(', '), deprecated: route.deprecated };
  }

  /** First in the handling, before authentication: strict-path-400's firewall, then trailing-slash-redirect's router. */
  beforeAuth(req: IncomingMessage): Reply | undefined {
    if (!this.firewall && !this.redirects) return undefined;
    const raw = rawPath(req.url);
    if (raw === undefined) return undefined;
    if (this.firewall && UNNORMALISED.test(raw.path)) {
      return errorReply(400, 'invalid_request', 'the request was rejected because the URL was not normalized');
    }
    if (!this.redirects) return undefined;
    const cleaned = cleanPath(raw.path);
    if (cleaned !== raw.path) return redirect(301, cleaned + raw.query);
    if (cleaned.length > 1 && cleaned.endsWith('/')) {
      const without = cleaned.slice(0, -1);
      if (matchRoute(req.method ?? 'GET', without).kind !== 'not-found') return redirect(307, without + raw.query);
    }
    return undefined;
  }

  /** After authentication and the limiter, for an operation: accept-406's negotiation, then strict-query's schema. */
  refuse(req: IncomingMessage, url: Target, operation: OperationId): Reply | undefined {
    if (this.accept406 && !admitsJson(req.headers.accept)) {
      return errorReply(406, 'not_acceptable', `Accept "${req.headers.accept}" admits no application/json, the only media type served`);
    }
    if (this.strictQuery) {
      const known = KNOWN_PARAMETERS[operation];
      const unknown = [...url.searchParams.keys()].find((name) => !known.includes(name));
      if (unknown !== undefined) return errorReply(400, 'invalid_request', `${unknown}: unknown query parameter (${known.length === 0 ? 'none is defined' : `only ${known.join(', ')}`})`);
    }
    return undefined;
  }
}

/**
 * Where a created animal is: /v1/pets/{id}, or with variation location-absolute the absolute URL,
 * its origin from X-Forwarded-Proto and -Host when a proxy sent them, else http and Host.
 */
export function locationOf(req: IncomingMessage, id: bigint, absolute: boolean): string {
  const path = `/v1/pets/${id}`;
  if (!absolute) return path;
  const first = (name: string) => {
    const value = req.headers[name];
    return (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;
  };
  return `${first('x-forwarded-proto') ?? 'http'}://${first('x-forwarded-host') ?? first('host') ?? 'localhost'}${path}`;
}

/** Integer literals that fit a double exactly stay numbers; larger ones become bigint (as lib/json.ts reads them). */
function parseNumber(literal: string): number | bigint {
  if (isInteger(literal)) return isSafeNumber(literal) ? Number(literal) : BigInt(literal);
  return Number(literal);
}

/**
 * A request body read as JSON: by default a member repeated with another value is refused;
 * variation duplicate-member-last-wins takes the last, fault body-duplicate-first-wins-echo's
 * streaming reader the first.
 */
export function parseBody(text: string, duplicates: 'refuse' | 'last' | 'first'): { ok: true; value: unknown } | { ok: false; error: string } {
  if (duplicates === 'refuse') return tryParseJson(text);
  try {
    return { ok: true, value: parse(text, null, { parseNumber, onDuplicateKey: ({ oldValue, newValue }) => (duplicates === 'last' ? newValue : oldValue) }) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
