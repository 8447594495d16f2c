// The fast part of a burst: `connections` loops, each on a keep-alive connection of its own, each
// sending its next request at the next slot of the overall rate (start + i / rate) once its
// previous answer came, until the first 429, the request cap or the time cap. Every answer becomes
// a timeline point (status and the rate-limit headers).
//
// Why our own and not autocannon: autocannon's parser takes a `103 Early Hints` for the answer and
// reads the real answer as its body, never completes an answer delimited by the connection's
// close (it reconnects and sends more), and its stop() takes effect only at its next sampling
// tick. Over the transport (lib/http) every legal answer is read, and stopping is immediate: at
// the first 429 no new request goes out, while those already sent are still answered and counted
// (marked `afterStop`); a request whose answer cannot be read (reset, timeout, framing) stops it
// the same way, since that answer may have been the 429 (ended `no-answer`).
import type { HttpConnection } from '../http/transport.ts';
import { TransportError } from '../errors.ts';
import { burstPoint, type TimelinePoint } from '../result/rate-limits.ts';
import { histogramOf, type LatencyHistogram, percentilesOf } from '../result/latency.ts';
import type { Clock } from './clock.ts';
import { isAccepted } from '../status.ts';

export interface BurstOptions {
  url: string;
  headers: Record<string, string>;
  /** Asked rate, requests per second over all connections. */
  rate: number;
  connections: number;
  /** Hard cap on requests sent. */
  maxRequests: number;
  /** Hard cap on time; the burst ends by itself then. */
  maxDurationMs: number;
  timeoutS: number;
}

/** A request that got no answer that could be read. */
export interface Unanswered {
  sentAt: number;
  /** The transport's code, e.g. CONNECTION_RESET. */
  code: string;
  /** Sent before the part stopped, failed after. */
  afterStop?: boolean;
}

export interface BurstResult {
  points: TimelinePoint[];
  /** Requests written to the wire; those beyond the points and `unanswered` were abandoned at the time cap's grace. */
  sent: number;
  startedAt: number;
  durationMs: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  /** Each response's time in whole ms, as [ms, count] pairs: the percentiles come from it, and several merge exactly. */
  histogram: LatencyHistogram;
  unanswered: Unanswered[];
  /** Why it ended: the first 429, the request cap, the time cap, or a request without an answer it could read. */
  ended: 'first-429' | 'max-requests' | 'max-duration' | 'no-answer';
}

/** One keep-alive connection to the target: a GET on it, and its close. */
export interface Connection {
  get(path: string, headers: Record<string, string>): Promise<{ status: number; header(name: string): string | undefined; body: string }>;
  close(): void;
}

/** Opens a connection to an origin. */
export type Connect = (origin: string) => Connection;

/**
 * What a load (a burst, the paced load) keeps of an answer's body: nothing of a 2xx (pages of
 * animals are read and dropped, so the connection is reused), 64 KiB of anything else (a 429's
 * body is judged; a timeline point keeps its first 4,096 characters).
 */
export const loadBodyKept = (status: number): number => (isAccepted({ status }) ? 0 : 64 * 1024);

/** Connections over the transport, one socket each. */
export function transportConnect(transport: { connection(): HttpConnection }): Connect {
  return (origin) => {
    const connection = transport.connection();
    return {
      async get(path, headers) {
        const res = await connection.send({ method: 'GET', url: origin + path, headers }, { keep: loadBodyKept });
        return { status: res.status, header: (name) => res.headers[name], body: res.text };
      },
      close: () => connection.close(),
    };
  };
}

/** The transport's code of a request that got no answer; anything else (a fault of the harness) is thrown on. */
export function transportCode(err: unknown): string {
  if (err instanceof TransportError) return err.cause_code;
  throw err;
}

/** How long, at most, requests on the wire when the time cap stops a burst may still answer. */
const ANSWER_GRACE_MS = 3_000;
/** The grace is waited in steps, so that no timer outlives the part. */
const GRACE_STEP_MS = 100;

export async function fast(options: BurstOptions, io: { clock: Clock; connect: Connect }): Promise<BurstResult> {
  const { clock } = io;
  const url = new URL(options.url);
  const path = url.pathname + url.search;
  const startedAt = clock.now();
  const gapMs = 1000 / Math.max(1, options.rate);
  const points: TimelinePoint[] = [];
  const unanswered: Unanswered[] = [];
  const latencies: number[] = [];
  let slots = 0;
  let sent = 0;
  let stopped = false;
  /** Past the grace: answers still to come are not waited for. */
  let over = false;
  let ended: BurstResult['ended'] = 'max-requests';
  const stop = (why: BurstResult['ended']) => {
    if (stopped) return;
    stopped = true;
    ended = why;
  };
  // The time cap: no new request goes out; those on the wire may still answer (a request the
  // server counted but whose answer is never read is a hole in the day's count), for as long as
  // one request may take, at most a short grace. Then the connections are closed.
  let capReached = () => {};
  const capped = new Promise<void>((resolve) => (capReached = resolve));
  let running = 0;
  // Connections numbered from 1 within the part; the server sees them apart.
  const connections = Array.from({ length: Math.max(1, Math.min(options.connections, options.maxRequests)) }, () => io.connect(url.origin));
  const loop = async (connection: Connection, index: number) => {
    for (;;) {
      if (stopped || slots >= options.maxRequests) return;
      const slot = startedAt + slots++ * gapMs;
      if (slot - startedAt >= options.maxDurationMs) {
        // Not a stop: the answers still on the wire are the burst's own, not sent past a 429.
        ended = 'max-duration';
        capReached();
        return;
      }
      await clock.sleep(slot - clock.now());
      if (stopped) return;
      sent += 1;
      const t0 = clock.now();
      try {
        const res = await connection.get(path, options.headers);
        if (over) return;
        const t = clock.now();
        latencies.push(t - t0);
        const point: TimelinePoint = { ...burstPoint(t, res.status, res.header, res.body), sentAt: t0, conn: index + 1 };
        if (stopped) point.afterStop = true;
        points.push(point);
        if (res.status === 429) stop('first-429');
      } catch (err) {
        if (over) return;
        unanswered.push({ sentAt: t0, code: transportCode(err), ...(stopped ? { afterStop: true } : {}) });
        stop('no-answer');
      }
    }
  };
  const loops = Promise.all(
    connections.map(async (c, i) => {
      running += 1;
      try {
        await loop(c, i);
      } finally {
        running -= 1;
      }
    }),
  );
  try {
    await Promise.race([loops, capped.then(grace)]);
  } finally {
    over = true;
    for (const c of connections) c.close();
  }
  const histogram = histogramOf(latencies);
  return { points, sent, startedAt, durationMs: clock.now() - startedAt, latency: percentilesOf(histogram), histogram, unanswered, ended };

  /** Waits, in short steps so that no timer outlives the part, until every loop is done or the grace is over. */
  async function grace(): Promise<void> {
    const end = Math.max(clock.now(), startedAt + options.maxDurationMs) + Math.min(options.timeoutS * 1000, ANSWER_GRACE_MS);
    while (running > 0 && clock.now() < end) await clock.sleep(Math.min(GRACE_STEP_MS, end - clock.now()));
  }
}
