// `--replay REPORT.json --check ID`: has a fix landed? The check is run again on its own, with the
// seed, runs and strictness of the report's run, so it sends the requests that failed there (a
// property's cases come from a seed derived from the run's seed and the check's name, whatever
// else runs), with the keys of the target config, never anything from the report. A run-level
// check (judged over every response) replays the suites whose responses it blamed. Exit 1 while
// it still fails, 0 once it passes; a check that cannot be judged now is not a pass.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHECKS, checkById } from '../checks/registry.ts';
import { EXIT, UsageError } from '../errors.ts';
import { type CheckResult, Report } from '../result/model.ts';
import type { RunOptions } from '../runner/options.ts';
import { type RunIO, runConformance } from '../runner/run.ts';
import { listSuites } from '../runner/vitest-run.ts';
import { didYouMean } from '../util/suggest.ts';
import { checkLabel } from '../report/text.ts';

export interface ReplayOptions extends Pick<RunOptions, 'target' | 'allowWrites' | 'allowLoad' | 'maxRequests' | 'reportDir'> {
  /** Path to the report.json of the run that failed. */
  report: string;
  check: string;
}

export interface ReplayPlan {
  id: string;
  /** The report's failing results of the check. */
  failing: CheckResult[];
  /** Suites to run again, and whether only the check's own tests run in them. */
  suites: string[];
  onlyCheck?: string;
  seed: number;
  runs: number;
  strict: boolean;
}

const failed = (c: Pick<CheckResult, 'outcome'>) => c.outcome === 'fail' || c.outcome === 'error';

/** Reads report.json; anything else is a usage error naming the file and what is wrong. */
export function readReportFile(file: string): Report {
  let text: string;
  try {
    text = readFileSync(path.resolve(file), 'utf8');
  } catch (err) {
    throw new UsageError(`--replay ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UsageError(`--replay ${file}: not JSON (give the report.json of a run)`);
  }
  const parsed = Report.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--replay ${file}: not a report.json of this harness (${issue.path.join('.') || 'top level'}: ${issue.message})`);
  }
  return parsed.data;
}

/** What to run again for `id`, from the report. Pure. */
export function planReplay(report: Report, id: string, file: string, knownSuites: readonly string[]): ReplayPlan {
  const def = checkById(id);
  if (!def) throw new UsageError(`--check: unknown check "${id}"${didYouMean(id, CHECKS.map((c) => c.id))} (--list-checks prints them)`);
  const results = report.checks.filter((c) => c.id === def.id);
  if (results.length === 0) throw new UsageError(`--check ${def.id}: not in ${file} (that run's suites: ${report.options.suites.join(', ') || 'none'})`);
  const failing = results.filter(failed);
  if (failing.length === 0) throw new UsageError(`--check ${def.id}: did not fail in ${file} (${results.map((c) => c.outcome).join(', ')}): nothing to replay`);
  if (def.suite === 'harness') throw new UsageError(`--check ${def.id}: judges the harness's own run, not the server: nothing to replay`);
  const base = { id: def.id, failing, seed: report.seed, runs: report.options.runs, strict: report.options.strict };
  if (def.suite === 'probe') return { ...base, suites: [] };
  if (def.suite === 'run') {
    // The suites whose responses it blamed, else every suite of that run.
    const blamed = [...new Set(failing.flatMap((c) => c.evidence?.exchanges.map((e) => e.suite) ?? []))].filter((s) => knownSuites.includes(s));
    return { ...base, suites: blamed.length > 0 ? blamed : report.options.suites.filter((s) => knownSuites.includes(s)) };
  }
  return { ...base, suites: [def.suite], onlyCheck: def.id };
}

export type ReplayVerdict = { kind: 'still-fails' | 'passes-now' | 'not-judged'; exitCode: number; line: string };

/** Still fails, passes now, or cannot tell: from the check's results in the new run. Pure. */
export function replayVerdict(id: string, now: readonly CheckResult[], unreachable: boolean): ReplayVerdict {
  if (unreachable) return { kind: 'not-judged', exitCode: EXIT.unreachable, line: `NOT JUDGED ${id}: the target did not answer` };
  const failing = now.filter(failed);
  if (failing.length > 0) return { kind: 'still-fails', exitCode: EXIT.notConformant, line: `STILL FAILS ${id}: ${failing.length} of ${now.length} result${now.length === 1 ? '' : 's'} failing` };
  if (now.some((c) => c.outcome === 'pass')) return { kind: 'passes-now', exitCode: EXIT.conformant, line: `PASSES NOW ${id}: ${now.length} result${now.length === 1 ? '' : 's'}, none failing` };
  const why = now[0]?.message ?? 'the check did not run';
  return { kind: 'not-judged', exitCode: EXIT.notConformant, line: `NOT JUDGED ${id}: ${why}` };
}

const oneLine = (s: string) => {
  const line = s.split('\n')[0] ?? '';
  return line.length > 150 ? `${line.slice(0, 149)}…` : line;
};

export async function runReplay(options: ReplayOptions, io: RunIO): Promise<{ exitCode: number; lines: string[] }> {
  const report = readReportFile(options.report);
  const plan = planReplay(report, options.check, options.report, listSuites());
  io.progress(`Replaying ${plan.id} from ${options.report} (seed ${plan.seed}, ${plan.runs} runs${plan.suites.length ? `, suite ${plan.suites.join(', ')}` : ''}), keys from the target config:`);
  for (const c of plan.failing) io.progress(`  was ${c.outcome}: ${checkLabel(c)}: ${oneLine(c.message)}`);
  const reportDir = options.reportDir ?? path.join(path.dirname(path.resolve(options.report)), `replay-${plan.id}`);
  const outcome = await runConformance(
    {
      target: options.target,
      suites: plan.suites,
      seed: plan.seed,
      runs: plan.runs,
      strict: plan.strict,
      allowWrites: options.allowWrites,
      allowLoad: options.allowLoad,
      soak: false,
      reportDir,
      ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
      ...(plan.onlyCheck ? { onlyCheck: plan.onlyCheck } : {}),
      // The paced load as the report ran it.
      ...(report.options.loadRate !== undefined || report.options.loadWindows !== undefined
        ? { pace: { ...(report.options.loadRate !== undefined ? { fraction: report.options.loadRate } : {}), ...(report.options.loadWindows !== undefined ? { windows: report.options.loadWindows } : {}) } }
        : {}),
    },
    io,
  );
  const now = outcome.report.checks.filter((c) => c.id === plan.id);
  const lines = now.map((c) => `  now ${c.outcome}: ${checkLabel(c)}: ${oneLine(c.message)}`);
  const verdict = replayVerdict(plan.id, now, outcome.exitCode === EXIT.unreachable);
  return { exitCode: verdict.exitCode, lines: [...lines, `Reports: ${path.relative(process.cwd(), reportDir) || reportDir}`, '', verdict.line] };
}
