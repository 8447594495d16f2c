// Faults in the answers outside the interface's operations: unknown paths and other methods.
import type { FaultDefinition } from '../fault-definition.ts';
import { errorReply, RATE_LIMIT_HEADER_NAMES, withoutHeaders } from '../http.ts';

export const ROUTE_FAULTS = [
  {
    id: 'unknown-route-500',
    breaks: 'No operation lists a 5xx: a path no route matches, requested with a valid key, raises an exception in the fallback handler (500) instead of a 404.',
    caught: { check: 'routes.unknown-path', code: 'server-error' },
    // Only an unknown path reaches a 404 without an operation (a missing animal's 404 is getPet's).
    rewrite: (reply, { operation }) =>
      operation === undefined && reply.status === 404 ? errorReply(500, 'internal_error', 'unexpected server error', withoutHeaders(reply.headers, ['Content-Type'])) : reply,
  },
  {
    id: 'fallback-404-without-headers',
    breaks:
      'Every response carries X-RateLimit-*: the router\'s fallback 404 (no such path) and 405 (another method on a known path) are answered before the limiter adds its headers, with a valid key.',
    caught: { check: 'headers.rate-limit-present', code: 'rate-limit-header-missing' },
    rewrite: (reply, { operation }) =>
      operation === undefined && (reply.status === 404 || reply.status === 405) ? { ...reply, headers: withoutHeaders(reply.headers, RATE_LIMIT_HEADER_NAMES) } : reply,
  },
  {
    id: 'delete-500',
    breaks: 'No operation lists a 5xx: DELETE /pets/{petId} with a valid key reaches a half-finished handler that throws (500) instead of the 405 every other method gets.',
    caught: { check: 'routes.other-method', code: 'server-error' },
  },
] as const satisfies readonly FaultDefinition[];
