// Runs the conformance suites (vitest files in suites/) through vitest's programmatic API. A
// reporter receives the suites' events (see lib/suite-kit/events.ts) and hands them on in order; a
// test that ended without reporting its check (killed by a timeout, say) and a suite that could
// not run become error results, so nothing is lost.
//
// Memory: vitest runs in this process and the suites in its worker thread (pool 'threads', see
// vitest-settings.ts), and the whole run stays within a few hundred MiB (bench/peak.ts shows where
// it goes): vitest is loaded past tsx's hooks, vite's native bundler is asked to hold no more
// memory than it uses, and V8 favours size over speed while the suites run.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { suiteError } from '../checks/harness.ts';
import { checkById } from '../checks/registry.ts';
import { toCheckResult } from '../checks/to-check-result.ts';
import { CODE_EXT, PROJECT_ROOT } from '../paths.ts';
import type { CheckResult } from '../result/model.ts';
import { type HarnessEvent, isEventsArtifact } from '../suite-kit/events.ts';
import type { RunContext } from '../config/run-context.ts';
import { suiteOrder, suiteTestSettings } from './vitest-settings.ts';

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
      const { events } = artifact;
      // Handed on: vitest need not keep every exchange of the run in its record of the test (the
      // collector logs them to exchanges.jsonl and keeps none).
      artifact.events = [];
      for (const event of events) {
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
  leanHeap();
  await withEnv(LEAN_MIMALLOC, async () => {
    const { startVitest } = await importVitestNode();
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
  });
}

/** A test that ended without recording its check (killed by a timeout, say): never lost, an error. */
function lostCheck(test: TestCase): CheckResult {
  const [id = test.name, ...rest] = test.name.split(' ');
  const subject = rest.join(' ').replace(/^\[|\]$/g, '');
  // A failed setup hook leaves its error on the enclosing suite, not on the tests it skipped.
  const errors = [...(test.result().errors ?? [])];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) errors.push(...parent.errors());
  const message = `the check ended without a result: ${errors.map((e) => e.message).join('; ') || test.result().state}`;
  // The harness's own error (HarnessError) crosses from the worker with its code.
  const code = errors.map((e) => (e as { code?: unknown }).code).find((c): c is string => typeof c === 'string' && c.startsWith('HARNESS_'));
  const def = checkById(id);
  if (!def) return harnessError(test.name, `${test.name}: ${message}`);
  return toCheckResult(def, { outcome: 'error', message, ...(code ? { code } : {}) }, { ...(subject ? { subject } : {}), durationMs: test.diagnostic()?.duration ?? 0, exchanges: [] });
}

function harnessError(subject: string, message: string): CheckResult {
  return toCheckResult(suiteError, suiteError.judge(message), { subject, durationMs: 0, exchanges: [] });
}

/**
 * vitest/node, loaded past tsx. `npm run conformance` runs a bundle of the sources and needs no
 * loader (scripts/from-source.mjs), but run under `--import tsx` (`node --import tsx
 * lib/cli/main.ts`), tsx's loader hooks would take in every module of vitest and vite (megabytes of
 * plain JavaScript that need no TypeScript transform) and keep some 150 MiB for them. tsx's global
 * hooks leave to Node a module whose URL names a tsx namespace, and the modules it imports after
 * it; without tsx, the query only names the module. Nothing else in this process imports
 * vitest/node.
 */
function importVitestNode(): Promise<typeof import('vitest/node')> {
  const url = pathToFileURL(createRequire(import.meta.url).resolve('vitest/node'));
  url.searchParams.set('tsx-namespace', 'vitest');
  return import(url.href) as Promise<typeof import('vitest/node')>;
}

/**
 * vite's bundler (rolldown, which vite uses to transform the suites) allocates with mimalloc,
 * which by default commits its arenas eagerly: some 70 MiB resident for a few transforms. Told
 * through the environment it reads when it is loaded, it commits what it uses and gives freed
 * memory back at once. A value already set is left alone.
 */
const LEAN_MIMALLOC = { MIMALLOC_ARENA_EAGER_COMMIT: '0', MIMALLOC_PURGE_DELAY: '0' };

/** Runs `body` with these environment variables set (unless already set), then puts them back. */
async function withEnv<T>(vars: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const before = Object.keys(vars).map((name) => [name, process.env[name]] as const);
  for (const [name, value] of Object.entries(vars)) process.env[name] ??= value;
  try {
    return await body();
  } finally {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/**
 * V8 favours memory over speed from here on, in this process: a young generation that stays
 * small, old generations grown in smaller steps. Read at each collection (and by the suites'
 * worker thread when it starts), it takes some 40 MiB off this process's peak; a run's wall time
 * stays within its usual spread.
 */
function leanHeap(): void {
  v8.setFlagsFromString('--optimize-for-size');
}
