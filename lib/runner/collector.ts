// The runner's side of the event channel: everything the suites report arrives here as events,
// in order. The collector keeps what the run result needs (exchanges, checks, rate-limit
// timelines), appends each exchange to exchanges.jsonl as it comes (nothing is lost if the run is
// cut short), and tells the progress display.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { CheckResult, Exchange } from '../result/model.ts';
import type { RateLimitKey } from '../result/rate-limits.ts';
import type { HarnessEvent } from '../suite/events.ts';

export interface EventListener {
  (event: HarnessEvent): void;
}

export class RunCollector {
  readonly exchanges: Exchange[] = [];
  readonly checks: CheckResult[] = [];
  readonly rateLimits: RateLimitKey[] = [];

  /** The exchange log, open for the whole run: one write per exchange, not an open and a close. */
  private log: number | undefined;

  constructor(
    /** JSON Lines file of every exchange; created empty. */
    exchangeLog: string,
    private readonly listener: EventListener = () => {},
  ) {
    this.log = openSync(exchangeLog, 'w');
  }

  /** Closes the exchange log; exchanges that still arrive are kept, no longer logged. */
  close(): void {
    if (this.log !== undefined) closeSync(this.log);
    this.log = undefined;
  }

  readonly add = (event: HarnessEvent): void => {
    switch (event.kind) {
      case 'exchange':
        this.exchanges.push(event.exchange);
        if (this.log !== undefined) writeSync(this.log, `${JSON.stringify(event.exchange)}\n`);
        break;
      case 'check':
        this.checks.push(event.check);
        break;
      case 'rate-limit':
        this.rateLimits.push(event.key);
        break;
      case 'progress':
        break;
    }
    this.listener(event);
  };
}
