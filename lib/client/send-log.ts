// Every request the client sent with each configured key, and when its answer came, and the 429s
// among them that came within the plan's minute quota (lib/rate-limit/within-quota.ts). The client
// notes a request as it goes out, so that a 429 is judged with the requests still in flight beside
// it (the run's ledger, lib/worker/ledger.ts, learns of a request only once it is recorded); a
// load's requests, recorded after the fact, are noted as they are recorded. Numbers only.
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
  private readonly sends = new Map<string, { answeredAt?: number }[]>();
  private readonly early = new Map<string, EarlyRefusal[]>();

  /** A request carrying the key labelled `label` goes out; call the function returned when its answer (or its lack of one) comes at `at`. */
  note(label: string): (at: number) => void {
    const entry: { answeredAt?: number } = {};
    const list = this.sends.get(label);
    if (list) list.push(entry);
    else this.sends.set(label, [entry]);
    return (at) => {
      entry.answeredAt = at;
    };
  }

  /** For every request of the key so far, the latest moment a limiter may have counted it: its answer's arrival, or (still in flight) later than any. */
  counted(label: string): number[] {
    return (this.sends.get(label) ?? []).map((e) => e.answeredAt ?? Number.POSITIVE_INFINITY);
  }

  refused(label: string, refusal: EarlyRefusal): void {
    this.early.set(label, [...this.refusals(label), refusal]);
  }

  /** The key's 429s within the plan's minute quota so far, in order. */
  refusals(label: string): readonly EarlyRefusal[] {
    return this.early.get(label) ?? [];
  }
}
