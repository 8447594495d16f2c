// Rate limiting per bucket (one bucket per API key, plus one for anonymous callers), with a minute
// window and a day window whose lengths come from config; early-retry detection and bans per client.
//
// Why these choices. By default the windows are fixed and aligned to the Unix epoch
// (start = floor(now / len) * len), so every bucket's window ends on the same whole second and
// X-RateLimit-Reset is simply that end. Only requests that are let through consume quota: a 429
// costs nothing, otherwise a client that is already blocked would push its own recovery further
// out. The three headers describe one window, the *binding* one: the window with fewer requests
// remaining (on a tie the day window, since the minute window resetting would free nothing), and
// for a 429 the window that blocks (the one that lifts last, the day window on a tie). So Limit
// is the per-minute quota most of the time and the per-day quota once the day's remainder is the
// tighter constraint. Retry-After is delta-seconds, the ceiling of the time until the blocking
// window lets a request through again, at least 1.
//
// Variation sliding-window swaps each fixed window for a token bucket (capacity = quota, refilled
// continuously at quota / window length per second); the decision logic is the same, over a
// `Meter` either way. Reset never lies more than one window after the current whole second, so a
// token bucket's "full again" time is capped there (it is at most a fraction of a second later).
//
// Early retries. The limiter remembers, per client, until when the last Retry-After told it to
// wait. By default that is what the limiter itself computed; the handler replaces it with what was
// actually sent (`noteRetryAfter`), after variations and faults have rewritten the reply, so an
// HTTP-date, a shortened or a missing Retry-After is judged by what the client was told.
import type { PlanQuota } from '../../lib/plans.ts';

export interface WindowLengths {
  /** Seconds. */
  minute: number;
  /** Seconds. */
  day: number;
}

export interface RateDecision {
  allowed: boolean;
  /** X-RateLimit-Limit: the quota of the window the headers describe. */
  limit: number;
  /** X-RateLimit-Remaining, never negative. */
  remaining: number;
  /** X-RateLimit-Reset, Unix seconds: when the described window ends (fixed) or is full again (bucket). */
  reset: number;
  /** Length in seconds of the window the headers describe. */
  windowSeconds: number;
  /** Retry-After in seconds, at least 1; set only when the request is refused. */
  retryAfter?: number;
  /** Epoch ms from which a request would be let through again; set only when refused. */
  retryAtMs?: number;
  /** Requests refused in a row for this client, this one included; 0 when let through. */
  refusedInARow: number;
  /** Refused because the client is banned (variation ban-after-ignoring-429). */
  banned: boolean;
  /** This request started a ban. */
  banStarted: boolean;
  /** True when the request came before a Retry-After previously given to this client had passed. */
  earlyRetry: boolean;
  /** The clock reading the decision was made at, epoch ms. */
  at: number;
}

export interface RateLimiterOptions {
  /** Variation rejected-count-against-quota: refused requests consume quota too. */
  countRefused?: boolean;
  /** Variation sliding-window: token buckets instead of fixed windows. */
  tokenBucket?: boolean;
  /** Variation ban-after-ignoring-429: this many early retries in a row ban the key for one minute window. */
  banAfterEarlyRetries?: number;
  /** Fault rate-one-too-many: requests accepted per minute window beyond the quota (headers still say the quota). */
  extraPerMinute?: number;
  /** Fault rate-daily-not-enforced (false): the day window is neither counted, enforced nor reported. */
  enforceDay?: boolean;
}

export interface TakeOptions {
  /** false: counted but never refused (anonymous callers, who always get 401). Default true. */
  enforce?: boolean;
  /** The counters to use; default the client's own. Fault rate-shared-bucket passes one id for every key. */
  bucket?: string;
}

/** Tolerance for token-bucket arithmetic in floating point. */
const EPSILON = 1e-6;

/** One window's count, over a quota given on each call. */
interface Meter {
  /** Requests that may still be made at `nowMs`: fractional for a token bucket, negative when over. */
  left(nowMs: number, quota: number): number;
  /** Takes one request; a token bucket never goes below `floor` requests left. */
  consume(nowMs: number, quota: number, floor: number): void;
  /** Epoch ms from which `left` is at least `needed` (assumed at most the quota). */
  availableAt(nowMs: number, quota: number, needed: number): number;
  /** Epoch ms at which the whole quota is available again. */
  fullAt(nowMs: number, quota: number): number;
}

class FixedWindow implements Meter {
  private index = Number.NEGATIVE_INFINITY;
  private count = 0;

  constructor(private readonly seconds: number) {}

  left(nowMs: number, quota: number): number {
    this.roll(nowMs);
    return quota - this.count;
  }

  consume(nowMs: number): void {
    this.roll(nowMs);
    this.count++;
  }

  availableAt(nowMs: number, quota: number, needed: number): number {
    return this.left(nowMs, quota) >= needed ? nowMs : this.end();
  }

  fullAt(nowMs: number): number {
    this.roll(nowMs);
    return this.end();
  }

  private roll(nowMs: number): void {
    const index = Math.floor(nowMs / (this.seconds * 1000));
    if (index !== this.index) {
      this.index = index;
      this.count = 0;
    }
  }

  private end(): number {
    return (this.index + 1) * this.seconds * 1000;
  }
}

class TokenBucket implements Meter {
  /** Tokens missing from a full bucket. */
  private used = 0;
  private last: number | undefined;

  constructor(private readonly seconds: number) {}

  left(nowMs: number, quota: number): number {
    this.refill(nowMs, quota);
    return quota - this.used;
  }

  consume(nowMs: number, quota: number, floor: number): void {
    this.refill(nowMs, quota);
    this.used = Math.min(this.used + 1, quota - floor);
  }

  availableAt(nowMs: number, quota: number, needed: number): number {
    this.refill(nowMs, quota);
    const missing = this.used - (quota - needed);
    return missing <= 0 ? nowMs : nowMs + missing / this.ratePerMs(quota);
  }

  fullAt(nowMs: number, quota: number): number {
    this.refill(nowMs, quota);
    return nowMs + this.used / this.ratePerMs(quota);
  }

  private ratePerMs(quota: number): number {
    return quota / (this.seconds * 1000);
  }

  private refill(nowMs: number, quota: number): void {
    const elapsed = this.last === undefined ? 0 : Math.max(0, nowMs - this.last);
    this.used = Math.max(0, this.used - elapsed * this.ratePerMs(quota));
    if (this.used < EPSILON) this.used = 0;
    this.last = Math.max(this.last ?? nowMs, nowMs);
  }
}

interface Bucket {
  minute: Meter;
  day: Meter;
}

interface ClientState {
  /** Epoch ms before which the last Retry-After told this client not to come back. */
  retryNotBefore: number;
  refusedInARow: number;
  /** Early retries in a row (variation ban-after-ignoring-429). */
  earlyInARow: number;
  /** Epoch ms at which the current ban ends; 0 when never banned. */
  bannedUntil: number;
}

/** A meter with the quota, length and allowance it is judged by for one request. */
interface WindowView {
  meter: Meter;
  quota: number;
  seconds: number;
  /** Requests accepted beyond the quota (fault rate-one-too-many). */
  extra: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clients = new Map<string, ClientState>();

  constructor(
    private readonly windows: WindowLengths,
    private readonly now: () => number = Date.now,
    private readonly options: RateLimiterOptions = {},
  ) {}

  /**
   * Admits or refuses one request of `clientId`. With `enforce: false` the request is counted but
   * never refused (used for anonymous callers, who are answered 401 whatever their count).
   */
  take(clientId: string, quota: PlanQuota, options: TakeOptions = {}): RateDecision {
    const at = this.now();
    const client = this.client(clientId);
    const views = this.views(options.bucket ?? clientId, quota);
    const earlyRetry = at < client.retryNotBefore;
    const enforce = options.enforce !== false;
    const base = { at, earlyRetry, banned: false, banStarted: false };

    const banAfter = this.options.banAfterEarlyRetries;
    if (enforce && banAfter !== undefined) {
      let banStarted = false;
      if (at >= client.bannedUntil) {
        client.earlyInARow = earlyRetry ? client.earlyInARow + 1 : 0;
        if (client.earlyInARow >= banAfter) {
          client.earlyInARow = 0;
          // One minute window after the current whole second: Reset (the ban's end) is then never
          // more than one window after the Date header, and Retry-After agrees with it within 1 s.
          client.bannedUntil = (Math.floor(at / 1000) + this.windows.minute) * 1000;
          banStarted = true;
        }
      }
      if (at < client.bannedUntil) {
        const described = binding(views, at);
        const retryAfter = Math.max(1, Math.ceil((client.bannedUntil - at) / 1000));
        client.retryNotBefore = client.bannedUntil;
        client.refusedInARow++;
        return {
          ...base,
          allowed: false,
          limit: described.quota,
          remaining: 0,
          reset: client.bannedUntil / 1000,
          windowSeconds: this.windows.minute,
          retryAfter,
          retryAtMs: client.bannedUntil,
          refusedInARow: client.refusedInARow,
          banned: true,
          banStarted,
        };
      }
    }

    const blocking = views.filter((v) => v.meter.left(at, v.quota) < 1 - v.extra - EPSILON);
    if (enforce && blocking.length > 0) {
      if (this.options.countRefused) for (const v of views) v.meter.consume(at, v.quota, -v.extra);
      // The window that lifts last describes the refusal; the day window on a tie.
      let blocker = blocking[0]!;
      let retryAtMs = blocker.meter.availableAt(at, blocker.quota, 1 - blocker.extra);
      for (const v of blocking.slice(1)) {
        const time = v.meter.availableAt(at, v.quota, 1 - v.extra);
        if (time >= retryAtMs) [blocker, retryAtMs] = [v, time];
      }
      const retryAfter = Math.max(1, Math.ceil((retryAtMs - at) / 1000 - EPSILON));
      client.retryNotBefore = at + retryAfter * 1000;
      client.refusedInARow++;
      return {
        ...base,
        allowed: false,
        limit: blocker.quota,
        remaining: 0,
        reset: resetSeconds(retryAtMs, blocker, at),
        windowSeconds: blocker.seconds,
        retryAfter,
        retryAtMs,
        refusedInARow: client.refusedInARow,
      };
    }

    for (const v of views) v.meter.consume(at, v.quota, -v.extra);
    client.refusedInARow = 0;
    const described = binding(views, at);
    return {
      ...base,
      allowed: true,
      limit: described.quota,
      remaining: remainingOf(described, at),
      reset: resetSeconds(described.meter.fullAt(at, described.quota), described, at),
      windowSeconds: described.seconds,
      refusedInARow: 0,
    };
  }

  /**
   * Records the Retry-After actually sent to `clientId` with a refusal decided at `atMs`, so that
   * later requests are judged early against what the client was told: delta-seconds (a fraction
   * read leniently), or an HTTP-date. No Retry-After at all means the client was not told to wait;
   * a value that is neither leaves the limiter's own deadline.
   */
  noteRetryAfter(clientId: string, value: string | undefined, atMs: number): void {
    const client = this.client(clientId);
    if (value === undefined) {
      client.retryNotBefore = atMs;
      return;
    }
    const text = value.trim();
    if (/^[0-9]+(\.[0-9]+)?$/.test(text)) {
      client.retryNotBefore = atMs + Number(text) * 1000;
      return;
    }
    const date = Date.parse(text);
    if (!Number.isNaN(date)) client.retryNotBefore = date;
  }

  private client(clientId: string): ClientState {
    let client = this.clients.get(clientId);
    if (client === undefined) {
      client = { retryNotBefore: 0, refusedInARow: 0, earlyInARow: 0, bannedUntil: 0 };
      this.clients.set(clientId, client);
    }
    return client;
  }

  /** The windows a request is judged by, minute first. */
  private views(bucketId: string, quota: PlanQuota): WindowView[] {
    let bucket = this.buckets.get(bucketId);
    if (bucket === undefined) {
      const Kind = this.options.tokenBucket ? TokenBucket : FixedWindow;
      bucket = { minute: new Kind(this.windows.minute), day: new Kind(this.windows.day) };
      this.buckets.set(bucketId, bucket);
    }
    const minute = { meter: bucket.minute, quota: quota.perMinute, seconds: this.windows.minute, extra: this.options.extraPerMinute ?? 0 };
    if (this.options.enforceDay === false) return [minute];
    return [minute, { meter: bucket.day, quota: quota.perDay, seconds: this.windows.day, extra: 0 }];
  }
}

/** Whole requests left, never negative. */
function remainingOf(view: WindowView, nowMs: number): number {
  return Math.max(0, Math.floor(view.meter.left(nowMs, view.quota) + EPSILON));
}

/** The window with fewer requests remaining; the later (day) window on a tie. */
function binding(views: readonly WindowView[], nowMs: number): WindowView {
  return views.reduce((best, v) => (remainingOf(v, nowMs) <= remainingOf(best, nowMs) ? v : best));
}

/**
 * X-RateLimit-Reset for a moment: whole Unix seconds rounded up, but never more than one window
 * after the current whole second (a fixed window always ends by then; a token bucket may be full
 * a fraction of a second later).
 */
function resetSeconds(atMs: number, view: WindowView, nowMs: number): number {
  return Math.min(Math.ceil(atMs / 1000 - EPSILON), Math.floor(nowMs / 1000) + view.seconds);
}
