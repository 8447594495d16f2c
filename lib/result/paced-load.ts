// The paced-load record: what one key's paced run sent and got back (every request's send time,
// its answer and how long it took), and the figures report.json keeps of it: asked against
// achieved rate, the gaps between sends, latency percentiles overall and second by second, 2xx
// and 429 counts second by second, the first 429. Defined once: the load driver fills it, the
// checks judge it, the writers show it. Pure: no clock, no sockets.
import { z } from 'zod';
import { type Look, type TimelinePoint } from './rate-limits.ts';
import { PlanQuota } from '../plans.ts';
import { histogramOf, LatencyHistogram, mergeHistograms, Percentiles, percentileOf, percentileOfValues, percentilesOf } from './latency.ts';
import { isAccepted } from '../status.ts';
import { windowMs } from '../rate-limit/vocabulary.ts';

/** One request of a paced run: when it left, and its answer (none when it got no response). */
export interface PacedRequest {
  /** Epoch ms (fractional) when it was written. */
  sentAt: number;
  /** Its response: status and rate-limit headers, arrival time in `t`; absent without one. */
  point?: TimelinePoint;
  /** From the send to the end of the response. */
  latencyMs?: number;
  /** Why no response came (a transport error's code). */
  error?: string;
}

/** Everything one key's paced run saw, as the checks judge it. */
export interface PacedRun {
  label: string;
  plan: string;
  quota: PlanQuota;
  windows: { minute: number; day: number };
  /** Fraction of the plan's per-minute quota asked for (--load-rate). */
  fraction: number;
  /** Requests per second asked for. */
  askedRate: number;
  /** Requests the run was to send. */
  planned: number;
  /** The look at the key that showed it had its whole quota: the paced requests follow it. */
  start?: Look;
  requests: PacedRequest[];
  /** Arrivals not sent because the cap on requests in flight was reached (k6's dropped iterations). */
  dropped: number;
  /** Epoch ms of the first send. */
  startedAt: number;
  durationMs: number;
  /** Why it stopped before sending everything (the run's time limit, the target stopped answering, its first 429). */
  stopped?: string;
  /** Why the key was not paced at all (its checks skip with this). */
  unavailable?: string;
}


const Second = z.object({
  second: z.number().int().describe('Seconds since the first paced request (requests counted by when they were sent)'),
  sent: z.number().int(),
  ok: z.number().int().describe('2xx'),
  rejected: z.number().int().describe('429'),
  other: z.number().int().describe('Any other status'),
  noResponse: z.number().int(),
  p50: z.number(),
  p95: z.number(),
  p99: z.number(),
});

export const PacedLoadKey = z.object({
  label: z.string(),
  plan: z.string(),
  quota: PlanQuota,
  windows: z.object({ minute: z.number().int(), day: z.number().int() }),
  fraction: z.number().describe("Fraction of the plan's per-minute quota asked for"),
  askedRate: z.number().describe('Requests per second asked for'),
  achievedRate: z.number().describe('Requests per second sent: (sent - 1) over the time from the first send to the last'),
  planned: z.number().int(),
  sent: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int().describe('429 answers'),
  other: z.number().int(),
  noResponse: z.number().int(),
  dropped: z.number().int().describe('Arrivals not sent because the cap on requests in flight (http.maxConcurrency) was reached'),
  durationMs: z.number(),
  gaps: z.object({ p50: z.number(), p99: z.number() }).describe('Time between consecutive sends, ms'),
  latency: Percentiles.describe('Response time, ms: from the send to the end of the response'),
  latencyHistogram: LatencyHistogram,
  perSecond: z.array(Second),
  first429: z
    .object({
      request: z.number().int().describe('Its place among the paced requests, from 1'),
      atMs: z.number().describe('When it was sent, ms after the first paced request'),
      rate: z.number().describe('Requests per second sent up to it'),
      sentInWindow: z.number().int().describe('Requests of the key sent in the minute window before it (itself and the look before the run included)'),
      retryAfter: z.string().optional(),
      limit: z.number().int().optional(),
      remaining: z.number().int().optional(),
    })
    .optional(),
  stopped: z.string().optional(),
  skipped: z.string().optional().describe('Why the key was not paced'),
});
export type PacedLoadKey = z.infer<typeof PacedLoadKey>;

export const LoadThresholds = z.object({
  p50Ms: z.number().optional(),
  p95Ms: z.number().optional(),
  p99Ms: z.number().optional(),
  errorRate: z.number().optional(),
});
export type LoadThresholds = z.infer<typeof LoadThresholds>;

export const PacedLoadSection = z.object({
  fraction: z.number(),
  windows: z.number().int().describe('Minute windows each key was paced for'),
  keys: z.array(PacedLoadKey),
  overall: z.object({
    sent: z.number().int(),
    errors: z.number().int().describe('Answers other than 2xx, and requests without a response'),
    errorRate: z.number(),
    latency: Percentiles,
  }),
  thresholds: LoadThresholds.optional().describe('load.thresholds of the target config'),
});
export type PacedLoadSection = z.infer<typeof PacedLoadSection>;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The percentiles the paced load reports (report.json `pacedLoad`). */
const PACED_PERCENTILES = ['p50', 'p90', 'p95', 'p99'] as const;

const latencies = (requests: readonly PacedRequest[]) => requests.flatMap((r) => (r.latencyMs !== undefined ? [r.latencyMs] : []));

/** Requests per second actually sent: (n - 1) sends over the time from the first to the last. */
export function achievedRate(requests: readonly PacedRequest[]): number {
  if (requests.length < 2) return 0;
  const span = requests.at(-1)!.sentAt - requests[0]!.sentAt;
  return span > 0 ? round(((requests.length - 1) * 1000) / span, 2) : 0;
}

/** How far the achieved rate is from the asked one, as a fraction (0.01 is 1 % off). */
export function rateError(run: Pick<PacedRun, 'askedRate' | 'requests'>): number {
  return run.askedRate > 0 ? Math.abs(achievedRate(run.requests) / run.askedRate - 1) : 0;
}

/**
 * Requests of the key sent in (`to` - `spanMs`, `to`]: the paced ones and the look before them.
 * What a limiter honouring the plan may hold against the key at `to`.
 */
export function sentWithin(run: Pick<PacedRun, 'requests' | 'start'>, to: number, spanMs: number): number {
  const inside = (t: number) => t > to - spanMs && t <= to;
  return run.requests.filter((r) => inside(r.sentAt)).length + (run.start && inside(run.start.t) ? 1 : 0);
}

/**
 * How much sooner than sent a request may reach the server than the one before it: time on the
 * wire varies. The run's own p99 latency bounds it (at least 100 ms, at most a second).
 */
export function arrivalSlackMs(run: Pick<PacedRun, 'requests'>): number {
  return Math.min(1000, Math.max(100, percentileOfValues(latencies(run.requests), 0.99) + 50));
}

/** The first 429 of the run, with where it came. */
export function first429(run: PacedRun): PacedLoadKey['first429'] {
  const i = run.requests.findIndex((r) => r.point?.status === 429);
  if (i === -1) return undefined;
  const r = run.requests[i]!;
  const p = r.point!;
  const atMs = r.sentAt - run.startedAt;
  return {
    request: i + 1,
    atMs: Math.round(atMs),
    rate: i > 0 && atMs > 0 ? round((i * 1000) / atMs, 2) : run.askedRate,
    sentInWindow: sentWithin(run, r.sentAt, windowMs(run.windows)),
    ...(p.retryAfter !== undefined ? { retryAfter: p.retryAfter } : {}),
    ...(p.limit !== undefined ? { limit: p.limit } : {}),
    ...(p.remaining !== undefined ? { remaining: p.remaining } : {}),
  };
}

/** Second by second (by when each request was sent): what was sent, what came back, how fast. */
function perSecond(run: PacedRun): z.infer<typeof Second>[] {
  const seconds = new Map<number, PacedRequest[]>();
  for (const r of run.requests) {
    const s = Math.floor((r.sentAt - run.startedAt) / 1000);
    const bucket = seconds.get(s);
    if (bucket) bucket.push(r);
    else seconds.set(s, [r]);
  }
  return [...seconds]
    .sort((a, b) => a[0] - b[0])
    .map(([second, rs]) => {
      const h = histogramOf(latencies(rs));
      return {
        second,
        sent: rs.length,
        ok: rs.filter((r) => isAccepted(r.point)).length,
        rejected: rs.filter((r) => r.point?.status === 429).length,
        other: rs.filter((r) => r.point && !isAccepted(r.point) && r.point.status !== 429).length,
        noResponse: rs.filter((r) => !r.point).length,
        p50: percentileOf(h, 0.5),
        p95: percentileOf(h, 0.95),
        p99: percentileOf(h, 0.99),
      };
    });
}

/** From a key's paced run to what report.json keeps of it. */
export function pacedFigures(run: PacedRun): PacedLoadKey {
  const rs = run.requests;
  const gaps = rs.slice(1).map((r, i) => r.sentAt - rs[i]!.sentAt);
  const histogram = histogramOf(latencies(rs));
  const first = first429(run);
  return {
    label: run.label,
    plan: run.plan,
    quota: run.quota,
    windows: run.windows,
    fraction: run.fraction,
    askedRate: round(run.askedRate, 2),
    achievedRate: achievedRate(rs),
    planned: run.planned,
    sent: rs.length,
    accepted: rs.filter((r) => isAccepted(r.point)).length,
    rejected: rs.filter((r) => r.point?.status === 429).length,
    other: rs.filter((r) => r.point && !isAccepted(r.point) && r.point.status !== 429).length,
    noResponse: rs.filter((r) => !r.point).length,
    dropped: run.dropped,
    durationMs: Math.round(run.durationMs),
    gaps: { p50: round(percentileOfValues(gaps, 0.5)), p99: round(percentileOfValues(gaps, 0.99)) },
    latency: percentilesOf(histogram, PACED_PERCENTILES),
    latencyHistogram: histogram,
    perSecond: perSecond(run),
    ...(first ? { first429: first } : {}),
    ...(run.stopped ? { stopped: run.stopped } : {}),
    ...(run.unavailable ? { skipped: run.unavailable } : {}),
  };
}

/** Every key's paced run together: requests, errors and latency over all of them. */
export function overallFigures(keys: readonly PacedLoadKey[]): PacedLoadSection['overall'] {
  const sent = keys.reduce((n, k) => n + k.sent, 0);
  const errors = keys.reduce((n, k) => n + k.rejected + k.other + k.noResponse, 0);
  return { sent, errors, errorRate: sent > 0 ? errors / sent : 0, latency: percentilesOf(mergeHistograms(keys.map((k) => k.latencyHistogram)), PACED_PERCENTILES) };
}
