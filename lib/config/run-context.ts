// What the runner hands to the suites (through vitest's provide/inject). Plain data only.
import type { Target } from './schema.ts';

export interface RunContext {
  target: Target;
  seed: number;
  runs: number;
  allowWrites: boolean;
  allowLoad: boolean;
  soak: boolean;
  /** `should` failures block the verdict like `must` failures (vitest then fails their tests too). */
  strict: boolean;
  maxRequests: number;
  /** Requests the runner sent before the suites (reachability probe). */
  requestsBefore: number;
  /** The suites of this run, in the order they run (absent when vitest runs suite files alone): a suite can tell which come after it. */
  suites?: readonly string[];
  /** Epoch ms: the whole-run time limit. Nothing is sent, and no wait runs, past it. */
  deadline: number;
  /** That limit in seconds from the run's start (budget.maxSeconds, or --soak's). */
  timeLimitSeconds: number;
  /** Print progress lines to the console too (a suite run by vitest alone has no runner to show them). */
  echoProgress: boolean;
  /** --load-segment I/N with --start-at (epoch ms): this runner's share of the rate-limit suite's load. */
  segment?: { index: number; count: number; startAt: number };
  /** The load suite's paced load: a fraction of each plan's per-minute quota, for so many minute windows. */
  pace: PaceSettings;
}

/** Epoch ms the run began (a load segment's: its start time): what the harness sent before it, it does not know. */
export function runStart(run: Pick<RunContext, 'deadline' | 'timeLimitSeconds'>): number {
  return run.deadline - run.timeLimitSeconds * 1000;
}

/** The load suite's paced load (--load-rate, --load-windows). */
export interface PaceSettings {
  /** Fraction of each plan's per-minute quota. */
  fraction: number;
  /** Minute windows to hold it for. */
  windows: number;
}

export const DEFAULT_PACE: PaceSettings = { fraction: 0.9, windows: 2 };

/** With --soak, how long a run may take: long enough to spend a day's quota. */
export const SOAK_LIMIT_SECONDS = 26 * 3600;

/** Prefix of every animal the harness creates, so operators can find them. */
export const CREATED_NAME_PREFIX = 'conformance-harness ';

declare module 'vitest' {
  export interface ProvidedContext {
    run: RunContext;
  }
}
