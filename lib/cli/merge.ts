// `animal-store-conformance merge DIR...`: reads the load segments' reports, judges them as one run
// (lib/result/merge-segments.ts) and writes the merged reports. The reports and exchange logs it reads were
// redacted when written; it never sees a key.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expectedFailures } from '../checks/harness.ts';
import { linkCauses } from '../checks/causes.ts';
import { summariseKey } from '../checks/key-summary.ts';
import { RATE_LIMIT_CHECKS } from '../checks/rate-limit.ts';
import { CHECKS } from '../checks/registry.ts';
import { toCheckResult } from '../checks/to-check-result.ts';
import { skip } from '../checks/types.ts';
import { UsageError } from '../errors.ts';
import { applyBaseline, loadBaseline } from '../runner/baseline.ts';
import { buildReport } from '../result/build.ts';
import { checkSegments, combineChecks, keyEvidence, mergeKeyRuns, type SegmentReport, segmentRuns, sumRequests } from '../result/merge-segments.ts';
import { type CheckResult, Report } from '../result/model.ts';
import { Exchange } from '../result/exchange.ts';
import type { KeyRun } from '../result/rate-limits.ts';
import { timestampDir, writeReports } from '../report/write.ts';
import { suiteOrder } from '../runner/vitest-settings.ts';
import type { MergeArgs } from './args.ts';

export interface MergeOutcome {
  exitCode: number;
  report: Report;
  reportDir: string;
  files: string[];
}

function readSegment(dir: string): SegmentReport {
  const file = path.join(dir, 'report.json');
  if (!existsSync(file)) throw new UsageError(`${dir}: no report.json there (merge takes the --report-dir of each load segment)`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`${file}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = Report.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${file}: not a report.json of this harness (${issue ? `${issue.path.join('.') || 'the top level'}: ${issue.message}` : 'invalid'})`);
  }
  return { dir, report: parsed.data };
}

/** The rate-limit suite's exchanges of one key in one segment's exchanges.jsonl (none when the log is missing). */
function exchangesOf(dir: string): Map<string, Exchange[]> {
  const byKey = new Map<string, Exchange[]>();
  const file = path.join(dir, 'exchanges.jsonl');
  if (!existsSync(file)) return byKey;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"rate-limit"')) continue;
    const parsed = Exchange.safeParse(JSON.parse(line));
    if (!parsed.success || parsed.data.suite !== 'rate-limit' || parsed.data.auth.kind !== 'key') continue;
    const label = parsed.data.auth.label;
    byKey.set(label, [...(byKey.get(label) ?? []), parsed.data]);
  }
  return byKey;
}

/** What report.json keeps of a merged key: its summary, without the segments' raw runs. */
function mergedRateLimits(order: readonly string[], runs: ReadonlyMap<string, KeyRun>): NonNullable<Report['rateLimits']> {
  return order.filter((label) => runs.has(label)).map((label) => summariseKey(runs.get(label)!));
}

export function runMerge(args: MergeArgs, now: () => Date = () => new Date()): MergeOutcome {
  const parts = args.dirs.map(readSegment);
  checkSegments(parts);
  const lead = [...parts].sort((a, b) => a.report.segment!.index - b.report.segment!.index)[0]!.report;
  const baseline = args.expectedFailures ? loadBaseline(args.expectedFailures, lead.target.name, CHECKS.map((c) => c.id)) : undefined;

  const runs = new Map<string, KeyRun>();
  for (const [label, perSegment] of segmentRuns(parts)) runs.set(label, mergeKeyRuns(perSegment));
  const logs = parts.map((p) => exchangesOf(p.dir));
  const segmentCheck = (id: string, subject: string) =>
    parts.flatMap((p) => p.report.checks.filter((c) => c.id === id && c.subject === subject && c.outcome === 'error').map((c) => ({ index: p.report.segment!.index, check: c })))[0];
  const rateLimitChecks: CheckResult[] = lead.target.keys.flatMap((key) =>
    RATE_LIMIT_CHECKS.map((def) => {
      // A segment that could not carry the suite out: its error stands (partial data is not judged).
      const errored = segmentCheck(def.id, key.label);
      if (errored) return { ...errored.check, message: `segment ${errored.index}: ${errored.check.message}` };
      const run = runs.get(key.label);
      const judgement = run ? def.judge(run) : skip(`${key.label} was not driven in any segment`);
      return toCheckResult(def, judgement, { subject: key.label, durationMs: 0, exchanges: judgement.outcome === 'fail' ? keyEvidence(logs.map((l) => l.get(key.label) ?? [])) : [] });
    }),
  );
  let checks = linkCauses([...combineChecks(parts, 'rate-limit'), ...rateLimitChecks]);
  let baselineReport: Report['baseline'];
  if (baseline) {
    const applied = applyBaseline(checks, baseline);
    baselineReport = applied.report;
    checks = [...applied.checks, toCheckResult(expectedFailures, expectedFailures.judge(applied.report.entries), { subject: baseline.file, durationMs: 0, exchanges: [] })];
  }
  const started = Math.min(...parts.map((p) => Date.parse(p.report.startedAt)));
  const finished = Math.max(...parts.map((p) => Date.parse(p.report.finishedAt)));
  const segments = [...parts]
    .sort((a, b) => a.report.segment!.index - b.report.segment!.index)
    .map((p) => ({ index: p.report.segment!.index, dir: p.dir, startedAt: p.report.startedAt, finishedAt: p.report.finishedAt, requests: p.report.requests.total, verdict: p.report.verdict }));
  const report = buildReport({
    tool: lead.tool,
    target: lead.target,
    startedAt: new Date(started),
    finishedAt: new Date(finished),
    seed: lead.seed,
    options: { ...lead.options, suites: [...new Set(parts.flatMap((p) => p.report.options.suites))].sort(suiteOrder) },
    checks,
    exchanges: [],
    requests: sumRequests(parts),
    warnings: [...new Set(parts.flatMap((p) => p.report.warnings))],
    rateLimits: mergedRateLimits(lead.target.keys.map((k) => k.label), runs),
    // Each runner's politeness stands on its own: it waits out the 429s it got, by its own clock.
    politeness: parts.flatMap((p) => (p.report.politeness ?? []).map((k) => ({ ...k, segment: p.report.segment!.index }))),
    ...(baselineReport ? { baseline: baselineReport } : {}),
    merged: { startAt: lead.segment!.startAt, segments },
  });
  const reportDir = path.resolve(args.reportDir ?? timestampDir(path.resolve('reports'), lead.target.name, now()));
  const written = writeReports(report, reportDir, (t) => t);
  return { exitCode: report.exitCode, report, reportDir, files: written.files };
}
