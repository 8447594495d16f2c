// The one place a request goes out and its final answer comes back, for every sender of the
// harness: the client, the rate-limit bursts, the paced load and the target probe.
//
// Why node:http and not undici or autocannon. HTTP/1.1 lets a server send any number of 1xx
// interim answers before the final one ("A client MUST be able to parse one or more 1xx responses
// received prior to a final response, even if the client does not expect one", RFC 9110 §15.2),
// frame a body by Content-Length, chunked transfer or the connection's close (RFC 9112 §6), and
// code it (gzip, deflate, br) even for a request without Accept-Encoding (RFC 9110 §12.5.3).
// undici 7 destroys the socket on an unsolicited `100 Continue`, so every request to such a
// server fails; autocannon's parser (http-parser-js) reads the answer after a `103 Early Hints`
// as the 103's body, and never completes an answer delimited by the connection's close, so a
// burst loses count and keeps sending into a 429 period. node:http's client reads every 1xx
// (its 'information' event), every framing, and keeps the raw header lines; the codings are
// undone here (codings.ts). Each answer is the final one alone: judged, counted and timed as
// such, the interim answers kept beside it. The way to the target (keep-alive agents, TLS trust,
// a proxy and its CONNECT tunnel) is agents.ts.
//
// Timeouts measure silences: before the headers (HEADERS_TIMEOUT, an interim answer breaks the
// silence) and between body chunks (BODY_TIMEOUT); connecting has its own (CONNECT_TIMEOUT); and
// the whole exchange is bounded at timeoutMs + 1 s (REQUEST_DEADLINE), for a server that drips a
// byte at a time. Every failure is a TransportError with one of the codes below.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { TransportError } from '../errors.ts';
import { Agents, type RouteSettings } from './agents.ts';
import { decodeBody } from './codings.ts';

/** Why no answer could be read: the `cause_code` of a TransportError, recorded as an exchange's transportError. */
export type TransportCode =
  | 'CONNECTION_REFUSED'
  | 'HOST_NOT_FOUND'
  | 'HOST_UNREACHABLE'
  | 'CONNECT_TIMEOUT'
  | 'TLS_FAILED'
  | 'PROXY_REFUSED'
  | 'CONNECTION_RESET'
  | 'CLOSED_BEFORE_ANSWER'
  | 'HEADERS_TIMEOUT'
  | 'BODY_TIMEOUT'
  | 'REQUEST_DEADLINE'
  | 'BODY_SHORTER_THAN_LENGTH'
  | 'BODY_INCOMPLETE'
  | 'UNPARSABLE_ANSWER'
  | 'INVALID_REQUEST'
  | 'NETWORK_ERROR';

export interface TransportSettings extends RouteSettings {
  /** Silence before the headers, or between body chunks, that ends a request. */
  timeoutMs: number;
}

export interface HttpRequest {
  method: string;
  /** The whole URL. */
  url: string;
  /**
   * The request-target as sent, path and query, when it must not be normalised (dot and empty
   * segments, percent-encodings, repeated parameters): `url` then gives only the origin.
   */
  target?: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The body sent in chunks (Transfer-Encoding: chunked), without Content-Length. */
  chunked?: boolean;
}

export interface SendOptions {
  /** Bytes of the decoded body kept for an answer of this status; 0 reads the body and drops it (undecoded). Default 4 MiB. */
  keep?: (status: number) => number;
}

export interface Interim {
  status: number;
  headers: Record<string, string>;
}

export interface HttpAnswer {
  status: number;
  /** Lower-case names; a header sent several times has its values joined with ", " (Set-Cookie too). */
  headers: Record<string, string>;
  /** The decoded body, up to what was kept. */
  body: Buffer;
  text: string;
  /** The body was longer than what was kept (or the limit read). */
  truncated: boolean;
  /** Why the body could not be decoded (an unknown or corrupt content coding): `body` is empty, status and headers stand. */
  bodyProblem?: string;
  /** The 1xx answers that came before this one, in order. */
  interim: Interim[];
}

/** Sends a request and returns its final answer, or throws a TransportError. */
export interface Sender {
  send(request: HttpRequest, options?: SendOptions): Promise<HttpAnswer>;
}

/** One keep-alive connection (opened again if the server closes it). */
export interface HttpConnection extends Sender {
  close(): void;
}

/** Read at most this much of a body, decoded or not: a hostile server cannot fill our memory. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The whole exchange may take this much more than the silences: a server may drip. */
const DEADLINE_SLACK_MS = 1_000;

export class Transport implements Sender {
  private readonly pool: Agents;
  private readonly own = new Set<Agents>();

  constructor(private readonly settings: TransportSettings) {
    this.pool = new Agents(settings);
  }

  send(request: HttpRequest, options: SendOptions = {}): Promise<HttpAnswer> {
    return exchange(this.pool, this.settings, request, options);
  }

  /** A connection of its own, apart from the pool, with the same settings: one socket at a time. */
  connection(): HttpConnection {
    const agents = new Agents(this.settings, 1);
    this.own.add(agents);
    return {
      send: (request, options = {}) => exchange(agents, this.settings, request, options),
      close: () => {
        agents.destroy();
        this.own.delete(agents);
      },
    };
  }

  /** Ends every socket, the pool's and the connections'. */
  close(): void {
    this.pool.destroy();
    for (const agents of this.own) agents.destroy();
    this.own.clear();
  }
}

/** Header lines as one record: lower-case names, repeated ones joined with ", " (node's `headers` drops repeats of Retry-After, Content-Type...). */
export function headersOf(rawHeaders: readonly string[]): Record<string, string> {
  const joined = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const before = joined.get(name);
    joined.set(name, before === undefined ? rawHeaders[i + 1]! : `${before}, ${rawHeaders[i + 1]!}`);
  }
  return Object.fromEntries(joined);
}

/** The code of a failure of node:http (or of ours), as one of the transport's. */
function codeOf(err: unknown, stage: { answered: boolean; peerEnded: boolean; lengthDeclared: boolean }): TransportCode {
  if (err instanceof TransportError) return err.cause_code as TransportCode;
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return 'NETWORK_ERROR';
  if (code.startsWith('HPE_')) return 'UNPARSABLE_ANSWER';
  if (stage.answered && (code === 'ECONNRESET' || code === 'EPIPE')) return stage.lengthDeclared ? 'BODY_SHORTER_THAN_LENGTH' : 'BODY_INCOMPLETE';
  if (code === 'ECONNRESET' || code === 'EPIPE') return stage.peerEnded ? 'CLOSED_BEFORE_ANSWER' : 'CONNECTION_RESET';
  if (code === 'ECONNREFUSED') return 'CONNECTION_REFUSED';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'HOST_NOT_FOUND';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'HOST_UNREACHABLE';
  if (code === 'ETIMEDOUT') return 'CONNECT_TIMEOUT';
  if (code.startsWith('ERR_INVALID_') || code === 'ERR_HTTP_INVALID_HEADER_VALUE' || code === 'ERR_UNESCAPED_CHARACTERS') return 'INVALID_REQUEST';
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || code.includes('CERT') || code.startsWith('UNABLE_TO_') || code === 'EPROTO') return 'TLS_FAILED';
  return 'NETWORK_ERROR';
}

const SAID: Record<TransportCode, string> = {
  CONNECTION_REFUSED: 'connection refused',
  HOST_NOT_FOUND: 'host not found',
  HOST_UNREACHABLE: 'host unreachable',
  CONNECT_TIMEOUT: 'no connection within the connect timeout',
  TLS_FAILED: 'TLS failed',
  PROXY_REFUSED: 'the proxy refused the tunnel',
  CONNECTION_RESET: 'connection reset before an answer',
  CLOSED_BEFORE_ANSWER: 'connection closed before an answer',
  HEADERS_TIMEOUT: 'no answer within the timeout',
  BODY_TIMEOUT: 'the body stopped for longer than the timeout',
  REQUEST_DEADLINE: 'the answer took longer than the timeout and a second',
  BODY_SHORTER_THAN_LENGTH: 'connection closed before the body reached its Content-Length',
  BODY_INCOMPLETE: 'connection closed in the middle of the body',
  UNPARSABLE_ANSWER: 'the answer is not HTTP/1.1 the parser can read',
  INVALID_REQUEST: 'the request carries a header or path HTTP does not allow',
  NETWORK_ERROR: 'network error',
};

/** One request on an agent, to its final answer. */
function exchange(agents: Agents, settings: TransportSettings, request: HttpRequest, options: SendOptions): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const interim: Interim[] = [];
    const stage = { answered: false, peerEnded: false, lengthDeclared: false };
    let socket: Socket | undefined;
    let settled = false;
    let silence: NodeJS.Timeout | undefined;
    let req: http.ClientRequest | undefined;
    const deadline = setTimeout(() => fail(new TransportError(SAID.REQUEST_DEADLINE, 'REQUEST_DEADLINE')), settings.timeoutMs + DEADLINE_SLACK_MS);
    /** (Re)starts the silence that ends the request with `code`. */
    const quiet = (code: TransportCode, ms = settings.timeoutMs) => {
      clearTimeout(silence);
      silence = setTimeout(() => fail(new TransportError(SAID[code], code)), ms);
    };
    const done = () => {
      settled = true;
      clearTimeout(deadline);
      clearTimeout(silence);
    };
    function fail(err: unknown): void {
      if (settled) return;
      done();
      // node:http says "socket hang up" for a connection the server closed and for one it reset alike.
      stage.peerEnded = socket?.readableEnded ?? false;
      const code = codeOf(err, stage);
      const detail = (err as { code?: unknown })?.code;
      reject(err instanceof TransportError ? err : new TransportError(`${SAID[code]}${typeof detail === 'string' && code !== 'CONNECTION_REFUSED' ? ` (${detail})` : ''}`, code));
      req?.destroy();
    }

    try {
      const headers = { ...request.headers };
      if (request.body !== undefined && !request.chunked && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['content-length'] = String(Buffer.byteLength(request.body));
      const { agent, options: target, secure } = agents.route(new URL(request.url), headers, request.target);
      req = (secure ? https : http).request({ ...target, method: request.method, agent });
    } catch (err) {
      // A header value, token or URL the request may not carry: thrown before anything is sent.
      fail(err);
      return;
    }
    quiet('CONNECT_TIMEOUT', settings.connectTimeoutMs ?? settings.timeoutMs);
    req.on('socket', (s: Socket) => {
      socket = s;
      if (!s.connecting) quiet('HEADERS_TIMEOUT');
      else s.once('connect', () => quiet('HEADERS_TIMEOUT'));
    });
    req.on('information', (info: http.InformationEvent) => {
      interim.push({ status: info.statusCode, headers: headersOf(info.rawHeaders) });
      quiet('HEADERS_TIMEOUT');
    });
    let response: http.IncomingMessage | undefined;
    // Bytes after a complete answer (a Content-Length shorter than what was sent) break the
    // connection, not the answer: it ends all the same.
    req.on('error', (err) => (response?.complete ? undefined : fail(err)));
    req.on('response', (res: http.IncomingMessage) => {
      response = res;
      stage.answered = true;
      const headers = headersOf(res.rawHeaders);
      stage.lengthDeclared = headers['content-length'] !== undefined && headers['transfer-encoding'] === undefined;
      const status = res.statusCode ?? 0;
      const keep = options.keep?.(status) ?? MAX_BODY_BYTES;
      const chunks: Buffer[] = [];
      let size = 0;
      quiet('BODY_TIMEOUT');
      res.on('data', (chunk: Buffer) => {
        quiet('BODY_TIMEOUT');
        size += chunk.length;
        if (keep > 0) chunks.push(chunk);
        if (size > (keep > 0 ? keep : MAX_BODY_BYTES)) {
          // More than is kept (a coded body decodes to at least as much, as a rule): the rest is
          // left unread, and the connection with it.
          finish(true);
          req?.destroy();
        }
      });
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      });
      res.on('end', () => finish(false));

      function finish(cut: boolean): void {
        if (settled) return;
        done();
        const raw = Buffer.concat(chunks);
        if (keep === 0) {
          resolve({ status, headers, body: Buffer.alloc(0), text: '', truncated: size > 0, interim });
          return;
        }
        void decodeBody(raw, headers['content-encoding'], keep, cut).then(({ body, truncated, problem }) => {
          const text = body.toString('utf8');
          resolve({ status, headers, body, text: truncated ? text.replace(/\uFFFD$/, '') : text, truncated, ...(problem ? { bodyProblem: problem } : {}), interim });
        });
      }
    });
    if (request.chunked && request.body !== undefined) {
      // node:http frames what is written before end() in chunks when no Content-Length is set.
      const body = Buffer.from(request.body);
      const half = Math.ceil(body.length / 2);
      req.write(body.subarray(0, half));
      req.end(body.subarray(half));
    } else req.end(request.body);
  });
}
