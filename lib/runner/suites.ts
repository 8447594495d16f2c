// Runs the conformance suites (vitest files in suites/) programmatically and collects one
// CheckResult per test from the test's meta. All suites run in one worker, one file at a time:
// the budget and the request sequence are shared, and a target is never hit by two suites at once.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestModule, TestSequencer, TestSpecification } from 'vitest/node';
import { startVitest } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { PROJECT_ROOT } from '../config/load.ts';
import type { CheckResult } from '../result/model.ts';
import { type RunContext, SOAK_LIMIT_SECONDS } from '../suite/run-context.ts';

export const SUITES_DIR = path.join(PROJECT_ROOT, 'suites');

/** Suite names, from the files in suites/ (auth.suite.ts is "auth"). */
export function listSuites(): string[] {
  return readdirSync(SUITES_DIR)
    .filter((f) => f.endsWith('.suite.ts'))
    .map((f) => f.replace(/\.suite\.ts$/, ''))
    .sort();
}

export interface SuiteHooks {
  onSuiteStart?(suite: string): void;
  onCheck?(check: CheckResult): void;
  /** Lines the suites print (waits, progress). */
  onLog?(line: string): void;
}

export interface SuitesResult {
  checks: CheckResult[];
}

const suiteOf = (moduleId: string) => path.basename(moduleId, '.suite.ts');

export async function runSuites(run: RunContext, suites: readonly string[], hooks: SuiteHooks = {}): Promise<SuitesResult> {
  const checks: CheckResult[] = [];
  const add = (check: CheckResult) => {
    checks.push(check);
    hooks.onCheck?.(check);
  };
  const reporter: Reporter = {
    onTestModuleStart: (m: TestModule) => hooks.onSuiteStart?.(suiteOf(m.moduleId)),
    onTestCaseResult: (test: TestCase) => {
      const meta = test.meta().check;
      add(meta ?? lostCheck(test));
    },
    onUserConsoleLog: (log) => {
      for (const line of log.content.split('\n')) if (line.trim()) hooks.onLog?.(line);
    },
    onTestRunEnd: (modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>) => {
      for (const m of modules) {
        for (const e of m.errors()) add(harnessError(suiteOf(m.moduleId), `suite ${suiteOf(m.moduleId)} could not run: ${e.message}`));
      }
      for (const e of errors) add(harnessError('harness', `unhandled error in the suites: ${e.message}`));
    },
  };

  const files = suites.map((s) => path.join(SUITES_DIR, `${s}.suite.ts`));
  const vitest = await startVitest(
    'test',
    files,
    {
      root: PROJECT_ROOT,
      config: false,
      watch: false,
      reporters: [reporter],
      provide: { run },
      include: ['suites/*.suite.ts'],
      pool: 'forks',
      isolate: false,
      fileParallelism: false,
      maxWorkers: 1,
      // Checks may wait out a Retry-After; the run's own limits bound them, not vitest.
      testTimeout: 15 * 60_000,
      // A suite's preparation may wait out real windows (the rate-limit suite: two minutes), and
      // with --soak a whole day's quota.
      hookTimeout: run.soak ? SOAK_LIMIT_SECONDS * 1000 : 15 * 60_000,
      passWithNoTests: true,
      // The same seed must send the same requests: suites run in name order, never by timing.
      sequence: { shuffle: false, concurrent: false, sequencer: NameOrder },
      cache: false,
    },
    { logLevel: 'silent', clearScreen: false },
  );
  await vitest.close();
  return { checks };
}

class NameOrder implements TestSequencer {
  shard(files: TestSpecification[]): TestSpecification[] {
    return files;
  }
  sort(files: TestSpecification[]): TestSpecification[] {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

/** A test that ended without recording its check (killed by a timeout, say): never lost, an error. */
function lostCheck(test: TestCase): CheckResult {
  const [id = test.name, ...rest] = test.name.split(' ');
  const subject = rest.join(' ').replace(/^\[|\]$/g, '');
  // A failed setup hook leaves its error on the enclosing suite, not on the tests it skipped.
  const errors = [...(test.result().errors ?? [])];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) errors.push(...parent.errors());
  return {
    id,
    ...(subject ? { subject } : {}),
    clause: 'Harness',
    title: test.name,
    severity: 'must',
    outcome: 'error',
    message: `the check ended without a result: ${errors.map((e) => e.message).join('; ') || test.result().state}`,
    suite: suiteOf(test.module.moduleId),
    durationMs: test.diagnostic()?.duration ?? 0,
    evidence: null,
  };
}

function harnessError(suite: string, message: string): CheckResult {
  return {
    id: 'harness.suite-error',
    clause: 'Harness',
    title: 'A suite could not run to the end',
    severity: 'must',
    outcome: 'error',
    message,
    suite,
    durationMs: 0,
    evidence: null,
  };
}
