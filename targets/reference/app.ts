// The request handler: authentication, rate limiting, routing and the four operations.
//
// Order of work for every request: the route is matched (pure, no lookup), the key is checked and
// a request is taken from the key's rate bucket, then come 401, 429, 400 for an unreadable target,
// 404 and 405, and only then the operation's own validation and lookup. An operation first
// validates and looks up, returning either a rejection or a `proceed` step that does the work; the
// split is what lets fault auth-after-validation move the key check between the two without
// touching the operations. Every reply then gets the rate-limit headers (and, on the deprecated getPet path,
// Deprecation and Sunset), passes through the active faults' rewrites, is counted, and is written.
import type { IncomingMessage, RequestListener } from 'node:http';
import { tryParseJson } from '../../lib/json.ts';
import { PAGE_SIZE } from '../../lib/models.ts';
import { PUBLISHED_PLANS, type PlanQuota } from '../../lib/plans.ts';
import type { KeyRing } from './auth.ts';
import type { Faults } from './faults.ts';
import { HEADER, JSON_TYPE, errorReply, jsonReply, mediaType, readBody, writeReply, type Reply } from './http.ts';
import type { RateDecision, RateLimiter } from './rate-limit.ts';
import { matchRoute, type OperationId, type RouteMatch } from './routes.ts';
import { petJson, type AnimalStore } from './store.ts';
import { ANONYMOUS, type StatsRecorder } from './stats.ts';
import { bodyId, checkLimit, checkNewPet, checkPetId, checkStatusFilter } from './validation.ts';

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
  stats: StatsRecorder;
  maxBodyBytes?: number;
}

type Prepared = { reject: Reply } | { proceed: () => Reply };
type Operation = (req: IncomingMessage, url: URL, params: string[]) => Promise<Prepared>;

const badRequest = (message: string): Reply => errorReply(400, 'invalid_request', message);
const reject = (reply: Reply): Prepared => ({ reject: reply });

export function createApp(deps: AppDeps): RequestListener {
  const { store, keys, plans, limiter, faults, stats } = deps;
  const maxBodyBytes = deps.maxBodyBytes ?? MAX_BODY_BYTES;
  const anonymousQuota = plans.free ?? PUBLISHED_PLANS.free!;

  const operations: Record<OperationId, Operation> = {
    async listPets(_req, url) {
      const limit = checkLimit(url.searchParams, faults.has('list-default-limit-50') ? 50 : PAGE_SIZE.default);
      if (!limit.ok) return reject(badRequest(limit.message));
      const status = checkStatusFilter(url.searchParams);
      if (!status.ok) return reject(badRequest(status.message));
      return {
        proceed: () =>
          jsonReply(
            200,
            store
              .list({
                limit: faults.has('list-ignores-limit') ? undefined : limit.value,
                status: faults.has('list-wrong-status-filter') ? undefined : status.value,
              })
              .map(petJson),
          ),
      };
    },

    async createPet(req) {
      if (mediaType(req.headers['content-type']) !== JSON_TYPE) {
        return reject(badRequest('Content-Type must be application/json'));
      }
      const body = await readBody(req, maxBodyBytes);
      if (!body.ok) {
        if (body.reason === 'too-large') {
          // The unread rest of the body would otherwise be taken for the next request.
          return reject(errorReply(413, 'payload_too_large', `request body exceeds ${maxBodyBytes} bytes`, { Connection: 'close' }));
        }
        return reject(badRequest(body.reason === 'not-utf8' ? 'request body is not valid UTF-8' : 'request body incomplete'));
      }
      if (body.text.trim() === '') return reject(badRequest('request body is required (NewPet)'));
      const parsed = tryParseJson(body.text);
      if (!parsed.ok) return reject(badRequest(`malformed JSON: ${parsed.error}`));
      const pet = checkNewPet(parsed.value, { nameOptional: faults.has('create-accepts-missing-name') });
      if (!pet.ok) {
        if (faults.has('create-500-on-bad-input')) throw new TypeError(`cannot read NewPet: ${pet.message}`);
        return reject(badRequest(pet.message));
      }
      return {
        proceed: () => {
          const categoryId = faults.has('create-truncates-int64') ? BigInt(Number(pet.value.categoryId)) : pet.value.categoryId;
          const id = faults.has('create-uses-body-id') ? bodyId(parsed.value) : undefined;
          const created = store.create({ ...pet.value, categoryId }, id);
          return jsonReply(201, petJson(created), { Location: `/v1/pets/${created.id}` });
        },
      };
    },

    async getPet(_req, _url, [segment = '']) {
      const id = checkPetId(segment);
      if (!id.ok) return reject(badRequest(id.message));
      const pet = store.get(id.value);
      if (pet === undefined) return reject(errorReply(404, 'not_found', `no animal with id ${id.value}`));
      return { proceed: () => jsonReply(200, petJson(pet)) };
    },

    // Orders are "not shown" by the interface: the endpoint exists and answers an empty list.
    async listOrders() {
      return { proceed: () => jsonReply(200, []) };
    },
  };

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
      return errorReply(429, 'rate_limited', `rate limit exceeded; retry after ${retryAfter} s`, {
        [HEADER.retryAfter]: String(retryAfter),
      });
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

  async function respond(req: IncomingMessage): Promise<Reply> {
    const method = req.method ?? 'GET';
    const url = parseTarget(req.url);
    const route: RouteMatch = url ? matchRoute(method, url.pathname) : { kind: 'not-found', deprecated: false };
    const auth = keys.authenticate(req.headers.authorization, { caseSensitiveScheme: faults.has('auth-scheme-case-sensitive') });
    const client = auth.ok ? auth.client : { label: ANONYMOUS, plan: 'free' };
    // Unauthenticated callers share one bucket with the free plan's numbers that is counted but
    // never enforced: they are always answered 401, which tells them what is actually wrong.
    const rate = limiter.take(client.label, auth.ok ? plans[client.plan]! : anonymousQuota, { enforce: auth.ok });
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
    reply = faults.rewrite(reply, { operation: route.kind === 'operation' ? route.operation : undefined });
    stats.record({ keyLabel: client.label, plan: client.plan, method, status: reply.status, earlyRetry: rate.earlyRetry });
    return reply;
  }

  return (req, res) => {
    respond(req)
      .then((reply) => writeReply(res, reply))
      .catch(() => {
        // Only a bug in the pipeline itself lands here; the request was not counted.
        stats.recordException();
        if (res.headersSent) res.destroy();
        else writeReply(res, errorReply(500, 'internal_error', 'unexpected server error'));
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
