// Progress on the console while the suites run, computed from the same events as the report: one
// line when a suite starts, its progress lines and failures as they come, and one line when it
// ends with its checks by outcome and the requests it sent.
import type { OutcomeCounts } from '../result/model.ts';
import type { Style } from '../report/console.ts';
import { checkLabel, findingOf } from '../report/text.ts';
import type { HarnessEvent } from '../suite-kit/events.ts';

export class SuiteProgress {
  private current: { suite: string; started: number; counts: OutcomeCounts } | undefined;
  private readonly requests = new Map<string, number>();

  constructor(
    private readonly say: (line: string) => void,
    private readonly style: Style,
    private readonly now: () => number = Date.now,
  ) {}

  start(suite: string): void {
    this.end();
    this.current = { suite, started: this.now(), counts: { pass: 0, fail: 0, skip: 0, error: 0 } };
    this.say(`▶ ${suite}`);
  }

  readonly event = (event: HarnessEvent): void => {
    switch (event.kind) {
      case 'exchange':
        this.requests.set(event.exchange.suite, (this.requests.get(event.exchange.suite) ?? 0) + 1);
        break;
      case 'check': {
        const c = event.check;
        if (this.current) this.current.counts[c.outcome] += 1;
        if (c.outcome === 'fail' || c.outcome === 'error') this.say(`  ${this.style.red('✗')} ${findingOf(c)} (${checkLabel(c)})`);
        break;
      }
      case 'progress':
        this.say(`  ${event.line}`);
        break;
      case 'rate-limit':
      case 'paced-load':
        break;
    }
  };

  end(): void {
    if (!this.current) return;
    const { suite, started, counts } = this.current;
    const total = counts.pass + counts.fail + counts.skip + counts.error;
    const parts = Object.entries(counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
    this.say(`  ${suite}: ${total} checks (${parts.join(', ') || 'none'}), ${this.requests.get(suite) ?? 0} requests, ${((this.now() - started) / 1000).toFixed(1)} s`);
    this.current = undefined;
  }
}
