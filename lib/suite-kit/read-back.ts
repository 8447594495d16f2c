// Reading back what the run wrote. The interface says nothing of read-after-write: a replicated
// store may show an animal created to getPet and listPets only a little later (the reference's
// variation read-lag: up to 1 s). So every check that reads back what it wrote and judges it reads
// again, with backoff (100, 200, 400, 800 ms, then what is left of the bound: 2 s in all), until
// it sees what it wrote or the bound has passed; then the check judges the last answer as before.
// A read that sees it at once costs no wait and no request more. The lag seen is recorded, and
// create-pet.read-after-write-lag (info) says it. Waits are on the clock given (a virtual one in
// tests).
import { type Clock, systemClock } from '../load/clock.ts';

export interface ReadBackOptions {
  /** The first wait after a read that did not see the write; each next one is twice the last. */
  firstWaitMs: number;
  /** The most a read-back waits in all, from its first read. */
  boundMs: number;
}

export const READ_BACK: ReadBackOptions = { firstWaitMs: 100, boundMs: 2000 };

/** What the run's read-backs saw so far. */
export interface ReadLagSeen {
  /** Read-backs made (each one or more reads). */
  reads: number;
  /** Of those, how many saw the write only after waiting. */
  waited: number;
  /** The longest a read-back waited before it saw the write, ms (0: none waited). */
  largestMs: number;
  /** Read-backs that never saw the write within the bound: their checks judged the last answer. */
  gaveUp: number;
  /** The bound of a read-back, ms. */
  boundMs: number;
}

export class ReadBack {
  private reads = 0;
  private waited = 0;
  private largestMs = 0;
  private gaveUp = 0;

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly options: ReadBackOptions = READ_BACK,
  ) {}

  /**
   * Reads until `visible` says the answer shows what was written, waiting between reads, or until
   * the bound has passed: the last answer either way. Without a wait when the first answer shows it.
   */
  async until<T>(read: () => Promise<T>, visible: (answer: T) => boolean): Promise<T> {
    this.reads += 1;
    const start = this.clock.now();
    let answer = await read();
    if (visible(answer)) return answer;
    let waitMs = this.options.firstWaitMs;
    let waitedMs = 0;
    while (waitedMs < this.options.boundMs) {
      const ms = Math.min(waitMs, this.options.boundMs - waitedMs);
      await this.clock.sleep(ms);
      waitedMs += ms;
      waitMs *= 2;
      const at = this.clock.now();
      answer = await read();
      if (visible(answer)) {
        this.waited += 1;
        this.largestMs = Math.max(this.largestMs, at - start);
        return answer;
      }
    }
    this.gaveUp += 1;
    return answer;
  }

  /**
   * Before a read that must NOT find something the run sent (a refused create stored nothing):
   * once the run has seen reads lag, waits until the largest lag seen has passed since `since`
   * (epoch ms on this clock, when the request was answered; default now), so that a write the store did make
   * would show. Where no read-back has waited (every write visible at once, or none read back
   * yet), it does not wait: waiting the whole bound on every run would cost every target time
   * for a behaviour few have. Returns the ms waited.
   */
  async settle(since: number = this.clock.now()): Promise<number> {
    if (this.largestMs === 0) return 0;
    const ms = Math.max(0, since + this.largestMs - this.clock.now());
    if (ms > 0) await this.clock.sleep(ms);
    return ms;
  }

  seen(): ReadLagSeen {
    return { reads: this.reads, waited: this.waited, largestMs: this.largestMs, gaveUp: this.gaveUp, boundMs: this.options.boundMs };
  }
}
