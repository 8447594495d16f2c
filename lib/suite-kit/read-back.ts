// Reading back what the run wrote. The interface says nothing of read-after-write: a replicated
// store may show an animal created to getPet and listPets only a little later (the reference's
// variation read-lag: up to 1 s). So every check that reads back what it wrote and judges it reads
// again, with backoff (100, 200, 400, 800 ms, then what is left of the bound: 2 s in all), until
// it sees what it wrote or the bound has passed; then the check judges the last answer as before.
// A read that sees it at once costs no wait and no request more; once a read-back has given up
// while none has seen a write late, the store loses writes rather than lags them, and read-backs
// no longer wait. The lag seen is recorded, and
// create-pet.read-after-write-lag (info) says it. Waits are on the clock given (a virtual one in
// tests).
import type { ReadLagSeen } from '../checks/create-pet.ts';
import { type Clock, systemClock } from '../load/clock.ts';

export interface ReadBackOptions {
  /** The first wait after a read that did not see the write; each next one is twice the last. */
  firstWaitMs: number;
  /** The most a read-back waits in all, from its first read. */
  boundMs: number;
}

export const READ_BACK: ReadBackOptions = { firstWaitMs: 100, boundMs: 2000 };

export class ReadBack {
  private reads = 0;
  private waited = 0;
  private largestMs = 0;
  private largestNotYetMs = 0;
  private gaveUp = 0;
  private notWaited = 0;

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
    if (this.gaveUp > 0 && this.waited === 0) {
      this.notWaited += 1;
      return answer;
    }
    let waitMs = this.options.firstWaitMs;
    let waitedMs = 0;
    let notYet = 0;
    while (waitedMs < this.options.boundMs) {
      const ms = Math.min(waitMs, this.options.boundMs - waitedMs);
      await this.clock.sleep(ms);
      waitedMs += ms;
      waitMs *= 2;
      const at = this.clock.now() - start;
      answer = await read();
      if (visible(answer)) {
        this.waited += 1;
        if (at > this.largestMs) [this.largestMs, this.largestNotYetMs] = [at, notYet];
        return answer;
      }
      notYet = at;
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
    return { reads: this.reads, waited: this.waited, largestMs: this.largestMs, largestNotYetMs: this.largestNotYetMs, gaveUp: this.gaveUp, notWaited: this.notWaited, boundMs: this.options.boundMs };
  }
}
