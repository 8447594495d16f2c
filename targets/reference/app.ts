// The request handler: authentication, rate limiting, routing, then the operation (operations.ts).
//
// Order of work for every request: the route is matched (pure, no lookup), the key is checked and
// a request is taken from the key's rate bucket, then come 401, 429, 400 for an unreadable target,
// 501 for a method no route has (variation unknown-method-501, which skips the 401 too), 404 and
// 405, and only then the operation's own validation and lookup. Every reply then gets the
// rate-limit headers (and, on the deprecated getPet path, Deprecation and Sunset), passes through
// the active variations' and then faults' rewrites (which see the rate decision in their context),
// is counted, and is handed to the delivery (delivery.ts), which may hold it before writing; the
// Retry-After of a refusal, as finally sent, is noted by the limiter for early-retry detection.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { PUBLISHED_PLANS, type PlanQuota } from '../../lib/plans.ts';
import type { AuthOptions, Client, KeyRing } from './auth.ts';
import { Delivery, type DeliveryPlan, SLOW_DAY } from './delivery.ts';
import type { Faults } from './faults.ts';
import { DEPRECATION_HEADERS, HEADER, errorReply, headerValue, type Reply, type ReplyContext } from './http.ts';
import { badRequest, createOperations, type Prepared } from './operations.ts';
import type { RateDecision, RateLimiter } from './rate-limit.ts';
import { isRoutedMethod, type RouteMatch } from './routes.ts';
import type { AnimalStore } from './store.ts';
import { ANONYMOUS, type StatsRecorder } from './stats.ts';
import { parseTarget, type Target } from './target.ts';
import { Variations } from './variations.ts';
import { OtherWaysIn } from './other-ways-in.ts';
import { SpellingVariations } from './spelling-variations.ts';
import { SpellingFaults } from './spelling-faults.ts';

export const MAX_BODY_BYTES = 64 * 1024;

export interface AppDeps {
  store: AnimalStore;
  keys: KeyRing;
  /** The published table with config overrides; every configured key's plan is in it. */
  plans: Readonly<Record<string, PlanQuota>>;
  limiter: RateLimiter;
  faults: Faults;
  /** Default: none. */
  variations?: Variations;
  stats: StatsRecorder;
  /** Default: every reply written at once, its Date left to node:http. */
  delivery?: Delivery;
  maxBodyBytes?: number;
  /** Waits on the server's clock (fault rate-check-then-count's pause). Default a real timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** The one bucket of fault rate-shared-bucket; no key label looks like it. */
const SHARED_BUCKET = '*shared*';
/** Fault rate-per-connection: each connection's number, for a bucket per key and connection. */
const connections = new WeakMap<object, number>();
let connectionsOpened = 0;
function connectionNumber(req: IncomingMessage): number {
  let n = connections.get(req.socket);
  if (n === undefined) {
    n = ++connectionsOpened;
    connections.set(req.socket, n);
  }
  return n;
}

const ANONYMOUS_CLIENT: Client = { label: ANONYMOUS, plan: 'free' };
const NOT_FOUND: RouteMatch = { kind: 'not-found', deprecated: false };

/** Fault rate-check-then-count: how long the limiter awaits its store between checking and counting. */
const CHECK_THEN_COUNT_GAP_MS = 5;

/** Fault auth-query-key-accepted reads these query parameters when there is no Authorization header. */
const QUERY_KEY_PARAMS = ['api_key', 'access_token', 'key'] as const;

/** A request once its rate decision is made: what the rest of its handling needs. */
interface Exchange {
  req: IncomingMessage;
  method: string;
  url: Target | undefined;
  route: RouteMatch;
  client: Client;
  authError: string | undefined;
  rate: RateDecision;
  plan: DeliveryPlan;
  /** A response cache's answer for it (relations faults, spelling-faults.ts). */
  cached?: Reply | undefined;
}

/** A finished, counted reply and how it is to be delivered. */
interface Outcome {
  reply: Reply;
  plan: DeliveryPlan;
}

export function createApp(deps: AppDeps): RequestListener {
  const { store, keys, plans, limiter, faults, stats } = deps;
  const variations = deps.variations ?? new Variations();
  const delivery = deps.delivery ?? new Delivery();
  const maxBodyBytes = deps.maxBodyBytes ?? MAX_BODY_BYTES;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const anonymousQuota = plans.free ?? PUBLISHED_PLANS.free!;
  const operations = createOperations({ store, faults, variations, maxBodyBytes });
  // The switches are fixed for the server's life: read once here rather than on every request.
  const authFirst = !faults.has('auth-after-validation');
  // Variation routing-before-auth: the router's 404 and 405 come before the key check.
  const routedFirst = variations.has('routing-before-auth');
  // Variation unknown-method-501: a method no route has is not implemented, before the key check.
  const unknownMethod501 = variations.has('unknown-method-501');
  const parserFirst = variations.has('json-parser-first');
  const storesBeforeAuth = faults.has('auth-after-store');
  const deleteFails = faults.has('delete-500');
  const authOptions: AuthOptions = {
    caseSensitiveScheme: faults.has('auth-scheme-case-sensitive'),
    emptyTokenAsFirstKey: faults.has('auth-empty-bearer-accepted'),
    keyPrefixAccepted: faults.has('auth-key-prefix-accepted'),
    keyCaseInsensitive: faults.has('auth-key-case-insensitive'),
    listOfCredentials: faults.has('auth-credential-list'),
    firstWord: variations.has('lenient-bearer'),
  };
  const authDisabled = faults.has('auth-disabled');
  const queryKeyAccepted = faults.has('auth-query-key-accepted');
  // Faults auth-api-key-header-accepted, auth-basic-key-accepted, auth-session-cookie, auth-prototype-key.
  const otherWays = new OtherWaysIn(faults);
  // The relations faults: layers that read a request's spelling differently (spelling-faults.ts).
  const spellingFaults = new SpellingFaults(faults);
  const neverRefuse = faults.has('rate-never-429');
  const sharedBucket = faults.has('rate-shared-bucket');
  const bucketPerConnection = faults.has('rate-per-connection');
  const bucketPerOperation = faults.has('rate-per-operation') || faults.has('rate-per-operation-no-reset');
  const countsOnlySuccess = faults.has('rate-counts-only-success');
  const checkThenCount = faults.has('rate-check-then-count');
  const validatesFirst = faults.has('rate-validation-first');
  const slowDay = variations.has('slow-day');
  // Variations of how other spellings of a request are read (routing, redirects, CORS, negotiation, query).
  const spellings = new SpellingVariations(variations);

  // Handling stays synchronous as long as nothing in it waits (reading a body, a fault's pause, a
  // delivery's delay): a promise only where something does. Either way the same steps run in the
  // same order, and an exception anywhere in them ends the same way.

  /** The limiter's refusal: 429 with Retry-After (a ban's, or the window's). */
  function limited(rate: RateDecision): Reply {
    const retryAfter = rate.retryAfter ?? 1;
    const headers = { [HEADER.retryAfter]: String(retryAfter) };
    if (rate.banned) {
      return errorReply(429, 'banned', `API key banned for retrying before Retry-After; retry after ${retryAfter} s`, headers);
    }
    return errorReply(429, 'rate_limited', `rate limit exceeded; retry after ${retryAfter} s`, headers);
  }

  function dispatch(x: Exchange): Reply | Promise<Reply> {
    const { req, url, route, authError, rate } = x;
    // Variations strict-path-400 and trailing-slash-redirect: a firewall's refusal or a router's redirect, before the key is looked at;
    // then the spelling faults' answers (a cache, a crashing parser...).
    const early = spellings.beforeAuth(req) ?? (spellingFaults.on ? spellingFaults.before({ req, method: x.method, url, route, authed: authError === undefined, allowed: rate.allowed, cached: x.cached }) : undefined);
    if (early) return early;
    const notImplemented = unknownMethod501 && !isRoutedMethod(x.method);
    if (authError !== undefined && authFirst && !notImplemented && !(routedFirst && url !== undefined && route.kind !== 'operation')) {
      // Fault auth-after-store: the key is checked by a hook on the answer, after the createPet
      // handler stored its animal. Variation json-parser-first: a body parser mounted before
      // authentication refuses what it cannot read.
      if ((storesBeforeAuth || parserFirst) && url !== undefined && route.kind === 'operation' && route.operation === 'createPet') {
        const stored = async (p: Prepared) => {
          if ('proceed' in p) await p.proceed();
          return unauthorized(authError);
        };
        const parsed = (p: Prepared) => ('reject' in p && p.unreadable ? p.reject : unauthorized(authError));
        return whenPrepared(operations.createPet(req, url, route.params, x.client.label), storesBeforeAuth ? stored : parsed);
      }
      return unauthorized(authError);
    }
    // Fault rate-validation-first: the operation's validation runs before the limiter's refusal.
    if (!rate.allowed && validatesFirst && url !== undefined && route.kind === 'operation') {
      return whenPrepared(operations[route.operation](req, url, route.params, x.client.label), (p) => ('reject' in p ? p.reject : limited(rate)));
    }
    if (!rate.allowed) return limited(rate);
    if (url === undefined) return badRequest('request target is not a valid URL');
    if (notImplemented) return errorReply(501, 'not_implemented', `${x.method} is not implemented by this server`);
    if (route.kind === 'not-found') return errorReply(404, 'not_found', `no such resource: ${url.pathname}`);
    if (route.kind === 'method-not-allowed') {
      // Fault delete-500: DELETE /pets/{petId} reaches a handler that reads what is not there.
      if (deleteFails && req.method === 'DELETE' && url.pathname.startsWith('/v1/pets/')) throw new TypeError("Cannot read properties of undefined (reading 'remove')");
      return errorReply(405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}`, { Allow: route.allow });
    }
    // Variations accept-406 and strict-query: negotiation and a query schema, before the operation's own validation.
    const refused = spellings.refuse(req, url, route.operation);
    if (refused) return refused;
    return whenPrepared(operations[route.operation](req, url, route.params, x.client.label), (p) => proceed(p, authError));
  }

  function proceed(prepared: Prepared, authError: string | undefined): Reply | Promise<Reply> {
    if ('reject' in prepared) return prepared.reject;
    if (authError !== undefined) return unauthorized(authError);
    return prepared.proceed();
  }

  function respond(req: IncomingMessage): Outcome | Promise<Outcome> {
    const method = req.method ?? 'GET';
    const url = parseTarget(req.url);
    const route: RouteMatch = url ? (spellingFaults.on ? spellingFaults.route(method, url, req) : spellings.match(method, url.pathname)) : NOT_FOUND;
    const presented = authorization(req, url);
    const auth = otherWays.admit(req, keys.authenticate(presented, authOptions), presented);
    const client = auth.ok ? auth.client : ANONYMOUS_CLIENT;
    // Unauthenticated callers share one bucket with the free plan's numbers that is counted but
    // never enforced: they are always answered 401, which tells them what is actually wrong.
    // Fault rate-never-429 stops enforcing; fault rate-shared-bucket counts every key in one bucket.
    const quota = auth.ok ? plans[client.plan]! : anonymousQuota;
    const takeOptions = {
      enforce: auth.ok && !neverRefuse,
      bucket: !auth.ok
        ? undefined
        : sharedBucket
          ? SHARED_BUCKET
          : bucketPerConnection
            ? `${client.label}@${connectionNumber(req)}`
            : bucketPerOperation
              ? `${client.label}#${route.kind === 'operation' ? route.operation : route.kind}`
              : undefined,
    };
    const authError = auth.ok || authDisabled || (spellingFaults.on && spellingFaults.skipsAuth(req, method, url)) ? undefined : auth.message;
    if (auth.ok && checkThenCount) {
      // Check, await the store, then count whatever was decided: requests in between slip through.
      const allowed = limiter.wouldAllow(client.label, quota, takeOptions);
      return sleep(CHECK_THEN_COUNT_GAP_MS).then(() => {
        const rate = limiter.take(client.label, quota, { ...takeOptions, enforce: takeOptions.enforce && !allowed });
        return decided({ req, method, url, route, client, authError, rate, plan: deliveryPlan(req, client, quota, auth.ok) });
      });
    }
    const cached = spellingFaults.on ? spellingFaults.cached(req, method, auth.ok ? client.label : undefined) : undefined;
    const counted = !spellingFaults.on || (cached?.counted !== false && spellingFaults.counts(req, method, url));
    const rate = counted ? limiter.take(client.label, quota, takeOptions) : limiter.peek(client.label, quota, takeOptions);
    const outcome = decided({ req, method, url, route, client, authError, rate, plan: deliveryPlan(req, client, quota, auth.ok), cached: cached?.reply });
    if (!countsOnlySuccess || !auth.ok || !rate.allowed) return outcome;
    // Fault rate-counts-only-success: a request answered 4xx is given back once answered.
    const giveBackFailed = (o: Outcome) => {
      if (o.reply.status >= 400 && o.reply.status < 500) limiter.giveBack(takeOptions.bucket ?? client.label, quota);
      return o;
    };
    return outcome instanceof Promise ? outcome.then(giveBackFailed) : giveBackFailed(outcome);
  }

  /** How the reply is delivered (on the request's connection): variation slow-day answers a key past half its day slowly. */
  function deliveryPlan(req: IncomingMessage, client: Client, quota: PlanQuota, known: boolean): DeliveryPlan {
    const late = slowDay && known && limiter.dayShare(client.label, quota) >= SLOW_DAY.share;
    return delivery.plan(client.label, late ? SLOW_DAY.delayMs : 0, req.socket);
  }

  function decided(x: Exchange): Outcome | Promise<Outcome> {
    let reply: Reply | Promise<Reply>;
    try {
      reply = dispatch(x);
    } catch {
      reply = internalError();
    }
    return reply instanceof Promise ? reply.then(undefined, internalError).then((r) => finish(x, r)) : finish(x, reply);
  }

  function internalError(): Reply {
    stats.recordException();
    return errorReply(500, 'internal_error', 'unexpected server error');
  }

  function finish(x: Exchange, operationAnswer: Reply): Outcome {
    const { route, client, rate } = x;
    const answer = spellingFaults.on ? spellingFaults.answered(x.req, x.method, route, client === ANONYMOUS_CLIENT ? undefined : client.label, operationAnswer) : operationAnswer;
    let reply: Reply = {
      ...answer,
      headers: {
        [HEADER.limit]: String(rate.limit),
        [HEADER.remaining]: String(rate.remaining),
        [HEADER.reset]: String(rate.reset),
        ...(route.deprecated ? DEPRECATION_HEADERS : {}),
        ...otherWays.setCookie(client === ANONYMOUS_CLIENT ? undefined : client),
        ...answer.headers,
      },
    };
    if (variations.rewriting || faults.rewriting) {
      const context: ReplyContext = {
        operation: route.kind === 'operation' ? route.operation : undefined,
        rate: { decision: rate, plan: client.plan, plans },
        ...(x.url ? { path: x.url.pathname } : {}),
      };
      reply = faults.rewrite(variations.rewrite(reply, context), context);
    }
    // Later requests are judged early against the Retry-After the client was actually sent.
    if (!rate.allowed) limiter.noteRetryAfter(client.label, headerValue(reply.headers, HEADER.retryAfter), rate.at);
    stats.record({
      keyLabel: client.label,
      plan: client.plan,
      method: x.method,
      status: reply.status,
      earlyRetry: rate.earlyRetry,
      banStarted: rate.banStarted,
    });
    return { reply, plan: x.plan };
  }

  function authorization(req: IncomingMessage, url: Target | undefined): string | undefined {
    const header = spellingFaults.on && spellingFaults.unreadAuthorization(req) ? undefined : otherWays.authorization(req);
    if (header !== undefined || url === undefined || !queryKeyAccepted) return header;
    const key = QUERY_KEY_PARAMS.map((name) => url.searchParams.get(name)).find((value) => value !== null);
    return key === undefined ? undefined : `Bearer ${key}`;
  }

  /** Writes the outcome; a failure to write is a failure of the pipeline. */
  function deliver(res: ServerResponse, { reply, plan }: Outcome): void {
    let written: Promise<void> | undefined;
    try {
      written = delivery.write(res, reply, plan);
    } catch {
      failed(res);
      return;
    }
    written?.catch(() => failed(res));
  }

  /** Only a bug in the pipeline itself lands here; the request was not counted. */
  function failed(res: ServerResponse): void {
    stats.recordException();
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const reply = variations.rewrite(errorReply(500, 'internal_error', 'unexpected server error'), { operation: undefined });
    try {
      delivery.write(res, reply)?.catch(() => res.destroy());
    } catch {
      res.destroy();
    }
  }

  /** Variation options-cors: a CORS layer in front answers a preflight, before authentication and the limiter (counted in stats only). */
  function preflight(req: IncomingMessage, res: ServerResponse): boolean {
    const answer = spellings.preflight(req);
    if (answer === undefined) return false;
    const reply = variations.rewrite(answer, { operation: undefined });
    stats.record({ keyLabel: ANONYMOUS, plan: 'free', method: 'OPTIONS', status: reply.status, earlyRetry: false });
    deliver(res, { reply, plan: delivery.plan(ANONYMOUS, 0, req.socket) });
    return true;
  }

  return (req, res) => {
    if (preflight(req, res)) return;
    let outcome: Outcome | Promise<Outcome>;
    try {
      outcome = respond(req);
    } catch {
      failed(res);
      return;
    }
    if (outcome instanceof Promise) outcome.then((o) => deliver(res, o), () => failed(res));
    else deliver(res, outcome);
  };
}

function unauthorized(message: string): Reply {
  return errorReply(401, 'unauthorized', message, { [HEADER.wwwAuthenticate]: 'Bearer' });
}

/** What an operation's preparation leads to, once it is ready (it may read the body first). */
function whenPrepared(prepared: Prepared | Promise<Prepared>, then: (p: Prepared) => Reply | Promise<Reply>): Reply | Promise<Reply> {
  return prepared instanceof Promise ? prepared.then(then) : then(prepared);
}
