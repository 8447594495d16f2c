// The accepted requests of every key over the whole run, whichever suite sent them: the server's
// second of each (its Date, else when the answer came). The day's quota is counted from it, so
// requests of the functional suites, the paced load and the rate-limit suite's own bursts all
// count in the day window they fell in. Numbers only: a run's worth is small.
import type { Exchange } from '../result/model.ts';
import { serverSecond } from '../rate-limit/vocabulary.ts';

export class AcceptedLedger {
  private readonly seconds = new Map<string, number[]>();

  /** Takes every exchange of the run; keeps the accepted ones sent with a configured key. */
  readonly add = (e: Exchange): void => {
    if (e.status === undefined || e.status < 200 || e.status >= 300) return;
    const label = e.auth.kind === 'key' || e.auth.kind === 'key-in-query' ? e.auth.label : undefined;
    if (label === undefined) return;
    const t = Date.parse(e.startedAt) + e.durationMs;
    const list = this.seconds.get(label);
    const second = serverSecond(t, e.responseHeaders.date);
    if (list) list.push(second);
    else this.seconds.set(label, [second]);
  };

  /** The server seconds of the key's accepted requests so far, in the order they came. */
  of(label: string): number[] {
    return [...(this.seconds.get(label) ?? [])];
  }
}
