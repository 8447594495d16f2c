// The harness's own errors: one class per failure mode, each with a stable code. A finding about
// the target is never one of these (see lib/checks); these say the harness could not do its job.

export const EXIT = { conformant: 0, notConformant: 1, usage: 2, unreachable: 3 } as const;

export abstract class HarnessError extends Error {
  abstract readonly code: string;
  /** Exit status when this error ends the run. */
  readonly exitCode: number = EXIT.notConformant;
}

/** Bad command-line arguments. */
export class UsageError extends HarnessError {
  readonly code = 'HARNESS_USAGE';
  override readonly exitCode = EXIT.usage;
}

/** A target config that cannot be used; `field` is the path (or variable) at fault. */
export class ConfigError extends HarnessError {
  readonly code = 'HARNESS_CONFIG';
  override readonly exitCode = EXIT.usage;
  constructor(
    message: string,
    readonly source: string,
    readonly problems: readonly { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** Nothing answered at the target's address, or its start command never became ready. */
export class TargetUnreachableError extends HarnessError {
  readonly code = 'HARNESS_TARGET_UNREACHABLE';
  override readonly exitCode = EXIT.unreachable;
}

/** The run's request budget is spent: the check that needed more is skipped, not failed. */
export class BudgetExhaustedError extends HarnessError {
  readonly code = 'HARNESS_BUDGET_EXHAUSTED';
  constructor(readonly maxRequests: number) {
    super(`request budget of ${maxRequests} is spent (budget.maxRequests / --max-requests)`);
  }
}

/** A request that got no complete HTTP response: refused, reset, timed out. */
export class TransportError extends HarnessError {
  readonly code = 'HARNESS_TRANSPORT';
  constructor(
    message: string,
    /** The underlying code, e.g. ECONNREFUSED or UND_ERR_HEADERS_TIMEOUT. */
    readonly cause_code: string,
  ) {
    super(message);
  }
}

/** The whole-run time limit (budget.maxSeconds) is reached: nothing more is sent. */
export class RunTimeLimitError extends HarnessError {
  static readonly CODE = 'HARNESS_RUN_TIME_LIMIT';
  readonly code = RunTimeLimitError.CODE;
}

/** The target stopped answering: after several requests in a row got no response, no more are sent. */
export class TargetGoneError extends HarnessError {
  readonly code = 'HARNESS_TARGET_GONE';
}

/**
 * A key's limiter refused it within the plan's minute quota, more than once: the client no longer
 * waits out its 429s one request at a time (rate-limit.quota judges the limiter).
 */
export class RefusedWithinQuotaError extends HarnessError {
  readonly code = 'HARNESS_REFUSED_WITHIN_QUOTA';
}

/** The target kept answering 429 (or asked for a longer wait than allowed) beyond the retry policy. */
export class RateLimitedError extends HarnessError {
  readonly code = 'HARNESS_RATE_LIMITED';
}

/** A suite's groundwork ended with an error: the checks it left unjudged carry its code. */
export class SuiteCutShort extends HarnessError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export function describeError(err: unknown): string {
  if (err instanceof HarnessError) return `${err.code}: ${err.message}`;
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
