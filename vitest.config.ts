// The harness's own tests in four projects, one a tier, each runnable alone (`npx vitest run
// --project unit`); `npm test` runs all four. "unit": pure tests (test/unit/), "clock": the rate
// limits on a virtual clock (test/clock/), "reference": the reference server over real sockets
// (test/reference/), "e2e": the command end to end (test/e2e/). "conformance": the suites in
// suites/, run by vitest alone against the target named in ANIMAL_STORE_TARGET
// (`ANIMAL_STORE_TARGET=local npx vitest run suites/auth.suite.ts`); the runner behind `npm run
// conformance` runs the same suites with the same settings.
import { defineConfig } from 'vitest/config';
import type { TestSpecification } from 'vitest/node';
import { NameOrder, suiteTestSettings } from './lib/runner/vitest-settings.ts';

/**
 * The harness's own test files that take longest (npm test on two cores, issue 42), started first:
 * with two workers, the longest file must not be the last one begun. The rest, and the suites, in
 * name order.
 */
const LONGEST_FIRST = [
  'test/e2e/fault-catalogue.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/action.test.ts',
  'test/e2e/rate-limit.test.ts',
  'test/reference/variations.test.ts',
  'test/e2e/production-safety.test.ts',
  'test/e2e/built-command.test.ts',
  'test/clock/catalogue.test.ts',
];

class LongestFirst extends NameOrder {
  override sort(files: TestSpecification[]): TestSpecification[] {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    return super.sort(files).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Two workers for every tier: the machine has two cores, and vitest runs projects of one run
 * side by side only when their maxWorkers agree (otherwise it refuses them, or, given another
 * sequence.groupOrder, runs one tier after another). So `npm test` schedules every file of the
 * four tiers as one list in name order, as when they were one project.
 */
const MAX_WORKERS = 2;

export default defineConfig({
  test: {
    // The suites must run in name order (the same seed sends the same requests); vitest reads the
    // sequencer from here only: the harness's own tests run in name order too, their longest first.
    sequence: { sequencer: LongestFirst },
    projects: [
      // Milliseconds a test; the slowest (a body dripped a byte at a time) about a second.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], maxWorkers: MAX_WORKERS, testTimeout: 10_000 } },
      // A key's whole run on the virtual clock takes milliseconds; the slowest test about two seconds.
      { test: { name: 'clock', include: ['test/clock/**/*.test.ts'], maxWorkers: MAX_WORKERS, testTimeout: 30_000 } },
      {
        test: {
          name: 'reference',
          include: ['test/reference/**/*.test.ts'],
          maxWorkers: MAX_WORKERS,
          // Real sockets and timers; the slowest test (every variation at once) about ten seconds.
          testTimeout: 60_000,
          hookTimeout: 30_000,
          // The command line's tests start servers as child processes side by side: two at a time, as
          // end-to-end files run their CLI processes, so the other worker's timing is not starved.
          maxConcurrency: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Generous: an end-to-end test runs the CLI, which may wait out a short rate-limit window.
          testTimeout: 120_000,
          hookTimeout: 30_000,
          // Two cores: end-to-end files each start servers and CLI processes.
          maxWorkers: MAX_WORKERS,
          // End-to-end files run a few CLI processes side by side, not more: the machine has two cores.
          maxConcurrency: 2,
        },
      },
      {
        test: {
          name: 'conformance',
          ...suiteTestSettings(false),
          globalSetup: ['lib/runner/vitest-global-setup.ts'],
        },
      },
    ],
  },
});
