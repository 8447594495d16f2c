// Whole on purpose (over 400 lines): one job, the limiter (its decision over the two windows, and the early retries and bans it keeps per client, all on one state); its meters are already apart (meters.ts), and over a quarter of its lines are comments.
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
// Variations swap the kind of window (meters.ts): sliding-window a token bucket (capacity = quota,
// refilled continuously at quota / window length per second), sliding-log a log of the requests
// let through, window-per-key fixed windows started by the bucket's first request. The decision
// logic is the same over any `Meter`. Reset is the moment rounded up to a whole second; a token
// bucket's "full again" is capped at one window after the current whole second (it is at most a
// fraction of a second later), while a window or log that started at a fraction of a second may
// end up to a second after that. Variation reset-jitter rounds Reset from the exact moment plus
// deterministic noise instead.
//
// Early retries. The limiter remembers, per client, until when the last Retry-After told it to
// wait. By default that is what the limiter itself computed; the handler replaces it with what was
// actually sent (`noteRetryAfter`), after variations and faults have rewritten the reply, so an
// HTTP-date, a shortened or a missing Retry-After is judged by what the client was told.
import type { PlanQuota } from '../../lib/plans.ts';
import { EPSILON, FixedWindow, SlidingLog, TokenBucket, type Meter } from './meters.ts';
import { seededFraction } from './seeded.ts';

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
  /** X-RateLimit-Reset, Unix seconds: the described meter's `resetAt`, or on a refusal when a request is let through again. */
  reset: number;
  /** Length in seconds of the window the headers describe (of the ban, while banned). */
  windowSeconds: number;
  /** The window whose quota refused the request; set only when refused by a quota, not by a ban. */
  blockedBy?: WindowName;
  /** Retry-After in seconds, at least 1; set only when the request is refused. */
  retryAfter?: number;
  /** Epoch ms from which a request would be let through again; set only when refused. */
  retryAtMs?: number;
  /** Refused by the spent day: when the minute window (or bucket) lets a request through again, epoch ms (fault rate-day-retry-after-minute). */
  minuteRetryAtMs?: number;
  /** Requests refused in a row for this client, this one included; 0 when let through. */
  refusedInARow: number;
  /** Refused because the client is banned (variations ban-after-ignoring-429, ban-after-3-early). */
  banned: boolean;
  /** This request started a ban. */
  banStarted: boolean;
  /** True when the request came before a Retry-After previously given to this client had passed. */
  earlyRetry: boolean;
  /** The clock reading the decision was made at, epoch ms. */
  at: number;
  /**
   * Each window's own Limit, Remaining and Reset (option reportWindows: faults that mix the
   * windows' headers read them); undefined otherwise, and for a ban.
   */
  windows?: WindowStates | undefined;
}

/** What the headers would say of one window alone. */
export interface WindowState {
  limit: number;
  remaining: number;
  reset: number;
}

/** The minute window's state, and the day's when the day is counted. */
export interface WindowStates {
  minute: WindowState;
  day?: WindowState;
}

export interface RateLimiterOptions {
  /** Variation rejected-count-against-quota: refused requests consume quota too. */
  countRefused?: boolean;
  /** Variation sliding-window: token buckets instead of fixed windows. */
  tokenBucket?: boolean;
  /** Variation sliding-log: sliding logs instead of fixed windows (wins over tokenBucket). */
  slidingLog?: boolean;
  /** Variation window-per-key: a fixed window starts at the bucket's first request after the last one ended (fixed windows only). */
  windowPerKey?: boolean;
  /** Variation retry-after-fractional-wait: fixed windows end this many ms after a whole second (fixed windows only). */
  windowOffsetMs?: number;
  /** Variations ban-after-ignoring-429, ban-after-3-early: this many early retries in a row ban the key. */
  banAfterEarlyRetries?: number;
  /** Minute windows a ban lasts; default 1. */
  banWindows?: number;
  /** Variation reset-jitter: Reset is rounded from the exact moment plus up to ± this many ms of noise. */
  resetJitterMs?: number;
  /** Fault rate-one-too-many: requests accepted per minute window beyond the quota (headers still say the quota). */
  extraPerMinute?: number;
  /** Fault rate-day-one-too-many: requests accepted per day window beyond the quota (headers still say the quota). */
  extraPerDay?: number;
  /** Variation headers-day-window: the headers always describe the day window (a refusal by the minute included). */
  describeDay?: boolean;
  /** Variation headers-minute-window: the headers always describe the minute window (a refusal by the day included, with Remaining 0). */
  describeMinute?: boolean;
  /** Fault rate-day-429-minute-remaining (with describeMinute): a refusal by the day says the minute's Remaining, above 0 while the minute has room. */
  dayRefusalMinuteRemaining?: boolean;
  /** Fault rate-daily-not-enforced (false): the day window is neither counted, enforced nor reported. */
  enforceDay?: boolean;
  /** Fault rate-slow-refill: the minute limit is a token bucket refilled at this fraction of the plan's rate. */
  minuteRefill?: number;
  /**
   * Fault rate-no-burst: a request is let through only a minute's share (window / quota) after the
   * bucket's last accepted one, and the headers say so (Remaining 0 after each, Reset when the next
   * may come): a smoothing limiter with no room for a burst.
   */
  noBurst?: boolean;
  /** Faults rate-headers-mixed-windows, rate-remaining-of-day, rate-limit-of-day-window-of-minute: every decision also gives each window's state (`windows`). */
  reportWindows?: boolean;
}

export interface TakeOptions {
  /** false: counted but never refused (anonymous callers, who always get 401). Default true. */
  enforce?: boolean;
  /** The counters to use; default the client's own. Fault rate-shared-bucket passes one id for every key. */
  bucket?: string;
}

type WindowName = 'minute' | 'day';

interface Bucket {
  minute: Meter;
  day: Meter;
  /** The views for the last quota this bucket was judged by (a shared bucket sees several). */
  views?: { perMinute: number; perDay: number; views: readonly WindowView[] };
  /** Fault rate-no-burst: epoch ms of the last request let through. */
  lastAcceptedAt?: number;
}

/** Salt of the reset-jitter noise. */
const JITTER_SALT = 0x2e5e7;

interface ClientState {
  /** Epoch ms before which the last Retry-After told this client not to come back. */
  retryNotBefore: number;
  refusedInARow: number;
  /** Early retries in a row (ban variations). */
  earlyInARow: number;
  /** Epoch ms at which the current ban ends; 0 when never banned. */
  bannedUntil: number;
}

/** A meter with the quota, length and allowance it is judged by for one request. */
interface WindowView {
  name: WindowName;
  meter: Meter;
  quota: number;
  seconds: number;
  /** Requests accepted beyond the quota (fault rate-one-too-many). */
  extra: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clients = new Map<string, ClientState>();
  /** Decisions made, for the reset-jitter noise. */
  private decisions = 0;

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

    const banAfter = this.options.banAfterEarlyRetries;
    if (enforce && (banAfter !== undefined || at < client.bannedUntil)) {
      let banStarted = false;
      if (banAfter !== undefined && at >= client.bannedUntil) {
        client.earlyInARow = earlyRetry ? client.earlyInARow + 1 : 0;
        if (client.earlyInARow >= banAfter) {
          client.earlyInARow = 0;
          // Whole minute windows from the current whole second: Reset (the ban's end) is then that
          // many windows after the Date header at most, and Retry-After agrees with it within 1 s.
          client.bannedUntil = (Math.floor(at / 1000) + this.banSeconds()) * 1000;
          banStarted = true;
        }
      }
      if (at < client.bannedUntil) {
        const described = binding(views, at);
        const retryAfter = Math.max(1, Math.ceil((client.bannedUntil - at) / 1000));
        client.retryNotBefore = client.bannedUntil;
        client.refusedInARow++;
        return {
          at,
          earlyRetry,
          banned: true,
          banStarted,
          allowed: false,
          limit: described.quota,
          remaining: 0,
          reset: this.reset(client.bannedUntil, at),
          windowSeconds: Math.max(this.banSeconds(), retryAfter),
          retryAfter,
          retryAtMs: client.bannedUntil,
          refusedInARow: client.refusedInARow,
        };
      }
    }

    if (this.options.noBurst && enforce) {
      const spaced = this.spaced(options.bucket ?? clientId, views[0]!, at, client, earlyRetry);
      if (spaced) return spaced;
    }

    // Every decision is written out whole: in Node 20, adding keys to a spread copy ({ ...base, allowed })
    // costs microseconds, more than the rest of the decision.
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
      const minute = views[0]!;
      // headers-day-window: the day window is described even when the minute refuses (Retry-After
      // still the minute's, Remaining what is left of the day); headers-minute-window the other way
      // round, Remaining 0: nothing of the minute is let through while the day refuses (fault
      // rate-day-429-minute-remaining says the minute's Remaining all the same).
      const described = this.options.describeDay && views[1] ? views[1] : this.options.describeMinute ? minute : blocker;
      const leftOver = described !== blocker && (described.name === 'day' || this.options.dayRefusalMinuteRemaining);
      return {
        at,
        earlyRetry,
        banned: false,
        banStarted: false,
        allowed: false,
        limit: described.quota,
        remaining: leftOver ? remainingOf(described, at) : 0,
        reset: described === blocker ? this.reset(retryAtMs, at, blocker) : this.reset(described.meter.resetAt(at, described.quota), at, described),
        windowSeconds: described.seconds,
        blockedBy: blocker.name,
        retryAfter,
        retryAtMs,
        ...(blocker.name === 'day' ? { minuteRetryAtMs: minute.meter.resetAt(at, minute.quota) } : {}),
        refusedInARow: client.refusedInARow,
        windows: this.options.reportWindows ? windowStates(views, at) : undefined,
      };
    }

    for (const v of views) v.meter.consume(at, v.quota, -v.extra);
    client.refusedInARow = 0;
    if (this.options.noBurst && enforce) {
      const minute = views[0]!;
      return { at, earlyRetry, banned: false, banStarted: false, allowed: true, limit: minute.quota, remaining: 0, reset: Math.ceil((at + (minute.seconds * 1000) / minute.quota) / 1000), windowSeconds: minute.seconds, refusedInARow: 0 };
    }
    return this.allowed(views, at, earlyRetry);
  }

  /** A decision that lets the request through, its headers describing the window the options name (else the binding one). */
  private allowed(views: readonly WindowView[], at: number, earlyRetry: boolean): RateDecision {
    const described = this.options.describeDay && views[1] ? views[1] : this.options.describeMinute ? views[0]! : binding(views, at);
    return {
      at,
      earlyRetry,
      banned: false,
      banStarted: false,
      allowed: true,
      limit: described.quota,
      remaining: remainingOf(described, at),
      reset: this.reset(described.meter.resetAt(at, described.quota), at, described),
      windowSeconds: described.seconds,
      refusedInARow: 0,
      windows: this.options.reportWindows ? windowStates(views, at) : undefined,
    };
  }

  /**
   * Fault rate-no-burst: refuses a request that comes sooner than a minute's share after the
   * bucket's last accepted one; notes an accepted one. Headers of the spacing, honestly: Limit the
   * plan's quota, Remaining 0, Reset when the next request may come. Undefined: let it through to
   * the windows as usual (its headers then rewritten the same way).
   */
  private spaced(bucketId: string, minute: WindowView, at: number, client: ClientState, earlyRetry: boolean): RateDecision | undefined {
    const bucket = this.buckets.get(bucketId)!;
    const spacingMs = (minute.seconds * 1000) / minute.quota;
    const last = bucket.lastAcceptedAt;
    if (last === undefined || at - last >= spacingMs) {
      bucket.lastAcceptedAt = at;
      return undefined;
    }
    const retryAtMs = last + spacingMs;
    const retryAfter = Math.max(1, Math.ceil((retryAtMs - at) / 1000 - EPSILON));
    client.retryNotBefore = at + retryAfter * 1000;
    client.refusedInARow++;
    return { at, earlyRetry, banned: false, banStarted: false, allowed: false, limit: minute.quota, remaining: 0, reset: Math.ceil(retryAtMs / 1000), windowSeconds: minute.seconds, blockedBy: 'minute', retryAfter, retryAtMs, refusedInARow: client.refusedInARow };
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

  /**
   * X-RateLimit-Reset naming the moment `atMs`: whole Unix seconds rounded up, capped at one window
   * after the current whole second where the meter says so. With reset-jitter: rounded from the
   * moment plus noise, as from a millisecond expiry read at another instant, never before now's second.
   */
  private reset(atMs: number, nowMs: number, view?: WindowView): number {
    const jitter = this.options.resetJitterMs;
    const n = this.decisions++;
    if (jitter) {
      const noise = (2 * seededFraction(JITTER_SALT, n) - 1) * jitter;
      return Math.max(Math.floor(nowMs / 1000), Math.round((atMs + noise) / 1000));
    }
    return roundReset(atMs, nowMs, view);
  }

  /**
   * Whether a request of `clientId` would be let through now, without counting it: the check half
   * of a limiter that checks, then counts (fault rate-check-then-count).
   */
  wouldAllow(clientId: string, quota: PlanQuota, options: TakeOptions = {}): boolean {
    const at = this.now();
    if (at < this.client(clientId).bannedUntil) return false;
    return this.views(options.bucket ?? clientId, quota).every((v) => v.meter.left(at, v.quota) >= 1 - v.extra - EPSILON);
  }

  /**
   * What the headers say of a bucket now, without counting a request or refusing one: a limiter
   * that lets a request by uncounted while X-RateLimit-* are still written from the key's counters
   * (the relations faults that skip the limiter, faults/relations.ts).
   */
  peek(clientId: string, quota: PlanQuota, options: TakeOptions = {}): RateDecision {
    const at = this.now();
    return this.allowed(this.views(options.bucket ?? clientId, quota), at, false);
  }

  /** The share of its day's quota a bucket has spent (0 to 1; 0 when the day is not counted): variation slow-day slows a key past half. */
  dayShare(bucketId: string, quota: PlanQuota): number {
    const day = this.views(bucketId, quota)[1];
    if (!day) return 0;
    return 1 - Math.max(0, day.meter.left(this.now(), day.quota)) / day.quota;
  }

  /** Gives one request of a bucket back, in every window (fault rate-counts-only-success). */
  giveBack(bucketId: string, quota: PlanQuota): void {
    const at = this.now();
    for (const v of this.views(bucketId, quota)) v.meter.giveBack(at, v.quota);
  }

  /** Bans a client until an epoch time, as an earlier run that ignored its 429s would have (variation first-key-banned). */
  ban(clientId: string, untilMs: number): void {
    const client = this.client(clientId);
    client.bannedUntil = untilMs;
    client.retryNotBefore = untilMs;
  }

  private banSeconds(): number {
    return this.windows.minute * (this.options.banWindows ?? 1);
  }

  private client(clientId: string): ClientState {
    let client = this.clients.get(clientId);
    if (client === undefined) {
      client = { retryNotBefore: 0, refusedInARow: 0, earlyInARow: 0, bannedUntil: 0 };
      this.clients.set(clientId, client);
    }
    return client;
  }

  /** The windows a request is judged by, minute first; kept per bucket while the quota is the same. */
  private views(bucketId: string, quota: PlanQuota): readonly WindowView[] {
    let bucket = this.buckets.get(bucketId);
    if (bucket === undefined) {
      const { minuteRefill } = this.options;
      bucket = { minute: minuteRefill !== undefined ? new TokenBucket(this.windows.minute, minuteRefill) : this.meter(this.windows.minute), day: this.meter(this.windows.day) };
      this.buckets.set(bucketId, bucket);
    }
    const kept = bucket.views;
    if (kept !== undefined && kept.perMinute === quota.perMinute && kept.perDay === quota.perDay) return kept.views;
    const views = this.newViews(bucket, quota);
    bucket.views = { perMinute: quota.perMinute, perDay: quota.perDay, views };
    return views;
  }

  private newViews(bucket: Bucket, quota: PlanQuota): WindowView[] {
    const minute: WindowView = {
      name: 'minute',
      meter: bucket.minute,
      quota: quota.perMinute,
      seconds: this.windows.minute,
      extra: this.options.extraPerMinute ?? 0,
    };
    if (this.options.enforceDay === false) return [minute];
    return [minute, { name: 'day', meter: bucket.day, quota: quota.perDay, seconds: this.windows.day, extra: this.options.extraPerDay ?? 0 }];
  }

  private meter(seconds: number): Meter {
    if (this.options.slidingLog) return new SlidingLog(seconds);
    if (this.options.tokenBucket) return new TokenBucket(seconds);
    return new FixedWindow(seconds, this.options.windowPerKey, this.options.windowOffsetMs);
  }
}

/** X-RateLimit-Reset naming `atMs`: whole Unix seconds rounded up, capped at one window after now's second where the meter says so. */
function roundReset(atMs: number, nowMs: number, view?: WindowView): number {
  const seconds = Math.ceil(atMs / 1000 - EPSILON);
  return view?.meter.capsReset ? Math.min(seconds, Math.floor(nowMs / 1000) + view.seconds) : seconds;
}

/** Each window's Limit, Remaining and Reset as its own headers would give them (no reset-jitter noise). */
function windowStates(views: readonly WindowView[], nowMs: number): WindowStates {
  const state = (v: WindowView): WindowState => ({ limit: v.quota, remaining: remainingOf(v, nowMs), reset: roundReset(v.meter.resetAt(nowMs, v.quota), nowMs, v) });
  const [minute, day] = views;
  return day ? { minute: state(minute!), day: state(day) } : { minute: state(minute!) };
}

/** Whole requests left, never negative. */
function remainingOf(view: WindowView, nowMs: number): number {
  return Math.max(0, Math.floor(view.meter.left(nowMs, view.quota) + EPSILON));
}

/** The window with fewer requests remaining; the later (day) window on a tie. */
function binding(views: readonly WindowView[], nowMs: number): WindowView {
  return views.reduce((best, v) => (remainingOf(v, nowMs) <= remainingOf(best, nowMs) ? v : best));
}
