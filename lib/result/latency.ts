// Response times, defined once for the bursts' and the paced load's figures: histograms of whole
// milliseconds (the histograms of several runners add up to the one a single runner would have
// recorded, so percentiles merge exactly) and nearest-rank percentiles. Pure.
import { z } from 'zod';

/** A burst's response times, ms. */
export const Latency = z.object({ p50: z.number(), p90: z.number(), p99: z.number(), max: z.number() });
/** The paced load's response times, ms (p95 too: load.thresholds may name it). */
export const Percentiles = z.object({ p50: z.number(), p90: z.number(), p95: z.number(), p99: z.number(), max: z.number() });

/** Response times in whole milliseconds as [ms, count] pairs, in rising order. */
export const LatencyHistogram = z.array(z.tuple([z.number().int().nonnegative(), z.number().int().positive()]));
export type LatencyHistogram = z.infer<typeof LatencyHistogram>;

export function histogramOf(latenciesMs: readonly number[]): LatencyHistogram {
  const counts = new Map<number, number>();
  for (const ms of latenciesMs) {
    const bucket = Math.max(0, Math.round(ms));
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => a[0] - b[0]);
}

export function mergeHistograms(histograms: readonly LatencyHistogram[]): LatencyHistogram {
  const counts = new Map<number, number>();
  for (const h of histograms) for (const [ms, n] of h) counts.set(ms, (counts.get(ms) ?? 0) + n);
  return [...counts].sort((a, b) => a[0] - b[0]);
}

/** The nearest rank (1 to n) of quantile `q` (0..1) among `n` values: the one definition of a percentile's place. */
function nearestRank(n: number, q: number): number {
  return Math.min(n, Math.max(1, Math.ceil(q * n)));
}

/** The nearest-rank percentile `q` of a histogram (0 when it is empty). */
export function percentileOf(h: LatencyHistogram, q: number): number {
  const total = h.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return 0;
  const rank = nearestRank(total, q);
  let seen = 0;
  for (const [ms, n] of h) {
    seen += n;
    if (seen >= rank) return ms;
  }
  return h.at(-1)![0];
}

/** The nearest-rank percentile `q` of plain numbers, kept as they are (0 when there are none). */
export function percentileOfValues(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[nearestRank(sorted.length, q) - 1]!;
}

const QUANTILES = { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99 } as const;
type Quantile = keyof typeof QUANTILES;

/** Nearest-rank percentiles of a histogram, the named ones in their order and then the max (each 0 when it is empty). */
export function percentilesOf<K extends Quantile = 'p50' | 'p90' | 'p99'>(h: LatencyHistogram, names: readonly K[] = ['p50', 'p90', 'p99'] as K[]): Record<K, number> & { max: number } {
  const figures = {} as Record<K, number>;
  for (const name of names) figures[name] = percentileOf(h, QUANTILES[name]);
  return { ...figures, max: h.at(-1)?.[0] ?? 0 };
}
