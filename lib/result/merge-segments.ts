// `merge`: the reports of N load segments (--load-segment I/N) judged as one run. Each segment kept
// every key's whole run (rateLimits[].raw); the runs of one key are merged (responses in time
// order, connections numbered on, latency histograms added) and the rate-limit checks judge the
// merged run exactly as they judge a single runner's. Every other check is taken from the segments
// that ran it, the worst outcome where several did. Pure: reports in, a report's parts out.
import { UsageError } from '../errors.ts';
import { type KeyRun, type KeyRunRecord, type Look, type TimelinePoint } from './rate-limits.ts';
import { mergeHistograms, percentilesOf } from './latency.ts';
import type { CheckResult, Report } from './model.ts';
import type { Exchange } from './exchange.ts';
import { resultKey, worstOf } from './match.ts';
import { isAccepted } from '../status.ts';
import { readRateAnswer } from '../rate-limit/vocabulary.ts';

export interface SegmentReport {
  /** Where it was read from, to name it in messages. */
  dir: string;
  report: Report;
}

/** Refuses reports that were not one split run: different targets, seeds, start times or segment counts, a segment missing or given twice. */
export function checkSegments(parts: readonly SegmentReport[]): void {
  if (parts.length === 0) throw new UsageError('merge needs the report directories of the load segments: merge DIR... --report-dir OUT');
  for (const p of parts) {
    if (!p.report.segment) throw new UsageError(`${p.dir} holds the report of a whole run, not of a load segment (made without --load-segment): nothing to merge`);
  }
  const [first, ...rest] = parts as [SegmentReport, ...SegmentReport[]];
  const seg = (p: SegmentReport) => p.report.segment!;
  const same = (what: string, get: (p: SegmentReport) => string | number | boolean) => {
    for (const p of rest) {
      if (get(p) !== get(first)) throw new UsageError(`${p.dir} and ${first.dir} are not segments of one run: different ${what} (${get(p)} and ${get(first)})`);
    }
  };
  same('targets', (p) => p.report.target.name);
  same('base URLs', (p) => p.report.target.baseUrl);
  same('keys', (p) => p.report.target.keys.map((k) => `${k.label}${k.disposable ? ' (disposable)' : ''}`).join(', '));
  same('seeds', (p) => p.report.seed);
  same('segment counts', (p) => seg(p).count);
  same('start times (--start-at)', (p) => seg(p).startAt);
  same('--strict settings', (p) => p.report.options.strict);
  const count = seg(first).count;
  const byIndex = new Map<number, string>();
  for (const p of parts) {
    const other = byIndex.get(seg(p).index);
    if (other) throw new UsageError(`segment ${seg(p).index} of ${count} is given twice (${other} and ${p.dir})`);
    byIndex.set(seg(p).index, p.dir);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new UsageError(`segment${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${count} missing: merge needs the reports of all ${count}`);
}


/**
 * One key's runs from several segments as one run: the first look before the bursts is the
 * start (the others' looks, in the same window, become responses of the burst), the bursts'
 * responses in time order with each segment's connections numbered on from the previous one's,
 * the histograms added up. What only the first segment drives (the day, the ban probe) comes from
 * it; of the recoveries and isolation looks, a failing one is kept, else the first.
 */
export function mergeKeyRuns(parts: readonly { index: number; run: KeyRun }[]): KeyRun {
  const sorted = [...parts].sort((a, b) => a.index - b.index);
  const first = sorted[0]!.run;
  const base: KeyRun = { label: first.label, plan: first.plan, quota: first.quota, windows: first.windows };
  const usable = sorted.map((p) => p.run).filter((r) => !r.unavailable);
  if (usable.length === 0) return { ...base, unavailable: first.unavailable! };
  const lead = usable[0]!;
  const starts = usable.filter((r) => r.start).map((r) => r.start!);
  // The first look the server answered: the highest Remaining (arrival times of separate
  // processes may swap two answers of the same moment), else the earliest.
  const remainingOf = (o: Look) => readRateAnswer(o).remaining ?? -Infinity;
  const start = starts.length > 0 ? starts.reduce((a, b) => (remainingOf(b) > remainingOf(a) || (remainingOf(b) === remainingOf(a) && b.t < a.t) ? b : a)) : undefined;
  const bursts = usable.filter((r) => r.burst).map((r) => r.burst!);
  const merged: KeyRun = { ...base };
  if (start) merged.start = start;
  if (bursts.length > 0) {
    const points: TimelinePoint[] = starts.filter((s) => s !== start).map(readRateAnswer);
    let offset = 0;
    for (const b of bursts) {
      for (const p of b.points) points.push(p.conn !== undefined ? { ...p, conn: p.conn + offset } : p);
      offset += Math.max(0, ...b.points.map((p) => p.conn ?? 0));
    }
    points.sort((a, b) => a.t - b.t);
    const begin = Math.min(...bursts.map((b) => b.startedAt));
    const end = Math.max(...bursts.map((b) => b.startedAt + b.durationMs));
    const histograms = bursts.map((b) => b.latencyHistogram).filter((h) => h !== undefined);
    const histogram = histograms.length === bursts.length ? mergeHistograms(histograms) : undefined;
    const inFlight = bursts.map((b) => b.inFlightAtFirst429).filter((n) => n !== undefined);
    const pairs = bursts.map((b) => b.boundaryPair).filter((p) => p !== undefined);
    const pair = pairs.find((p) => p.together.filter((x) => isAccepted(x)).length >= 2) ?? pairs[0];
    merged.burst = {
      points,
      sent: bursts.reduce((n, b) => n + b.sent, 0) + (starts.length - 1),
      startedAt: begin,
      durationMs: end - begin,
      askedRate: bursts.reduce((n, b) => n + b.askedRate, 0),
      ended: bursts.some((b) => b.ended === 'first-429') ? 'first-429' : bursts.some((b) => b.ended === 'no-answer') ? 'no-answer' : bursts.some((b) => b.ended === 'max-duration') ? 'max-duration' : 'max-requests',
      latency: histogram ? percentilesOf(histogram) : { ...bursts[0]!.latency, max: Math.max(...bursts.map((b) => b.latency.max)) },
      ...(histogram ? { latencyHistogram: histogram } : {}),
      ...(inFlight.length > 0 ? { inFlightAtFirst429: inFlight.reduce((n, x) => n + x, 0) } : {}),
      ...(pair ? { boundaryPair: pair } : {}),
    };
  }
  const retries = usable.filter((r) => r.retry).map((r) => r.retry!);
  const retry = retries.find((r) => !isAccepted(r.next)) ?? retries[0];
  if (retry) merged.retry = retry;
  else if (usable.some((r) => r.retrySkipped)) merged.retrySkipped = usable.find((r) => r.retrySkipped)!.retrySkipped!;
  // Each runner sent its own request at its 429's Reset: one refused is the one to judge.
  const atResets = usable.filter((r) => r.atReset).map((r) => r.atReset!);
  const atReset = atResets.find((a) => !isAccepted(a.next)) ?? atResets[0];
  if (atReset) merged.atReset = atReset;
  else if (usable.some((r) => r.atResetSkipped)) merged.atResetSkipped = usable.find((r) => r.atResetSkipped)!.atResetSkipped!;
  const looks = usable.filter((r) => r.isolation).map((r) => r.isolation!);
  const isolation = looks.find((l) => !isAccepted(l.after)) ?? looks[0];
  if (isolation) merged.isolation = isolation;
  // The day and the ban probe: driven by the first segment alone.
  const { day, daySkipped, ban } = lead;
  return { ...merged, ...(day ? { day } : {}), ...(daySkipped !== undefined ? { daySkipped } : {}), ...(ban ? { ban } : {}) };
}

/** Each key's run in each segment, from rateLimits[].raw. */
export function segmentRuns(parts: readonly SegmentReport[]): Map<string, { index: number; run: KeyRun }[]> {
  const runs = new Map<string, { index: number; run: KeyRun }[]>();
  for (const p of parts) {
    for (const k of p.report.rateLimits ?? []) {
      if (!k.raw) continue;
      const record: KeyRunRecord = k.raw;
      const run: KeyRun = { ...record, label: k.label, plan: k.plan, quota: k.quota, windows: k.windows };
      runs.set(k.label, [...(runs.get(k.label) ?? []), { index: p.report.segment!.index, run }]);
    }
  }
  return runs;
}

/**
 * The checks every segment judged on its own (the run-wide rules over its responses, the
 * harness's own) and those only the first ran (the functional suites): one result per check and
 * subject, the worst where several segments judged it (a rule over every response fails if it
 * failed over any segment's). A baseline is applied again by the merge, so the segments' marks go.
 */
export function combineChecks(parts: readonly SegmentReport[], skipSuite: string): CheckResult[] {
  const groups = new Map<string, { index: number; check: CheckResult }[]>();
  for (const p of [...parts].sort((a, b) => a.report.segment!.index - b.report.segment!.index)) {
    for (const c of p.report.checks) {
      if (c.suite === skipSuite || c.id === 'harness.expected-failures') continue;
      const key = resultKey(c);
      groups.set(key, [...(groups.get(key) ?? []), { index: p.report.segment!.index, check: c }]);
    }
  }
  return [...groups.values()].map((group) => {
    const worst = worstOf(group.map((g) => g.check));
    const pick = group.find((g) => g.check === worst)!;
    const { expectedFailure: _mark, ...check } = pick.check;
    return group.length > 1 && (check.outcome === 'fail' || check.outcome === 'error') ? { ...check, message: `segment ${pick.index}: ${check.message}` } : check;
  });
}

/** Requests of all segments, summed. */
export function sumRequests(parts: readonly SegmentReport[]): Report['requests'] {
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
  };
  const byStatus: Record<string, number> = {};
  const bySuite: Record<string, number> = {};
  for (const p of parts) {
    add(byStatus, p.report.requests.byStatus);
    add(bySuite, p.report.requests.bySuite);
  }
  return { total: parts.reduce((n, p) => n + p.report.requests.total, 0), byStatus, bySuite };
}

/**
 * A key's evidence from its exchanges in every segment: per segment the first two, the two before
 * its first 429 and that 429, and its last; in time order.
 */
export function keyEvidence(perSegment: readonly (readonly Exchange[])[]): Exchange[] {
  const picked: Exchange[] = [];
  for (const all of perSegment) {
    const first429 = all.findIndex((e) => e.status === 429);
    const around = first429 === -1 ? [] : all.slice(Math.max(0, first429 - 2), first429 + 1);
    picked.push(...new Map([...all.slice(0, 2), ...around, ...all.slice(-1)].map((e) => [e.seq, e])).values());
  }
  return picked.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
