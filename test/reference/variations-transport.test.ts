// Legal variations of how replies reach the client: a skewed clock, several instances behind one
// port, slow responses, short-lived connections, and the wire's forms (interim answers, framings,
// content codings). Each does what its catalogue entry says.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Client } from 'undici';
import { describe, expect, it } from 'vitest';
import { Delivery, INSTANCES, REORDERED, reorderDelayMs, SKEWED_CONNECTION_DATE_MS, SLOW, SLOW_BODY, slowDelayMs } from '../../targets/reference/delivery.ts';
import { EARLY_HINT_LINK } from '../../targets/reference/http.ts';
import type { ServerConfigInput } from '../../targets/reference/config.ts';
import type { RunningServer } from '../../targets/reference/server.ts';
import type { VariationId } from '../../targets/reference/variations.ts';
import { KEYS, T0, TEST_CONFIG, call, closedAfterEach, fakeClock, rateHeaders, rawHttp, startTestServer, type Exchange, type FakeClock } from './helpers.ts';

const T0_S = T0 / 1000;
const TINY_KEY = 'test-tiny-key';
/** Slack for timers on a busy two-core machine. */
const BUSY_MS = 400;

const track = closedAfterEach();

async function start(variations: VariationId[], clock: FakeClock, config: Partial<ServerConfigInput> = {}): Promise<RunningServer> {
  const keys = [...TEST_CONFIG.keys, { key: TINY_KEY, plan: 'tiny' }];
  const plans = { ...TEST_CONFIG.plans, tiny: { perMinute: 1, perDay: 100 } };
  const server = await startTestServer({ keys, plans, variations, ...config }, clock);
  track(server);
  return server;
}

const tiny = (s: RunningServer) => call(s, 'GET', '/v1/pets', { key: TINY_KEY });
const bulk = (s: RunningServer, path = '/v1/pets') => call(s, 'GET', path, { key: KEYS.bulk });

/** The IMF-fixdate of a moment. */
const date = (ms: number) => new Date(ms).toUTCString();

/** The response and how long it took, in ms. */
async function timed(request: Promise<Exchange>): Promise<[Exchange, number]> {
  const started = performance.now();
  const res = await request;
  return [res, performance.now() - started];
}

/** One HTTP/1.1 connection, spoken raw, so that keep-alive and closing can be watched. */
class RawConnection {
  private readonly socket: Socket;
  private buffer = Buffer.alloc(0);
  private wake: () => void = () => {};
  /** performance.now() when the server closed the connection. */
  readonly closed: Promise<number>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.on('close', () => (resolve(performance.now()), this.wake())));
  }

  async get(path: string, key: string): Promise<{ status: number; headers: Record<string, string> }> {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const size = end + 4 + Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= size) {
          this.buffer = this.buffer.subarray(size);
          return { status: Number(statusLine!.split(' ')[1]), headers };
        }
      }
      if (this.socket.destroyed) throw new Error('connection closed before the response');
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

describe('clock-ahead and clock-behind', () => {
  it('clock-ahead: Date, Reset and the windows follow a clock 5 s ahead; Retry-After stays a true duration', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['clock-ahead'], clock);
    const first = await tiny(s);
    expect(first.status).toBe(200);
    expect(first.headers.date).toBe(date(T0 + 15_250));
    expect(rateHeaders(first)).toEqual({ limit: 1, remaining: 0, reset: T0_S + 60 });
    for (const res of [await call(s, 'GET', '/v1/pets'), await bulk(s, '/v1/nowhere')]) expect(res.headers.date).toBe(date(T0 + 15_250));

    // 50 s on the true clock is 55 s on the server's: its window ends in 5 s.
    clock.set(T0 + 50_000);
    const refused = await tiny(s);
    expect(refused.status).toBe(429);
    expect(refused.headers.date).toBe(date(T0 + 55_000));
    expect(refused.headers['retry-after']).toBe('5');
    expect(rateHeaders(refused)!.reset * 1000 - Date.parse(refused.headers.date!)).toBe(5_000);
    clock.advance(5_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 1, remaining: 0, reset: T0_S + 120 });
    expect(s.stats().earlyRetries).toBe(0);
  });

  it('clock-behind: the window ends 5 s later on the true clock', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['clock-behind'], clock);
    const first = await tiny(s);
    expect(first.headers.date).toBe(date(T0 + 5_250));
    expect(rateHeaders(first)?.reset).toBe(T0_S + 60);
    clock.set(T0 + 62_000);
    const refused = await tiny(s);
    expect(refused.status).toBe(429);
    expect(refused.headers.date).toBe(date(T0 + 57_000));
    expect(refused.headers['retry-after']).toBe('3');
    clock.advance(3_000);
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 1, remaining: 0, reset: T0_S + 120 });
  });

  it('an HTTP-date Retry-After is on the skewed clock, as far from Date as the true wait', async () => {
    const clock = fakeClock(T0 + 50_000);
    const s = await start(['clock-ahead', 'retry-after-http-date'], clock);
    await tiny(s);
    const refused = await tiny(s);
    expect(refused.headers['retry-after']).toBe(date(T0 + 60_000));
    expect(Date.parse(refused.headers['retry-after']!) - Date.parse(refused.headers.date!)).toBe(5_000);
    clock.advance(5_000);
    expect((await tiny(s)).status).toBe(200);
    expect(s.stats().earlyRetries).toBe(0);
  });

  it('answers malformed requests with the skewed Date too', async () => {
    const s = await start(['clock-behind'], fakeClock(T0 + 10_250));
    const raw = await rawHttp(s.port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain(`Date: ${date(T0 + 5_250)}\r\n`);
  });
});

describe('several-instances', () => {
  it('serves requests round-robin from instances whose Dates are 1 s behind, right and 1 s ahead', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['several-instances'], clock);
    const responses = [await bulk(s), await call(s, 'GET', '/v1/pets'), await bulk(s), await bulk(s), await bulk(s, '/v1/x'), await bulk(s)];
    expect(responses.map((r) => r.headers.date)).toEqual([9_250, 10_250, 11_250, 9_250, 10_250, 11_250].map((ms) => date(T0 + ms)));
    // One limiter on the true clock: the same window whatever the instance.
    expect(new Set(responses.map((r) => rateHeaders(r)?.reset))).toEqual(new Set([T0_S + 60]));
    expect(INSTANCES.map((i) => i.dateOffsetMs)).toEqual([-1000, 0, 1000]);
  });

  it('shares one store and one limiter; the third instance adds 10 ms', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['several-instances'], clock);
    const created = await call(s, 'POST', '/v1/pets', { key: KEYS.bulk, json: { name: 'Rex', categoryId: 1 } });
    expect(created.status).toBe(201);
    const [read] = await timed(bulk(s, created.headers.location!));
    expect(read.status).toBe(200);
    const [, third] = await timed(bulk(s, created.headers.location!));
    expect(third).toBeGreaterThanOrEqual(9);
    expect((await tiny(s)).status).toBe(200);
    const refused = await tiny(s);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('50');
    expect((await tiny(s)).headers['retry-after']).toBe('50');
  });
});

describe('instances-clock-skew', () => {
  it("dates every other connection's answers a second behind, from one limiter on the true clock", async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['instances-clock-skew'], clock);
    // Three keep-alive connections, numbered in the order they are first seen: the second is served by the instance behind.
    const connections = [new Client(s.origin), new Client(s.origin), new Client(s.origin)];
    try {
      const seen: { date: string | undefined; reset: number | undefined }[] = [];
      for (const c of [0, 1, 2, 0, 1, 2]) {
        const res = await connections[c]!.request({ method: 'GET', path: '/v1/pets', headers: { authorization: `Bearer ${KEYS.bulk}` } });
        await res.body.dump();
        seen.push({ date: res.headers.date as string | undefined, reset: Number(res.headers['x-ratelimit-reset']) });
      }
      expect(seen.map((r) => r.date)).toEqual([10_250, 9_250, 10_250, 10_250, 9_250, 10_250].map((ms) => date(T0 + ms)));
      expect(new Set(seen.map((r) => r.reset))).toEqual(new Set([T0_S + 60]));
      expect(SKEWED_CONNECTION_DATE_MS).toBe(-1000);
    } finally {
      await Promise.all(connections.map((c) => c.close()));
    }
  });
});

describe('slow-responses', () => {
  it('holds a key\'s first 5 requests 300 ms, every other 20 to 100 ms, the same for the same request every run', () => {
    const delays = Array.from({ length: 200 }, (_, n) => slowDelayMs(n, 5 + n));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(SLOW.minMs);
    expect(Math.max(...delays)).toBeLessThanOrEqual(SLOW.maxMs);
    expect(Math.min(...delays)).toBeLessThan(30);
    expect(Math.max(...delays)).toBeGreaterThan(90);
    expect(new Set(delays).size).toBeGreaterThan(40);
    expect(Array.from({ length: 200 }, (_, n) => slowDelayMs(n, 5 + n))).toEqual(delays);
    expect([0, 1, 2, 3, 4].map((k) => slowDelayMs(k * 7, k))).toEqual([300, 300, 300, 300, 300]);
  });

  it('delays responses by those amounts over HTTP', async () => {
    const s = await start(['slow-responses'], fakeClock(T0 + 10_250));
    for (let i = 0; i < 5; i++) {
      const [res, ms] = await timed(bulk(s));
      expect(res.status).toBe(200);
      expect(ms).toBeGreaterThanOrEqual(SLOW.firstMs - 2);
      expect(ms).toBeLessThan(SLOW.firstMs + BUSY_MS);
    }
    for (let i = 0; i < 10; i++) {
      const [, ms] = await timed(bulk(s));
      expect(ms).toBeGreaterThanOrEqual(SLOW.minMs - 2);
      expect(ms).toBeLessThan(SLOW.maxMs + BUSY_MS);
    }
  });

  it('holds replies on timers: 5 held requests at once take about 300 ms, not 1.5 s', async () => {
    const s = await start(['slow-responses'], fakeClock(T0 + 10_250));
    const [all, ms] = await timed(Promise.all(Array.from({ length: 5 }, () => bulk(s))).then((r) => r[0]!));
    expect(all.status).toBe(200);
    expect(ms).toBeLessThan(SLOW.firstMs + BUSY_MS);
  });

  it('decides a request when it arrives, not when its reply is written', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['slow-responses'], clock);
    const pending = tiny(s);
    while (s.stats().byKey['tiny#1'] === undefined) await sleep(5);
    // The window ends while the reply is held: the reply still describes the window it was decided in.
    clock.set(T0 + 60_000);
    const held = await pending;
    expect(held.status).toBe(200);
    expect(rateHeaders(held)).toEqual({ limit: 1, remaining: 0, reset: T0_S + 60 });
    expect(rateHeaders(await tiny(s))).toEqual({ limit: 1, remaining: 0, reset: T0_S + 120 });
  });
});

describe('answers-reordered', () => {
  it('holds each reply 0 to 6 ms, differently per request and connection, the same for the same request every run', () => {
    const delays = Array.from({ length: 200 }, (_, n) => reorderDelayMs(n, 1 + (n % 4)));
    expect(Math.min(...delays)).toBe(0);
    expect(Math.max(...delays)).toBe(REORDERED.maxMs);
    expect(new Set(delays).size).toBe(REORDERED.maxMs + 1);
    expect(Array.from({ length: 200 }, (_, n) => reorderDelayMs(n, 1 + (n % 4)))).toEqual(delays);
    // Another connection holds the same request otherwise.
    expect(Array.from({ length: 50 }, (_, n) => reorderDelayMs(n, 1))).not.toEqual(Array.from({ length: 50 }, (_, n) => reorderDelayMs(n, 2)));
  });

  it('counts a request when it arrives and holds only its reply: answers of several connections come back in another order than counted', async () => {
    const s = await start(['answers-reordered'], fakeClock(T0 + 10_250));
    const clients = Array.from({ length: 4 }, () => new Client(s.origin));
    try {
      const remaining: number[] = [];
      await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          const res = await clients[i % 4]!.request({ method: 'GET', path: '/v1/pets', headers: { authorization: `Bearer ${KEYS.bulk}` } });
          await res.body.dump();
          remaining.push(Number(res.headers['x-ratelimit-remaining']));
        }),
      );
      // Each value once (every request counted), not all in falling order.
      expect(new Set(remaining).size).toBe(24);
      expect(remaining).not.toEqual([...remaining].sort((a, b) => b - a));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});

describe('keep-alive-1s', () => {
  it('closes a connection with the first response after its first second', async () => {
    const clock = fakeClock(T0 + 10_250);
    const s = await start(['keep-alive-1s'], clock);
    const connection = new RawConnection(s.port);
    try {
      const first = await connection.get('/v1/store/orders', KEYS.bulk);
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe('keep-alive');
      expect(first.headers['keep-alive']).toBe('timeout=1');
      clock.advance(999);
      expect((await connection.get('/v1/store/orders', KEYS.bulk)).headers.connection).toBe('keep-alive');
      clock.advance(1);
      const last = await connection.get('/v1/store/orders', KEYS.bulk);
      expect(last.status).toBe(200);
      expect(last.headers.connection).toBe('close');
      await connection.closed;
    } finally {
      connection.close();
    }
  });

  it('closes idle keep-alive connections after 1 s; without the variation they stay open', async () => {
    const clock = fakeClock(T0 + 10_250);
    const [short, plain] = [await start(['keep-alive-1s'], clock), await start([], clock)];
    const [a, b] = [new RawConnection(short.port), new RawConnection(plain.port)];
    try {
      await Promise.all([a.get('/v1/pets', KEYS.bulk), b.get('/v1/pets', KEYS.bulk)]);
      const answered = performance.now();
      const idle = (await a.closed) - answered;
      expect(idle).toBeGreaterThanOrEqual(950);
      expect(idle).toBeLessThan(1_000 + BUSY_MS);
      const stillOpen = await Promise.race([b.closed.then(() => false), sleep(300).then(() => true)]);
      expect(stillOpen).toBe(true);
      expect((await b.get('/v1/pets', KEYS.bulk)).status).toBe(200);
    } finally {
      a.close();
      b.close();
    }
  });
});

/** One request on a connection of its own, and every byte the server sends until it closes it (asked for with Connection: close, unless `keepAlive`). */
function rawExchange(port: number, path: string, o: { keepAlive?: boolean; key?: string } = {}): Promise<{ head: string; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      // Past the 1xx answers to the final one's head.
      let at = 0;
      while (/^HTTP\/1\.1 1\d\d /.test(all.subarray(at, at + 13).toString('latin1'))) at = all.indexOf('\r\n\r\n', at) + 4;
      const end = all.indexOf('\r\n\r\n', at);
      const head = all.subarray(0, end).toString('latin1');
      const final = head.slice(at);
      const headers = Object.fromEntries(final.split('\r\n').slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ head, headers, body: all.subarray(end + 4) });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${o.key ?? KEYS.bulk}\r\n${o.keepAlive ? '' : 'Connection: close\r\n'}\r\n`);
  });
}

interface TimedExchange {
  headers: Record<string, string>;
  body: Buffer;
  /** Ms from sending the request to the first byte of the answer, and to its last. */
  headAt: number;
  lastAt: number;
}

/** One GET on a connection of its own, with when the answer's first and last bytes came. */
function timedExchange(port: number, path: string): Promise<TimedExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sentAt = 0;
    let headAt: number | undefined;
    let lastAt = 0;
    socket.on('data', (chunk: Buffer) => {
      const at = performance.now() - sentAt;
      headAt ??= at;
      lastAt = at;
      chunks.push(chunk);
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const headers = Object.fromEntries(all.subarray(0, end).toString('latin1').split('\r\n').slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ headers, body: all.subarray(end + 4), headAt: headAt ?? 0, lastAt });
    });
    socket.once('connect', () => {
      sentAt = performance.now();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.bulk}\r\nConnection: close\r\n\r\n`);
    });
  });
}

/** A chunked body's data, the chunks joined. */
function unchunk(body: Buffer): { data: Buffer; chunks: number } {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const line = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.subarray(at, line).toString('latin1'), 16);
    if (size === 0) return { data: Buffer.concat(parts), chunks: parts.length };
    parts.push(body.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

describe('the wire\'s forms', () => {
  const json = (b: Buffer) => JSON.parse(b.toString('utf8')) as unknown;

  it('early-hints-103: a 103 with a Link header before every answer', async () => {
    const s = await start(['early-hints-103'], fakeClock(T0 + 10_250));
    const { head, body } = await rawExchange(s.port, '/v1/pets?limit=1');
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 103 Early Hints\r\nLink: ${EARLY_HINT_LINK.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\r\n\r\nHTTP/1\\.1 200 OK\r\n`));
    expect(json(body)).toEqual([]);
    // Before a 401 too.
    expect((await rawExchange(s.port, '/v1/pets', { key: 'nobody' })).head).toMatch(/^HTTP\/1\.1 103 [^]*\r\n\r\nHTTP\/1\.1 401 /);
  });

  it('interim-100-102: 100 Continue then 102 Processing before every answer, unasked for', async () => {
    const s = await start(['interim-100-102'], fakeClock(T0 + 10_250));
    const { head } = await rawExchange(s.port, '/v1/pets?limit=1');
    expect(head).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 102 Processing\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
  });

  it('chunked-bodies: chunked transfer coding in two chunks, no Content-Length', async () => {
    const s = await start(['chunked-bodies'], fakeClock(T0 + 10_250), { preload: 3 });
    const { headers, body } = await rawExchange(s.port, '/v1/pets?limit=3');
    expect(headers['transfer-encoding']).toBe('chunked');
    expect(headers['content-length']).toBeUndefined();
    const { data, chunks } = unchunk(body);
    expect(chunks).toBe(2);
    expect(json(data)).toHaveLength(3);
  });

  it('close-delimited: no Content-Length, no chunks, Connection: close, the body ends with the connection', async () => {
    const s = await start(['close-delimited'], fakeClock(T0 + 10_250), { preload: 3 });
    const { headers, body } = await rawExchange(s.port, '/v1/pets?limit=3', { keepAlive: true });
    expect({ length: headers['content-length'], te: headers['transfer-encoding'], connection: headers.connection }).toEqual({ length: undefined, te: undefined, connection: 'close' });
    expect(json(body)).toHaveLength(3);
  });

  it.each([
    { variation: 'gzip-always' as const, coding: 'gzip', decode: gunzipSync },
    { variation: 'deflate-always' as const, coding: 'deflate', decode: inflateSync },
    { variation: 'br-always' as const, coding: 'br', decode: brotliDecompressSync },
  ])('$variation: every body coded $coding, with Vary: Accept-Encoding, though the request did not ask', async ({ variation, coding, decode }) => {
    const s = await start([variation], fakeClock(T0 + 10_250), { preload: 3 });
    const { headers, body } = await rawExchange(s.port, '/v1/pets?limit=3');
    expect({ encoding: headers['content-encoding'], vary: headers.vary, length: Number(headers['content-length']) }).toEqual({ encoding: coding, vary: 'Accept-Encoding', length: body.length });
    expect(json(decode(body))).toHaveLength(3);
  });

  it('holds only what a variation asks to: without slow-body no answer waits; with it every 5th, in two pieces', () => {
    const plain = new Delivery();
    expect(Array.from({ length: 10 }, () => plain.hold())).toEqual(Array(10).fill({ delayMs: 0, wire: undefined }));
    const slow = new Delivery({ slowBody: true });
    const held = Array.from({ length: 10 }, () => slow.hold());
    expect(held.map((h) => h.delayMs)).toEqual([0, 0, 0, 0, SLOW_BODY.headMs, 0, 0, 0, 0, SLOW_BODY.headMs]);
    expect(held.map((h) => h.wire?.bodyGapMs)).toEqual([undefined, undefined, undefined, undefined, SLOW_BODY.gapMs, undefined, undefined, undefined, undefined, SLOW_BODY.gapMs]);
  });

  it('slow-body: every 5th response\'s head held 30 ms and its body with Content-Length in two pieces 20 ms apart; the others at once', async () => {
    const s = await start(['slow-body'], fakeClock(T0 + 10_250), { preload: 3 });
    const timed: TimedExchange[] = [];
    for (let i = 0; i < SLOW_BODY.every; i++) timed.push(await timedExchange(s.port, '/v1/pets?limit=3'));
    for (const t of timed) {
      expect(t.headers['content-length']).toBe(String(t.body.length));
      expect(t.headers['transfer-encoding']).toBeUndefined();
      expect(json(t.body)).toHaveLength(3);
    }
    // The 5th response's head is held, then the head and the first piece, the rest at least the gap later.
    const slow = timed[SLOW_BODY.every - 1]!;
    expect(slow.headAt).toBeGreaterThanOrEqual(SLOW_BODY.headMs - 2);
    expect(slow.lastAt - slow.headAt).toBeGreaterThanOrEqual(SLOW_BODY.gapMs - 2);

  });

  it('several codings at once, applied in catalogue order, and chunked and close-delimited together (the connection\'s close wins)', async () => {
    const s = await start(['gzip-always', 'br-always', 'chunked-bodies', 'close-delimited', 'early-hints-103'], fakeClock(T0 + 10_250), { preload: 3 });
    const { head, headers, body } = await rawExchange(s.port, '/v1/pets?limit=3', { keepAlive: true });
    expect(head).toMatch(/^HTTP\/1\.1 103 /);
    expect({ encoding: headers['content-encoding'], te: headers['transfer-encoding'], connection: headers.connection }).toEqual({ encoding: 'gzip, br', te: undefined, connection: 'close' });
    expect(json(gunzipSync(brotliDecompressSync(body)))).toHaveLength(3);
  });
});
