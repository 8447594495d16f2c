// How vitest runs the conformance suites, the same whether the runner starts it (`npm run
// conformance`) or vitest does on its own (vitest.config.ts, project "conformance"): one worker,
// one file at a time, in name order, so that the budget and the request sequence are shared, a
// target is never hit by two suites at once, and the same seed sends the same requests.
import path from 'node:path';
import type { TestSequencer, TestSpecification } from 'vitest/node';
import { SOAK_LIMIT_SECONDS } from '../config/run-context.ts';

/** Files in name order, never by timing. Vitest takes the sequencer from the root config only. */
export class NameOrder implements TestSequencer {
  shard(files: TestSpecification[]): TestSpecification[] {
    return files;
  }
  sort(files: TestSpecification[]): TestSpecification[] {
    const name = (f: TestSpecification) => path.basename(f.moduleId).replace(/\.suite\.[jt]s$/, '');
    return [...files].sort((a, b) => suiteOrder(name(a), name(b)));
  }
}

/** The suites: TypeScript in this repository, JavaScript once built into dist/. */
export const SUITE_FILES = 'suites/*.suite.{ts,js}';

/** Suites that spend the keys' quotas, in the order they run after all the others. */
const SPENDING = ['load', 'rate-limit'];
/** The suite that takes what every other left of the run's budget and of its key's day: after all. */
const LAST = 'relations';

/**
 * The order suites run in: by name, but the suites that spend the keys' quotas last, whatever the
 * names: the paced load (which needs each key's whole quota and leaves it nearly spent), then the
 * rate-limit suite (which exhausts it); no other suite should wait them out, but for the relations
 * suite, which runs after them all: it sends every spelling the budget and its key's day leave
 * (issue 42), so it takes what the others left, waiting out one Retry-After at most to begin.
 * Names compare by code unit, not by the locale's collation: the order (and so the request
 * sequence of a seed) is the same wherever the harness runs, and no collation data is loaded for it.
 */
export function suiteOrder(a: string, b: string): number {
  const late = (s: string) => (s === LAST ? SPENDING.length + 1 : SPENDING.indexOf(s) + 1);
  return late(a) - late(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Suites that run only when named (--suite): the paced load takes minutes of real windows. */
export const NAMED_ONLY: readonly string[] = ['load'];

export function suiteTestSettings(soak: boolean) {
  return {
    include: [SUITE_FILES],
    // A worker thread rather than a child process: the same single worker, in the runner's process,
    // without a second Node process's memory (some 150 MiB on a local run).
    pool: 'threads' as const,
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
