// One conformance run: load the target, start it if asked, check it is there, run the suites,
// judge the run-level checks, build the result, write the reports. Each step lives in its own
// module; this one only puts them in order. Never prints a key.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expectedFailures } from '../checks/harness.ts';
import { reachable } from '../checks/target.ts';
import { CHECKS } from '../checks/registry.ts';
import { RUN_CHECKS } from '../checks/run-level.ts';
import { toCheckResult } from '../checks/to-check-result.ts';
import { Redactor } from '../client/redact.ts';
import { loadTarget } from '../config/load-target.ts';
import { toolInfo } from '../paths.ts';
import { TargetUnreachableError, UsageError } from '../errors.ts';
import { applyBaseline, loadBaseline } from './baseline.ts';
import { buildReport } from '../result/build.ts';
import { politenessOf } from '../result/politeness.ts';
import { linkCauses } from '../checks/causes.ts';
import type { CheckResult, Report } from '../result/model.ts';
import type { Exchange } from '../result/exchange.ts';
import type { Style } from '../report/console.ts';
import { linkLatest, timestampDir, writeReports } from '../report/write.ts';
import { didYouMean } from '../util/suggest.ts';
import { RunCollector } from './collector.ts';
import { type RunOptions, resolveRun } from './options.ts';
import { probeTarget } from './probe.ts';
import { SuiteProgress } from './progress.ts';
import { freePort, type StartedTarget, startConfigured, startedTargetNote } from './start-target.ts';
import { listSuites, runSuites } from './vitest-run.ts';
import { NAMED_ONLY, suiteOrder } from '../runner/vitest-settings.ts';
import { segmentSuites } from '../load/segment.ts';

export interface RunIO {
  /** A progress line (already free of keys). */
  progress(line: string): void;
  /** Told when Ctrl-C stops the run. */
  interrupted(line: string): void;
  style: Style;
}

export const TOOL = toolInfo();

export interface RunOutcome {
  exitCode: number;
  report: Report;
  reportDir: string;
  /** The report files written. */
  files: string[];
}

export async function runConformance(options: RunOptions, io: RunIO): Promise<RunOutcome> {
  const startedAt = new Date();
  // A load segment other than the first runs the rate-limit suite alone (lib/load/segment.ts).
  const suites = options.segment ? segmentSuites(selectSuites(options.suites), options.segment) : selectSuites(options.suites);
  const { target, port } = await loadTarget(options.target, { allocatePort: freePort });
  // A bad baseline stops the run before anything is sent.
  const baseline = options.expectedFailures ? loadBaseline(options.expectedFailures, target.name, CHECKS.map((c) => c.id)) : undefined;
  const redactor = new Redactor(target.keys);
  const say = (text: string) => io.progress(redactor.scrub(text));
  const { context, warnings } = resolveRun(options, target, startedAt);
  for (const w of warnings) say(io.style.yellow(`Warning: ${w}`));
  const reportDir = path.resolve(options.reportDir ?? uniqueDir(timestampDir(path.resolve('reports'), target.name, startedAt)));
  mkdirSync(reportDir, { recursive: true });
  const progress = new SuiteProgress(say, io.style);
  const collector = new RunCollector(path.join(reportDir, 'exchanges.jsonl'), progress.event);

  say(`Checking ${target.name} at ${target.baseUrl} (seed ${context.seed}, budget ${context.maxRequests} requests, suites: ${suites.join(', ')})`);
  if (context.segment) say(`Load segment ${context.segment.index} of ${context.segment.count}: the rate-limit suite's load starts at ${new Date(context.segment.startAt).toISOString()}, with every other runner`);
  let unreachable = false;
  let started: StartedTarget | undefined;
  // Our listener replaces Node's default exit on Ctrl-C: stop what we started, then exit.
  const stopOnSignal = () => {
    io.interrupted('Interrupted: stopping.');
    void (started ? started.stop() : Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    started = await startConfigured(target, port, say, (t) => redactor.scrub(t));
    const probe = await probeTarget(target, context.maxRequests, (exchange) => collector.add({ kind: 'exchange', exchange }));
    collector.add({ kind: 'check', check: probe.check });
    if (probe.reachable) {
      await runSuites({ ...context, requestsBefore: probe.sent, echoProgress: false, suites }, suites, {
        ...(options.onlyCheck ? { onlyCheck: options.onlyCheck } : {}),
        onEvent: collector.add,
        onSuiteStart: (s) => progress.start(s),
        onSuiteEnd: () => progress.end(),
      });
      progress.end();
    } else unreachable = true;
  } catch (err) {
    if (!(err instanceof TargetUnreachableError)) throw err;
    unreachable = true;
    collector.add({ kind: 'check', check: toCheckResult(reachable, { outcome: 'error', message: err.message }, { subject: 'GET /pets', durationMs: 0, exchanges: [] }) });
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    collector.close();
    if (started) {
      await started.stop();
      say(`Target stopped (pid ${started.pid})`);
    }
  }

  const note = startedTargetNote(target, port);
  const logged = collector.exchanges();
  let checks: CheckResult[] = linkCauses([...collector.checks, ...(unreachable ? [] : judgeRun(logged))]).map((c) => withReproduceNote(c, note));
  let baselineReport: Report['baseline'];
  if (baseline) {
    const applied = applyBaseline(checks, baseline);
    baselineReport = applied.report;
    checks = [...applied.checks, toCheckResult(expectedFailures, expectedFailures.judge(applied.report.entries), { subject: baseline.file, durationMs: 0, exchanges: [] })];
  }
  const report = buildReport({
    tool: { name: TOOL.name, version: TOOL.version },
    target,
    startedAt,
    finishedAt: new Date(),
    seed: context.seed,
    options: {
      suites,
      runs: context.runs,
      strict: context.strict,
      allowWrites: context.allowWrites,
      allowLoad: context.allowLoad,
      soak: context.soak,
      maxRequests: context.maxRequests,
      ...(suites.includes('load') ? { loadRate: context.pace.fraction, loadWindows: context.pace.windows } : {}),
    },
    checks: redactor.scrubDeep(checks),
    timeLimitSeconds: context.timeLimitSeconds,
    exchanges: collector.requests,
    warnings,
    unreachable,
    ...(collector.rateLimits.length > 0 ? { rateLimits: collector.rateLimits } : {}),
    politeness: politenessOf(logged),
    ...(collector.pacedLoad ? { pacedLoad: collector.pacedLoad } : {}),
    ...(baselineReport ? { baseline: baselineReport } : {}),
    ...(context.segment ? { segment: { index: context.segment.index, count: context.segment.count, startAt: new Date(context.segment.startAt).toISOString() } } : {}),
  });
  const written = writeReports(report, reportDir, (t) => redactor.scrub(t));
  if (!options.reportDir) linkLatest(reportDir);
  return { exitCode: report.exitCode, report, reportDir, files: written.files };
}

/** Puts `note` before a check's reproduction commands, when it has any. */
function withReproduceNote(check: CheckResult, note: readonly string[]): CheckResult {
  if (note.length === 0 || !check.evidence || check.evidence.reproduce.length === 0) return check;
  return { ...check, evidence: { ...check.evidence, reproduce: [...note, ...check.evidence.reproduce] } };
}

/** The rules every response of the run must follow, judged once over the whole exchange log. */
function judgeRun(exchanges: readonly Exchange[]): CheckResult[] {
  return RUN_CHECKS.map((def) => toCheckResult(def, def.judge(exchanges), { subject: 'every response of the run', durationMs: 0, exchanges: [] }));
}

function selectSuites(requested: readonly string[] | undefined): string[] {
  const known = listSuites();
  if (!requested) return known.filter((s) => !NAMED_ONLY.includes(s));
  for (const s of requested) {
    if (!known.includes(s)) throw new UsageError(`unknown suite "${s}"${didYouMean(s, known)}: suites are ${known.join(', ')}`);
  }
  return [...new Set(requested)].sort(suiteOrder);
}

function uniqueDir(dir: string): string {
  let candidate = dir;
  for (let n = 2; existsSync(candidate); n++) candidate = `${dir}-${n}`;
  return candidate;
}
