// lib/load/pace.ts: requests at a constant arrival rate. The clock, the sleeps and the transport are
// all fakes: time moves only when the fake timers fire (a sleep, or a response due after its
// latency), so sends land exactly where the schedule puts them; no socket, no real timer.
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../lib/errors.ts';
import type { HttpAnswer, HttpRequest, Sender, SendOptions } from '../../../lib/http/transport.ts';
import { type InFlight, pace, type PaceOptions } from '../../../lib/load/pace.ts';
import { achievedRate, type PacedRequest } from '../../../lib/result/paced-load.ts';

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const S0 = T0 / 1000;
const URL_ = 'http://store.test:8080/v1/pets?limit=1';

/** Lets every pending promise callback run: a check-phase callback comes after all of them. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A fake clock and its timers: `run` fires them in time order whenever nothing else is left to do. */
class FakeTime {
  now = T0;
  /** Every sleep asked for, in ms. */
  readonly sleeps: number[] = [];
  private timers: { at: number; seq: number; fire: () => void }[] = [];
  private seq = 0;

  at(at: number, fire: () => void): void {
    this.timers.push({ at, seq: this.seq++, fire });
  }

  sleep = (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    return new Promise<void>((resolve) => this.at(this.now + ms, resolve));
  };

  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    work.then(
      () => (done = true),
      () => (done = true),
    );
    for (;;) {
      await settle();
      if (done) return work;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift();
      if (!next) throw new Error('stuck: pace() waits on nothing the fake time can fire');
      this.now = Math.max(this.now, next.at);
      next.fire();
    }
  }
}

/** How the fake server answers its `n`th request (from 0): after `latencyMs`, a response or a transport error. */
interface Reply {
  latencyMs: number;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: Error;
}

/** A transport whose `send` answers from `reply`, on the fake time, keeping of each body what `keep` asks. */
function fakeTransport(time: FakeTime, reply: (n: number) => Reply) {
  const calls: { request: HttpRequest; options: SendOptions | undefined; at: number }[] = [];
  const transport: Sender = {
    send(request, options) {
      const r = reply(calls.length);
      calls.push({ request, options, at: time.now });
      return new Promise<HttpAnswer>((resolve, reject) => {
        time.at(time.now + r.latencyMs, () => {
          if (r.error) return reject(r.error);
          const status = r.status ?? 200;
          const body = r.body ?? '';
          const keep = options?.keep?.(status) ?? Infinity;
          const text = body.slice(0, keep);
          resolve({ status, headers: r.headers ?? {}, body: Buffer.from(text), text, truncated: text.length < body.length, interim: [] });
        });
      });
    },
  };
  return { transport, calls };
}

interface Setup {
  rate?: number;
  count?: number;
  reply?: (n: number) => Reply;
  inFlight?: InFlight;
  /** Sleep that overshoots: extra ms for the `n`th sleep (from 0). */
  late?: (n: number) => number;
  options?: Partial<PaceOptions>;
}

async function paced(s: Setup = {}) {
  const time = new FakeTime();
  const { transport, calls } = fakeTransport(time, s.reply ?? (() => ({ latencyMs: 30 })));
  const inFlight = s.inFlight ?? { now: 0, max: 100 };
  const answered: PacedRequest[] = [];
  let sleeps = 0;
  const result = await time.run(
    pace({
      url: URL_,
      headers: { authorization: 'Bearer secret' },
      rate: s.rate ?? 10,
      count: s.count ?? 20,
      transport,
      inFlight,
      onAnswer: (r) => answered.push(r),
      now: () => time.now,
      sleep: (ms) => time.sleep(ms + (s.late?.(sleeps++) ?? 0)),
      ...s.options,
    }),
  );
  return { result, time, calls, inFlight, answered, offsets: result.requests.map((r) => r.sentAt - T0) };
}

const refused = () => new TransportError('connection refused', 'CONNECTION_REFUSED');

describe('pace: the schedule', () => {
  it('sends request i at start + i / rate, exactly, and the count asked for', async () => {
    const { result, offsets, calls } = await paced({ rate: 10, count: 20 });
    expect(offsets).toEqual(Array.from({ length: 20 }, (_, i) => i * 100));
    expect(calls.map((c) => c.at - T0)).toEqual(offsets);
    expect(result).toMatchObject({ startedAt: T0, durationMs: 1900, dropped: 0 });
    expect(result).not.toHaveProperty('stopped');
  });

  it('holds a rate that is no whole number of ms apart (10.8 a second: 92.59 ms)', async () => {
    const { result, offsets } = await paced({ rate: 10.8, count: 108 });
    expect(offsets).toHaveLength(108);
    offsets.forEach((o, i) => expect(o).toBeCloseTo((i * 1000) / 10.8, 3));
    expect(achievedRate(result.requests)).toBe(10.8);
  });

  it('sleeps until each send is due, not longer', async () => {
    const { time } = await paced({ rate: 4, count: 5 });
    // The first goes at once; each of the others after a quarter of a second.
    expect(time.sleeps).toEqual([250, 250, 250, 250]);
  });

  it('sends what is due at once after a timer fired late, and the count and the average rate hold', async () => {
    // The third sleep (for request 3, due at 300 ms) wakes 250 ms late, at 550 ms: requests 3, 4 and 5 go then.
    const { result, offsets } = await paced({ rate: 10, count: 10, late: (n) => (n === 2 ? 250 : 0) });
    expect(offsets).toEqual([0, 100, 200, 550, 550, 550, 600, 700, 800, 900]);
    expect(result.requests).toHaveLength(10);
    expect(achievedRate(result.requests)).toBe(10);
  });

  it('sends nothing for a count of 0', async () => {
    const { result, calls } = await paced({ count: 0 });
    expect(result).toEqual({ requests: [], dropped: 0, startedAt: T0, durationMs: 0 });
    expect(calls).toHaveLength(0);
  });
});

describe('pace: the cap on requests in flight', () => {
  it('drops and counts arrivals that find the cap reached, never sends them later', async () => {
    // 250 ms answers at 10 a second with at most 2 in flight: every third arrival finds two out.
    const { result, offsets, calls, inFlight } = await paced({ rate: 10, count: 9, reply: () => ({ latencyMs: 250 }), inFlight: { now: 0, max: 2 } });
    expect(offsets).toEqual([0, 100, 300, 400, 600, 700]);
    expect(result.dropped).toBe(3);
    expect(calls).toHaveLength(6);
    expect(inFlight.now).toBe(0);
  });

  it('shares the cap with other keys paced at the same time', async () => {
    // Another key's request holds the only place: every arrival is dropped.
    const { result, calls, inFlight } = await paced({ rate: 10, count: 5, inFlight: { now: 1, max: 1 } });
    expect(result).toMatchObject({ requests: [], dropped: 5, durationMs: 0 });
    expect(calls).toHaveLength(0);
    expect(inFlight.now).toBe(1);
  });

  it('counts each request in flight from its send to its answer, and back to 0 at the end', async () => {
    const seen: number[] = [];
    const inFlight = { now: 0, max: 100 };
    const { result } = await paced({
      rate: 10,
      count: 6,
      inFlight,
      reply: () => ({ latencyMs: 250 }),
      options: {
        // Asked before each send: what is in flight then.
        stop: () => {
          seen.push(inFlight.now);
          return undefined;
        },
      },
    });
    expect(result.requests).toHaveLength(6);
    // 250 ms answers 100 ms apart: 0, 1, then 2 (each answer is back before the third send after its own).
    expect(seen).toEqual([0, 1, 2, 2, 2, 2]);
    expect(inFlight.now).toBe(0);
  });
});

describe('pace: stopping', () => {
  it('stops sending when stop() gives a reason, and returns it', async () => {
    const reason = 'the run time limit (budget.maxSeconds) was reached';
    let asked = 0;
    const { result, calls } = await paced({ rate: 10, count: 20, options: { stop: () => (++asked > 3 ? reason : undefined) } });
    expect(result.requests).toHaveLength(3);
    expect(calls).toHaveLength(3);
    expect(result.stopped).toBe(reason);
    expect(result.durationMs).toBe(200);
  });

  it('stops after five transport errors in a row: the target stopped answering', async () => {
    const { result, calls, answered, inFlight } = await paced({ rate: 10, count: 20, reply: () => ({ latencyMs: 10, error: refused() }) });
    expect(calls).toHaveLength(5);
    expect(result.stopped).toBe('the target stopped answering: 5 requests in a row got no response');
    expect(result.requests.map((r) => r.error)).toEqual(Array(5).fill('CONNECTION_REFUSED'));
    expect(result.requests.every((r) => r.point === undefined && r.latencyMs === undefined)).toBe(true);
    expect(answered).toHaveLength(5);
    expect(inFlight.now).toBe(0);
  });

  it('keeps sending until the five errors have come back', async () => {
    // Errors after 1,050 ms at 10 a second: the fifth comes back at 1,450 ms, so request 16 (due at 1,500 ms) is not sent.
    const { result } = await paced({ rate: 10, count: 30, reply: () => ({ latencyMs: 1050, error: refused() }) });
    expect(result.requests).toHaveLength(15);
    expect(result.stopped).toMatch(/stopped answering/);
  });

  it('starts counting again after an answer', async () => {
    // Four errors, an answer, four errors, answers: never five in a row.
    const { result } = await paced({ rate: 10, count: 12, reply: (n) => (n < 4 || (n > 4 && n < 9) ? { latencyMs: 10, error: refused() } : { latencyMs: 10 }) });
    expect(result.requests).toHaveLength(12);
    expect(result).not.toHaveProperty('stopped');
  });

  it.each<{ title: string; error: () => Error; code: string }>([
    { title: 'the deadline of the whole exchange', error: () => new TransportError('too long', 'REQUEST_DEADLINE'), code: 'REQUEST_DEADLINE' },
    { title: 'a connection closed before an answer', error: () => new TransportError('closed', 'CLOSED_BEFORE_ANSWER'), code: 'CLOSED_BEFORE_ANSWER' },
    { title: 'a silence before the headers', error: () => new TransportError('silence', 'HEADERS_TIMEOUT'), code: 'HEADERS_TIMEOUT' },
  ])('records a transport error by its code: $title', async ({ error, code }) => {
    const { result } = await paced({ rate: 10, count: 1, reply: () => ({ latencyMs: 10, error: error() }) });
    expect(result.requests).toEqual([{ sentAt: T0, error: code }]);
  });
});

describe('pace: the requests and their answers', () => {
  it('sends a GET to the URL with the headers, over the transport (its timeouts end a silent request)', async () => {
    const { calls } = await paced({ count: 1 });
    expect(calls[0]?.request).toEqual({ method: 'GET', url: URL_, headers: { authorization: 'Bearer secret' } });
  });

  it('keeps a 429 with its body and rate-limit headers', async () => {
    const body = '{"code":"rate_limited","message":"slow down","status":429}';
    const headers = { 'retry-after': '1', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(S0 + 5), 'content-type': 'application/json' };
    const { result, calls } = await paced({ count: 1, reply: () => ({ latencyMs: 12, status: 429, headers, body }) });
    expect(result.requests[0]).toEqual({
      sentAt: T0,
      point: { t: T0 + 12, status: 429, limit: 60, remaining: 0, reset: S0 + 5, retryAfter: '1', body, contentType: 'application/json' },
      latencyMs: 12,
    });
    expect(calls[0]?.options?.keep?.(429)).toBe(64 * 1024);
  });

  it('reads and drops a 2xx body (not kept), keeping its headers', async () => {
    const { result, calls } = await paced({ count: 3, reply: (n) => ({ latencyMs: 5, status: 200, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(58 - n) }, body: '{"items":[]}' }) });
    expect(result.requests.map((r) => r.point)).toEqual([0, 1, 2].map((n) => ({ t: T0 + n * 100 + 5, status: 200, limit: 60, remaining: 58 - n })));
    // Kept at 0: read and dropped.
    expect(calls.map((c) => c.options?.keep?.(200))).toEqual([0, 0, 0]);
  });

  it('keeps the first 4,096 characters of a long body other than 2xx, reading no more than 64 KiB', async () => {
    const { result, calls } = await paced({ count: 1, reply: () => ({ latencyMs: 5, status: 503, body: 'x'.repeat(100_000) }) });
    expect(result.requests[0]?.point?.body).toBe('x'.repeat(4096));
    expect(calls[0]?.options?.keep?.(503)).toBe(64 * 1024);
  });

  it('measures latency from the send to the end of the answer', async () => {
    const { result } = await paced({ rate: 10, count: 6, reply: (n) => ({ latencyMs: 20 + n * 70 }) });
    expect(result.requests.map((r) => r.latencyMs)).toEqual([20, 90, 160, 230, 300, 370]);
    expect(result.requests.every((r) => r.latencyMs === r.point!.t - r.sentAt)).toBe(true);
  });

  it('tells onAnswer of every request once, once it has its answer or its error, and keeps them in send order', async () => {
    // Answers slower and slower, then an error: they come back out of order.
    const { result, answered } = await paced({ rate: 10, count: 5, reply: (n) => (n === 4 ? { latencyMs: 1, error: refused() } : { latencyMs: 500 - n * 100 }) });
    expect(answered).toHaveLength(5);
    expect(new Set(answered)).toEqual(new Set(result.requests));
    expect(answered.every((r) => r.point !== undefined || r.error !== undefined)).toBe(true);
    // Sent 0, 100, …; answered at 500, 500, 500, 500 and 401: the error first.
    expect(answered[0]?.error).toBe('CONNECTION_REFUSED');
    expect(result.requests.map((r) => r.sentAt - T0)).toEqual([0, 100, 200, 300, 400]);
  });
});
