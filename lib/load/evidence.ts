// What a load's failures are shown with, per key: its first two exchanges, its first 429 with the
// two before it, and its last. Kept as the exchanges come, never every exchange of a load.
import type { Exchange } from '../result/exchange.ts';

interface Kept {
  first: Exchange[];
  /** The last two before the first 429 (until it comes). */
  recent: Exchange[];
  first429?: Exchange[];
  last?: Exchange;
}

export class LoadEvidence {
  private readonly keys = new Map<string, Kept>();

  /** Takes an exchange of the run; those sent with a configured key are kept as above. */
  readonly add = (e: Exchange): void => {
    if (e.auth.kind !== 'key') return;
    let k = this.keys.get(e.auth.label);
    if (!k) this.keys.set(e.auth.label, (k = { first: [], recent: [] }));
    if (k.first.length < 2) k.first.push(e);
    if (!k.first429) {
      if (e.status === 429) k.first429 = [...k.recent, e];
      else k.recent = [...k.recent.slice(-1), e];
    }
    k.last = e;
  };

  /** The key's evidence in the order sent, each exchange once. */
  of(label: string): Exchange[] {
    const k = this.keys.get(label);
    if (!k) return [];
    const all = [...k.first, ...(k.first429 ?? []), ...(k.last ? [k.last] : [])];
    return [...new Map(all.map((e) => [e.seq, e])).values()].sort((a, b) => a.seq - b.seq);
  }
}
