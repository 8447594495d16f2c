// Verdict logic: pure functions over check results.
import type { CheckResult, Outcome, OutcomeCounts, Report, Severity } from './model.ts';

export function countOutcomes(checks: readonly Pick<CheckResult, 'outcome'>[]): OutcomeCounts {
  const counts: OutcomeCounts = { pass: 0, fail: 0, skip: 0, error: 0 };
  for (const c of checks) counts[c.outcome] += 1;
  return counts;
}

export function summarise(checks: readonly CheckResult[]): Report['summary'] {
  const of = (severity: Severity) => countOutcomes(checks.filter((c) => c.severity === severity));
  const expected = checks.filter((c) => c.expectedFailure).length;
  return {
    checks: checks.length,
    byOutcome: countOutcomes(checks),
    bySeverity: { must: of('must'), should: of('should'), info: of('info') },
    ...(expected > 0 ? { expectedFailures: expected } : {}),
  };
}

/**
 * Whether a check stands in the way of a conformant verdict. A `must` that failed does; so does a
 * `must` that could not be checked (`error`): a release gate must not pass what it never saw.
 * `info` never does. `--strict` treats `should` like `must`. An expected failure never does.
 */
export function blocksVerdict(check: Pick<CheckResult, 'severity' | 'outcome' | 'expectedFailure'>, strict: boolean): boolean {
  // A failure the run's baseline lists (--expected-failures) is known: it is shown, not gated on.
  if (check.expectedFailure) return false;
  const bad: readonly Outcome[] = ['fail', 'error'];
  if (!bad.includes(check.outcome)) return false;
  if (check.severity === 'must') return true;
  return strict && check.severity === 'should';
}

export function verdictOf(checks: readonly CheckResult[], strict: boolean): 'pass' | 'fail' {
  return checks.some((c) => blocksVerdict(c, strict)) ? 'fail' : 'pass';
}
