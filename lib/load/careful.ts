// The careful part of a burst: one connection, one request at a time, so that nothing is in flight
// when the first 429 comes back. No start-up cost between requests (autocannon has one per run), so
// a refilling limiter cannot refill faster than this part spends. It hands back to the fast part as
// soon as the server says there is plenty of room again.
import { Client } from 'undici';
import { burstPoint, type TimelinePoint } from '../result/rate-limits.ts';
import type { BurstOptions, BurstResult } from './burst.ts';

export interface CarefulOptions extends Omit<BurstOptions, 'connections'> {
  /** Stop (and let the fast part go on) once an accepted response says at least this much is left. */
  roomAbove: number;
}

/** Requests in a row without a response after which the burst ends. */
const GIVE_UP_AFTER = 5;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

function percentile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function careful(options: CarefulOptions): Promise<BurstResult & { room: boolean }> {
  const url = new URL(options.url);
  const client = new Client(url.origin, { pipelining: 1, headersTimeout: options.timeoutS * 1000, bodyTimeout: options.timeoutS * 1000 });
  const points: TimelinePoint[] = [];
  const latencies: number[] = [];
  const startedAt = Date.now();
  const gapMs = 1000 / Math.max(1, options.rate);
  let sent = 0;
  let errors = 0;
  let ended: BurstResult['ended'] = 'max-requests';
  let room = false;
  let failuresInARow = 0;
  try {
    while (sent < options.maxRequests) {
      if (Date.now() - startedAt >= options.maxDurationMs || failuresInARow >= GIVE_UP_AFTER) {
        ended = 'max-duration';
        break;
      }
      await sleep(startedAt + sent * gapMs - Date.now());
      const t0 = Date.now();
      sent += 1;
      let res;
      try {
        res = await client.request({ method: 'GET', path: url.pathname + url.search, headers: options.headers });
      } catch {
        // No response (reset, timeout): counted, and after a few in a row the burst ends.
        errors += 1;
        failuresInARow += 1;
        continue;
      }
      failuresInARow = 0;
      const body = await res.body.text();
      const t = Date.now();
      latencies.push(t - t0);
      const header = (name: string) => {
        const v = res.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      };
      const point = burstPoint(t, res.statusCode, header, body);
      points.push(point);
      if (res.statusCode === 429) {
        ended = 'first-429';
        break;
      }
      if (point.remaining !== undefined && point.remaining > options.roomAbove && res.statusCode < 300) {
        room = true;
        break;
      }
    }
  } finally {
    await client.close();
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    points,
    sent,
    startedAt,
    durationMs: Date.now() - startedAt,
    latency: { p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0 },
    errors,
    timeouts: 0,
    ended,
    room,
  };
}
