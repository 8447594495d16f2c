// The reference server without sockets: its handler (every fault and variation included) called
// with requests made here, on a clock the caller gives. The harness's own tests drive the
// rate-limit driver against it on a virtual clock, so that a minute window costs no real time.
// Each numbered connection stands for one keep-alive connection (fault rate-per-connection keeps
// a bucket per connection).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ServerConfig, ServerConfigInput } from './config.ts';
import { buildReference } from './server.ts';
import type { ServerStats } from './stats.ts';

export interface InProcessRequest {
  method: string;
  /** Path and query, e.g. "/v1/pets?limit=1". */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
  /** Which connection carries it (default 0). */
  connection?: number;
}

export interface InProcessResponse {
  status: number;
  /** Lower-case names; the Date written from the server's clock, as node:http writes it. */
  headers: Record<string, string>;
  body: string;
}

export interface InProcessServer {
  request(req: InProcessRequest): Promise<InProcessResponse>;
  stats(): ServerStats;
  /** The server's clock, epoch ms. */
  now(): number;
}

export function inProcessReference(input: ServerConfigInput | ServerConfig, clock: { now(): number; sleep(ms: number): Promise<void> }): InProcessServer {
  // No wire: the variations of its form (interim answers, framings, codings) need a socket.
  const parts = buildReference(input, { now: () => clock.now(), sleep: (ms) => clock.sleep(ms), socketless: true });
  const sockets = new Map<number, object>();
  const socketOf = (n: number) => {
    let socket = sockets.get(n);
    if (!socket) sockets.set(n, (socket = { remoteAddress: '127.0.0.1', connection: n }));
    return socket;
  };
  return {
    now: parts.now,
    stats: () => parts.stats.snapshot(parts.store.size),
    request: (r) =>
      new Promise<InProcessResponse>((resolve, reject) => {
        const req = Object.assign(Readable.from(r.body !== undefined ? [Buffer.from(r.body)] : []), {
          method: r.method,
          url: r.path,
          headers: { host: '127.0.0.1', ...(r.body !== undefined ? { 'content-length': String(Buffer.byteLength(r.body)) } : {}), ...r.headers },
          socket: socketOf(r.connection ?? 0),
        }) as unknown as IncomingMessage;
        let status = 0;
        const headers: Record<string, string> = {};
        const res: { headersSent: boolean } & Record<string, unknown> = {
          headersSent: false,
          socket: socketOf(r.connection ?? 0),
          writeHead(code: number, head: string[]) {
            status = code;
            for (let i = 0; i + 1 < head.length; i += 2) headers[head[i]!.toLowerCase()] = head[i + 1]!;
            headers.date ??= new Date(parts.now()).toUTCString();
            this.headersSent = true;
            return this;
          },
          end(payload: string) {
            resolve({ status, headers, body: payload });
          },
          destroy() {
            reject(new Error('the reference server destroyed the response'));
          },
          once() {
            return this;
          },
        };
        parts.app(req, res as unknown as ServerResponse);
      }),
  };
}
