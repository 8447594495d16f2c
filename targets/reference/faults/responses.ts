// Faults in the shape of every response: Error bodies, rate-limit headers, media type.
import type { FaultDefinition } from '../fault-definition.ts';
import { HEADER, RATE_LIMIT_HEADER_NAMES, isErrorBody, withoutField, withoutHeaders } from '../http.ts';

export const ERROR_FAULTS = [
  {
    id: 'error-status-mismatch',
    breaks: 'Errors: Error.status is always 400 instead of repeating the HTTP status.',
    caught: { check: 'errors.error-body', code: 'error-status-mismatch' },
    rewrite: (reply) => (isErrorBody(reply.json) ? { ...reply, json: { ...reply.json, status: 400 } } : reply),
  },
  {
    id: 'error-plain-text',
    breaks: 'Errors: errors are sent as a text/plain line instead of an Error JSON body.',
    caught: { check: 'errors.error-body', code: 'error-body-not-json' },
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
    id: 'error-missing-code',
    breaks: 'Error: the required `code` is missing from Error bodies.',
    caught: { check: 'errors.error-body', code: 'invalid-error-body' },
    rewrite: (reply) => (isErrorBody(reply.json) ? { ...reply, json: withoutField(reply.json, 'code') } : reply),
  },
  {
    id: 'error-no-content-type',
    breaks: 'Responses use JSON (application/json): error responses carry no Content-Type (the body is still JSON).',
    caught: { check: 'errors.error-body', code: 'error-body-no-content-type' },
    rewrite: (reply) =>
      isErrorBody(reply.json) ? { ...reply, headers: withoutHeaders(reply.headers, [HEADER.contentType]) } : reply,
  },
] as const satisfies readonly FaultDefinition[];

/** Fault cache-public-keyed: the Cache-Control of every successful GET. */
export const CACHE_PUBLIC = 'public, max-age=60';

export const HEADER_FAULTS = [
  {
    id: 'headers-missing-on-errors',
    breaks: 'Rate limit headers: X-RateLimit-* are missing from error (4xx/5xx) responses.',
    caught: { check: 'headers.rate-limit-present', code: 'rate-limit-header-missing' },
    rewrite: (reply) =>
      reply.status < 400 ? reply : { ...reply, headers: withoutHeaders(reply.headers, RATE_LIMIT_HEADER_NAMES) },
  },
  {
    id: 'headers-missing',
    breaks: 'Rate limit headers: X-RateLimit-* are never sent.',
    caught: { check: 'headers.rate-limit-present', code: 'rate-limit-header-missing' },
    rewrite: (reply) => ({ ...reply, headers: withoutHeaders(reply.headers, RATE_LIMIT_HEADER_NAMES) }),
  },
  {
    id: 'cache-public-keyed',
    breaks:
      'Every operation requires bearer authentication (RFC 9111 §3.5): successful GET answers carry `Cache-Control: public, ' +
      'max-age=60` (a CDN-friendly default set for the whole app, as fastify-caching\'s `privacy: \'public\'`), so a shared ' +
      'cache may store a keyed answer and serve it for a minute to requests without a key.',
    caught: { check: 'responses.keyed-not-shared-cacheable', code: 'marked-public' },
    rewrite: (reply, { operation }) =>
      reply.status === 200 && (operation === 'listPets' || operation === 'getPet') ? { ...reply, headers: { ...reply.headers, 'Cache-Control': CACHE_PUBLIC } } : reply,
  },
  {
    id: 'content-type-text',
    breaks: 'Requests and responses use JSON: successful JSON responses are labelled text/plain.',
    caught: { check: 'responses.json-media-type', code: 'not-json-media-type' },
    rewrite: (reply) =>
      reply.status >= 300 || reply.json === undefined
        ? reply
        : { ...reply, headers: { ...reply.headers, [HEADER.contentType]: 'text/plain' } },
  },
] as const satisfies readonly FaultDefinition[];

/** Faults in how fast replies come: no rule of the interface, caught only by a target's own load.thresholds. */
export const DELIVERY_FAULTS = [
  {
    id: 'latency-grows-with-load',
    breaks:
      'No rule of the interface, but what load thresholds are for: every reply waits 5 ms for each request the server took ' +
      'in the second before it (as behind a lock held per request), so latency grows with the request rate.',
    // No rule of the interface: caught by the target's own thresholds (the reference meets the same, in the variations).
    caught: { check: 'load.thresholds', code: 'threshold-breached' },
  },
] as const satisfies readonly FaultDefinition[];
