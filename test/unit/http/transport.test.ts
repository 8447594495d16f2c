// lib/http/transport.ts against small servers on loopback that write raw bytes: every legal form
// of an HTTP/1.1 answer (1xx interim answers, each framing, each content coding), and the broken
// ones, each failure by its code. Timeouts are short real ones (100 ms).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError } from '../../../lib/errors.ts';
import { headersOf, MAX_BODY_BYTES, type HttpAnswer, Transport, type TransportSettings } from '../../../lib/http/transport.ts';
import { closedPort } from '../../support/recording-server.ts';

const TLS_DIR = path.join(import.meta.dirname, '../../support/tls');
const CERT = readFileSync(path.join(TLS_DIR, 'localhost.cert.pem'));
const KEY = readFileSync(path.join(TLS_DIR, 'localhost.key.pem'));

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server that hands each request head (and the socket) to `answer`, which writes raw bytes. */
async function raw(answer: (socket: Socket, head: string, n: number) => void): Promise<{ url: string; heads: string[]; sockets: Set<Socket> }> {
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    let buffer = '';
    socket.on('data', (data) => {
      buffer += data.toString('latin1');
      for (let end = buffer.indexOf('\r\n\r\n'); end >= 0; end = buffer.indexOf('\r\n\r\n')) {
        const head = buffer.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.slice(end + 4 + length);
        heads.push(head);
        answer(socket, head, heads.length - 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/pets?limit=1`, heads, sockets };
}

function transport(settings: Partial<TransportSettings> = {}): Transport {
  const t = new Transport({ timeoutMs: 2_000, ...settings });
  closers.push(() => t.close());
  return t;
}

const get = (t: Pick<Transport, 'send'>, url: string, headers: Record<string, string> = {}) => t.send({ method: 'GET', url, headers });

/** The code a send fails with. */
async function failure(sending: Promise<HttpAnswer>): Promise<string> {
  const err = await sending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TransportError);
  return (err as TransportError).cause_code;
}

const ok = (body: string, headers = '') => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('transport: interim answers', () => {
  it.each([
    { title: '100 Continue, unasked for', interim: 'HTTP/1.1 100 Continue\r\n\r\n', statuses: [100] },
    { title: '102 Processing', interim: 'HTTP/1.1 102 Processing\r\n\r\n', statuses: [102] },
    { title: '103 Early Hints, with Link headers', interim: 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\nLink: </b.js>; rel=preload\r\n\r\n', statuses: [103] },
    { title: 'several in a row', interim: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n', statuses: [100, 102, 103] },
  ])('skips $title and reads the final answer alone', async ({ interim, statuses }) => {
    const server = await raw((s) => s.write(interim + ok('[]', 'X-RateLimit-Remaining: 9\r\n')));
    const answer = await get(transport(), server.url);
    expect({ status: answer.status, text: answer.text, remaining: answer.headers['x-ratelimit-remaining'] }).toEqual({ status: 200, text: '[]', remaining: '9' });
    expect(answer.interim.map((i) => i.status)).toEqual(statuses);
    expect(answer.headers.link).toBeUndefined();
  });

  it("keeps an interim answer's headers, repeats joined", async () => {
    const server = await raw((s) => s.write(`HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\nLink: </b.js>; rel=preload\r\n\r\n${ok('[]')}`));
    const answer = await get(transport(), server.url);
    expect(answer.interim).toEqual([{ status: 103, headers: { link: '</a.css>; rel=preload, </b.js>; rel=preload' } }]);
  });

  it('reads answer after answer on one keep-alive connection, each after its interim answers', async () => {
    const server = await raw((s, _head, n) => s.write(`HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n${ok(`[${n}]`)}`));
    const connection = transport().connection();
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push((await get(connection, server.url)).text);
    connection.close();
    expect(texts).toEqual(['[0]', '[1]', '[2]']);
    expect(server.sockets.size).toBe(1);
  });
});

describe('transport: framings', () => {
  it('reads a body framed by Content-Length', async () => {
    const server = await raw((s) => s.write(ok('{"a":1}')));
    expect((await get(transport(), server.url)).text).toBe('{"a":1}');
  });

  it('reads a chunked body, in several chunks', async () => {
    const server = await raw((s) => {
      s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[{"\r\n');
      setTimeout(() => s.write('5\r\na":1}\r\n1\r\n]\r\n0\r\n\r\n'), 20);
    });
    const connection = transport().connection();
    expect((await get(connection, server.url)).text).toBe('[{"a":1}]');
    // The connection is kept: the next answer comes over the same socket.
    expect((await get(connection, server.url)).text).toBe('[{"a":1}]');
    connection.close();
    expect(server.sockets.size).toBe(1);
  });

  it("reads a body delimited by the connection's close, and opens another connection for the next request", async () => {
    const server = await raw((s, _head, n) => {
      s.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[');
      setTimeout(() => s.end(`${n}]`), 20);
    });
    const connection = transport().connection();
    expect((await get(connection, server.url)).text).toBe('[0]');
    expect((await get(connection, server.url)).text).toBe('[1]');
    connection.close();
    expect(server.sockets.size).toBe(2);
  });

  it('reads no more than Content-Length says, whatever follows', async () => {
    const server = await raw((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]garbage'));
    expect((await get(transport(), server.url)).text).toBe('[]');
  });

  it('joins repeated headers with ", " (two Retry-After, two Set-Cookie), names lower-cased', async () => {
    const server = await raw((s) => s.write(ok('[]', 'Retry-After: 1\r\nretry-after: 2\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n')));
    const answer = await get(transport(), server.url);
    expect(answer.headers['retry-after']).toBe('1, 2');
    expect(answer.headers['set-cookie']).toBe('a=1, b=2');
    expect(answer.headers['content-type']).toBe('application/json');
  });

  it('headersOf keeps a header named like an Object property as a header', () => {
    expect(headersOf(['__proto__', 'x', 'Constructor', 'y'])).toEqual(JSON.parse('{"__proto__":"x","constructor":"y"}'));
  });
});

describe('transport: requests as spelled (the relations suite)', () => {
  /** A node:http server that answers each request with what it received, as JSON. */
  async function echo(): Promise<string> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.end(JSON.stringify({ method: req.method, url: req.url, te: req.headers['transfer-encoding'] ?? null, cl: req.headers['content-length'] ?? null, body: Buffer.concat(chunks).toString() })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('sends a raw target as is: dot and empty segments, repeated parameters, an unknown method', async () => {
    const origin = await echo();
    const target = '/v1/./x/../pets//?limit=2&limit=2&flag';
    // A method node's parser knows (it answers an unknown token 400 before any handler) but no route has.
    const answer = await transport().send({ method: 'PROPFIND', url: origin + target, target, headers: {} });
    expect(JSON.parse(answer.text)).toMatchObject({ method: 'PROPFIND', url: target });
  });

  it('sends a body chunked when asked, under Content-Length otherwise', async () => {
    const origin = await echo();
    const body = '{"name":"Rex","categoryId":1}';
    const chunked = await transport().send({ method: 'POST', url: `${origin}/v1/pets`, headers: {}, body, chunked: true });
    expect(JSON.parse(chunked.text)).toEqual({ method: 'POST', url: '/v1/pets', te: 'chunked', cl: null, body });
    const framed = await transport().send({ method: 'POST', url: `${origin}/v1/pets`, headers: {}, body });
    expect(JSON.parse(framed.text)).toEqual({ method: 'POST', url: '/v1/pets', te: null, cl: String(body.length), body });
  });
});

describe('transport: content codings, whatever the request asked', () => {
  const text = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i, name: `Rex ${i}` })));
  const coded = (encoding: string, body: Buffer) => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: ${encoding}\r\nVary: Accept-Encoding\r\nContent-Length: ${body.length}\r\n\r\n`;
  const serve = (encoding: string, body: Buffer) => raw((s) => s.write(Buffer.concat([Buffer.from(coded(encoding, body)), body])));

  it.each([
    { encoding: 'gzip', body: zlib.gzipSync(text) },
    { encoding: 'x-gzip', body: zlib.gzipSync(text) },
    { encoding: 'GZIP', body: zlib.gzipSync(text) },
    { encoding: 'deflate', body: zlib.deflateSync(text), title: 'zlib-wrapped' },
    { encoding: 'deflate', body: zlib.deflateRawSync(text), title: 'raw, as servers often send' },
    { encoding: 'br', body: zlib.brotliCompressSync(text) },
    { encoding: 'identity', body: Buffer.from(text) },
    { encoding: 'gzip, br', body: zlib.brotliCompressSync(zlib.gzipSync(text)), title: 'stacked: undone in reverse order' },
    { encoding: 'deflate,gzip', body: zlib.gzipSync(zlib.deflateSync(text)), title: 'stacked' },
  ])('decodes $encoding $title', async ({ encoding, body }) => {
    const server = await serve(encoding, body);
    const answer = await get(transport(), server.url);
    expect(server.heads[0]).not.toMatch(/accept-encoding/i);
    expect({ text: answer.text, truncated: answer.truncated, problem: answer.bodyProblem }).toEqual({ text, truncated: false, problem: undefined });
    expect(answer.headers['content-encoding']).toBe(encoding);
  });

  it('reads an empty body labelled gzip as empty', async () => {
    const server = await raw((s) => s.write('HTTP/1.1 429 Too Many Requests\r\nContent-Encoding: gzip\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n'));
    const answer = await get(transport(), server.url);
    expect({ status: answer.status, text: answer.text, problem: answer.bodyProblem }).toEqual({ status: 429, text: '', problem: undefined });
  });

  it.each([
    { encoding: 'zstd', body: Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0]), problem: 'content coding "zstd" cannot be decoded' },
    { encoding: 'compress', body: Buffer.from('xyz'), problem: 'content coding "compress" cannot be decoded' },
    { encoding: 'gzip', body: Buffer.from('not gzip at all'), problem: 'the gzip body is corrupt' },
    { encoding: 'br', body: Buffer.from([0xff, 0xff, 0xff, 0xff]), problem: 'the br body is corrupt' },
  ])('keeps status and headers of a $encoding body it cannot decode, and says why', async ({ encoding, body, problem }) => {
    const server = await raw((s) => s.write(Buffer.concat([Buffer.from(coded(encoding, body).replace('200 OK', '404 Not Found').replace('\r\n\r\n', '\r\nX-RateLimit-Remaining: 3\r\n\r\n')), body])));
    const answer = await get(transport(), server.url);
    expect({ status: answer.status, remaining: answer.headers['x-ratelimit-remaining'], text: answer.text, problem: answer.bodyProblem }).toEqual({ status: 404, remaining: '3', text: '', problem });
  });

  it('stops a decompression bomb at the body limit, marked truncated', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(3 * MAX_BODY_BYTES, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    const server = await serve('gzip', bomb);
    const answer = await get(transport(), server.url);
    expect({ length: answer.body.length, truncated: answer.truncated }).toEqual({ length: MAX_BODY_BYTES, truncated: true });
  });

  it('keeps only what `keep` asks for a status, and drops a body kept at 0 without decoding it', async () => {
    const server = await raw((s, _head, n) => (n === 0 ? s.write(ok('x'.repeat(5000)).replace('200 OK', '503 Unavailable')) : s.write(Buffer.concat([Buffer.from(coded('zstd', Buffer.from('zz'))), Buffer.from('zz')]))));
    const t = transport();
    const keep = (status: number) => (status < 300 ? 0 : 1000);
    const cut = await t.send({ method: 'GET', url: server.url, headers: {} }, { keep });
    expect({ status: cut.status, length: cut.text.length, truncated: cut.truncated }).toEqual({ status: 503, length: 1000, truncated: true });
    const dropped = await t.send({ method: 'GET', url: server.url, headers: {} }, { keep });
    expect({ status: dropped.status, text: dropped.text, problem: dropped.bodyProblem }).toEqual({ status: 200, text: '', problem: undefined });
  });

  it('cuts a body longer than the limit, on a character boundary', async () => {
    const body = 'é'.repeat(MAX_BODY_BYTES);
    const server = await raw((s) => s.write(ok(body)));
    const answer = await get(transport(), server.url);
    expect(answer.truncated).toBe(true);
    expect(answer.text).toBe('é'.repeat(MAX_BODY_BYTES / 2));
  });
});

describe('transport: failures, each by its code', () => {
  it('CONNECTION_REFUSED for a closed port', async () => {
    expect(await failure(get(transport(), `http://127.0.0.1:${await closedPort()}/`))).toBe('CONNECTION_REFUSED');
  });

  it.each([
    { title: 'closed before an answer', code: 'CLOSED_BEFORE_ANSWER', answer: (s: Socket) => s.end() },
    { title: 'reset before an answer', code: 'CONNECTION_RESET', answer: (s: Socket) => s.resetAndDestroy() },
    { title: 'closed with the body shorter than its Content-Length', code: 'BODY_SHORTER_THAN_LENGTH', answer: (s: Socket) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n[]') },
    { title: 'closed in the middle of a chunked body', code: 'BODY_INCOMPLETE', answer: (s: Socket) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n') },
    { title: 'not HTTP at all', code: 'UNPARSABLE_ANSWER', answer: (s: Socket) => s.end('<html>hello</html>\r\n\r\n') },
    { title: 'a broken chunk size', code: 'UNPARSABLE_ANSWER', answer: (s: Socket) => s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n[]\r\n') },
  ])('$code: $title', async ({ code, answer }) => {
    const server = await raw(answer);
    expect(await failure(get(transport(), server.url))).toBe(code);
  });

  it('INVALID_REQUEST for a header value HTTP does not allow, and nothing is sent', async () => {
    const server = await raw((s) => s.write(ok('[]')));
    expect(await failure(get(transport(), server.url, { 'x-bad': 'a\r\nInjected: 1' }))).toBe('INVALID_REQUEST');
    expect(server.heads).toEqual([]);
  });

  it('HEADERS_TIMEOUT after timeoutMs of silence; an interim answer breaks the silence', async () => {
    const server = await raw((s, _head, n) => {
      if (n === 1) {
        setTimeout(() => s.write('HTTP/1.1 102 Processing\r\n\r\n'), 70);
        setTimeout(() => s.write(ok('[]')), 140);
      }
    });
    const t = transport({ timeoutMs: 100 });
    const started = performance.now();
    expect(await failure(get(t, server.url))).toBe('HEADERS_TIMEOUT');
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    // 70 ms, then 70 ms more: never 100 ms of silence.
    const answer = await get(t, server.url);
    expect({ status: answer.status, interim: answer.interim.map((i) => i.status) }).toEqual({ status: 200, interim: [102] });
  });

  it('BODY_TIMEOUT after timeoutMs of silence within the body', async () => {
    const server = await raw((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n[1,'));
    expect(await failure(get(transport({ timeoutMs: 100 }), server.url))).toBe('BODY_TIMEOUT');
  });

  it('REQUEST_DEADLINE at timeoutMs + 1 s for a body dripped a byte at a time', async () => {
    const drips: NodeJS.Timeout[] = [];
    const server = await raw((s) => {
      s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      drips.push(setInterval(() => s.write('1\r\n \r\n'), 40));
    });
    closers.push(() => drips.forEach(clearInterval));
    const started = performance.now();
    expect(await failure(get(transport({ timeoutMs: 100 }), server.url))).toBe('REQUEST_DEADLINE');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_090);
  });

  it('a connection closed by the harness fails the request waiting on it', async () => {
    const server = await raw(() => {});
    const connection = transport().connection();
    const pending = get(connection, server.url);
    setTimeout(() => connection.close(), 30);
    expect(await failure(pending)).toMatch(/^(CLOSED_BEFORE_ANSWER|CONNECTION_RESET)$/);
  });

  it('says what went wrong without the URL (a key may be in its query)', async () => {
    const server = await raw((s) => s.end());
    const err = await get(transport(), `${server.url}&api_key=secret-in-query`).catch((e: unknown) => e);
    expect((err as Error).message).not.toContain('secret');
  });
});

describe('transport: a proxy', () => {
  /** A proxy on loopback: absolute-form requests forwarded, CONNECT tunnels opened (or refused with `refuse`). */
  async function proxy(o: { refuse?: number; silent?: boolean } = {}) {
    const seen: { method: string; url: string; auth?: string }[] = [];
    const server = http.createServer((req, res) => {
      seen.push({ method: req.method!, url: req.url!, ...(req.headers['proxy-authorization'] ? { auth: req.headers['proxy-authorization'] } : {}) });
      const target = new URL(req.url!);
      const { 'proxy-authorization': _, ...headers } = req.headers;
      const forward = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.rawHeaders);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    const sockets = new Set<Socket>();
    server.on('connection', (s: Socket) => sockets.add(s));
    server.on('connect', (req: http.IncomingMessage, socket: Socket) => {
      seen.push({ method: 'CONNECT', url: req.url!, ...(req.headers['proxy-authorization'] ? { auth: req.headers['proxy-authorization'] } : {}) });
      if (o.silent) return;
      if (o.refuse) {
        socket.end(`HTTP/1.1 ${o.refuse} No\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      const [host, port] = req.url!.split(':');
      const upstream = net.connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return { url: `http://user:p%40ss@127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  async function httpsServer() {
    const sockets = new Set<Socket>();
    const server = https.createServer({ cert: CERT, key: KEY }, (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ host: req.headers.host, url: req.url })));
    server.on('connection', (s: Socket) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return (server.address() as AddressInfo).port;
  }

  const BASIC = `Basic ${Buffer.from('user:p@ss').toString('base64')}`;

  it('sends an http request in absolute form to the proxy, with Proxy-Authorization from the URL', async () => {
    const target = await raw((s, head) => s.write(ok(JSON.stringify(head.split('\r\n')[0]))));
    const p = await proxy();
    const answer = await get(transport({ proxy: p.url }), target.url);
    expect(p.seen).toEqual([{ method: 'GET', url: target.url, auth: BASIC }]);
    expect(JSON.parse(answer.text)).toBe('GET /v1/pets?limit=1 HTTP/1.1');
    expect(target.heads[0]).not.toMatch(/proxy-authorization/i);
  });

  it('tunnels an https request through CONNECT, then TLS with the CA given', async () => {
    const port = await httpsServer();
    const p = await proxy();
    const t = transport({ proxy: p.url, ca: CERT });
    const answer = await get(t, `https://localhost:${port}/v1/pets`);
    expect(JSON.parse(answer.text)).toEqual({ host: `localhost:${port}`, url: '/v1/pets' });
    expect(p.seen).toEqual([{ method: 'CONNECT', url: `localhost:${port}`, auth: BASIC }]);
    // The tunnel is kept alive for the next request.
    await get(t, `https://localhost:${port}/v1/pets`);
    expect(p.seen).toHaveLength(1);
  });

  it('through the tunnel, refuses an unknown certificate unless insecure', async () => {
    const port = await httpsServer();
    const p = await proxy();
    expect(await failure(get(transport({ proxy: p.url }), `https://localhost:${port}/`))).toBe('TLS_FAILED');
    expect((await get(transport({ proxy: p.url, insecure: true }), `https://localhost:${port}/`)).status).toBe(200);
  });

  it('PROXY_REFUSED when the proxy answers CONNECT with other than 200', async () => {
    const p = await proxy({ refuse: 407 });
    expect(await failure(get(transport({ proxy: p.url }), 'https://localhost:9/'))).toBe('PROXY_REFUSED');
  });

  it('CONNECT_TIMEOUT when the proxy never answers CONNECT', async () => {
    const p = await proxy({ silent: true });
    expect(await failure(get(transport({ proxy: p.url, timeoutMs: 100 }), 'https://localhost:9/'))).toBe('CONNECT_TIMEOUT');
  });

  it('without a proxy, https with the CA given, and TLS_FAILED without it', async () => {
    const port = await httpsServer();
    expect((await get(transport({ ca: CERT }), `https://localhost:${port}/x`)).status).toBe(200);
    expect(await failure(get(transport(), `https://localhost:${port}/x`))).toBe('TLS_FAILED');
  });
});
