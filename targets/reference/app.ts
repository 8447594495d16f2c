// The request handler: authentication, rate limiting, routing, then the operation (operations.ts).
//
// Order of work for every request: the route is matched (pure, no lookup), the key is checked and
// a request is taken from the key's rate bucket, then come 401, 429, 400 for an unreadable target,
// 404 and 405, and only then the operation's own validation and lookup. Every reply then gets the
// rate-limit headers (and, on the deprecated getPet path, Deprecation and Sunset), passes through
// the active variations' and then faults' rewrites (which see the rate decision in their context),
// is counted, and is handed to the delivery (delivery.ts), which may hold it before writing; the
// Retry-After of a refusal, as finally sent, is noted by the limiter for early-retry detection.
import type { IncomingMessage, RequestListener } from 'node:http';
import { PUBLISHED_PLANS, type PlanQuota } from '../../lib/plans.ts';
import type { KeyRing } from './auth.ts';
import { Delivery, type DeliveryPlan } from './delivery.ts';
import type { Faults } from './faults.ts';
import { HEADER, errorReply, headerValue, type Reply, type ReplyContext } from './http.ts';
import { badRequest, createOperations } from './operations.ts';
import type { RateDecision, RateLimiter } from './rate-limit.ts';
import { matchRoute, type RouteMatch } from './routes.ts';
import type { AnimalStore } from './store.ts';
import { ANONYMOUS, type StatsRecorder } from './stats.ts';
import { Variations } from './variations.ts';

export const MAX_BODY_BYTES = 64 * 1024;

/** getPet is deprecated, with removal announced for 5 December 2030 ("Versioning"). */
export const DEPRECATION_HEADERS: Readonly<Record<string, string>> = {
  Deprecation: 'true',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
};

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

/** Fault rate-check-then-count: how long the limiter awaits its store between checking and counting. */
const CHECK_THEN_COUNT_GAP_MS = 5;

/** Fault auth-query-key-accepted reads these query parameters when there is no Authorization header. */
const QUERY_KEY_PARAMS = ['api_key', 'access_token', 'key'] as const;

export function createApp(deps: AppDeps): RequestListener {
  const { store, keys, plans, limiter, faults, stats } = deps;
  const variations = deps.variations ?? new Variations();
  const delivery = deps.delivery ?? new Delivery();
  const maxBodyBytes = deps.maxBodyBytes ?? MAX_BODY_BYTES;
  const anonymousQuota = plans.free ?? PUBLISHED_PLANS.free!;
  const operations = createOperations({ store, faults, variations, maxBodyBytes });

  async function dispatch(
    req: IncomingMessage,
    url: URL | undefined,
    route: RouteMatch,
    authError: string | undefined,
    rate: RateDecision,
  ): Promise<Reply> {
    const authFirst = !faults.has('auth-after-validation');
    if (authError !== undefined && authFirst) return unauthorized(authError);
    if (!rate.allowed) {
      const retryAfter = rate.retryAfter ?? 1;
      const headers = { [HEADER.retryAfter]: String(retryAfter) };
      if (rate.banned) {
        return errorReply(429, 'banned', `API key banned for retrying before Retry-After; retry after ${retryAfter} s`, headers);
      }
      return errorReply(429, 'rate_limited', `rate limit exceeded; retry after ${retryAfter} s`, headers);
    }
    if (url === undefined) return badRequest('request target is not a valid URL');
    if (route.kind === 'not-found') return errorReply(404, 'not_found', `no such resource: ${url.pathname}`);
    if (route.kind === 'method-not-allowed') {
      return errorReply(405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}`, { Allow: route.allow });
    }
    const prepared = await operations[route.operation](req, url, route.params);
    if ('reject' in prepared) return prepared.reject;
    if (authError !== undefined) return unauthorized(authError);
    return prepared.proceed();
  }

  async function respond(req: IncomingMessage): Promise<{ reply: Reply; plan: DeliveryPlan }> {
    const method = req.method ?? 'GET';
    const url = parseTarget(req.url);
    const route: RouteMatch = url ? matchRoute(method, url.pathname) : { kind: 'not-found', deprecated: false };
    const auth = keys.authenticate(authorization(req, url), {
      caseSensitiveScheme: faults.has('auth-scheme-case-sensitive'),
      emptyTokenAsFirstKey: faults.has('auth-empty-bearer-accepted'),
      keyPrefixAccepted: faults.has('auth-key-prefix-accepted'),
      keyCaseInsensitive: faults.has('auth-key-case-insensitive'),
    });
    const client = auth.ok ? auth.client : { label: ANONYMOUS, plan: 'free' };
    // Unauthenticated callers share one bucket with the free plan's numbers that is counted but
    // never enforced: they are always answered 401, which tells them what is actually wrong.
    // Fault rate-never-429 stops enforcing; fault rate-shared-bucket counts every key in one bucket.
    const quota = auth.ok ? plans[client.plan]! : anonymousQuota;
    const takeOptions = {
      enforce: auth.ok && !faults.has('rate-never-429'),
      bucket: auth.ok && faults.has('rate-shared-bucket') ? SHARED_BUCKET : auth.ok && faults.has('rate-per-connection') ? `${client.label}@${connectionNumber(req)}` : undefined,
    };
    let rate: RateDecision;
    if (auth.ok && faults.has('rate-check-then-count')) {
      // Check, await the store, then count whatever was decided: requests in between slip through.
      const allowed = limiter.wouldAllow(client.label, quota, takeOptions);
      await new Promise((resolve) => setTimeout(resolve, CHECK_THEN_COUNT_GAP_MS));
      rate = limiter.take(client.label, quota, { ...takeOptions, enforce: takeOptions.enforce && !allowed });
    } else rate = limiter.take(client.label, quota, takeOptions);
    const plan = delivery.plan(client.label);
    const authError = auth.ok || faults.has('auth-disabled') ? undefined : auth.message;

    let reply: Reply;
    try {
      reply = await dispatch(req, url, route, authError, rate);
    } catch {
      stats.recordException();
      reply = errorReply(500, 'internal_error', 'unexpected server error');
    }
    reply = {
      ...reply,
      headers: {
        [HEADER.limit]: String(rate.limit),
        [HEADER.remaining]: String(rate.remaining),
        [HEADER.reset]: String(rate.reset),
        ...(route.deprecated ? DEPRECATION_HEADERS : {}),
        ...reply.headers,
      },
    };
    const context: ReplyContext = {
      operation: route.kind === 'operation' ? route.operation : undefined,
      rate: { decision: rate, plan: client.plan, plans },
    };
    reply = faults.rewrite(variations.rewrite(reply, context), context);
    // Later requests are judged early against the Retry-After the client was actually sent.
    if (!rate.allowed) limiter.noteRetryAfter(client.label, headerValue(reply.headers, HEADER.retryAfter), rate.at);
    stats.record({
      keyLabel: client.label,
      plan: client.plan,
      method,
      status: reply.status,
      earlyRetry: rate.earlyRetry,
      banStarted: rate.banStarted,
    });
    return { reply, plan };
  }

  function authorization(req: IncomingMessage, url: URL | undefined): string | undefined {
    const header = req.headers.authorization;
    if (header !== undefined || url === undefined || !faults.has('auth-query-key-accepted')) return header;
    const key = QUERY_KEY_PARAMS.map((name) => url.searchParams.get(name)).find((value) => value !== null);
    return key === undefined ? undefined : `Bearer ${key}`;
  }

  return (req, res) => {
    respond(req)
      .then(({ reply, plan }) => delivery.write(res, reply, plan))
      .catch(() => {
        // Only a bug in the pipeline itself lands here; the request was not counted.
        stats.recordException();
        if (res.headersSent) res.destroy();
        else {
          const reply = variations.rewrite(errorReply(500, 'internal_error', 'unexpected server error'), { operation: undefined });
          delivery.write(res, reply).catch(() => res.destroy());
        }
      });
  };
}

function unauthorized(message: string): Reply {
  return errorReply(401, 'unauthorized', message, { [HEADER.wwwAuthenticate]: 'Bearer' });
}

function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://reference.invalid');
  } catch {
    return undefined;
  }
}
