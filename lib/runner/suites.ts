// Runs the conformance suites (vitest files in suites/) through vitest's programmatic API. A
// reporter receives the suites' events (see lib/suite/events.ts) and hands them on in order; a
// test that ended without reporting its check (killed by a timeout, say) and a suite that could
// not run become error results, so nothing is lost.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { startVitest } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { suiteError } from '../checks/harness.ts';
import { checkById } from '../checks/registry.ts';
import { toCheckResult } from '../checks/result.ts';
import { CODE_EXT, PROJECT_ROOT } from '../paths.ts';
import type { CheckResult } from '../result/model.ts';
import { type HarnessEvent, isEventsArtifact } from '../suite/events.ts';
import type { RunContext } from '../suite/run-context.ts';
import { suiteOrder, suiteTestSettings } from '../suite/vitest-settings.ts';

export const SUITES_DIR = path.join(PROJECT_ROOT, 'suites');
/** auth.suite.ts, or auth.suite.js once built. */
const SUITE_SUFFIX = `.suite${CODE_EXT}`;

/** Suite names, from the files in suites/ (auth.suite.ts is "auth"), in the order they run. */
export function listSuites(): string[] {
  return readdirSync(SUITES_DIR)
    .filter((f) => f.endsWith(SUITE_SUFFIX))
    .map((f) => f.slice(0, -SUITE_SUFFIX.length))
    .sort(suiteOrder);
}

export interface SuiteHooks {
  /** Every event, in the order the suites sent them. */
  onEvent(event: HarnessEvent): void;
  onSuiteStart?(suite: string): void;
  onSuiteEnd?(suite: string): void;
  /** Run only this check's tests (vitest's test name filter); the others are left out, not lost. */
  onlyCheck?: string;
}

const suiteOf = (moduleId: string) => path.basename(moduleId, SUITE_SUFFIX);

export async function runSuites(run: RunContext, suites: readonly string[], hooks: SuiteHooks): Promise<void> {
  const reported = new Set<string>();
  const check = (result: CheckResult) => hooks.onEvent({ kind: 'check', check: result });
  const reporter: Reporter = {
    onTestModuleStart: (m: TestModule) => hooks.onSuiteStart?.(suiteOf(m.moduleId)),
    onTestModuleEnd: (m: TestModule) => hooks.onSuiteEnd?.(suiteOf(m.moduleId)),
    onTestCaseArtifactRecord: (test, artifact) => {
      if (!isEventsArtifact(artifact)) return;
      for (const event of artifact.events) {
        if (event.kind === 'check') reported.add(test.id);
        hooks.onEvent(event);
      }
    },
    onTestCaseResult: (test: TestCase) => {
      if (reported.has(test.id) || (hooks.onlyCheck && test.result().state === 'skipped')) return;
      check(lostCheck(test));
    },
    onTestRunEnd: (modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>) => {
      for (const m of modules) {
        for (const e of m.errors()) check(harnessError(`suite ${suiteOf(m.moduleId)}`, `suite ${suiteOf(m.moduleId)} could not run: ${e.message}`));
      }
      for (const e of errors) check(harnessError('the suites', `unhandled error in the suites: ${e.message}`));
    },
  };

  const files = suites.map((s) => path.join(SUITES_DIR, `${s}${SUITE_SUFFIX}`));
  const vitest = await startVitest(
    'test',
    files,
    {
      ...suiteTestSettings(run.soak),
      root: PROJECT_ROOT,
      config: false,
      watch: false,
      reporters: [reporter],
      provide: { run },
      cache: false,
      // Test names are "<id>" or "<id> [<subject>]", after their describe blocks' titles.
      ...(hooks.onlyCheck ? { testNamePattern: new RegExp(`(^| )${hooks.onlyCheck.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\[|$)`) } : {}),
    },
    { logLevel: 'silent', clearScreen: false },
  );
  await vitest.close();
}

/** A test that ended without recording its check (killed by a timeout, say): never lost, an error. */
function lostCheck(test: TestCase): CheckResult {
  const [id = test.name, ...rest] = test.name.split(' ');
  const subject = rest.join(' ').replace(/^\[|\]$/g, '');
  // A failed setup hook leaves its error on the enclosing suite, not on the tests it skipped.
  const errors = [...(test.result().errors ?? [])];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) errors.push(...parent.errors());
  const message = `the check ended without a result: ${errors.map((e) => e.message).join('; ') || test.result().state}`;
  const def = checkById(id);
  if (!def) return harnessError(test.name, `${test.name}: ${message}`);
  return toCheckResult(def, { outcome: 'error', message }, { ...(subject ? { subject } : {}), durationMs: test.diagnostic()?.duration ?? 0, exchanges: [] });
}

function harnessError(subject: string, message: string): CheckResult {
  return toCheckResult(suiteError, suiteError.judge(message), { subject, durationMs: 0, exchanges: [] });
}
