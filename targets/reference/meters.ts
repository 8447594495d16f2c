// The counters behind one rate-limit window (rate-limit.ts): a fixed window, aligned to the epoch
// (default) or started by the bucket's first request (variation window-per-key); a token bucket
// (sliding-window); a sliding log (sliding-log). Times are epoch ms; the quota comes with each
// call, since the caller's plan decides it.

/** Tolerance for token-bucket arithmetic in floating point. */
export const EPSILON = 1e-6;

/** One window's count, over a quota given on each call. */
export interface Meter {
  /** X-RateLimit-Reset is capped at one window after the current whole second (see rate-limit.ts). */
  readonly capsReset: boolean;
  /** Requests that may still be made at `nowMs`: fractional for a token bucket, negative when over. */
  left(nowMs: number, quota: number): number;
  /** Takes one request; a token bucket never goes below `floor` requests left. */
  consume(nowMs: number, quota: number, floor: number): void;
  /** Epoch ms from which `left` is at least `needed` (assumed at most the quota). */
  availableAt(nowMs: number, quota: number, needed: number): number;
  /** Epoch ms that X-RateLimit-Reset names after a request let through. */
  resetAt(nowMs: number, quota: number): number;
  /** Gives one request taken back (fault rate-counts-only-success: a request that failed is not counted). */
  giveBack(nowMs: number, quota: number): void;
}

export class FixedWindow implements Meter {
  readonly capsReset = false;
  private start = Number.NEGATIVE_INFINITY;
  private count = 0;

  /**
   * With `fromFirstRequest`, a window starts at the first request after the last one ended;
   * otherwise windows follow one another from the Unix epoch plus `offsetMs` (variation
   * retry-after-fractional-wait: a fraction of a second off the whole second).
   */
  constructor(
    private readonly seconds: number,
    private readonly fromFirstRequest = false,
    private readonly offsetMs = 0,
  ) {}

  left(nowMs: number, quota: number): number {
    this.roll(nowMs);
    return quota - this.count;
  }

  consume(nowMs: number): void {
    this.roll(nowMs);
    this.count++;
  }

  giveBack(nowMs: number): void {
    this.roll(nowMs);
    this.count = Math.max(0, this.count - 1);
  }

  availableAt(nowMs: number, quota: number, needed: number): number {
    return this.left(nowMs, quota) >= needed ? nowMs : this.end();
  }

  /** The end of the window. */
  resetAt(nowMs: number): number {
    this.roll(nowMs);
    return this.end();
  }

  private roll(nowMs: number): void {
    if (nowMs >= this.start && nowMs < this.end()) return;
    const length = this.seconds * 1000;
    this.start = this.fromFirstRequest ? nowMs : Math.floor((nowMs - this.offsetMs) / length) * length + this.offsetMs;
    this.count = 0;
  }

  private end(): number {
    return this.start + this.seconds * 1000;
  }
}

export class TokenBucket implements Meter {
  readonly capsReset = true;
  /** Tokens missing from a full bucket. */
  private used = 0;
  private last: number | undefined;

  /** `refill`: the share of the plan's rate it refills at (below 1 only for fault rate-slow-refill). */
  constructor(
    private readonly seconds: number,
    private readonly refill = 1,
  ) {}

  left(nowMs: number, quota: number): number {
    this.refillTo(nowMs, quota);
    return quota - this.used;
  }

  consume(nowMs: number, quota: number, floor: number): void {
    this.refillTo(nowMs, quota);
    this.used = Math.min(this.used + 1, quota - floor);
  }

  giveBack(nowMs: number, quota: number): void {
    this.refillTo(nowMs, quota);
    this.used = Math.max(0, this.used - 1);
  }

  availableAt(nowMs: number, quota: number, needed: number): number {
    this.refillTo(nowMs, quota);
    const missing = this.used - (quota - needed);
    return missing <= 0 ? nowMs : nowMs + missing / this.ratePerMs(quota);
  }

  /** When the bucket is full again. */
  resetAt(nowMs: number, quota: number): number {
    this.refillTo(nowMs, quota);
    return nowMs + this.used / this.ratePerMs(quota);
  }

  private ratePerMs(quota: number): number {
    return (quota * this.refill) / (this.seconds * 1000);
  }

  private refillTo(nowMs: number, quota: number): void {
    const elapsed = this.last === undefined ? 0 : Math.max(0, nowMs - this.last);
    this.used = Math.max(0, this.used - elapsed * this.ratePerMs(quota));
    if (this.used < EPSILON) this.used = 0;
    this.last = Math.max(this.last ?? nowMs, nowMs);
  }
}

/** Counts the requests taken in the last `seconds`; a request taken at t leaves the window at t + seconds. */
export class SlidingLog implements Meter {
  readonly capsReset = false;
  /** Oldest first, as [epoch ms, requests taken at that ms]: requests in the same ms share an entry. */
  private readonly log: [number, number][] = [];
  private count = 0;

  constructor(private readonly seconds: number) {}

  left(nowMs: number, quota: number): number {
    this.prune(nowMs);
    return quota - this.count;
  }

  consume(nowMs: number): void {
    this.prune(nowMs);
    const newest = this.log.at(-1);
    if (newest !== undefined && newest[0] === nowMs) newest[1]++;
    else this.log.push([nowMs, 1]);
    this.count++;
  }

  giveBack(nowMs: number): void {
    this.prune(nowMs);
    const newest = this.log.at(-1);
    if (newest === undefined) return;
    if (--newest[1] === 0) this.log.pop();
    this.count--;
  }

  availableAt(nowMs: number, quota: number, needed: number): number {
    this.prune(nowMs);
    let excess = this.count - (quota - needed);
    for (const [at, requests] of this.log) {
      if (excess <= 0) break;
      excess -= requests;
      if (excess <= 0) return at + this.seconds * 1000;
    }
    return nowMs;
  }

  /** With none left, when the oldest request leaves (one more would be let through); else when the log is empty. */
  resetAt(nowMs: number, quota: number): number {
    if (this.left(nowMs, quota) < 1) return this.availableAt(nowMs, quota, 1);
    const newest = this.log.at(-1);
    return newest === undefined ? nowMs : newest[0] + this.seconds * 1000;
  }

  private prune(nowMs: number): void {
    const horizon = nowMs - this.seconds * 1000;
    while (this.log.length > 0 && this.log[0]![0] <= horizon) this.count -= this.log.shift()![1];
  }
}
