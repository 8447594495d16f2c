// The runner's side of the event channel: everything the suites report arrives here as events,
// in order. The collector keeps what the run result needs (checks, rate-limit timelines, the
// status and suite of each request), appends each exchange to exchanges.jsonl as it comes (nothing
// is lost if the run is cut short), and tells the progress display. The exchanges themselves, with
// their bodies, are not kept in memory while the suites run: the run-level checks read them back
// from the log afterwards.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { CheckResult } from '../result/model.ts';
import type { Exchange } from '../result/exchange.ts';
import type { PacedLoadSection } from '../result/paced-load.ts';
import type { RateLimitKey } from '../result/rate-limits.ts';
import type { HarnessEvent } from '../suite-kit/events.ts';

export interface EventListener {
  (event: HarnessEvent): void;
}

export class RunCollector {
  /** The status and suite of every exchange, in order: what the request counts need. */
  readonly requests: Pick<Exchange, 'status' | 'suite'>[] = [];
  readonly checks: CheckResult[] = [];
  readonly rateLimits: RateLimitKey[] = [];
  pacedLoad: PacedLoadSection | undefined;

  /** The exchange log, open for the whole run: one write per exchange, not an open and a close. */
  private log: number | undefined;
  /** Exchanges that came after the log was closed: kept here, the log does not have them. */
  private readonly unlogged: Exchange[] = [];

  constructor(
    /** JSON Lines file of every exchange; created empty. */
    private readonly exchangeLog: string,
    private readonly listener: EventListener = () => {},
  ) {
    this.log = openSync(exchangeLog, 'w');
  }

  /** Closes the exchange log; exchanges that still arrive are kept, no longer logged. */
  close(): void {
    if (this.log !== undefined) closeSync(this.log);
    this.log = undefined;
  }

  /** Every exchange so far, in order: read back from the log, then those that came after it was closed. */
  exchanges(): Exchange[] {
    const logged = readFileSync(this.exchangeLog, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Exchange);
    return [...logged, ...this.unlogged];
  }

  readonly add = (event: HarnessEvent): void => {
    switch (event.kind) {
      case 'exchange': {
        const { status, suite } = event.exchange;
        this.requests.push({ status, suite });
        if (this.log !== undefined) writeSync(this.log, `${JSON.stringify(event.exchange)}\n`);
        else this.unlogged.push(event.exchange);
        break;
      }
      case 'check':
        this.checks.push(event.check);
        break;
      case 'rate-limit':
        this.rateLimits.push(event.key);
        break;
      case 'paced-load':
        this.pacedLoad = event.load;
        break;
      case 'progress':
        break;
    }
    this.listener(event);
  };
}
