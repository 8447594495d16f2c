// Shared set-up for the reference server's tests: a fake clock, a server with known keys, and a
// small HTTP client that keeps int64 digits (on the harness's transport, which reads every form of
// answer the variations send: interim answers, framings, codings).
import { connect } from 'node:net';
import { afterEach, expect } from 'vitest';
import { parseJson, stringifyJson } from '../../lib/json.ts';
import { Transport } from '../../lib/http/transport.ts';
import { headerInt } from '../../lib/models.ts';
import type { ServerConfigInput } from '../../targets/reference/config.ts';
import { startReferenceServer, type RunningServer } from '../../targets/reference/server.ts';

export const KEYS = {
  free1: 'test-free-key-1',
  free2: 'test-free-key-2-is-longer',
  pro: 'test-pro-key',
  business: 'test-business-key',
  /** A huge quota, for tests that send many requests and are not about rate limits. */
  bulk: 'test-bulk-key',
} as const;

export const TEST_CONFIG = {
  keys: [
    { key: KEYS.free1, plan: 'free' },
    { key: KEYS.free2, plan: 'free' },
    { key: KEYS.pro, plan: 'pro' },
    { key: KEYS.business, plan: 'business' },
    { key: KEYS.bulk, plan: 'bulk' },
  ],
  plans: { bulk: { perMinute: 1_000_000, perDay: 10_000_000 } },
} satisfies ServerConfigInput;

/** 2030-01-01T00:00:00Z: a whole number of minutes and days since the epoch. */
export const T0 = Date.UTC(2030, 0, 1);

export interface FakeClock {
  now: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function fakeClock(start = T0): FakeClock {
  let t = start;
  return {
    now: () => t,
    set: (ms) => void (t = ms),
    advance: (ms) => void (t += ms),
  };
}

export async function startTestServer(
  config: Partial<ServerConfigInput> = {},
  clock: FakeClock = fakeClock(),
): Promise<RunningServer> {
  return startReferenceServer({ ...TEST_CONFIG, ...config }, { now: clock.now });
}

export interface Exchange {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed losslessly (int64 beyond 2^53 as bigint); undefined when the body is not JSON. */
  json: unknown;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Sent verbatim as Authorization; wins over `key`. */
  authorization?: string;
  /** Serialised as the JSON body (bigint kept exactly), with Content-Type application/json. */
  json?: unknown;
  /** A raw body. */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** The path sent as written, not normalised by the URL parser (dot and empty segments kept). */
  raw?: boolean;
  /** The body sent in chunks, without Content-Length. */
  chunked?: boolean;
}

export async function call(server: RunningServer, method: string, path: string, options: CallOptions = {}): Promise<Exchange> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = stringifyJson(options.json);
  }
  Object.assign(headers, options.headers);
  const res = await transport.send({
    method,
    url: `${server.origin}${path}`,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(options.raw ? { target: path } : {}),
    ...(options.chunked ? { chunked: true } : {}),
  });
  let json: unknown;
  try {
    json = res.text === '' ? undefined : parseJson(res.text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text: res.text, json };
}

/** One keep-alive pool for every test of a file; its free sockets do not hold the process. */
const transport = new Transport({ timeoutMs: 30_000 });

/** POSTs a body given as raw JSON text (for int64 literals JSON.stringify cannot write). */
export function postRaw(server: RunningServer, text: string, key: string = KEYS.bulk): Promise<Exchange> {
  return call(server, 'POST', '/v1/pets', { key, body: text, headers: { 'content-type': 'application/json' } });
}

/** The three X-RateLimit-* headers as integers; undefined unless all three are there as integers. */
export function rateHeaders(exchange: Exchange): { limit: number; remaining: number; reset: number } | undefined {
  const limit = headerInt(exchange.headers['x-ratelimit-limit']);
  const remaining = headerInt(exchange.headers['x-ratelimit-remaining']);
  const reset = headerInt(exchange.headers['x-ratelimit-reset']);
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, reset };
}

/** Asserts nothing; returns the Error body fields if the body is one. */
export function errorBody(exchange: Exchange): { code: unknown; message: unknown; status: unknown } | undefined {
  const body = exchange.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { code, message, status } = body as Record<string, unknown>;
  return { code, message, status };
}

/** The response is an Error body in JSON whose `status` repeats the HTTP status, with rate-limit headers. */
export function expectError(exchange: Exchange, status: number, code?: string): void {
  expect(exchange.status, exchange.text).toBe(status);
  expect(exchange.headers['content-type']).toBe('application/json');
  const body = errorBody(exchange);
  expect(body).toMatchObject({ status, ...(code === undefined ? {} : { code }) });
  expect(typeof body?.code).toBe('string');
  expect(typeof body?.message).toBe('string');
  expect(rateHeaders(exchange)).toBeDefined();
}

/** Writes `text` on a raw socket and reads everything until the server closes it. */
export function rawHttp(port: number, text: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.write(text);
  });
}

/** Registers an afterEach that closes every server handed to the returned function in that test. */
export function closedAfterEach(): (server: RunningServer) => RunningServer {
  let servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  return (server) => {
    servers.push(server);
    return server;
  };
}
