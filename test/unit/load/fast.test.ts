// lib/load/fast.ts: the fast part of a burst, on the virtual clock, over connections whose answers
// a script decides: its schedule, its stops (the first 429, an answer it cannot read, the caps) and
// what it records of the requests already on the wire when it stopped.
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../lib/errors.ts';
import { type BurstOptions, type Connect, fast } from '../../../lib/load/fast.ts';
import { VirtualClock } from '../../support/virtual-clock.ts';

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);

/** How the server answers its `n`th request (from 0), sent on connection `conn`: after `latencyMs`, a status or a failure. */
type Script = (n: number, conn: number) => { latencyMs: number; status?: number; remaining?: number; fail?: string };

function run(script: Script, o: Partial<BurstOptions> = {}) {
  const clock = new VirtualClock(T0);
  const sent: { n: number; conn: number; at: number; path: string; auth?: string }[] = [];
  let opened = 0;
  let closed = 0;
  const connect: Connect = () => {
    const conn = ++opened;
    return {
      async get(path, headers) {
        const n = sent.length;
        sent.push({ n, conn, at: clock.now() - T0, path, ...(headers.authorization ? { auth: headers.authorization } : {}) });
        const a = script(n, conn);
        await clock.sleep(a.latencyMs);
        if (a.fail) throw new TransportError('no answer', a.fail);
        const headersOut: Record<string, string> = { ...(a.remaining !== undefined ? { 'x-ratelimit-remaining': String(a.remaining) } : {}), ...(a.status === 429 ? { 'retry-after': '1' } : {}) };
        return { status: a.status ?? 200, header: (name) => headersOut[name], body: a.status === 429 ? '{"code":"rate_limited"}' : '' };
      },
      close: () => {
        closed += 1;
      },
    };
  };
  const options: BurstOptions = { url: 'http://127.0.0.1:1/v1/pets?limit=1', headers: { authorization: 'Bearer k' }, rate: 100, connections: 4, maxRequests: 1_000, maxDurationMs: 60_000, timeoutS: 10, ...o };
  return clock.run(async () => ({ result: await fast(options, { clock, connect }), sent, opened, closed: () => closed }));
}

describe('fast: the schedule', () => {
  it('sends request i at start + i / rate over all connections, each connection one request at a time, to the cap', async () => {
    const { result, sent, opened, closed } = await run(() => ({ latencyMs: 5 }), { rate: 100, connections: 4, maxRequests: 12 });
    expect(sent.map((s) => s.at)).toEqual(Array.from({ length: 12 }, (_, i) => i * 10));
    expect(result).toMatchObject({ sent: 12, ended: 'max-requests', unanswered: [], startedAt: T0 });
    expect(result.points).toHaveLength(12);
    expect(sent.every((s) => s.path === '/v1/pets?limit=1' && s.auth === 'Bearer k')).toBe(true);
    expect({ opened, closed: closed() }).toEqual({ opened: 4, closed: 4 });
  });

  it('lets a connection send its next request only once its answer came: slow answers spread the slots over the connections', async () => {
    // 25 ms answers at 100/s on 2 connections: slot 2 (20 ms) waits for connection 1's answer (25 ms).
    const { result, sent } = await run(() => ({ latencyMs: 25 }), { rate: 100, connections: 2, maxRequests: 4 });
    expect(sent.map((s) => [s.conn, s.at])).toEqual([
      [1, 0],
      [2, 10],
      [1, 25],
      [2, 35],
    ]);
    expect(result.points.map((p) => [p.conn, p.sentAt! - T0, p.t - T0])).toEqual([
      [1, 0, 25],
      [2, 10, 35],
      [1, 25, 50],
      [2, 35, 60],
    ]);
    expect(result.latency.max).toBe(25);
  });

  it('opens no more connections than requests', async () => {
    const { opened } = await run(() => ({ latencyMs: 1 }), { connections: 4, maxRequests: 2 });
    expect(opened).toBe(2);
  });
});

describe('fast: stopping', () => {
  it('sends nothing new after the first 429, and records the answers already on the wire as afterStop', async () => {
    // 35 ms answers at 100/s on 4 connections: when request 5's 429 comes (at 85 ms), requests 6, 7 and 8 are on the wire.
    const { result, sent } = await run((n) => ({ latencyMs: 35, status: n >= 5 ? 429 : 200, remaining: Math.max(0, 4 - n) }), { rate: 100, connections: 4 });
    expect(result.ended).toBe('first-429');
    expect(sent.map((s) => s.at)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(result.sent).toBe(9);
    expect(result.points.map((p) => [p.status, p.afterStop ?? false])).toEqual([
      [200, false],
      [200, false],
      [200, false],
      [200, false],
      [200, false],
      [429, false],
      [429, true],
      [429, true],
      [429, true],
    ]);
    // Request 8 was sent at 80 ms, before the 429 at 85 ms; its answer came at 115 ms, after the stop.
    expect(result.points.at(-1)).toMatchObject({ sentAt: T0 + 80, t: T0 + 115 });
  });

  it('stops at an answer it cannot read, with its code, as at a 429: that answer may have been one', async () => {
    const { result, sent } = await run((n) => (n === 3 ? { latencyMs: 2, fail: 'UNPARSABLE_ANSWER' } : { latencyMs: 15 }), { rate: 100, connections: 2 });
    expect(result.ended).toBe('no-answer');
    // Request 3 sent at 30 ms failed at 32 ms; request 4 (due at 40 ms) was never sent.
    expect(sent).toHaveLength(4);
    expect(result.unanswered).toEqual([{ sentAt: T0 + 30, code: 'UNPARSABLE_ANSWER' }]);
    // Request 2, on the wire when request 3 failed, is answered and counted after the stop.
    expect(result.points.map((p) => p.afterStop ?? false)).toEqual([false, false, true]);
  });

  it('records a failure after the stop as afterStop too', async () => {
    const { result } = await run((n) => (n === 1 ? { latencyMs: 50, fail: 'BODY_TIMEOUT' } : { latencyMs: 5, status: n === 2 ? 429 : 200 }), { rate: 100, connections: 2 });
    expect(result.ended).toBe('first-429');
    expect(result.unanswered).toEqual([{ sentAt: T0 + 10, code: 'BODY_TIMEOUT', afterStop: true }]);
  });

  it('stops at the time cap: no new request, the answers on the wire waited for (not afterStop: none was sent past a 429)', async () => {
    const { result, sent } = await run(() => ({ latencyMs: 500 }), { rate: 10, connections: 4, maxDurationMs: 350 });
    expect(result.ended).toBe('max-duration');
    expect(sent.map((s) => s.at)).toEqual([0, 100, 200, 300]);
    expect(result.points).toHaveLength(4);
    expect(result.points.every((p) => p.afterStop === undefined)).toBe(true);
    expect(result.durationMs).toBe(800);
  });

  it('waits at most a short grace after the time cap, then closes the connections; answers never read are neither points nor failures', async () => {
    // Connection 1 answers fast and finds the cap (at its answer at 910 ms); connection 2's answer takes a minute. The grace runs from the cap.
    const { result, sent, closed } = await run((_n, conn) => ({ latencyMs: conn === 1 ? 10 : 60_000 }), { rate: 10, connections: 2, maxDurationMs: 1_000, timeoutS: 10 });
    expect(result.ended).toBe('max-duration');
    expect(result.sent).toBe(sent.length);
    expect(result.points).toHaveLength(sent.length - 1);
    expect(result.unanswered).toEqual([]);
    expect(result.durationMs).toBe(1_000 + 3_000);
    expect(closed()).toBe(2);
  });
});
