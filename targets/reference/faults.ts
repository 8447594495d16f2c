// The catalogue of deliberate faults. Each one is a small, realistic deviation from the interface
// that the harness must catch; config `faults: [...]` switches them on.
//
// A fault takes one of two forms. A *rewrite* fault changes the finished Reply (status, headers,
// body) and needs no code in the handler: most faults about what a response looks like belong
// here. A *flag* fault has no rewrite; the handler asks `faults.has(id)` at the one point where
// the behaviour lives (the auth gate, the list query, the create path). Adding a fault means adding
// an entry below and, for a flag, one `has` at its hook point; FaultId makes a misspelt id a
// type error.
import type { OperationId } from './routes.ts';
import { HEADER, RATE_LIMIT_HEADER_NAMES, isErrorBody, jsonReply, type Reply } from './http.ts';

export interface ReplyContext {
  /** The operation the request was routed to, if any. */
  operation: OperationId | undefined;
}

interface FaultDefinition {
  readonly id: string;
  /** The rule the fault breaks, in one line. */
  readonly breaks: string;
  readonly rewrite?: (reply: Reply, context: ReplyContext) => Reply;
}

export const FAULT_CATALOGUE = [
  {
    id: 'auth-disabled',
    breaks: 'Authentication: requests without a valid key are served instead of answered 401.',
  },
  {
    id: 'auth-wrong-status',
    breaks: 'Authentication: a missing or invalid key gets 403 instead of 401.',
    rewrite: (reply) =>
      reply.status !== 401
        ? reply
        : {
            status: 403,
            headers: withoutHeaders(reply.headers, [HEADER.wwwAuthenticate]),
            json: { code: 'forbidden', message: errorMessage(reply), status: 403 },
          },
  },
  {
    id: 'auth-no-error-body',
    breaks: 'Authentication: the 401 has an empty body instead of an Error body.',
    rewrite: (reply) =>
      reply.status !== 401 ? reply : { status: 401, headers: withoutHeaders(reply.headers, [HEADER.contentType]) },
  },
  {
    id: 'auth-scheme-case-sensitive',
    breaks: 'Authentication (RFC 9110 auth-scheme is case-insensitive): "bearer <key>" gets 401.',
  },
  {
    id: 'auth-after-validation',
    breaks: 'Authentication: validation and lookup run before the key check, so an unauthenticated bad request gets 400/404.',
  },
  {
    id: 'error-status-mismatch',
    breaks: 'Errors: Error.status is always 400 instead of repeating the HTTP status.',
    rewrite: (reply) => (isErrorBody(reply.json) ? { ...reply, json: { ...reply.json, status: 400 } } : reply),
  },
  {
    id: 'error-plain-text',
    breaks: 'Errors: errors are sent as a text/plain line instead of an Error JSON body.',
    rewrite: (reply) =>
      !isErrorBody(reply.json)
        ? reply
        : {
            status: reply.status,
            headers: { ...reply.headers, [HEADER.contentType]: 'text/plain; charset=utf-8' },
            text: `${reply.json.code}: ${reply.json.message}`,
          },
  },
  {
    id: 'list-ignores-limit',
    breaks: 'listPets: `limit` is ignored and every animal is returned.',
  },
  {
    id: 'list-default-limit-50',
    breaks: 'listPets / Page size: without `limit`, up to 50 animals are returned instead of 20.',
  },
  {
    id: 'list-wrong-status-filter',
    breaks: 'listPets: the `status` filter is ignored.',
  },
  {
    id: 'list-pet-missing-id',
    breaks: 'Pet: listed animals lack the required `id`.',
    rewrite: (reply, { operation }) =>
      operation === 'listPets' && reply.status === 200 && Array.isArray(reply.json)
        ? { ...reply, json: reply.json.map(withoutId) }
        : reply,
  },
  {
    id: 'create-500-on-bad-input',
    breaks: 'createPet: an invalid NewPet raises an unhandled exception (500) instead of a 400.',
  },
  {
    id: 'create-accepts-missing-name',
    breaks: 'createPet: a NewPet without `name` is created (201) instead of answered 400.',
  },
  {
    id: 'create-truncates-int64',
    breaks: 'NewPet categoryId int64: the value passes through a double, so digits beyond 2^53 are lost.',
  },
  {
    id: 'create-uses-body-id',
    breaks: 'Pet id is assigned by the service: an `id` in the request body is used instead.',
  },
  {
    id: 'get-200-for-missing',
    breaks: 'getPet: a missing animal gets 200 with `{}` instead of 404 with an Error body.',
    rewrite: (reply, { operation }) =>
      operation === 'getPet' && reply.status === 404 ? jsonReply(200, {}, reply.headers) : reply,
  },
  {
    id: 'headers-missing-on-errors',
    breaks: 'Rate limit headers: X-RateLimit-* are missing from error (4xx/5xx) responses.',
    rewrite: (reply) =>
      reply.status < 400 ? reply : { ...reply, headers: withoutHeaders(reply.headers, RATE_LIMIT_HEADER_NAMES) },
  },
  {
    id: 'headers-missing',
    breaks: 'Rate limit headers: X-RateLimit-* are never sent.',
    rewrite: (reply) => ({ ...reply, headers: withoutHeaders(reply.headers, RATE_LIMIT_HEADER_NAMES) }),
  },
  {
    id: 'content-type-text',
    breaks: 'Requests and responses use JSON: successful JSON responses are labelled text/plain.',
    rewrite: (reply) =>
      reply.status >= 300 || reply.json === undefined
        ? reply
        : { ...reply, headers: { ...reply.headers, [HEADER.contentType]: 'text/plain' } },
  },
] as const satisfies readonly FaultDefinition[];

export type FaultId = (typeof FAULT_CATALOGUE)[number]['id'];

export const FAULT_IDS: readonly FaultId[] = FAULT_CATALOGUE.map((fault) => fault.id);

export function isFaultId(name: string): name is FaultId {
  return (FAULT_IDS as readonly string[]).includes(name);
}

/** The faults switched on for one server. Empty for a conforming server. */
export class Faults {
  private readonly active: ReadonlySet<FaultId>;
  private readonly rewrites: readonly NonNullable<FaultDefinition['rewrite']>[];

  constructor(ids: Iterable<FaultId> = []) {
    this.active = new Set(ids);
    const definitions: readonly FaultDefinition[] = FAULT_CATALOGUE;
    this.rewrites = definitions.filter((f) => this.active.has(f.id as FaultId)).flatMap((f) => (f.rewrite ? [f.rewrite] : []));
  }

  has(id: FaultId): boolean {
    return this.active.has(id);
  }

  /** Active ids in catalogue order. */
  list(): FaultId[] {
    return FAULT_IDS.filter((id) => this.active.has(id));
  }

  /** Applies the rewrite of every active fault, in catalogue order. */
  rewrite(reply: Reply, context: ReplyContext): Reply {
    return this.rewrites.reduce((current, rewrite) => rewrite(current, context), reply);
  }
}

function withoutHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const drop = new Set(names.map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
}

function errorMessage(reply: Reply): string {
  return isErrorBody(reply.json) ? reply.json.message : 'forbidden';
}

function withoutId(item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const { id: _id, ...rest } = item as Record<string, unknown>;
  return rest;
}
