// What one entry of the fault catalogue (faults.ts, gathered from faults/) declares.
import type { CheckId } from '../../lib/checks/registry.ts';
import type { ReplyRewrite } from './http.ts';

/** What the harness must show when the fault is on. */
export interface FaultCaught {
  /** The check that must fail. A `should` check fails the run only with --strict. */
  readonly check: CheckId;
  /** The code of that check's failure which shows this fault, where the tests tell it apart by one (faults sharing a server, say). */
  readonly code?: string;
  /**
   * For a relations check: the family of spellings whose answers show it (a relations failure is
   * one kind per code and family: "server-error (query)"), so that faults of one code but of
   * different families are told apart.
   */
  readonly family?: string;
}

export interface FaultDefinition {
  readonly id: string;
  /** The rule the fault breaks, in one line. */
  readonly breaks: string;
  /** The check (and code) that catches it: the harness's tests hold every fault to it. */
  readonly caught: FaultCaught;
  readonly rewrite?: ReplyRewrite;
}
