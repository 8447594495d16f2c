// The relations faults (faults/relations.ts) where the handler meets them: a stack whose layers
// read one request's spelling differently. The router may match a normalised path, or any method
// on an operation's path as its GET; an auth filter or a limiter goes by the raw path, the method
// after an override header, the exact Authorization value, or the forwarding headers of a gateway;
// a response cache answers before auth or before the limiter's counting; a controller, a
// dispatcher, a key parser, a query validator or a negotiator throws on, or refuses, a spelling it
// was not written for; a serialiser labels the answer JSON only for the one Accept it compares
// with. createPet's body parser and duplicate guard are in operations.ts.
//
// app.ts asks, in order: the route (`route`), whether auth is skipped (`skipsAuth`), the cached
// answer (`cached`) and whether the limiter counts the request (`counts`), then, before
// dispatching, an answer or an exception (`before`), and after it the answer as finally labelled
// (`answered`). With none of these faults on, `on` is false and app.ts asks nothing.
import type { IncomingMessage } from 'node:http';
import type { Faults } from './faults.ts';
import { HEADER, headerValue, type Reply } from './http.ts';
import { matchRoute, type RouteMatch } from './routes.ts';
import type { Target } from './target.ts';

/** Headers that name the method meant, which the interface does not know (method-override middlewares read them). */
const OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'] as const;
/** Headers the internal gateway sets, by which faults forwarded-skips-auth and forwarded-skips-limiter recognise it. */
const GATEWAY_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded', 'x-real-ip', 'x-original-url', 'x-rewrite-url'] as const;
/** The query parameters listPets knows (faults query-strict-400-text and query-validator-500 refuse any other). */
const LIST_PARAMETERS = new Set(['limit', 'status']);
/** Fault negotiation-lookup-500: the only values its tables hold. */
const SERIALISERS = new Set(['application/json']);
const ENCODERS = new Set(['gzip', 'identity']);
/** Answers a response cache keeps at most (the oldest is forgotten first). */
const CACHE_ENTRIES = 1_000;

/** What `before` needs of a request whose rate decision is made. */
export interface SpelledRequest {
  req: IncomingMessage;
  method: string;
  url: Target | undefined;
  route: RouteMatch;
  /** The request may proceed past authentication: a valid key, or a fault that skipped the check. */
  authed: boolean;
  /** The limiter let it through. */
  allowed: boolean;
  /** A cached answer found for it (`cached`). */
  cached: Reply | undefined;
}

export class SpellingFaults {
  /** Any of these faults is on. */
  readonly on: boolean;
  private readonly normalisingRouter: boolean;
  private readonly anyMethodAsGet: boolean;
  private readonly f: Readonly<Record<
    | 'pathAuth'
    | 'pathLimiter'
    | 'pathController'
    | 'gatewayAuth'
    | 'gatewayMeters'
    | 'dispatchTable'
    | 'schemeReplace'
    | 'otherSchemePasses'
    | 'limiterExactHeader'
    | 'strictQuery'
    | 'queryValidator500'
    | 'exactAcceptOnly'
    | 'negotiationLookup'
    | 'forwardedAuth'
    | 'forwardedLimiter'
    | 'semicolonAuth'
    | 'repeatedLimit500'
    | 'authFieldNameExact',
    boolean
  >>;
  /** Fault order-cache-before-auth: GET answers by target, Accept and Accept-Encoding, for anyone. */
  private readonly sharedCache: Map<string, Reply> | undefined;
  /** Fault order-cache-before-limiter: GET answers by key, target, Accept and Accept-Encoding. */
  private readonly keyCache: Map<string, Reply> | undefined;

  constructor(faults: Faults) {
    this.f = {
      pathAuth: faults.has('path-auth-on-raw-path'),
      pathLimiter: faults.has('path-limiter-on-raw-path'),
      pathController: faults.has('path-controller-rereads-raw-path'),
      gatewayAuth: faults.has('method-gateway-auth-by-override'),
      gatewayMeters: faults.has('method-gateway-meters-by-override'),
      dispatchTable: faults.has('method-dispatch-table-500'),
      schemeReplace: faults.has('credential-scheme-replace-500'),
      otherSchemePasses: faults.has('credential-other-scheme-passes'),
      limiterExactHeader: faults.has('credential-limiter-exact-header'),
      strictQuery: faults.has('query-strict-400-text'),
      queryValidator500: faults.has('query-validator-500'),
      exactAcceptOnly: faults.has('negotiation-exact-accept-only'),
      negotiationLookup: faults.has('negotiation-lookup-500'),
      forwardedAuth: faults.has('forwarded-skips-auth'),
      forwardedLimiter: faults.has('forwarded-skips-limiter'),
      semicolonAuth: faults.has('path-semicolon-skips-auth'),
      repeatedLimit500: faults.has('query-repeated-limit-500'),
      authFieldNameExact: faults.has('auth-field-name-exact'),
    };
    this.sharedCache = faults.has('order-cache-before-auth') ? new Map() : undefined;
    this.keyCache = faults.has('order-cache-before-limiter') ? new Map() : undefined;
    this.normalisingRouter = this.f.pathAuth || this.f.pathLimiter || this.f.pathController;
    this.anyMethodAsGet = this.f.gatewayAuth || this.f.gatewayMeters;
    this.on = Object.values(this.f).some(Boolean) || this.sharedCache !== undefined || this.keyCache !== undefined;
  }

  /** The route the backend's router finds: on the normalised path, and any method on an operation's path as its GET. */
  route(method: string, url: Target, req: IncomingMessage): RouteMatch {
    const path = this.normalisingRouter ? normalisedPath(rawPath(req, url)) : this.f.semicolonAuth ? withoutPathParameters(rawPath(req, url)) : url.pathname;
    const found = matchRoute(method, path);
    return this.anyMethodAsGet && found.kind === 'method-not-allowed' ? matchRoute('GET', path) : found;
  }

  /** Fault auth-field-name-exact: the Authorization field was sent under a name the reader does not look up (neither `Authorization` nor `authorization`). */
  unreadAuthorization(req: IncomingMessage): boolean {
    if (!this.f.authFieldNameExact) return false;
    const names = req.rawHeaders.filter((_, i) => i % 2 === 0);
    return names.some((n) => n.toLowerCase() === 'authorization') && !names.some((n) => n === 'Authorization' || n === 'authorization');
  }

  /** The key check does not run: a filter that did not recognise the request as one it guards. */
  skipsAuth(req: IncomingMessage, method: string, url: Target | undefined): boolean {
    if (url === undefined) return false;
    if (this.f.pathAuth && respelledPath(req, url)) return true;
    if (this.f.semicolonAuth && rawPath(req, url).includes(';')) return true;
    if (this.f.gatewayAuth && !gatewayGuards(req, method, url)) return true;
    const header = req.headers.authorization;
    if (this.f.otherSchemePasses && header !== undefined && !header.startsWith('Bearer ')) return true;
    return this.f.forwardedAuth && GATEWAY_HEADERS.some((name) => req.headers[name] !== undefined);
  }

  /** An answer a response cache holds for the request: for anyone, or for the key it came with (`client`, when authenticated). */
  cached(req: IncomingMessage, method: string, client: string | undefined): { reply: Reply; counted: boolean } | undefined {
    if (method !== 'GET') return undefined;
    const shared = this.sharedCache?.get(cacheKey(req));
    // The shared cache sits behind the limiter: its answers are counted.
    if (shared) return { reply: shared, counted: true };
    const own = client === undefined ? undefined : this.keyCache?.get(`${client}\n${cacheKey(req)}`);
    return own && { reply: own, counted: false };
  }

  /** Whether the limiter counts the request (otherwise the headers are read from the key's counters as they stand). */
  counts(req: IncomingMessage, method: string, url: Target | undefined): boolean {
    if (url === undefined) return true;
    if (this.f.pathLimiter && respelledPath(req, url)) return false;
    if (this.f.gatewayMeters && !gatewayGuards(req, method, url)) return false;
    if (this.f.limiterExactHeader && !/^Bearer \S+$/.test(req.headers.authorization ?? '')) return false;
    return !(this.f.forwardedLimiter && GATEWAY_HEADERS.some((name) => req.headers[name] !== undefined));
  }

  /** Before dispatching: a cached answer, a refusal of a layer, or the exception a handler throws. */
  before(x: SpelledRequest): Reply | undefined {
    const { req, url, route } = x;
    // The key parser runs first, on any request with an Authorization header.
    if (this.f.schemeReplace) {
      const header = req.headers.authorization;
      const token = header?.replace('Bearer ', '');
      if (token !== undefined && /\s/.test(token)) throw new Error(`AssertionError: API key must be a single token, got ${JSON.stringify(token.replace(/\S/g, '*'))}`);
    }
    // A cache before auth answers whoever asks; one after it holds only a key's own answers.
    if (x.cached && x.allowed) return x.cached;
    if (!x.authed || !x.allowed || url === undefined) return undefined;
    if (route.kind === 'not-found') return undefined;
    if (this.f.dispatchTable && ((x.method !== 'GET' && x.method !== 'POST') || OVERRIDE_HEADERS.some((name) => req.headers[name] !== undefined))) {
      throw new TypeError('handlers[method] is not a function');
    }
    if (route.kind !== 'operation') return undefined;
    if (this.f.pathController && respelledPath(req, url)) throw new TypeError("Cannot read properties of undefined (reading 'handle')");
    if (this.f.repeatedLimit500 && route.operation === 'listPets' && url.searchParams.getAll('limit').length > 1) throw new TypeError('req.query.limit.trim is not a function');
    if ((this.f.strictQuery || this.f.queryValidator500) && route.operation === 'listPets') {
      const names = [...url.searchParams.keys()];
      const wrong = names.find((name, i) => !LIST_PARAMETERS.has(name) || names.indexOf(name) !== i);
      if (wrong !== undefined && this.f.queryValidator500) throw new Error(`ValidationError: "${wrong}" is not allowed`);
      if (wrong !== undefined) return { status: 400, headers: { [HEADER.contentType]: 'text/plain; charset=utf-8' }, text: `Bad Request: unexpected query parameter "${wrong}"` };
    }
    if (this.f.negotiationLookup) {
      const accept = req.headers.accept ?? 'application/json';
      const encoding = req.headers['accept-encoding'] ?? 'identity';
      if (!SERIALISERS.has(accept) || !ENCODERS.has(encoding)) throw new TypeError('serializers[accept] is not a function');
    }
    return undefined;
  }

  /** The operation's answer as finally labelled; caches keep it, a create empties them. */
  answered(req: IncomingMessage, method: string, route: RouteMatch, client: string | undefined, answer: Reply): Reply {
    if (route.kind !== 'operation') return answer;
    if (answer.status === 201) {
      this.sharedCache?.clear();
      this.keyCache?.clear();
    }
    if (method === 'GET' && answer.status === 200) {
      if (this.sharedCache) remember(this.sharedCache, cacheKey(req), answer);
      if (this.keyCache && client !== undefined) remember(this.keyCache, `${client}\n${cacheKey(req)}`, answer);
    }
    const accept = this.f.exactAcceptOnly ? req.headers.accept : undefined;
    if (accept === undefined || accept === 'application/json' || headerValue(answer.headers, HEADER.contentType) === undefined) return answer;
    const preferred = /html/i.test(accept) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8';
    const others = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name.toLowerCase() !== HEADER.contentType.toLowerCase()));
    return { ...answer, headers: { ...others, [HEADER.contentType]: preferred } };
  }
}

/** The path as sent, before `?` (the URL's path name when the target is not in origin form). */
function rawPath(req: IncomingMessage, url: Target): string {
  const raw = req.url ?? '';
  return raw.startsWith('/') ? raw.split('?')[0]! : url.pathname;
}

/**
 * What a normalising router makes of a path: `;` parameters dropped, percent-encoding decoded,
 * case folded, empty and dot segments removed, `..` resolved, no trailing slash.
 */
function normalisedPath(path: string): string {
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    let segment = raw.split(';')[0]!;
    try {
      segment = decodeURIComponent(segment);
    } catch {
      // Kept as sent.
    }
    segment = segment.toLowerCase();
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** Fault path-semicolon-skips-auth: the path with each segment's `;` parameters dropped, and nothing else changed. */
function withoutPathParameters(path: string): string {
  return path.split('/').map((segment) => segment.split(';')[0]!).join('/');
}

/** The path was sent otherwise than its normal form: a filter matching the raw path does not recognise it. */
function respelledPath(req: IncomingMessage, url: Target): boolean {
  const path = rawPath(req, url);
  return path !== normalisedPath(path);
}

/** The gateway's rule for a request: the method after an override header, on the raw path, is an operation's (HEAD is not among them). */
function gatewayGuards(req: IncomingMessage, method: string, url: Target): boolean {
  const override = OVERRIDE_HEADERS.map((name) => req.headers[name]).find((v): v is string => typeof v === 'string');
  const effective = override?.trim().toUpperCase() ?? method;
  return effective !== 'HEAD' && matchRoute(effective, url.pathname).kind === 'operation';
}

function cacheKey(req: IncomingMessage): string {
  return `${req.url ?? ''}\n${req.headers.accept ?? ''}\n${req.headers['accept-encoding'] ?? ''}`;
}

function remember(cache: Map<string, Reply>, key: string, answer: Reply): void {
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, answer);
}
