// The reply model shared by the handler and the fault hooks, and the few node:http helpers that
// turn a request into bytes and a reply back into a response.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringifyJson } from '../../lib/json.ts';
import type { PlanQuota } from '../../lib/plans.ts';
import type { RateDecision } from './rate-limit.ts';
import type { OperationId } from './routes.ts';

export const JSON_TYPE = 'application/json';

export const HEADER = {
  limit: 'X-RateLimit-Limit',
  remaining: 'X-RateLimit-Remaining',
  reset: 'X-RateLimit-Reset',
  retryAfter: 'Retry-After',
  contentType: 'Content-Type',
  wwwAuthenticate: 'WWW-Authenticate',
} as const;

export const RATE_LIMIT_HEADER_NAMES = [HEADER.limit, HEADER.remaining, HEADER.reset] as const;

/**
 * A response before it is written. The handler only builds Replies; fault hooks may rewrite them;
 * writeReply is the single place bytes are sent. `json` is serialised losslessly (bigint kept);
 * `text`, when set, is sent as is and wins over `json`.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  json?: unknown;
  text?: string;
}

export interface ReplyContext {
  /** The operation the request was routed to, if any. */
  operation: OperationId | undefined;
  /** The rate-limit decision behind the reply's X-RateLimit-* headers; absent only for a failure of the pipeline itself. */
  rate?: RateContext;
}

export interface RateContext {
  decision: RateDecision;
  /** The plan whose quota was applied (`free` for anonymous callers). */
  plan: string;
  /** The plan table in force (published plans with config overrides). */
  plans: Readonly<Record<string, PlanQuota>>;
}

/** A change to a finished Reply, made by a fault or a variation. */
export type ReplyRewrite = (reply: Reply, context: ReplyContext) => Reply;

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

export function jsonReply(status: number, json: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { [HEADER.contentType]: JSON_TYPE, ...headers }, json };
}

export function errorReply(status: number, code: string, message: string, headers: Record<string, string> = {}): Reply {
  const body: ErrorBody = { code, message, status };
  return jsonReply(status, body, headers);
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && 'code' in value && 'message' in value && 'status' in value;
}

export function withoutHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const drop = new Set(names.map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
}

/** A header's value, its name matched case-insensitively. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(headers).find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** A JSON object without one field; anything else unchanged. */
export function withoutField(value: unknown, field: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([name]) => name !== field));
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  const payload = reply.text ?? (reply.json === undefined ? '' : stringifyJson(reply.json));
  // The reply's headers in order, then Content-Length, all at once: the same head as a setHeader
  // for each, validated the same way, without storing every header on the response first.
  const head: string[] = [];
  for (const name of Object.keys(reply.headers)) head.push(name, reply.headers[name]!);
  head.push('Content-Length', String(Buffer.byteLength(payload)));
  res.writeHead(reply.status, head);
  res.end(payload);
}

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'not-utf8' | 'aborted' };

/**
 * Reads the whole request body as UTF-8, refusing more than `maxBytes`. A declared
 * Content-Length over the limit is refused before any byte is read; a chunked body is counted as
 * it arrives. On refusal the rest of the body is left unread: the caller closes the connection.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return { ok: false, reason: 'too-large' };
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) return { ok: false, reason: 'too-large' };
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, reason: 'aborted' };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) };
  } catch {
    return { ok: false, reason: 'not-utf8' };
  }
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaType(value: string | undefined): string | undefined {
  const type = value?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}
