// The load driver: autocannon sends requests with one key, above the plan's rate, until the first
// 429, and every response becomes a timeline point (status and the rate-limit headers).
//
// Why each client is capped by hand: autocannon's stop() takes effect at its next sampling tick,
// and at high rates thousands of requests go out before then, each one after a 429, which is
// exactly what a client must not do. A client checks its `responseMax` before writing each next
// request, after the previous response has been delivered; setting it to what the client has
// already sent, at the first 429, stops new requests at once while the answers to requests already
// on the wire still arrive and are counted (marked `afterStop`). Destroying the clients instead
// would lose those answers, and with them 2xx responses the server sent before its first 429.
import type { IncomingHttpHeaders } from 'node:http';
import autocannon from 'autocannon';
import { burstPoint, histogramOf, type LatencyHistogram, percentilesOf, type TimelinePoint } from '../result/rate-limits.ts';

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

export interface BurstResult {
  points: TimelinePoint[];
  /** Requests written to the wire; those beyond the points were in flight when the load stopped. */
  sent: number;
  startedAt: number;
  durationMs: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  /** Each response's time in whole ms, as [ms, count] pairs: the percentiles come from it, and several merge exactly. */
  histogram: LatencyHistogram;
  errors: number;
  timeouts: number;
  /** Why it ended: the first 429, the request cap, or the time cap. */
  ended: 'first-429' | 'max-requests' | 'max-duration';
}

/** How long, at most, requests on the wire when the time cap stops a burst may still answer. */
const ANSWER_GRACE_MS = 3_000;

/** The parts of autocannon's http client used here (not all in its published types). */
type TrackedClient = { destroy(): void; destroyed: boolean; reqsMade: number; responseMax?: number; on(event: 'request', fn: () => void): void; on(event: 'response', fn: (status: number, bytes: number, durationMs: number) => void): void };

export function burst(options: BurstOptions): Promise<BurstResult> {
  return new Promise((resolve, reject) => {
    const points: TimelinePoint[] = [];
    const latencies: number[] = [];
    const clients = new Set<TrackedClient>();
    // Requests actually written: autocannon's own `sent` counts rate slots, not requests, and a
    // destroyed client still emits 'request' for the write that goes nowhere.
    let sent = 0;
    let stopped = false;
    let ended: BurstResult['ended'] = 'max-requests';
    const startedAt = Date.now();
    const connections = Math.max(1, Math.min(options.connections, options.maxRequests));
    let opened = 0;

    // Set below, cleared when autocannon is done.
    let timer: NodeJS.Timeout | undefined;
    let grace: NodeJS.Timeout | undefined;
    const instance = autocannon(
      {
        url: options.url,
        connections,
        pipelining: 1,
        amount: options.maxRequests,
        overallRate: Math.max(1, Math.round(options.rate)),
        ignoreCoordinatedOmission: true,
        timeout: options.timeoutS,
        sampleInt: 100,
        headers: options.headers,
        setupClient: (client: autocannon.Client) => {
          const tracked = client as unknown as TrackedClient;
          clients.add(tracked);
          tracked.on('request', () => {
            if (!tracked.destroyed) sent += 1;
          });
          // autocannon calls onResponse, then emits 'response' on the same client, synchronously:
          // the point just recorded came on this connection.
          const conn = ++opened;
          tracked.on('response', (_status, _bytes, durationMs) => {
            latencies.push(durationMs);
            const last = points.at(-1);
            if (last && last.conn === undefined) {
              last.conn = conn;
              last.sentAt = last.t - durationMs;
            }
          });
        },
        requests: [
          {
            method: 'GET',
            onResponse: (status: number, body: string, _context: object, headers: IncomingHttpHeaders | undefined) => {
              // autocannon keeps the server's casing of header names.
              const h = (name: string) => {
                const v = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
                return Array.isArray(v) ? v.join(', ') : v;
              };
              const point = burstPoint(Date.now(), status, h, body);
              if (stopped) point.afterStop = true;
              points.push(point);
              if (status === 429 && !stopped) {
                stopped = true;
                ended = 'first-429';
                for (const c of clients) c.responseMax = Math.max(1, c.reqsMade);
              }
            },
          },
        ],
      },
      (err, result) => {
        clearTimeout(timer);
        clearTimeout(grace);
        if (err) {
          reject(err);
          return;
        }
        const histogram = histogramOf(latencies);
        resolve({
          points,
          sent,
          startedAt,
          durationMs: Date.now() - startedAt,
          latency: percentilesOf(histogram),
          histogram,
          errors: result.errors,
          timeouts: result.timeouts,
          ended,
        });
      },
    );
    // At the time cap no new request goes out; those on the wire may still answer (a request the
    // server counted but whose answer is never read is a hole in the day's count), for as long as
    // one request may take. Then, or when already stopped at a 429, the clients are closed.
    const end = () => {
      for (const c of clients) c.destroy();
      instance.stop();
    };
    timer = setTimeout(() => {
      if (stopped) return end();
      stopped = true;
      ended = 'max-duration';
      for (const c of clients) c.responseMax = Math.max(1, c.reqsMade);
      grace = setTimeout(end, Math.min(options.timeoutS * 1000, ANSWER_GRACE_MS));
    }, options.maxDurationMs);
  });
}
