// Fixed-window rate limiting per bucket (one bucket per API key, plus one for anonymous callers),
// with a minute window and a day window whose lengths come from config.
//
// Why these choices. Windows are aligned to the Unix epoch (start = floor(now / len) * len), so
// every bucket's window ends on the same whole second and X-RateLimit-Reset is simply that end.
// Only requests that are let through consume quota: a 429 costs nothing, otherwise a client that
// is already blocked would push its own recovery further out. The three headers describe one
// window, the *binding* one: the window with fewer requests remaining (on a tie the day window,
// since the minute window resetting would free nothing), and for a 429 the window that blocks
// (the day window when both do, as it lifts last). So Limit is the per-minute quota most of the
// time and the per-day quota once the day's remainder is the tighter constraint.
// Retry-After is delta-seconds, the ceiling of the time until the blocking window ends, at least 1.
// Two legal variations change this: refused requests counted too, and Retry-After given as the
// HTTP-date of the window end, which is then also the moment the client may come back.
import type { PlanQuota } from '../../lib/plans.ts';

export interface WindowLengths {
  /** Seconds. */
  minute: number;
  /** Seconds. */
  day: number;
}

export interface RateDecision {
  allowed: boolean;
  /** X-RateLimit-Limit: the quota of the binding window. */
  limit: number;
  /** X-RateLimit-Remaining, never negative. */
  remaining: number;
  /** X-RateLimit-Reset: end of the binding window, Unix seconds. */
  reset: number;
  /** Retry-After in seconds; set only when the request is refused. */
  retryAfter?: number;
  /** True when the request came before a Retry-After previously given to this bucket had passed. */
  earlyRetry: boolean;
}

interface WindowCount {
  index: number;
  count: number;
}

interface Bucket {
  minute: WindowCount;
  day: WindowCount;
  /** Epoch ms before which the last Retry-After told this bucket not to come back. */
  retryNotBefore: number;
}

interface WindowView {
  quota: number;
  counter: WindowCount;
  /** Window end, Unix seconds. */
  end: number;
}

export interface RateLimiterOptions {
  /** Variation rejected-count-against-quota. */
  countRefused?: boolean;
  /** Variation retry-after-http-date: a refused client may return exactly when the window ends. */
  retryAtWindowEnd?: boolean;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly windows: WindowLengths,
    private readonly now: () => number = Date.now,
    private readonly options: RateLimiterOptions = {},
  ) {}

  /**
   * Admits or refuses one request of `bucketId`. With `enforce: false` the request is counted but
   * never refused (used for anonymous callers, who are answered 401 whatever their count).
   */
  take(bucketId: string, quota: PlanQuota, options: { enforce?: boolean } = {}): RateDecision {
    const nowMs = this.now();
    const bucket = this.bucket(bucketId, nowMs);
    const earlyRetry = nowMs < bucket.retryNotBefore;
    const minute = this.view(bucket.minute, quota.perMinute, this.windows.minute);
    const day = this.view(bucket.day, quota.perDay, this.windows.day);

    const blockedBy = remaining(day) === 0 ? day : remaining(minute) === 0 ? minute : undefined;
    if (blockedBy !== undefined && options.enforce !== false) {
      const retryAfter = Math.max(1, Math.ceil((blockedBy.end * 1000 - nowMs) / 1000));
      bucket.retryNotBefore = this.options.retryAtWindowEnd ? blockedBy.end * 1000 : nowMs + retryAfter * 1000;
      if (this.options.countRefused) {
        bucket.minute.count++;
        bucket.day.count++;
      }
      return { allowed: false, limit: blockedBy.quota, remaining: 0, reset: blockedBy.end, retryAfter, earlyRetry };
    }

    bucket.minute.count++;
    bucket.day.count++;
    const binding = remaining(day) <= remaining(minute) ? day : minute;
    return { allowed: true, limit: binding.quota, remaining: remaining(binding), reset: binding.end, earlyRetry };
  }

  /** The bucket with its windows rolled forward to the ones containing `nowMs`. */
  private bucket(bucketId: string, nowMs: number): Bucket {
    const minuteIndex = Math.floor(nowMs / (this.windows.minute * 1000));
    const dayIndex = Math.floor(nowMs / (this.windows.day * 1000));
    let bucket = this.buckets.get(bucketId);
    if (bucket === undefined) {
      bucket = { minute: { index: minuteIndex, count: 0 }, day: { index: dayIndex, count: 0 }, retryNotBefore: 0 };
      this.buckets.set(bucketId, bucket);
    }
    if (bucket.minute.index !== minuteIndex) bucket.minute = { index: minuteIndex, count: 0 };
    if (bucket.day.index !== dayIndex) bucket.day = { index: dayIndex, count: 0 };
    return bucket;
  }

  private view(counter: WindowCount, quota: number, lengthSeconds: number): WindowView {
    return { quota, counter, end: (counter.index + 1) * lengthSeconds };
  }
}

function remaining(window: WindowView): number {
  return Math.max(0, window.quota - window.counter.count);
}
