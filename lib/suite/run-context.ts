// What the runner hands to the suites (through vitest's provide/inject). Plain data only.
import type { Target } from '../config/schema.ts';
import type { CheckResult } from '../result/model.ts';

export interface RunContext {
  target: Target;
  seed: number;
  runs: number;
  allowWrites: boolean;
  allowLoad: boolean;
  soak: boolean;
  maxRequests: number;
  /** Requests the runner sent before the suites (reachability probe). */
  requestsBefore: number;
  /** JSON Lines file every exchange is appended to. */
  exchangeLog: string;
  /** Epoch ms: the whole-run time limit. Nothing is sent, and no wait runs, past it. */
  deadline: number;
}

/** With --soak, how long a run may take: long enough to spend a day's quota. */
export const SOAK_LIMIT_SECONDS = 26 * 3600;

/** Prefix of every animal the harness creates, so operators can find them. */
export const CREATED_NAME_PREFIX = 'conformance-harness ';

declare module 'vitest' {
  export interface ProvidedContext {
    run: RunContext;
  }
}

declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckResult;
  }
}
