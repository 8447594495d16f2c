// The clock every piece of code that waits takes as a parameter: the system's in the harness, a
// virtual one in tests (test/support/virtual-clock.ts), so that waiting out a minute window costs
// no real time there.
export interface Clock {
  /** Epoch ms. */
  now(): number;
  /** Resolves once `ms` have passed on this clock (at once for 0 or less). */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
