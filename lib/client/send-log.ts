// Every request the harness sent with each configured key, by when it was sent, and the 429s among
// them that came within the plan's minute quota (lib/rate-limit/within-quota.ts). The client notes
// a request as it goes out, so that requests still in flight are counted; a load's requests,
// recorded after the fact, are noted as they are recorded. Numbers only: a run's worth is small.
import type { WithinQuota } from '../rate-limit/within-quota.ts';
import type { AuthUsed, Exchange } from '../result/model.ts';

/** The configured key a request carried in some form (its own, a near miss, other carriers), by label. */
export function keyLabelOf(auth: AuthUsed): string | undefined {
  return auth.kind === 'none' || auth.kind === 'literal' ? undefined : auth.label;
}

/** A 429 of a key within the plan's minute quota: its exchange, the suite that met it, when it came. */
export interface EarlyRefusal extends WithinQuota {
  seq: number;
  suite: string;
  /** Epoch ms, when the 429 arrived. */
  at: number;
  /** The 429 as recorded (redacted), for the evidence. */
  exchange: Exchange;
}

export class SendLog {
  private readonly sends = new Map<string, number[]>();
  private readonly early = new Map<string, EarlyRefusal[]>();

  /** A request carrying the key labelled `label` went out at `at` (epoch ms). */
  note(label: string, at: number): void {
    const list = this.sends.get(label);
    if (list) list.push(at);
    else this.sends.set(label, [at]);
  }

  /** When every request of the key went out, in the order they were noted. */
  of(label: string): readonly number[] {
    return this.sends.get(label) ?? [];
  }

  refused(label: string, refusal: EarlyRefusal): void {
    this.early.set(label, [...this.refusals(label), refusal]);
  }

  /** The key's 429s within the plan's minute quota so far, in order. */
  refusals(label: string): readonly EarlyRefusal[] {
    return this.early.get(label) ?? [];
  }
}
