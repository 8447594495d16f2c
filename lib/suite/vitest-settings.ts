// How vitest runs the conformance suites, the same whether the runner starts it (`npm run
// conformance`) or vitest does on its own (vitest.config.ts, project "conformance"): one worker,
// one file at a time, in name order, so that the budget and the request sequence are shared, a
// target is never hit by two suites at once, and the same seed sends the same requests.
import type { TestSequencer, TestSpecification } from 'vitest/node';
import { SOAK_LIMIT_SECONDS } from './run-context.ts';

/** Files in name order, never by timing. Vitest takes the sequencer from the root config only. */
export class NameOrder implements TestSequencer {
  shard(files: TestSpecification[]): TestSpecification[] {
    return files;
  }
  sort(files: TestSpecification[]): TestSpecification[] {
    // The rate-limit suite spends the keys' quotas: it goes last, so no other suite waits them out.
    const last = (f: TestSpecification) => Number(f.moduleId.endsWith(`${LAST_SUITE}.suite.ts`));
    return [...files].sort((a, b) => last(a) - last(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export const SUITE_FILES = 'suites/*.suite.ts';

/** The suite run after all others, whatever its name. */
const LAST_SUITE = 'rate-limit';

export function suiteTestSettings(soak: boolean) {
  return {
    include: [SUITE_FILES],
    pool: 'forks' as const,
    isolate: false,
    fileParallelism: false,
    maxWorkers: 1,
    // Checks may wait out a Retry-After; the run's own limits bound them, not vitest.
    testTimeout: 15 * 60_000,
    // A suite's preparation may wait out real windows (the rate-limit suite: two minutes), and
    // with --soak a whole day's quota.
    hookTimeout: soak ? SOAK_LIMIT_SECONDS * 1000 : 15 * 60_000,
    passWithNoTests: true,
    sequence: { shuffle: false, concurrent: false, sequencer: NameOrder },
  };
}
