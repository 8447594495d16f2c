// ctrf.json: the run in the Common Test Report Format (https://ctrf.io), which CI dashboards and
// test-report tools read. One test per check. Pure: the run result in, JSON text out.
import type { CheckResult, Report } from '../result/model.ts';
import { blocksVerdict } from '../result/verdict.ts';
import { figuresOf } from './figures.ts';
import { checkLabel } from './text.ts';

/** The CTRF specification version written (the `ctrf` package's CURRENT_SPEC_VERSION). */
export const CTRF_SPEC_VERSION = '0.0.0';

type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

/**
 * A check's CTRF status. Failed means it fails the gate; a failure that does not (a `should`
 * without --strict, an `info` that could not be recorded, one the --expected-failures baseline
 * lists) is "other", its outcome kept in rawStatus.
 */
export function ctrfStatus(check: Pick<CheckResult, 'severity' | 'outcome' | 'expectedFailure'>, strict: boolean): CtrfStatus {
  if (check.outcome === 'pass') return 'passed';
  if (check.outcome === 'skip') return 'skipped';
  return blocksVerdict(check, strict) ? 'failed' : 'other';
}

function trace(c: CheckResult): string | undefined {
  const e = c.evidence;
  if (!e) return undefined;
  const lines = [
    ...(e.expected !== undefined ? [`Expected: ${e.expected}`] : []),
    ...(e.actual !== undefined ? [`Actual: ${e.actual}`] : []),
    ...(e.counterexample !== undefined ? [`Counterexample: ${e.counterexample}`] : []),
    ...(e.seed !== undefined ? [`Seed: ${e.seed}`] : []),
    ...(e.reproduce.length > 0 ? ['Reproduce:', ...e.reproduce] : []),
  ];
  return lines.length > 0 ? lines.join('\n') : undefined;
}

export function renderCtrf(report: Report): string {
  const strict = report.options.strict;
  const tests = report.checks.map((c) => {
    const status = ctrfStatus(c, strict);
    const details = status === 'passed' ? undefined : trace(c);
    const figures = figuresOf(report, c);
    return {
      name: checkLabel(c),
      status,
      duration: Math.max(0, Math.round(Number.isFinite(c.durationMs) ? c.durationMs : 0)),
      rawStatus: c.outcome,
      message: c.message,
      ...(details !== undefined ? { trace: details } : {}),
      suite: [c.clause],
      tags: [c.severity],
      labels: { id: c.id, severity: c.severity, clause: c.clause, suite: c.suite, ...(c.subject !== undefined ? { subject: c.subject } : {}) },
      ...(c.causedBy || c.expectedFailure || figures
        ? { extra: { ...(c.causedBy ? { causedBy: checkLabel(c.causedBy) } : {}), ...(c.expectedFailure ? { expectedFailure: c.expectedFailure.reason } : {}), ...(figures ? { figures } : {}) } }
        : {}),
    };
  });
  const count = (s: CtrfStatus) => tests.filter((t) => t.status === s).length;
  const ctrf = {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    timestamp: report.finishedAt,
    generatedBy: report.tool.name,
    results: {
      tool: { name: report.tool.name, version: report.tool.version },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: count('pending'),
        other: count('other'),
        start: Date.parse(report.startedAt),
        stop: Date.parse(report.finishedAt),
        duration: report.durationMs,
      },
      tests,
      environment: { appName: report.target.name, buildName: report.target.baseUrl, extra: { verdict: report.verdict, exitCode: report.exitCode, seed: report.seed, strict } },
    },
  };
  return `${JSON.stringify(ctrf, null, 2)}\n`;
}
