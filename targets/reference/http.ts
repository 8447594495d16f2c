// The reply model shared by the handler and the fault hooks, and the few node:http helpers that
// turn a request into bytes and a reply back into a response (in the wire's form the variations ask).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
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
/** getPet is deprecated, with removal announced for 5 December 2030 ("Versioning"). */
export const DEPRECATION_HEADERS: Readonly<Record<string, string>> = {
  Deprecation: 'true',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
};

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
  /** The request's path, as the URL parser gives it (variation error-extra-members names it); absent when unreadable. */
  path?: string;
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

/**
 * How replies go on the wire, as legal variations change it (early-hints-103, interim-100-102,
 * chunked-bodies, close-delimited, gzip-always, deflate-always, br-always): interim 1xx answers
 * before the final one, the body's framing (default Content-Length), its content codings in the
 * order applied (whatever the request's Accept-Encoding said).
 */
export interface WireForm {
  interim?: readonly (100 | 102 | 103)[];
  framing?: 'chunked' | 'close';
  codings?: readonly ('gzip' | 'deflate' | 'br')[];
  /** Variation slow-body: the body in two pieces, the second this many ms after the first (the head's hold is the delivery's). */
  bodyGapMs?: number;
}

/** The Link header of variation early-hints-103's 103 answers. */
export const EARLY_HINT_LINK = '</v1/pets>; rel=preload; as=fetch';

const CODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

/**
 * Writes the reply in the wire's form. With `form.bodyGapMs` (variation slow-body) the body's second
 * piece follows after `pause(bodyGapMs)`: the promise returned settles once it is written.
 */
export function writeReply(res: ServerResponse, reply: Reply, form: WireForm = {}, pause?: (ms: number) => Promise<void>): Promise<void> | undefined {
  const text = reply.text ?? (reply.json === undefined ? '' : stringifyJson(reply.json));
  for (const status of form.interim ?? []) {
    if (status === 100) res.writeContinue();
    else if (status === 102) res.writeProcessing();
    else res.writeEarlyHints({ link: EARLY_HINT_LINK });
  }
  // The reply's headers in order, then the framing's, all at once: the same head as a setHeader
  // for each, validated the same way, without storing every header on the response first.
  const head: string[] = [];
  for (const name of Object.keys(reply.headers)) head.push(name, reply.headers[name]!);
  // An empty body stays uncoded (servers code only what is worth it).
  const codings = text === '' ? [] : (form.codings ?? []);
  const payload = codings.length === 0 ? text : codings.reduce<Buffer>((body, coding) => CODERS[coding](body), Buffer.from(text));
  if (codings.length > 0) head.push('Content-Encoding', codings.join(', '), 'Vary', 'Accept-Encoding');
  const gapMs = form.bodyGapMs;
  if (form.framing === undefined) {
    head.push('Content-Length', String(Buffer.byteLength(payload)));
    res.writeHead(reply.status, head);
    if (gapMs === undefined || pause === undefined) {
      res.end(payload);
      return undefined;
    }
  } else {
    if (form.framing === 'chunked') head.push('Transfer-Encoding', 'chunked');
    else {
      // Neither a length nor chunks: node:http then ends the body with the connection (and says Connection: close).
      res.useChunkedEncodingByDefault = false;
      if (headerValue(reply.headers, 'Connection') === undefined) head.push('Connection', 'close');
    }
    res.writeHead(reply.status, head);
  }
  // In two parts, so that a reader must join them (variation slow-body: the second one later).
  const bytes = Buffer.from(payload);
  const half = Math.floor(bytes.length / 2);
  if (half > 0) res.write(bytes.subarray(0, half));
  if (half > 0 && gapMs !== undefined && pause !== undefined) return pause(gapMs).then(() => void res.end(bytes.subarray(half)));
  res.end(bytes.subarray(half));
  return undefined;
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
