// A clock for tests of code that waits: time stands still while anything can still happen, and
// moves to the next timer only when everything is waiting. A minute window costs no real time.
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { Clock } from '../../lib/load/clock.ts';

interface Timer {
  at: number;
  seq: number;
  resolve(): void;
}

export class VirtualClock implements Clock {
  private t: number;
  private readonly timers: Timer[] = [];
  private seq = 0;
  /** Timers fired so far: how many waits the code under test made. */
  fired = 0;

  constructor(start: number) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.timers.push({ at: this.t + Math.max(0, ms), seq: this.seq++, resolve }));
  }

  /**
   * Runs `main` to its end, moving time to the next timer whenever nothing else can happen. Fails
   * when nothing is scheduled and `main` has not ended (it waits on a real timer or socket), or
   * when time would pass `limitMs` from now.
   */
  async run<T>(main: () => Promise<T>, limitMs = 7 * 86_400_000): Promise<T> {
    let settled: { value: T } | { error: unknown } | undefined;
    main().then(
      (value) => (settled = { value }),
      (error: unknown) => (settled = { error }),
    );
    const end = this.t + limitMs;
    while (!settled) {
      // Promise chains run out before a macrotask; a few rounds let stream callbacks finish too.
      for (let i = 0; i < 3 && !settled; i++) await yieldToOthers();
      if (settled) break;
      if (this.timers.length === 0) throw new Error('virtual clock: nothing is scheduled and the work has not ended (does it wait on a real timer or a socket?)');
      let next = 0;
      for (let i = 1; i < this.timers.length; i++) {
        const [a, b] = [this.timers[i]!, this.timers[next]!];
        if (a.at < b.at || (a.at === b.at && a.seq < b.seq)) next = i;
      }
      const timer = this.timers.splice(next, 1)[0]!;
      if (timer.at > end) throw new Error(`virtual clock: the work would run past ${limitMs} ms`);
      this.t = Math.max(this.t, timer.at);
      this.fired += 1;
      timer.resolve();
    }
    if ('error' in settled) throw settled.error;
    return settled.value;
  }
}
