// The figures a check's result stands on, where the run measured some: a paced key's rate, gaps,
// answers and latency (the load suite's checks of that key), every key's together (load.thresholds).
// junit.xml writes them as the testcase's properties, ctrf.json as the test's extra.figures.
import type { CheckResult, Report } from '../result/model.ts';

export type Figures = Record<string, number>;

export function figuresOf(report: Pick<Report, 'pacedLoad'>, check: Pick<CheckResult, 'id' | 'suite' | 'subject'>): Figures | undefined {
  const paced = report.pacedLoad;
  if (!paced || check.suite !== 'load') return undefined;
  if (check.id === 'load.thresholds') {
    const o = paced.overall;
    const thresholds = Object.fromEntries(Object.entries(paced.thresholds ?? {}).filter(([, v]) => v !== undefined).map(([name, v]) => [`threshold.${name}`, v as number]));
    return { sent: o.sent, errors: o.errors, errorRate: o.errorRate, p50Ms: o.latency.p50, p95Ms: o.latency.p95, p99Ms: o.latency.p99, maxMs: o.latency.max, ...thresholds };
  }
  const k = paced.keys.find((key) => key.label === check.subject);
  if (!k || k.skipped) return undefined;
  return {
    askedRate: k.askedRate,
    achievedRate: k.achievedRate,
    sent: k.sent,
    accepted: k.accepted,
    rejected: k.rejected,
    other: k.other,
    noResponse: k.noResponse,
    dropped: k.dropped,
    durationMs: k.durationMs,
    gapP50Ms: k.gaps.p50,
    gapP99Ms: k.gaps.p99,
    p50Ms: k.latency.p50,
    p95Ms: k.latency.p95,
    p99Ms: k.latency.p99,
    maxMs: k.latency.max,
    ...(k.first429 ? { first429Request: k.first429.request, first429AtMs: k.first429.atMs, first429Rate: k.first429.rate } : {}),
  };
}
