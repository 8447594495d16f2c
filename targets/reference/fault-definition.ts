// What one entry of the fault catalogue (faults.ts, gathered from faults/) declares.
import type { ReplyRewrite } from './http.ts';

export interface FaultDefinition {
  readonly id: string;
  /** The rule the fault breaks, in one line. */
  readonly breaks: string;
  readonly rewrite?: ReplyRewrite;
}
