// lib/checks/rate-limit*.ts: the Limits clause judged over what one key's run recorded. Every run
// here is built by hand from a fixed base time: no clock, no server, no load.
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_CHECKS } from '../../../lib/checks/rate-limit.ts';
import { bindingHeaders, describeHeadersWindow, headersWindow, judgeBindingHeaders, judgeLimitHeader, judgeRemaining, judgeRemainingZeroOn429, judgeResetHeader, judgeServedAtReset, remainingZeroOn429, servedAtReset } from '../../../lib/checks/rate-limit-headers.ts';
import { describeLoad, judgeBoundaryRace, judgeIsolation, judgePerConnection, judgeQuota, quota } from '../../../lib/checks/rate-limit-quota.ts';
import { describeBan, judgeRetryAfterConsistent, judgeRetryAfterHonoured } from '../../../lib/checks/rate-limit-exceeded.ts';
import { dailyQuota, judgeDailyQuota } from '../../../lib/checks/rate-limit-day.ts';
import type { Finding } from '../../../lib/checks/types.ts';
import { type BurstData, DAY_FOLLOW_UPS, type DayData, type KeyRun, type Look, pointsOf, type TimelinePoint } from '../../../lib/result/rate-limits.ts';
import { limiterKind, resetJitter } from '../../../lib/checks/limiter.ts';
import { summariseKey } from '../../../lib/checks/key-summary.ts';
import { expectFinding, type Outcome } from './_seen.ts';

/** Monday 6 January 2025, 12:00:00 UTC: every run starts here. */
const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
/** T0 in Unix seconds. */
const S0 = T0 / 1000;
/** The Free plan: 60 a minute, 1,000 a day; real window lengths. */
const QUOTA = { perMinute: 60, perDay: 1000 };
const WINDOWS = { minute: 60, day: 86_400 };
/** Where the fixed minute window of the examples ends: 45 s after T0. */
const RESET = S0 + 45;

const httpDate = (ms: number) => new Date(ms).toUTCString();
const second = (ms: number) => Math.floor(ms / 1000);

function keyRun(extra: Partial<KeyRun> = {}): KeyRun {
  return { label: 'free-a', plan: 'free', quota: QUOTA, windows: WINDOWS, ...extra };
}

interface RateHeaders {
  limit?: number | string;
  remaining?: number | string;
  reset?: number | string;
  retryAfter?: string;
  /** Defaults to the arrival time as an IMF-fixdate; null for none. */
  date?: string | null;
}

/** A probe's response (lower-case header names, as the client records them). */
function observation(t: number, status: number, h: RateHeaders = {}): Look {
  const headers: Record<string, string> = {};
  if (h.limit !== undefined) headers['x-ratelimit-limit'] = String(h.limit);
  if (h.remaining !== undefined) headers['x-ratelimit-remaining'] = String(h.remaining);
  if (h.reset !== undefined) headers['x-ratelimit-reset'] = String(h.reset);
  if (h.retryAfter !== undefined) headers['retry-after'] = h.retryAfter;
  if (h.date !== null) headers.date = h.date ?? httpDate(t);
  return { t, status, headers };
}

/** The probe before a burst: 200 with the window's Remaining and Reset. */
const startAt = (remaining: number, reset: number = RESET, limit = QUOTA.perMinute) => observation(T0, 200, { limit, remaining, reset });

function burstData(points: TimelinePoint[], extra: Partial<BurstData> = {}): BurstData {
  const last = points.at(-1)?.t ?? T0;
  return {
    points,
    sent: points.length,
    startedAt: T0,
    durationMs: last - T0 + 50,
    askedRate: 4,
    ended: points.some((p) => p.status === 429) ? 'first-429' : 'max-requests',
    latency: { p50: 12, p90: 30, p99: 80, max: 95 },
    ...extra,
  };
}

interface FixedOptions {
  reset?: number;
  limit?: number;
  /** Each response carries a Date header (default true). */
  dates?: boolean;
  /** Remaining of each accepted response, when not start-1, start-2, … (floored at 0). */
  remainings?: number[];
  /** The 429's Remaining (default 0). */
  rejectedRemaining?: number;
  /** The 429's Retry-After (default the seconds left until Reset); null for none. */
  retryAfter?: string | null;
  /** Leave the 429 out: the load stopped at its cap. */
  no429?: boolean;
  stepMs?: number;
}

/**
 * A fixed window: `n` accepted requests with Remaining start-1 … start-n, all with one Reset, then
 * a 429 with the same Reset and a Retry-After pointing at it.
 */
/** A minute's burst whose answers come from two instances, one's Date a second ahead of the other's (sent 5 ms before each arrives). */
function skewedBurst(): BurstData {
  const burst = fixedBurst(20, 20);
  return { ...burst, points: burst.points.map((p, i) => ({ ...p, sentAt: p.t - 5, date: httpDate(p.t + (i % 2) * 1_000) })) };
}

function fixedBurst(start: number, n: number, o: FixedOptions = {}): BurstData {
  const reset = o.reset ?? RESET;
  const limit = o.limit ?? QUOTA.perMinute;
  const step = o.stepMs ?? 100;
  const withDate = (p: TimelinePoint): TimelinePoint => (o.dates === false ? p : { ...p, date: httpDate(p.t) });
  const points: TimelinePoint[] = Array.from({ length: n }, (_, i) => withDate({ t: T0 + (i + 1) * step, status: 200, limit, remaining: o.remainings?.[i] ?? Math.max(0, start - 1 - i), reset }));
  if (!o.no429) {
    const t = T0 + (n + 1) * step;
    const p: TimelinePoint = withDate({ t, status: 429, limit, remaining: o.rejectedRemaining ?? 0, reset });
    const retryAfter = o.retryAfter === undefined ? String(reset - second(t)) : o.retryAfter;
    points.push(retryAfter === null ? p : { ...p, retryAfter });
  }
  return burstData(points, o.no429 ? { ended: 'max-requests' } : {});
}

/**
 * A refilling limiter (token bucket, one token a second on the Free plan): `start + extra`
 * requests accepted over `durationMs`; at `extra` of them a token came back, so Remaining stayed
 * where it was, and Reset (when the bucket is full again) moves with every request. A negative
 * `extra` stops that many requests short of Remaining.
 */
function bucketBurst(start: number, extra: number, o: { durationMs?: number; remainings?: number[] } = {}): BurstData {
  const n = start + extra;
  const durationMs = o.durationMs ?? 5_000;
  const step = Math.floor(durationMs / (n + 2));
  const refills = new Set(Array.from({ length: Math.max(0, extra) }, (_, k) => Math.round(((k + 1) * n) / (extra + 1))));
  const points: TimelinePoint[] = [];
  let r = start;
  for (let i = 0; i < n; i++) {
    if (!refills.has(i)) r -= 1;
    const t = T0 + (i + 1) * step;
    const remaining = o.remainings?.[i] ?? r;
    points.push({ t, status: 200, limit: QUOTA.perMinute, remaining, reset: second(t) + (QUOTA.perMinute - remaining), date: httpDate(t) });
  }
  const t = T0 + (n + 1) * step;
  points.push({ t, status: 429, limit: QUOTA.perMinute, remaining: 0, reset: second(t) + QUOTA.perMinute, retryAfter: '1', date: httpDate(t) });
  return burstData(points, { durationMs });
}

/**
 * A fixed window that turns during the burst: `before` accepted from Remaining `start` with Reset
 * RESET, then `after` accepted in the next window (Reset a window later, Remaining from 59 down,
 * floored at 0), then a 429 there.
 */
function turningBurst(start: number, before: number, after: number): BurstData {
  const step = 10;
  const next = RESET + WINDOWS.minute;
  const points: TimelinePoint[] = [];
  for (let i = 0; i < before; i++) points.push({ t: T0 + (i + 1) * step, status: 200, limit: 60, remaining: start - 1 - i, reset: RESET });
  for (let i = 0; i < after; i++) points.push({ t: T0 + (before + i + 1) * step, status: 200, limit: 60, remaining: Math.max(0, QUOTA.perMinute - 1 - i), reset: next });
  const t = T0 + (before + after + 1) * step;
  points.push({ t, status: 429, limit: 60, remaining: 0, reset: next, retryAfter: String(next - second(t)) });
  return burstData(points);
}

type Case = { title: string; run: () => KeyRun; outcome: Outcome; mentions?: string[]; code?: string };

/** The finding has the outcome and mentions asked for, and a failure the code asked for (every failing case names one). */
function expectCase(finding: Finding, { outcome, mentions, code, title }: Case): void {
  expectFinding(finding, outcome, mentions);
  if (outcome === 'fail') expect({ title, code: finding.outcome === 'fail' ? finding.code : undefined }).toEqual({ title, code: code ?? '(the case names no code)' });
}

describe('judgeLimitHeader', () => {
  it.each<Case>([
    { title: 'the per-minute quota on every response passes', run: () => keyRun({ start: startAt(20), burst: fixedBurst(20, 20) }), outcome: 'pass', mentions: ['60'] },
    { title: 'the per-day quota (when it is the tighter one) passes', run: () => keyRun({ start: startAt(20, S0 + 3600, 1000), burst: fixedBurst(20, 20, { limit: 1000, reset: S0 + 3600 }) }), outcome: 'pass', mentions: ['1000'] },
    { title: 'both, minute then day, pass', run: () => keyRun({ start: startAt(20), retry: { waitedMs: 40_000, next: observation(T0 + 45_000, 200, { limit: 1000, remaining: 30, reset: S0 + 3600 }) } }), outcome: 'pass', mentions: ['60', '1000'] },
    { title: "another plan's number (Pro's 300) fails naming it", run: () => keyRun({ start: startAt(20, RESET, 300), burst: fixedBurst(20, 20, { limit: 300 }) }), outcome: 'fail', code: 'not-the-plan-quota', mentions: ['X-RateLimit-Limit is 300', 'on 22 responses'] },
    { title: 'one wrong response among right ones fails', run: () => keyRun({ start: startAt(20), retry: { waitedMs: 1, next: observation(T0 + 45_000, 200, { limit: 10_000, remaining: 59, reset: S0 + 105 }) } }), outcome: 'fail', code: 'not-the-plan-quota', mentions: ['10000', 'on 1 responses'] },
  ])('$title', (c) => {
    expectCase(judgeLimitHeader(c.run()), c);
  });

  it("names the plan's two numbers in `expected`", () => {
    const finding = judgeLimitHeader(keyRun({ start: startAt(20, RESET, 300) }));
    expect(finding.outcome === 'fail' && finding.expected).toBe('60 (per minute) or 1000 (per day) for plan free');
    expect(finding.outcome === 'fail' && finding.actual).toBe('300');
  });
});

describe('judgeResetHeader', () => {
  /** A run whose only response is one probe. */
  const probe = (h: RateHeaders, t = T0) => () => keyRun({ start: observation(t, 200, { limit: QUOTA.perMinute, remaining: 10, ...h }) });
  /** A burst on 4 s windows, every answer dated T0, whose Resets go back and forth between `a` and `b`. */
  const noisyResets = (a: number, b: number) => () =>
    keyRun({ windows: { minute: 4, day: 40 }, burst: burstData(Array.from({ length: 10 }, (_, i) => ({ t: T0 + 10 * (i + 1), status: 200, limit: QUOTA.perMinute, remaining: 50 - i, reset: i % 2 === 0 ? a : b, date: httpDate(T0) })), { ended: 'max-requests' }) });
  /** A run whose burst's one answer, dated T0, came `latencyMs` after its sending. */
  const slowAnswer = (reset: number, latencyMs: number) => () =>
    keyRun({ burst: burstData([{ t: T0 + 100, sentAt: T0 + 100 - latencyMs, status: 200, limit: QUOTA.perMinute, remaining: 10, reset, date: httpDate(T0) }], { ended: 'max-requests' }) });

  it.each<Case>([
    { title: 'Reset at the end of a minute window (Date + 60 s) passes', run: probe({ reset: S0 + 60 }), outcome: 'pass' },
    { title: 'Reset part-way through the window passes', run: probe({ reset: S0 + 17 }), outcome: 'pass' },
    { title: 'Reset equal to the Date second passes (a window that has just reset)', run: probe({ reset: S0 }), outcome: 'pass' },
    { title: 'Reset one second beyond the window passes (rounding slack)', run: probe({ reset: S0 + 61 }), outcome: 'pass' },
    // The replica that writes Date may run a second or two ahead of the limiter's store (several-instances).
    { title: 'Reset 2 s before the Date passes (a replica whose clock runs ahead)', run: probe({ reset: S0 - 2 }), outcome: 'pass' },
    { title: 'Reset 3 s before the Date fails', run: probe({ reset: S0 - 3 }), outcome: 'fail', code: 'reset-before-date', mentions: [`X-RateLimit-Reset ${S0 - 3} is before the response's Date (${S0})`] },
    // Variations slow-day, several-instances, reset-jitter: answered 1.2 s after its sending, by an
    // instance a second ahead, the minute's end rounded a second down.
    { title: 'Reset 3 s before the Date of an answer 1.2 s slow passes (counted a second before its Date)', run: slowAnswer(S0 - 3, 1_200), outcome: 'pass' },
    { title: 'Reset 4 s before the Date of an answer 1.2 s slow fails', run: slowAnswer(S0 - 4, 1_200), outcome: 'fail', code: 'reset-before-date', mentions: [`X-RateLimit-Reset ${S0 - 4} is before the response's Date (${S0}) (answered 1.2 s after its sending: counted in ${S0 - 1} at the earliest)`] },
    { title: 'Reset 3 s before the Date of an answer 0.9 s slow fails', run: slowAnswer(S0 - 3, 900), outcome: 'fail', code: 'reset-before-date' },
    // Variations sliding-log, reset-jitter, instances-clock-skew: Resets rounded with up to 2 s of
    // noise (back and forth over the burst) may lie as much further past one window.
    { title: 'Resets with 2 s of rounding noise, 3 s past one window: passes', run: noisyResets(S0 + 5, S0 + 7), outcome: 'pass' },
    { title: 'Resets with 2 s of rounding noise, 5 s past one window: fails', run: noisyResets(S0 + 7, S0 + 9), outcome: 'fail', code: 'reset-beyond-window', mentions: ["allowing 2 s its Resets' rounding noise adds"] },
    { title: 'Resets without noise 3 s past one window: fails', run: noisyResets(S0 + 7, S0 + 7), outcome: 'fail', code: 'reset-beyond-window' },
    // One cause in the shape of the headers, one failure: headers.rate-limit-present's; the key's check says why it cannot judge.
    { title: 'Reset in milliseconds is not judged here, quoted, naming headers.rate-limit-present', run: probe({ reset: (S0 + 60) * 1000 }), outcome: 'skip', mentions: [`"${(S0 + 60) * 1000}"`, 'looks like a Unix time in milliseconds', 'headers.rate-limit-present'] },
    { title: 'Reset as seconds until the reset is not judged here, quoted, naming headers.rate-limit-present', run: probe({ reset: 42 }), outcome: 'skip', mentions: ['"42"', 'looks like seconds until the reset', 'headers.rate-limit-present'] },
    { title: 'a negative Reset fails, without that hint', run: probe({ reset: -1 }), outcome: 'fail', code: 'reset-before-date', mentions: ['X-RateLimit-Reset -1 is before'] },
    { title: 'Reset as seconds from now (2) is not judged here either', run: probe({ reset: 2 }), outcome: 'skip', mentions: ['"2"'] },
    { title: 'a Reset just before the Date (a clock behind) fails', run: probe({ reset: S0 - 3 }), outcome: 'fail', code: 'reset-before-date', mentions: [`X-RateLimit-Reset ${S0 - 3} is before`] },
    // Reset rounds up, and a busy node:http server writes a Date cached a second or more stale.
    { title: 'Reset 2 s beyond the minute window passes', run: probe({ reset: S0 + 62 }), outcome: 'pass' },
    { title: 'Reset 3 s beyond the minute window fails', run: probe({ reset: S0 + 63 }), outcome: 'fail', code: 'reset-beyond-window', mentions: [`${S0 + 63}`, 'more than one window (60 s)'] },
    { title: 'a per-minute response may not point an hour ahead', run: probe({ reset: S0 + 3600 }), outcome: 'fail', code: 'reset-beyond-window', mentions: ['60 s'] },
    { title: 'a day-limit response (Limit = per-day quota) may reach one day window ahead', run: probe({ limit: QUOTA.perDay, reset: S0 + 86_400 }), outcome: 'pass' },
    { title: 'a day-limit response pointing an hour ahead passes', run: probe({ limit: QUOTA.perDay, reset: S0 + 3600 }), outcome: 'pass' },
    { title: 'a day-limit response beyond one day window fails', run: probe({ limit: QUOTA.perDay, reset: S0 + 86_403 }), outcome: 'fail', code: 'reset-beyond-window', mentions: ['86400 s'] },
    { title: 'without a Date header, the arrival second is the reference (Reset then passes)', run: probe({ reset: S0 + 10, date: null }, T0 + 10_500), outcome: 'pass' },
    { title: 'without a Date header, a Reset before the arrival second fails', run: probe({ reset: S0 + 5, date: null }, T0 + 10_500), outcome: 'fail', code: 'reset-before-date', mentions: [`(${S0 + 10})`] },
    { title: 'the Date header wins over a late arrival', run: probe({ reset: S0, date: httpDate(T0) }, T0 + 5_000), outcome: 'pass' },
    { title: 'an unparseable Date falls back to the arrival time', run: probe({ reset: S0, date: 'yesterday' }, T0 + 10_000), outcome: 'fail', code: 'reset-before-date', mentions: [`(${S0 + 10})`] },
    // Nothing to judge is a skip naming what was missing, never a pass (presence is judged elsewhere).
    { title: 'responses without Reset skip, naming the header', run: probe({}), outcome: 'skip', mentions: ['carried an integer X-RateLimit-Reset', 'headers.rate-limit-present'] },
    { title: 'a whole fixed-window burst passes', run: () => keyRun({ start: startAt(20), burst: fixedBurst(20, 20) }), outcome: 'pass' },
    { title: 'a token-bucket burst (Reset moving, never beyond a window) passes', run: () => keyRun({ start: startAt(20, S0 + 40), burst: bucketBurst(20, 4) }), outcome: 'pass' },
    // A ban's length is not shown: a 429 whose Retry-After too lies beyond one window may name its end.
    {
      title: "a polite key's 429 keeping it out 600 s is the day's: its Reset is judged against the day window",
      run: () => keyRun({ start: startAt(20), retry: { waitedMs: 45_000, next: observation(T0, 429, { limit: 60, remaining: 0, reset: S0 + 600, retryAfter: '600' }) } }),
      outcome: 'pass',
      mentions: [],
    },
    {
      title: 'a ban refusal (429, Retry-After and Reset two days ahead, beyond every window) is not judged; the rest is',
      run: () => keyRun({ start: startAt(20), retry: { waitedMs: 45_000, next: observation(T0, 429, { limit: 60, remaining: 0, reset: S0 + 172_800, retryAfter: '172800' }) } }),
      outcome: 'pass',
      mentions: ['1 ban refusal(s) with Reset up to 172800 s ahead not judged'],
    },
    {
      title: 'a 429 with Reset beyond one window but a Retry-After within it is no ban: fails',
      run: () => keyRun({ start: startAt(20), retry: { waitedMs: 45_000, next: observation(T0, 429, { limit: 60, remaining: 0, reset: S0 + 600, retryAfter: '30' }) } }),
      outcome: 'fail', code: 'reset-beyond-window',
      mentions: ['more than one window (60 s)'],
    },
    {
      title: 'only ban refusals carried Reset: skip saying so',
      run: () => keyRun({ start: observation(T0, 429, { remaining: 0, reset: S0 + 172_800, retryAfter: '172800' }) }),
      outcome: 'skip',
      mentions: ['only X-RateLimit-Resets came with a ban'],
    },
    {
      title: 'the retry probe is judged too',
      run: () => keyRun({ start: startAt(20), retry: { waitedMs: 45_000, next: observation(T0 + 45_000, 200, { limit: 60, remaining: 59, reset: RESET - 5 }) } }),
      outcome: 'fail', code: 'reset-before-date',
      mentions: [`${RESET - 5}`],
    },
  ])('$title', (c) => {
    expectCase(judgeResetHeader(c.run()), c);
  });

  it('gives no milliseconds hint for a Reset that is merely too far', () => {
    expect(judgeResetHeader(probe({ reset: S0 + 62 })()).message ?? '').not.toContain('milliseconds');
  });

  // Two instances share the limiter, one's clock a second behind (variation instances-clock-skew):
  // its Date lags the limiter's Reset by a second more. The burst's Dates disagree by that second.
  describe('Dates of instances whose clocks differ', () => {
    /** Accepted answers on two instances, the second's Date `lagMs` behind; the last (on the second) says `lastReset`. */
    const twoInstances = (lagMs: number, lastReset: (t: number) => number) => () => {
      const points: TimelinePoint[] = Array.from({ length: 40 }, (_, i) => {
        const t = T0 + 100 + i * 37;
        return { t, sentAt: t - 2, status: 200, limit: 60, remaining: 50 - i, reset: second(t) + 60, date: httpDate(t - (i % 2) * lagMs), conn: 1 + (i % 2) };
      });
      const last = points.at(-1)!;
      points[points.length - 1] = { ...last, reset: lastReset(last.t) };
      return keyRun({ start: startAt(51, S0 + 60), burst: burstData(points, { ended: 'max-requests' }) });
    };
    it.each<Case>([
      // A Reset rounded from the log's end plus noise may name 2 s past the limiter's second and a window: 3 s past the lagging Date.
      { title: 'Reset 3 s beyond the window after a Date 1 s behind the other instance\'s passes', run: twoInstances(1000, (t) => second(t) + 62), outcome: 'pass' },
      { title: 'Reset 4 s beyond the window after it still fails, naming the second allowed', run: twoInstances(1000, (t) => second(t) + 63), outcome: 'fail', code: 'reset-beyond-window', mentions: ['more than one window (60 s)', "allowing 1 s by which the run's Dates disagree"] },
      { title: 'with one clock, Reset 3 s beyond the window fails as before', run: twoInstances(0, (t) => second(t) + 63), outcome: 'fail', code: 'reset-beyond-window' },
    ])('$title', (c) => {
      expectCase(judgeResetHeader(c.run()), c);
    });
  });
});

/** A Pro key on 4-second windows: its limiter would refill 75 requests a second. */
const FAST_REFILL = { quota: { perMinute: 300, perDay: 10_000 }, windows: { minute: 4, day: 40 } };

describe('judgeRemaining', () => {
  it('counts a window that turned during the burst from its own Remaining (no repeated value in one window)', () => {
    expectFinding(judgeRemaining(keyRun({ start: startAt(57), burst: turningBurst(57, 20, 60) })), 'pass');
  });

  // Variations headers-day-window, retry-after-fractional-wait, reset-jitter: the headers describe
  // the day, whose window turns during the burst (Remaining back to 999, Reset a day window later,
  // each rounded a second either way); the minute's quota ends the burst.
  const DAY_TURN = { windows: { minute: 4, day: 40 } };
  const dayTurningBurst = (before: number, after: number, o: { lowest?: number } = {}): BurstData => {
    const step = 10;
    const points: TimelinePoint[] = [];
    const jitter = (i: number) => i % 2;
    for (let i = 0; i < before; i++) points.push({ t: T0 + (i + 1) * step, status: 200, limit: QUOTA.perDay, remaining: 996 - i, reset: S0 + jitter(i), date: httpDate(T0) });
    for (let i = 0; i < after; i++) points.push({ t: T0 + (before + i + 1) * step, status: 200, limit: QUOTA.perDay, remaining: Math.max(o.lowest ?? 0, QUOTA.perDay - 1 - i), reset: S0 + 40 + jitter(i), date: httpDate(T0) });
    const t = T0 + (before + after + 1) * step;
    points.push({ t, status: 429, limit: QUOTA.perDay, remaining: QUOTA.perDay - after, reset: S0 + 40, retryAfter: '4', date: httpDate(T0) });
    return burstData(points);
  };
  it('counts a day window (headers of the day) that turned during the burst from its own Remaining', () => {
    expectFinding(judgeRemaining(keyRun({ ...DAY_TURN, start: startAt(997, S0 + 1, QUOTA.perDay), burst: dayTurningBurst(21, 60) })), 'pass');
  });
  // Variations sliding-window, headers-day-window: a token bucket of the day, on 4 s and 40 s
  // windows, refills 25 a second (1000 / 40 s), faster than the minute's 15 (60 / 4 s).
  const dayBucketBurst = (n: number, refilledPerRequest: number): BurstData => {
    const durationMs = 1_850;
    const step = Math.floor(durationMs / (n + 2));
    const points: TimelinePoint[] = Array.from({ length: n }, (_, i) => {
      const t = T0 + (i + 1) * step;
      return { t, status: 200, limit: QUOTA.perDay, remaining: 998 - i + Math.floor(i * refilledPerRequest), reset: S0 + 2 + Math.floor(i / 20), date: httpDate(t) };
    });
    const t = T0 + (n + 1) * step;
    points.push({ t, status: 429, limit: QUOTA.perDay, remaining: 950, reset: S0 + 6, retryAfter: '1', date: httpDate(t) });
    return burstData(points, { durationMs });
  };
  it("a token bucket's Remaining of the day, refilled at the day's rate (faster than the minute's on short windows), passes", () => {
    expectFinding(judgeRemaining(keyRun({ ...DAY_TURN, start: startAt(999, S0 + 1, QUOTA.perDay), burst: dayBucketBurst(78, 0.4) })), 'pass');
  });
  it("a token bucket's Remaining of the day refilled beyond even the day's rate fails", () => {
    const finding = judgeRemaining(keyRun({ ...DAY_TURN, start: startAt(999, S0 + 1, QUOTA.perDay), burst: dayBucketBurst(78, 0.8) }));
    expect(finding).toMatchObject({ outcome: 'fail', code: 'not-counting-down', expected: 'down to 921 (+47 refill)' });
  });

  it('a day window that turned during the burst, then Remaining stuck: fails', () => {
    const finding = judgeRemaining(keyRun({ ...DAY_TURN, start: startAt(997, S0 + 1, QUOTA.perDay), burst: dayTurningBurst(21, 60, { lowest: 980 }) }));
    expect(finding).toMatchObject({ outcome: 'fail', code: 'not-counting-down' });
  });

  it.each<Case>([
    // A token bucket that refilled one token during a short burst from Remaining 21 (seen in CI).
    { title: 'a short burst from a low Remaining that gets one more than it, under a fast refill, passes', run: () => keyRun({ ...FAST_REFILL, start: startAt(21), burst: fixedBurst(21, 22) }), outcome: 'pass' },
    // A sliding log gave back the 40 spent before the burst; Remaining still reached 0 at the 429.
    { title: 'a refilling limiter that gave back much more than its rate, down to 0 at the 429, passes', run: () => keyRun({ start: startAt(20, S0 + 40), burst: bucketBurst(20, 40) }), outcome: 'pass' },
    { title: 'a fixed window counting down by one to 0 passes', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10) }), outcome: 'pass' },
    { title: 'a fixed window whose responses arrive out of order passes', run: () => keyRun({ start: startAt(5), burst: fixedBurst(5, 5, { remainings: [3, 4, 2, 0, 1] }) }), outcome: 'pass' },
    {
      title: 'a constant Remaining fails naming the value',
      run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { remainings: Array(10).fill(10) }) }),
      outcome: 'fail', code: 'not-counting-down',
      mentions: ['after 10 accepted requests from Remaining 10', 'no lower than 10'],
    },
    // One repeat could be a token refilled mid-burst; two in a burst this short cannot.
    { title: 'a Remaining that stops two short fails', run: () => keyRun({ start: startAt(5), burst: fixedBurst(5, 5, { remainings: [4, 3, 2, 2, 2] }) }), outcome: 'fail', code: 'not-counting-down', mentions: ['no lower than 2'] },
    // One too many let through says 0 twice: the quota check's failure (not-the-stated-quota), not Remaining's.
    { title: 'a fixed window accepting more at Remaining 0 passes, naming the quota check', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 12) }), outcome: 'pass', mentions: ['2 more accepted at Remaining 0 (rate-limit.quota judges'] },
    // A negative Remaining is headers.rate-limit-present's to judge (on every answer, quoting it), not a second failure here.
    { title: 'a negative Remaining on the 429 is not counted here: the count down to it passes', run: () => keyRun({ start: startAt(5), burst: fixedBurst(5, 5, { rejectedRemaining: -1 }) }), outcome: 'pass' },
    { title: 'a negative Remaining on the start probe: skip, naming it', run: () => keyRun({ start: startAt(-3), burst: fixedBurst(5, 5) }), outcome: 'skip', mentions: ['said X-RateLimit-Remaining -3', 'headers.rate-limit-present'] },
    {
      title: 'repeated values beyond what a refill could explain fail',
      run: () => keyRun({ start: startAt(5), burst: fixedBurst(5, 5, { remainings: [4, 3, 3, 2, 2] }) }),
      outcome: 'fail', code: 'not-counting-down',
      mentions: ['no lower than 2'],
    },
    { title: 'a refilling limiter (Reset moving) repeating values within its allowance passes', run: () => keyRun({ start: startAt(20, S0 + 40), burst: bucketBurst(20, 4) }), outcome: 'pass' },
    {
      title: 'a refilling limiter whose Remaining stays above its refill allowance fails',
      run: () => keyRun({ start: startAt(20, S0 + 40), burst: bucketBurst(20, 4, { remainings: Array(24).fill(15) }) }),
      outcome: 'fail', code: 'not-counting-down',
      mentions: ['no lower than 15'],
    },
    { title: 'no burst: skip', run: () => keyRun({ start: startAt(10) }), outcome: 'skip' },
    { title: 'no Remaining on the start probe: skip', run: () => keyRun({ start: observation(T0, 200, { limit: 60, reset: RESET }), burst: fixedBurst(10, 10) }), outcome: 'skip' },
    { title: 'a burst whose first response is the 429: skip', run: () => keyRun({ start: startAt(0), burst: fixedBurst(0, 0) }), outcome: 'skip' },
  ])('$title', (c) => {
    expectCase(judgeRemaining(c.run()), c);
  });

  it('states the refill it allowed in `expected`', () => {
    const finding = judgeRemaining(keyRun({ start: startAt(20, S0 + 40), burst: bucketBurst(20, 4, { remainings: Array(24).fill(15) }) }));
    // 5 s at one token a second: floor(5) + 1.
    expect(finding.outcome === 'fail' && finding.expected).toBe('down to 0 (+6 refill)');
  });
});

describe('judgeQuota', () => {
  it.each<Case>([
    { title: 'a fixed window accepting exactly Remaining passes', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10) }), outcome: 'pass', mentions: ['fixed window', 'exactly 10'] },
    { title: 'a fixed window accepting one too many fails', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 11) }), outcome: 'fail', code: 'not-the-stated-quota', mentions: ['11 requests accepted', 'Remaining said 10'] },
    { title: 'a fixed window accepting one too few fails', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 9) }), outcome: 'fail', code: 'not-the-stated-quota', mentions: ['9 requests accepted', 'Remaining said 10'] },
    {
      title: 'a short burst from a low Remaining that gets one more than it, under a fast refill, passes as not told apart',
      run: () => keyRun({ ...FAST_REFILL, start: startAt(21), burst: fixedBurst(21, 22) }),
      outcome: 'pass',
      mentions: ['not told apart', '22 accepted from Remaining 21'],
    },
    { title: 'a fixed window with no Remaining left and an immediate 429 passes', run: () => keyRun({ start: startAt(0), burst: fixedBurst(0, 0) }), outcome: 'pass', mentions: ['exactly 0'] },
    { title: 'no 429 before the request cap fails', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 74, { no429: true }) }), outcome: 'fail', code: 'no-429', mentions: ['no 429 after 74 accepted', 'request cap'] },
    { title: 'no 429 before the time cap fails', run: () => keyRun({ start: startAt(10), burst: { ...fixedBurst(10, 74, { no429: true }), ended: 'max-duration' } }), outcome: 'fail', code: 'no-429', mentions: ['time cap'] },
    // Without a 429, what a window's turn or a bucket's refill gives back over the burst's time is allowed before failing: 12 s at one a second.
    {
      title: 'no 429 from a slow load that stayed within Remaining and the refill over its time: not checked, saying why',
      run: () => keyRun({ start: startAt(10), burst: { ...fixedBurst(10, 20, { no429: true, stepMs: 600 }), durationMs: 12_000 } }),
      outcome: 'skip',
      mentions: ['not reached: sent 20 in the window, the quota being 10', '20 accepted in 12.0 s without a 429 (its request cap), within the 60'],
    },
    {
      title: 'no 429 from a load beyond Remaining and the refill over its time fails, naming the most allowed',
      run: () => keyRun({ start: startAt(10), burst: { ...fixedBurst(10, 74, { no429: true, stepMs: 25 }), durationMs: 1_850 } }),
      outcome: 'fail', code: 'no-429',
      mentions: ['no 429 after 74 accepted requests'],
    },
    // From a full quota only a token bucket's refill can add: 5 s at one a second, floor(5) + 1.
    { title: 'a refilling limiter from a full quota accepting a few more within its refill passes', run: () => keyRun({ start: startAt(60, S0 + 40), burst: bucketBurst(60, 4) }), outcome: 'pass', mentions: ['refilling', '64 accepted from Remaining 60', 'allowance 6'] },
    { title: 'a refilling limiter from a full quota accepting exactly its refill more passes', run: () => keyRun({ start: startAt(60, S0 + 40), burst: bucketBurst(60, 6) }), outcome: 'pass', mentions: ['refilling'] },
    { title: 'a refilling limiter from a full quota accepting beyond its refill fails', run: () => keyRun({ start: startAt(60, S0 + 40), burst: bucketBurst(60, 7) }), outcome: 'fail', code: 'more-than-refill-allows', mentions: ['67 accepted', 'give back meanwhile (6'] },
    // From a spent part, a sliding log gives back what ages out: up to the whole quota, no more.
    { title: 'a refilling limiter from Remaining 20 accepting up to the whole quota passes (a sliding log)', run: () => keyRun({ start: startAt(20, S0 + 40), burst: bucketBurst(20, 40) }), outcome: 'pass', mentions: ['60 accepted from Remaining 20', 'allowance 40'] },
    { title: 'a refilling limiter from Remaining 20 accepting more than the whole quota fails', run: () => keyRun({ start: startAt(20, S0 + 40), burst: bucketBurst(20, 41) }), outcome: 'fail', code: 'more-than-refill-allows', mentions: ['61 accepted', 'give back meanwhile (40'] },
    { title: 'a refilling limiter accepting fewer than Remaining fails', run: () => keyRun({ start: startAt(20, S0 + 40), burst: bucketBurst(20, -2) }), outcome: 'fail', code: 'refused-before-quota', mentions: ['a 429 after 18 accepted', 'Remaining said 20'] },
    { title: 'no burst: skip', run: () => keyRun({ start: startAt(10) }), outcome: 'skip' },
    { title: 'no Remaining on the start probe: skip', run: () => keyRun({ start: observation(T0, 200, { limit: 60 }), burst: fixedBurst(10, 10) }), outcome: 'skip' },
    // The clocks compare to the second at best: a fixed window may turn during the burst.
    { title: 'a fixed window turning during the burst counts the new window only, and passes', run: () => keyRun({ start: startAt(57), burst: turningBurst(57, 20, 60) }), outcome: 'pass', mentions: ['exactly 60', 'turned during the burst', `Reset ${RESET} to ${RESET + 60}`, 'after 20 accepted'] },
    { title: 'a fixed window turning between the probe and the burst counts the new window, and passes', run: () => keyRun({ start: startAt(57), burst: turningBurst(57, 0, 60) }), outcome: 'pass', mentions: ['exactly 60', 'after 0 accepted'] },
    { title: 'a turned window accepting one too many fails', run: () => keyRun({ start: startAt(57), burst: turningBurst(57, 20, 61) }), outcome: 'fail', code: 'not-the-stated-quota', mentions: ['61 requests accepted', 'the new window started at Remaining 60'] },
    { title: 'a window that turned before its Remaining was spent is no proof of too many', run: () => keyRun({ start: startAt(57), burst: turningBurst(57, 57, 60) }), outcome: 'pass', mentions: ['exactly 60'] },
  ])('$title', (c) => {
    expectCase(judgeQuota(c.run()), c);
  });
});

/** Free on 4-second windows, as the legal servers meet the harness on the virtual clock. */
const SHORT = { quota: QUOTA, windows: { minute: 4, day: 40 } };

describe('judgeQuota: Resets rounded with noise, answers out of order', () => {
  /**
   * A sliding log with Reset rounded from a noisy reading (sliding-log with reset-jitter, 4 s
   * windows): from Remaining 58 (two spent a second or more before), Resets S0+5 or S0+6 while the
   * log would empty, and at Remaining 0 S0+3, when its oldest request leaves: 3 s back, no turn.
   */
  const noisyLog = (accepted = 58): KeyRun => {
    const points: TimelinePoint[] = Array.from({ length: accepted }, (_, i) => {
      const t = T0 + 950 + i * 16;
      return { t, sentAt: t - 2, status: 200, limit: 60, remaining: Math.max(0, 57 - i), reset: i === accepted - 1 ? S0 + 3 : S0 + 5 + (i % 3 === 1 ? 1 : 0), date: httpDate(t), conn: 1 + (i % 4) };
    });
    const t = T0 + 950 + accepted * 16;
    points.push({ t, sentAt: t - 2, status: 429, limit: 60, remaining: 0, reset: S0 + 5, retryAfter: '3', date: httpDate(t), conn: 2 });
    return keyRun({ ...SHORT, start: startAt(58, S0 + 5), burst: burstData(points, { startedAt: T0 + 950, durationMs: accepted * 16 + 10 }) });
  };

  /**
   * A fixed window turning during the burst, its Resets rounded with noise (a second either side of
   * each end, as clock-behind with reset-jitter showed): `before` accepted from Remaining `start`
   * with Resets S0-1..S0+1, then `after` in the next window, S0+3..S0+5, from 59 down.
   */
  const noisyTurn = (start: number, before: number, after: number): KeyRun => {
    const noise = (i: number) => [0, 1, -1, 0, 1, 0, -1][i % 7]!;
    const points: TimelinePoint[] = [];
    for (let i = 0; i < before; i++) points.push({ t: T0 - 800 + i * 16, sentAt: T0 - 802 + i * 16, status: 200, limit: 60, remaining: start - 1 - i, reset: S0 + noise(i), conn: 1 + (i % 4) });
    for (let i = 0; i < after; i++) points.push({ t: T0 + 10 + i * 16, sentAt: T0 + 8 + i * 16, status: 200, limit: 60, remaining: Math.max(0, 59 - i), reset: S0 + 4 + noise(i + 3), conn: 1 + (i % 4) });
    const t = T0 + 10 + after * 16;
    points.push({ t, sentAt: t - 2, status: 429, limit: 60, remaining: 0, reset: S0 + 4, retryAfter: '4', conn: 1 });
    return keyRun({ ...SHORT, start: observation(T0 - 820, 200, { limit: 60, remaining: start, reset: S0 }), burst: burstData(points, { startedAt: T0 - 820, durationMs: 1_700 }) });
  };

  /** A token bucket from Remaining 20 whose last 2xx, sent with the 429 on another connection, arrives just after it; `sentLater` ms after the 429's request. */
  const reordered = (sentLater: number): KeyRun => {
    const { points, ...rest } = bucketBurst(20, 0);
    const refusal = points.at(-1)!;
    const last = points.at(-2)!;
    const sentAt = refusal.t - 1;
    const moved = [...points.slice(0, -2), { ...refusal, sentAt, conn: 1 }, { ...last, t: refusal.t + 1, sentAt: sentAt + sentLater, conn: 2 }];
    return keyRun({ start: startAt(20, S0 + 40), burst: { ...rest, points: moved } });
  };

  it.each<Case>([
    { title: "a sliding log's Reset falling back at Remaining 0 is no window's turn: exactly Remaining passes", run: () => noisyLog(), outcome: 'pass', mentions: ['refilling limiter', '58 accepted from Remaining 58'] },
    { title: 'the same log accepting fewer than Remaining still fails', run: () => noisyLog(56), outcome: 'fail', code: 'refused-before-quota', mentions: ['a 429 after 56 accepted requests', 'Remaining said 58'] },
    { title: "a fixed window turning under noisy Resets counts the new window's 60, and passes", run: () => noisyTurn(58, 44, 60), outcome: 'pass', mentions: ['fixed window: exactly 60', 'turned during the burst', 'after 44 accepted'] },
    { title: 'the noisy turned window accepting one too many fails', run: () => noisyTurn(58, 44, 61), outcome: 'fail', code: 'not-the-stated-quota', mentions: ['61 requests accepted', 'the new window started at Remaining 60'] },
    { title: 'a refilling limiter whose last 2xx, sent with the 429, arrives after it passes', run: () => reordered(0), outcome: 'pass', mentions: ['19 accepted from Remaining 20 (and 1 sent with the first 429, answered after it)'] },
    { title: 'a 2xx sent after the 429 is not counted: fewer than Remaining still fails', run: () => reordered(5), outcome: 'fail', code: 'refused-before-quota', mentions: ['a 429 after 19 accepted requests', 'Remaining said 20'] },
  ])('$title', (c) => {
    expectCase(judgeQuota(c.run()), c);
  });
});

/** When the example 429 arrives: 1 s after T0, 44 s before RESET. */
const T429 = T0 + 1_000;

/**
 * A run whose burst is one accepted request and a 429 at T429 (Reset RESET, Date T429, Retry-After
 * 44), with `changes` applied to the 429; a change to undefined removes that field.
 */
function rejectedRun(changes: Partial<TimelinePoint> = {}): KeyRun {
  const rejected: TimelinePoint = { t: T429, status: 429, limit: 60, remaining: 0, reset: RESET, retryAfter: '44', date: httpDate(T429), ...changes };
  for (const k of Object.keys(rejected) as (keyof TimelinePoint)[]) if (rejected[k] === undefined) delete rejected[k];
  const ok: TimelinePoint = { t: T0 + 500, status: 200, limit: 60, remaining: 0, reset: RESET, date: httpDate(T0 + 500) };
  return keyRun({ start: startAt(1), burst: burstData([ok, rejected]) });
}

describe('judgeRetryAfterConsistent', () => {
  it.each<{ title: string; changes: Partial<TimelinePoint>; outcome: Outcome; mentions?: string[] }>([
    { title: 'delta-seconds from the Date to Reset passes', changes: {}, outcome: 'pass' },
    { title: 'one second later than Reset passes', changes: { retryAfter: '45' }, outcome: 'pass' },
    { title: 'one second earlier than Reset passes', changes: { retryAfter: '43' }, outcome: 'pass' },
    { title: 'two seconds later than Reset fails', changes: { retryAfter: '46' }, outcome: 'fail', mentions: [`points at ${RESET + 2}`, `X-RateLimit-Reset at ${RESET}`] },
    { title: 'the same wait in milliseconds fails', changes: { retryAfter: '44000' }, outcome: 'fail', mentions: ['"44000"', 'Retry-After 44000 looks like milliseconds (44 s would match Reset)'] },
    { title: 'an HTTP-date naming the Reset moment passes', changes: { retryAfter: httpDate(RESET * 1000) }, outcome: 'pass' },
    { title: 'an HTTP-date 10 s after Reset fails', changes: { retryAfter: httpDate((RESET + 10) * 1000) }, outcome: 'fail', mentions: [`points at ${RESET + 10}`] },
    { title: 'delta-seconds count from the Date header, not from a late arrival', changes: { t: T0 + 3_000, date: httpDate(T0), retryAfter: '45' }, outcome: 'pass' },
    { title: 'without a Date header, delta-seconds count from the arrival', changes: { date: undefined }, outcome: 'pass' },
    { title: 'without a Date header, a late arrival shifts the moment', changes: { t: T0 + 5_000, date: undefined }, outcome: 'fail', mentions: [`points at ${RESET + 4}`] },
    { title: 'a value that names no moment fails', changes: { retryAfter: 'soon' }, outcome: 'fail', mentions: ['"soon" names no moment'] },
  ])('$title', ({ changes, outcome, mentions }) => {
    expectFinding(judgeRetryAfterConsistent(rejectedRun(changes)), outcome, mentions);
  });

  // One clock per comparison (issue 37): the window ends at S0 + 44.398 (Reset rounded up: RESET);
  // the 429 leaves at T0 + 1.9 s, in its Date's second S0 + 1. A fractional Retry-After counts from
  // that sending, somewhere in the Date's second: [S0 + 1 + d, S0 + 1.999 + d]; it agrees with
  // Reset when some moment of that lies within the check's second of RESET.
  it.each<{ title: string; retryAfter: string; outcome: Outcome; mentions?: string[] }>([
    { title: 'the exact wait (1.9 s into the second, 42.498 s) agrees with Reset rounded up', retryAfter: '42.498', outcome: 'pass' },
    { title: 'a wait whose latest moment is exactly 1 s before Reset agrees', retryAfter: '42.001', outcome: 'pass' },
    { title: 'a wait whose latest moment is 1.002 s before Reset does not', retryAfter: '41.999', outcome: 'fail', mentions: [`points at ${RESET - 3}.999 to ${RESET - 2}.998`, '1.002 s apart'] },
    { title: 'a wait whose earliest moment is exactly 1 s after Reset agrees', retryAfter: '45.0', outcome: 'pass' },
    { title: 'a wait whose earliest moment is 1.01 s after Reset does not', retryAfter: '45.01', outcome: 'fail', mentions: ['1.01 s apart'] },
  ])('a fractional Retry-After and a whole-second Date: $title', ({ retryAfter, outcome, mentions }) => {
    expectFinding(judgeRetryAfterConsistent(rejectedRun({ t: T0 + 1_900, date: httpDate(T0 + 1_000), retryAfter })), outcome, mentions);
  });

  it('without a Date, our clock places the sending between the request and its answer (ms)', () => {
    // Sent at T0 + 1.0 s, answered at T0 + 1.9 s: 42.498 names S0 + 43.498 to S0 + 44.398.
    expectFinding(judgeRetryAfterConsistent(rejectedRun({ t: T0 + 1_900, sentAt: T0 + 1_000, date: undefined, retryAfter: '42.498' })), 'pass');
    expectFinding(judgeRetryAfterConsistent(rejectedRun({ t: T0 + 1_900, sentAt: T0 + 1_000, date: undefined, retryAfter: '41.5' })), 'fail', ['1.6 s apart']);
  });

  it.each<{ title: string; run: () => KeyRun }>([
    { title: 'no Retry-After', run: () => rejectedRun({ retryAfter: undefined }) },
    { title: 'no X-RateLimit-Reset on the 429', run: () => rejectedRun({ reset: undefined }) },
    { title: 'no 429', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { no429: true }) }) },
    { title: 'no burst', run: () => keyRun() },
  ])('skips with $title', ({ run }) => {
    expectFinding(judgeRetryAfterConsistent(run()), 'skip');
  });
});

describe('judgeRetryAfterHonoured', () => {
  const retried = (status: number) => () => keyRun({ ...rejectedRun(), retry: { waitedMs: 44_000, next: observation(T429 + 44_000, status, { limit: 60, remaining: 59, reset: RESET + 60 }) } });
  it.each<Case>([
    { title: 'a 200 after waiting passes', run: retried(200), outcome: 'pass', mentions: ['waited 44000 ms, then 200'] },
    { title: 'a 429 after waiting fails', run: retried(429), outcome: 'fail', code: 'refused-after-waiting', mentions: ['44000 ms', 'got 429'] },
    { title: 'a 503 after waiting fails', run: retried(503), outcome: 'fail', code: 'refused-after-waiting', mentions: ['got 503'] },
    { title: 'no retry (no usable Retry-After): skip', run: () => rejectedRun(), outcome: 'skip' },
  ])('$title', (c) => {
    expectCase(judgeRetryAfterHonoured(c.run()), c);
  });
});

describe('judgeIsolation', () => {
  const before = observation(T0 - 10_000, 200, { limit: 60, remaining: 50, reset: RESET });
  const isolated = (after: Look) => () => keyRun({ isolation: { exhausted: 'free-b', before, after } });
  it.each<Case>([
    { title: '2xx with Remaining one lower (its own request) passes', run: isolated(observation(T0, 200, { limit: 60, remaining: 49, reset: RESET })), outcome: 'pass', mentions: ['untouched by free-b', 'Remaining 49'] },
    { title: '2xx with Remaining unchanged passes', run: isolated(observation(T0, 200, { limit: 60, remaining: 50, reset: RESET })), outcome: 'pass' },
    { title: '429 fails, naming the exhausted key', run: isolated(observation(T0, 429, { limit: 60, remaining: 0, reset: RESET, retryAfter: '45' })), outcome: 'fail', code: 'refused-after-other-key', mentions: ['got 429', 'free-b'] },
    { title: 'another error status fails naming it', run: isolated(observation(T0, 503)), outcome: 'fail', code: 'not-accepted-after-other-key', mentions: ['got 503'] },
    { title: "Remaining lowered by the other key's burst (same Reset) fails", run: isolated(observation(T0, 200, { limit: 60, remaining: 30, reset: RESET })), outcome: 'fail', code: 'counted-other-key', mentions: ['fell from 50 to 30', 'free-b'] },
    { title: 'the window changed between the probes (Reset differs): only the 2xx is needed', run: isolated(observation(T0 + 60_000, 200, { limit: 60, remaining: 30, reset: RESET + 60 })), outcome: 'pass' },
    { title: 'a 2xx without Remaining passes', run: isolated(observation(T0, 200)), outcome: 'pass' },
    { title: 'no other key of the plan was exhausted first: skip', run: () => keyRun(), outcome: 'skip', mentions: ['plan free'] },
  ])('$title', (c) => {
    expectCase(judgeIsolation(c.run()), c);
  });

  it('expects Remaining one below the first probe', () => {
    const finding = judgeIsolation(isolated(observation(T0, 200, { limit: 60, remaining: 30, reset: RESET }))());
    expect(finding.outcome === 'fail' && [finding.expected, finding.actual]).toEqual(['49', '30']);
  });
});

describe('judgeDailyQuota', () => {
  const block = (changes: Partial<TimelinePoint> = {}): TimelinePoint => ({ t: T0, status: 429, limit: QUOTA.perDay, remaining: 0, reset: S0 + 3600, retryAfter: '3600', date: httpDate(T0), ...changes });
  const dayRun = (day: Partial<DayData>) => () => keyRun({ day: { accepted: 940, acceptedAt: Array(940).fill(S0 - 60), bursts: [], ended: 'day-block', elapsedMs: 1_020_000, block: block(), ...day } });
  it.each<Case>([
    { title: 'a day block with Reset an hour ahead passes', run: dayRun({}), outcome: 'pass', mentions: ['940 accepted in the day window ending at Reset', 'Reset 3600 s ahead'] },
    // Counted per day window from the server's Reset: a drive that straddled two day windows is fine.
    {
      title: 'more accepted over the drive than a day allows passes when the day window holds no more than the quota',
      run: dayRun({ accepted: 1900, acceptedAt: [...Array(950).fill(S0 + 3600 - 86_400 - 10), ...Array(950).fill(S0 - 60)] }),
      outcome: 'pass',
      // Every suite's accepted requests count now, not the drive's alone (no "over the whole drive").
      mentions: ["(every suite's requests counted)"],
    },
    // A fixed day (the day's answers hold one Reset) is counted exactly; a refilling one is judged in 'judgeDailyQuota: counting the day window'.
    { title: 'more accepted within the day window than the quota fails', run: dayRun({ accepted: 1001, acceptedAt: Array(1001).fill(S0 - 60), dayResets: [S0 + 3600, S0 + 3600] }), outcome: 'fail', code: 'over-day-quota', mentions: ['1001 requests accepted in the day window', 'more than the 1000 a day'] },
    // Its Retry-After names the same moment: one that named an earlier one fails (see 'judgeDailyQuota: the spent day').
    { title: 'a day block with Reset one day window ahead passes', run: dayRun({ block: block({ reset: S0 + 86_400, retryAfter: '86400' }) }), outcome: 'pass' },
    { title: 'a day block with Reset just beyond the minute window passes', run: dayRun({ block: block({ reset: S0 + 61 }) }), outcome: 'pass' },
    { title: 'a block naming the minute limit with Reset and Retry-After only the minute window ahead fails', run: dayRun({ block: block({ reset: S0 + 60, limit: QUOTA.perMinute, retryAfter: '60' }) }), outcome: 'fail', code: 'day-reset-not-day-end', mentions: [`X-RateLimit-Reset ${S0 + 60}`, 'not the end of the day window'] },
    // Headers of the minute ("the applicable request limit", variation headers-minute-window): the day's end is what Retry-After names.
    {
      title: "headers of the minute on the day's block (Reset the minute's end): the day window ends where its Retry-After says, and passes",
      run: dayRun({ block: block({ reset: S0 + 60, limit: QUOTA.perMinute, remaining: 12 }) }),
      outcome: 'pass',
      mentions: [`${S0 + 3600}, the day's end its Retry-After 3600 names (its X-RateLimit-* describe the minute)`, '940 accepted'],
    },
    {
      title: 'headers of the minute: more than the quota in the day window its Retry-After names fails',
      run: dayRun({ accepted: 1001, acceptedAt: Array(1001).fill(S0 - 60), block: block({ reset: S0 + 60, limit: QUOTA.perMinute, remaining: 12 }) }),
      outcome: 'fail',
      code: 'over-day-quota',
      mentions: ['1001 requests accepted in the day window that ends at', "the day's end its Retry-After 3600 names"],
    },
    {
      title: 'headers of the minute: requests within a second of the day window its Retry-After names are not counted in it (Retry-After is counted from a whole-second Date)',
      run: dayRun({ accepted: 1001, acceptedAt: [...Array(1000).fill(S0 - 60), S0 + 3600 - 86_400], block: block({ reset: S0 + 60, limit: QUOTA.perMinute, remaining: 12 }) }),
      outcome: 'pass',
      mentions: ['1000 accepted'],
    },
    // A refilling day (token bucket) names its next token, which may be seconds away.
    { title: "a block naming the day's limit with Reset a second ahead passes", run: dayRun({ block: block({ reset: S0 + 1 }) }), outcome: 'pass' },
    { title: 'a block whose Reset is beyond the day window fails', run: dayRun({ block: block({ reset: S0 + 86_402 }) }), outcome: 'fail', code: 'day-reset-not-day-end' },
    { title: "a block without Reset: the day is counted, its Reset not judged (headers.rate-limit-present's)", run: dayRun({ block: block({ reset: undefined }) }), outcome: 'skip', mentions: ['carries no integer X-RateLimit-Reset', 'headers.rate-limit-present'] },
    { title: 'a block whose Reset counts seconds: not judged, quoted', run: dayRun({ block: block({ reset: 40 }) }), outcome: 'skip', mentions: ['"40"', 'seconds until the reset'] },
    { title: 'a block with a negative Reset fails', run: dayRun({ block: block({ reset: -1 }) }), outcome: 'fail', code: 'day-reset-not-after-date', mentions: ['X-RateLimit-Reset -1, not after its Date'] },
    // A moment within the Date's second (a token bucket's next token), rounded down or with noise.
    { title: "a block with headers of the day whose Reset is its Date's second passes", run: dayRun({ block: block({ reset: S0 }) }), outcome: 'pass' },
    { title: "a block with headers of the day whose Reset is a second before its Date fails", run: dayRun({ block: block({ reset: S0 - 1 }) }), outcome: 'fail', code: 'day-reset-not-after-date', mentions: [`X-RateLimit-Reset ${S0 - 1}, not after its Date (${S0})`] },
    // Instances whose Dates disagree (several-instances): a 429 dated by one a second ahead of the
    // limiter's clock names a Reset as much earlier against its Date.
    {
      title: "a day's Reset a second before its Date, from instances whose Dates disagree by a second, passes",
      run: () => keyRun({ burst: skewedBurst(), day: { accepted: 940, acceptedAt: Array(940).fill(S0 - 60), bursts: [], ended: 'day-block', elapsedMs: 1_020_000, block: block({ reset: S0 - 1 }) } }),
      outcome: 'pass',
    },
    {
      title: "a day's Reset two seconds before its Date, from instances whose Dates disagree by a second, fails",
      run: () => keyRun({ burst: skewedBurst(), day: { accepted: 940, acceptedAt: Array(940).fill(S0 - 60), bursts: [], ended: 'day-block', elapsedMs: 1_020_000, block: block({ reset: S0 - 2 }) } }),
      outcome: 'fail',
      code: 'day-reset-not-after-date',
      mentions: ["less the 1 s by which the run's Dates disagree"],
    },
    // Variations headers-minute-window, slow-day, reset-jitter: the minute's Reset of a day's 429
    // answered 1.2 s after it was counted, rounded from a noisy expiry: a second before its Date.
    {
      title: "headers of the minute on the day's block: the minute's Reset a second before the Date of a slow answer passes, the day's end where Retry-After says",
      run: dayRun({ block: block({ reset: S0 - 1, limit: QUOTA.perMinute, remaining: 0 }) }),
      outcome: 'pass',
      mentions: [`${S0 + 3600}, the day's end its Retry-After 3600 names`],
    },
    { title: "headers of the minute on the day's block: a Reset more than CLOCK_SLACK_S before its Date fails", run: dayRun({ block: block({ reset: S0 - 3, limit: QUOTA.perMinute, remaining: 0 }) }), outcome: 'fail', code: 'day-reset-not-after-date', mentions: [`X-RateLimit-Reset ${S0 - 3}, not after its Date`] },
    { title: "headers of the minute on the day's block: a Reset at its Date whose Retry-After names no day's end fails", run: dayRun({ block: block({ reset: S0, limit: QUOTA.perMinute, remaining: 0, retryAfter: '4' }) }), outcome: 'fail', code: 'day-reset-not-day-end' },
    { title: 'without a Date header, the block is measured from its arrival', run: dayRun({ block: { t: T0 + 30_000, status: 429, reset: S0 + 80 } }), outcome: 'fail', code: 'day-reset-not-day-end' },
    // No 429 for the day: counted per day window, whatever the pace.
    {
      title: "ended 'over-quota' fails naming more than two day windows' quota within one window's length",
      run: dayRun({ ended: 'over-quota', accepted: 2001, acceptedAt: Array(2001).fill(S0 - 60), block: undefined }),
      outcome: 'fail', code: 'beyond-any-day',
      mentions: ['2001 requests accepted within 86400 s', 'more than any day limiter lets through'],
    },
    {
      title: "ended 'time' with the quota + 1 in a day window that headers of the day showed fails",
      run: dayRun({ ended: 'time', accepted: 1001, acceptedAt: Array(1001).fill(S0 - 60), dayResets: [S0 + 3600, S0 + 3600], block: undefined }),
      outcome: 'fail', code: 'over-day-quota-shown-window',
      mentions: [`1001 requests accepted in the day window that ends at X-RateLimit-Reset ${S0 + 3600}`],
    },
    // Variations slow-day, clock-ahead, reset-jitter: Resets of one day window rounded a second
    // either way; requests let through in the next window's first second are in the window the
    // latest of them names, but not in every window they name.
    {
      title: "ended 'time', Resets of the day rounded with noise: the quota in every window they name, the next window's first requests not counted, passes",
      run: dayRun({ ended: 'time', accepted: 1003, acceptedAt: [...Array(1000).fill(S0 - 60), ...Array(3).fill(S0 + 3600)], dayResets: [S0 + 3600, S0 + 3599, S0 + 3601, S0 + 3600], block: undefined }),
      outcome: 'skip',
    },
    {
      title: "ended 'time', Resets of the day rounded with noise: the quota + 1 in every window they name fails",
      run: dayRun({ ended: 'time', accepted: 1001, acceptedAt: Array(1001).fill(S0 - 60), dayResets: [S0 + 3600, S0 + 3599, S0 + 3601], block: undefined }),
      outcome: 'fail', code: 'over-day-quota-shown-window',
      mentions: [`1001 requests accepted in the day window that ends at X-RateLimit-Reset ${S0 + 3599} to ${S0 + 3601}`],
    },
    {
      title: "ended 'time' within what a day allows is not judged: the harness could not spend a day's quota in one window",
      run: dayRun({ ended: 'time', accepted: 600, block: undefined }),
      outcome: 'skip',
      mentions: ['no 429 for the day came before 1020 s passed', 'not reached: sent 940 in the busiest 86400 s', 'the quota being 1000', 'not judged'],
    },
    {
      title: "slow answers over two day windows, 1500 accepted, none over a day's quota in a window: not judged, not failed",
      run: dayRun({ ended: 'time', accepted: 1500, acceptedAt: [...Array(750).fill(S0 - 86_400 + 10), ...Array(750).fill(S0 + 10)], block: undefined }),
      outcome: 'skip',
      mentions: ['not reached: sent 750 in the busiest 86400 s'],
    },
    { title: 'the skipped reason passes through as skip', run: () => keyRun({ daySkipped: 'the day window is 86400 s; --soak spends the day' }), outcome: 'skip', mentions: ['the day window is 86400 s; --soak spends the day'] },
    { title: 'not driven: skip', run: () => keyRun(), outcome: 'skip' },
  ])('$title', (c) => {
    expectCase(judgeDailyQuota(c.run()), c);
  });
});

describe('judgeBoundaryRace', () => {
  /** A fixed window of 20 down to Remaining 1, then two requests together with the given statuses, then (unless `no429`) the next one refused. */
  function raced(statuses: number[], o: { reset?: number; no429?: boolean } = {}): KeyRun {
    const burst = fixedBurst(20, 19, { no429: true });
    const before = burst.points.at(-1)!;
    const together = statuses.map((status, i): TimelinePoint => ({ t: before.t + 5 + i, status, limit: 60, remaining: 0, reset: o.reset ?? RESET, date: httpDate(before.t) }));
    const refused: TimelinePoint[] = o.no429 ? [] : [{ t: before.t + 20, status: 429, limit: 60, remaining: 0, reset: o.reset ?? RESET, retryAfter: '30', date: httpDate(before.t + 20) }];
    const points = [...burst.points, ...together, ...refused];
    return keyRun({ start: startAt(20), burst: burstData(points, { boundaryPair: { before, together } }) });
  }

  it.each<Case>([
    { title: 'one accepted and one 429 passes', run: () => raced([200, 429]), outcome: 'pass', mentions: ['200 and 429'] },
    { title: 'both refused passes (the quota check judges the count)', run: () => raced([429, 429]), outcome: 'pass' },
    { title: 'both accepted in one fixed window fails, naming the race', run: () => raced([200, 200]), outcome: 'fail', code: 'both-accepted', mentions: ['both accepted, one more than Remaining allowed', 'checks, then counts'] },
    { title: 'both accepted but Reset moved to a new window: skip', run: () => raced([200, 200], { reset: RESET + 60 }), outcome: 'skip', mentions: ['a new window'] },
    { title: 'both accepted by a limiter that never refused in the burst: skip, the quota check judges it', run: () => raced([200, 200], { no429: true }), outcome: 'skip', mentions: ['the burst got no 429 at all (rate-limit.quota judges that)'] },
    { title: 'both accepted by a refilling limiter: skip, a token may have come back', run: () => keyRun({ start: startAt(20, S0 + 40), burst: { ...bucketBurst(20, 4), boundaryPair: { before: bucketBurst(20, 4).points[0]!, together: bucketBurst(20, 4).points.slice(1, 3) } } }), outcome: 'skip', mentions: ['not a fixed window'] },
    { title: 'no pair went out: skip saying why', run: () => keyRun({ start: startAt(20), burst: fixedBurst(20, 20) }), outcome: 'skip', mentions: ['no accepted response saying Remaining 1'] },
    { title: 'one of the pair unanswered: skip', run: () => raced([200]), outcome: 'skip', mentions: ['only 1 was answered'] },
    { title: 'not driven: skip', run: () => keyRun(), outcome: 'skip', mentions: ['not driven'] },
  ])('$title', (c) => {
    expectCase(judgeBoundaryRace(c.run()), c);
  });
});

describe('judgePerConnection', () => {
  /**
   * `conns` connections taking turns, `each` accepted on each. Shared: Remaining falls by one per
   * request over all connections. Per connection: each counts its own down from the quota.
   */
  function turns(conns: number, each: number, shared: boolean): KeyRun {
    const points: TimelinePoint[] = [];
    for (let i = 0; i < conns * each; i++) {
      const conn = (i % conns) + 1;
      const own = Math.floor(i / conns);
      points.push({ t: T0 + i * 5, status: 200, limit: 60, remaining: shared ? 59 - i : 59 - own, reset: RESET, conn });
    }
    return keyRun({ start: startAt(60), burst: burstData(points, { ended: 'max-requests', durationMs: conns * each * 5 }) });
  }

  it.each<Case>([
    { title: 'one quota over four connections passes', run: () => turns(4, 15, true), outcome: 'pass', mentions: ['60 accepted over 4 connections'] },
    { title: 'each connection counting its own quota, more accepted than the plan allows, fails with counts by connection', run: () => turns(4, 30, false), outcome: 'fail', code: 'quota-per-connection', mentions: ['each connection counts its own quota', '120 accepted over 4 connections'] },
    { title: 'per-connection counting that stays within the plan is not failed here (nothing over)', run: () => turns(4, 10, false), outcome: 'pass' },
    { title: 'one connection only: skip', run: () => turns(1, 20, true), outcome: 'skip', mentions: ['1 connection only'] },
    { title: 'not driven: skip', run: () => keyRun(), outcome: 'skip', mentions: ['not driven'] },
  ])('$title', (c) => {
    expectCase(judgePerConnection(c.run()), c);
  });

  it('puts the counts by connection in the evidence', () => {
    const finding = judgePerConnection(turns(2, 40, false));
    expect(finding.outcome === 'fail' && finding.actual).toBe('connection 1: 40 accepted, Remaining 59 to 20; connection 2: 40 accepted, Remaining 59 to 20');
  });
});

describe('describeBan', () => {
  const fiveTimes = [429, 429, 429, 429, 429];
  it.each<{ title: string; ban: KeyRun['ban']; outcome: Outcome; mentions: string[] }>([
    { title: 'a key still refused after waiting is recorded as banned', ban: { statuses: fiveTimes, after: observation(T0, 429, { retryAfter: '600' }) }, outcome: 'pass', mentions: ['429, 429, 429, 429, 429', 'looks banned', '(600)'] },
    { title: 'a refusal without Retry-After says so', ban: { statuses: fiveTimes, after: observation(T0, 429) }, outcome: 'pass', mentions: ['no Retry-After'] },
    { title: 'a key accepted after waiting is recorded as not banned', ban: { statuses: fiveTimes, after: observation(T0, 200) }, outcome: 'pass', mentions: ['200 after waiting Retry-After: no ban'] },
    { title: 'a 403 ban is recorded with its statuses, never failed', ban: { statuses: [429, 403, 403, 403, 403], after: observation(T0, 403) }, outcome: 'pass', mentions: ['429, 403, 403, 403, 403', '403 after waiting'] },
    { title: 'a key that was not probed: skip', ban: undefined, outcome: 'skip', mentions: ['disposable'] },
  ])('$title', ({ ban, outcome, mentions }) => {
    expectFinding(describeBan(keyRun(ban ? { ban } : {})), outcome, mentions);
  });

  const banned = observation(T0, 429, { limit: 60, remaining: 0, reset: S0 + 600, retryAfter: '600' });
  const unavailable = { reason: 'free-a was refused before the harness sent it anything more: asked to wait 600 s; not driven', refusal: banned };

  it('a key refused from its first request is recorded as looking banned, with Retry-After and how far Reset lies ahead', () => {
    expectFinding(describeBan(keyRun({ unavailable })), 'pass', ['refused from its first request', 'Retry-After 600', 'X-RateLimit-Reset 600 s ahead', 'looks banned', 'another key of plan free']);
  });

  it('a key refused with 403 from its first request is recorded as looking banned', () => {
    const refusal = observation(T0, 403);
    expectFinding(describeBan(keyRun({ unavailable: { reason: 'free-a got 403 to its first request', refusal } })), 'pass', ['refused from its first request: 403; it looks banned']);
  });

  it('a ban met by a key that is not disposable is recorded too', () => {
    const forDays = observation(T0, 429, { limit: 60, remaining: 0, reset: S0 + 172_800, retryAfter: '172800' });
    expectFinding(describeBan(keyRun({ start: startAt(20), retry: { waitedMs: 45_000, next: forDays } })), 'pass', ['1 429(s) keeping the key out beyond the day window (Retry-After 172800)', 'a ban']);
  });

  it("a polite key's 429 that keeps it out beyond a minute but within the day is the day's, not a ban", () => {
    expectFinding(describeBan(keyRun({ start: startAt(20), retry: { waitedMs: 45_000, next: banned } })), 'skip', ['only keys marked disposable are probed']);
  });

  it('every other check of a key that was not driven skips with the reason, never passes or fails', () => {
    for (const def of RATE_LIMIT_CHECKS.filter((c) => c.id !== 'rate-limit.ban-probe')) {
      expect({ id: def.id, ...def.judge(keyRun({ unavailable, start: banned })) }).toEqual({ id: def.id, outcome: 'skip', message: unavailable.reason });
    }
  });
});

describe('describeLoad', () => {
  it('records sent, accepted, 429, other and in-flight counts, achieved against asked rate, and latency', () => {
    const points = [...fixedBurst(10, 10).points, { t: T0 + 1_150, status: 503, afterStop: true }];
    const finding = describeLoad(keyRun({ burst: burstData(points, { sent: 14, durationMs: 2_000, askedRate: 4 }) }));
    expectFinding(finding, 'pass', ['free-a: 14 sent', '10 accepted', '1 × 429', '1 other', '2 in flight at the stop', '6 req/s achieved of 4 asked', 'p50 12 ms', 'p90 30 ms', 'p99 80 ms']);
  });

  it('never fails, whatever the load saw', () => {
    const points: TimelinePoint[] = Array.from({ length: 5 }, (_, i) => ({ t: T0 + i, status: 500 }));
    expectFinding(describeLoad(keyRun({ burst: burstData(points, { ended: 'max-duration', durationMs: 0, askedRate: 66.7 }) })), 'pass', ['0 accepted', '0 × 429', '5 other', '0 req/s achieved of 67 asked']);
  });

  it('skips when no load ran', () => {
    expectFinding(describeLoad(keyRun()), 'skip');
  });
});

describe('limiterKind', () => {
  const ok = (reset?: number, remaining?: number): TimelinePoint => ({ t: T0, status: 200, ...(reset === undefined ? {} : { reset }), ...(remaining === undefined ? {} : { remaining }) });
  it.each<{ title: string; points: TimelinePoint[]; rate: number; kind: ReturnType<typeof limiterKind> }>([
    { title: 'no points: unknown', points: [], rate: 1, kind: 'unknown' },
    { title: 'one Reset on every accepted response, as many as a second refills: fixed', points: fixedBurst(5, 5).points, rate: 5, kind: 'fixed' },
    { title: 'one Reset over fewer accepted responses than a second refills: unknown', points: fixedBurst(5, 5).points, rate: 75, kind: 'unknown' },
    { title: 'a 429 with another Reset does not count', points: [ok(RESET), ok(RESET), { t: T0, status: 429, reset: RESET + 60 }], rate: 1, kind: 'fixed' },
    { title: 'accepted responses without Reset: nothing moved, fixed', points: [ok(), ok()], rate: 1, kind: 'fixed' },
    { title: 'Reset moving between accepted responses: refilling', points: bucketBurst(5, 1).points, rate: 1, kind: 'refilling' },
    { title: 'two Resets, one second apart: refilling', points: [ok(RESET), ok(RESET + 1)], rate: 1, kind: 'refilling' },
    { title: 'a positive Remaining seen twice: refilling', points: [ok(RESET, 3), ok(RESET, 2), ok(RESET, 3)], rate: 1, kind: 'refilling' },
    // A fixed window whose Reset is rounded with noise: a second either side, back and forth.
    { title: 'Resets a second either side of the end, going back and forth as Remaining falls: fixed', points: [ok(RESET, 6), ok(RESET + 1, 5), ok(RESET - 1, 4), ok(RESET + 1, 3), ok(RESET - 1, 2), ok(RESET, 1)], rate: 1, kind: 'fixed' },
    { title: 'Resets that go back once only (two answers swapped near a second\'s edge): refilling', points: [ok(RESET, 5), ok(RESET + 1, 4), ok(RESET, 3), ok(RESET + 1, 2)], rate: 1, kind: 'refilling' },
    { title: 'Resets that only move forward as Remaining falls: refilling', points: [ok(RESET, 5), ok(RESET, 4), ok(RESET + 1, 3), ok(RESET + 2, 2)], rate: 1, kind: 'refilling' },
    { title: 'Resets going back but 3 s apart: refilling', points: [ok(RESET, 5), ok(RESET + 3, 4), ok(RESET + 1, 3)], rate: 1, kind: 'refilling' },
  ])('$title', ({ points, rate, kind }) => {
    expect(limiterKind(points, rate)).toBe(kind);
  });

  it('resetJitter gives the spread of a noisy fixed window, 0 for a clean or refilling one', () => {
    expect(resetJitter([ok(RESET, 5), ok(RESET + 1, 4), ok(RESET - 1, 3), ok(RESET + 1, 2), ok(RESET - 1, 1)])).toBe(2);
    // Only positive, distinct Remainings give the server's order: repeated ones prove nothing.
    expect(resetJitter([ok(RESET, 2), ok(RESET + 1, 2), ok(RESET - 1, 1), ok(RESET + 1, 0), ok(RESET - 1, 0)])).toBe(0);
    expect(resetJitter([ok(RESET, 3), ok(RESET, 2)])).toBe(0);
    expect(resetJitter([ok(RESET, 3), ok(RESET + 1, 2)])).toBe(0);
  });

  it('a noisy fixed window is judged as fixed: the exact count passes, one too many fails, and it is described as fixed', () => {
    const jittered = (n: number, extra = 0): TimelinePoint[] => [
      ...Array.from({ length: n + extra }, (_, i) => ({ t: T0 + i * 10, status: 200, limit: 60, remaining: Math.max(0, n - 1 - i), reset: RESET + ((i % 3) - 1), date: httpDate(T0) })),
      { t: T0 + (n + extra) * 10, status: 429, limit: 60, remaining: 0, reset: RESET, retryAfter: '47', date: httpDate(T0) },
    ];
    expectFinding(judgeQuota(keyRun({ start: startAt(20), burst: burstData(jittered(20)) })), 'pass', ['fixed window: exactly 20']);
    expectFinding(judgeQuota(keyRun({ start: startAt(20), burst: burstData(jittered(20, 1)) })), 'fail', ['21 requests accepted']);
    expectFinding(judgeRetryAfterConsistent(keyRun({ start: startAt(20), burst: burstData(jittered(20)) })), 'pass');
    expect(summariseKey(keyRun({ start: startAt(20), burst: burstData(jittered(20)) })).behaviour).toBe('fixed window (Reset rounded with noise: up to 2 s apart)');
  });
});

describe('pointsOf', () => {
  it('merges the start probe, the burst and the retry probe in time order', () => {
    const burst = burstData([
      { t: T0 + 100, status: 200, remaining: 1 },
      { t: T0 + 300, status: 429, remaining: 0 },
    ]);
    const run = keyRun({ start: observation(T0 + 200, 200, { remaining: 2 }), burst, retry: { waitedMs: 1, next: observation(T0 + 50, 200, { remaining: 59 }) } });
    expect(pointsOf(run).map((p) => [p.t - T0, p.remaining])).toEqual([
      [50, 59],
      [100, 1],
      [200, 2],
      [300, 0],
    ]);
    // The burst's own order is left as recorded.
    expect(burst.points.map((p) => p.t - T0)).toEqual([100, 300]);
  });

  it('turns a probe into a timeline point: integer headers parsed, Retry-After and Date kept', () => {
    const start = observation(T0, 200, { limit: '60', remaining: ' 7 ', reset: `${RESET}`, retryAfter: '30' });
    expect(pointsOf(keyRun({ start }))).toEqual([{ t: T0, status: 200, limit: 60, remaining: 7, reset: RESET, retryAfter: '30', date: httpDate(T0) }]);
  });

  it('leaves out headers that are not integers', () => {
    const start = observation(T0, 200, { limit: '60 requests', remaining: '1.5', reset: '', date: null });
    expect(pointsOf(keyRun({ start }))).toEqual([{ t: T0, status: 200 }]);
  });

  it('keeps a negative integer, so the Remaining check can name it', () => {
    expect(pointsOf(keyRun({ start: observation(T0, 429, { remaining: '-1' }) }))[0]?.remaining).toBe(-1);
  });

  it('is empty for a run that recorded nothing', () => {
    expect(pointsOf(keyRun())).toEqual([]);
  });
});

describe('every finding', () => {
  it('that fails says what was expected and what came back', () => {
    const failing: Finding[] = [
      judgeLimitHeader(keyRun({ start: startAt(1, RESET, 300) })),
      judgeResetHeader(keyRun({ start: startAt(1, S0 - 30) })),
      judgeRemaining(keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { remainings: Array(10).fill(10) }) })),
      judgeQuota(keyRun({ start: startAt(10), burst: fixedBurst(10, 9) })),
      judgeRetryAfterConsistent(rejectedRun({ retryAfter: '44000' })),
    ];
    for (const f of failing) expectFinding(f, 'fail');
  });
});

/** Where the day window of the examples ends: an hour after T0. */
const DAY_RESET = S0 + 3600;
/** Where that day window started. */
const DAY_START = DAY_RESET - WINDOWS.day;

/** The probe before a burst, its headers describing the day: Remaining `remaining` of 1000. */
const dayStart = (remaining: number) => startAt(remaining, DAY_RESET, QUOTA.perDay);

/**
 * A burst whose accepted answers describe the day (Limit 1000, Reset an hour ahead) from Remaining
 * `start`, then a 429 whose Retry-After (`retryAfter`) tells which window refused.
 */
/** Headers of the day window: its 429 says what the day still has (a minute's 429 described by the day), unless told otherwise. */
const dayHeadersBurst = (start: number, n: number, o: Omit<FixedOptions, 'limit' | 'reset'> = {}) => fixedBurst(start, n, { limit: QUOTA.perDay, reset: DAY_RESET, rejectedRemaining: Math.max(0, start - n), ...o });

describe('describeHeadersWindow', () => {
  it.each<Case>([
    { title: 'the minute only', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10) }), outcome: 'pass', mentions: ['free-a: the minute window (Limit 60) on all 12 responses'] },
    { title: 'the day only', run: () => keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 5, { retryAfter: '15' }) }), outcome: 'pass', mentions: ['free-a: the day window (Limit 1000) on all 7 responses'] },
    {
      title: 'both: the minute, then the day',
      run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10), retry: { waitedMs: 44_000, next: observation(T0 + 45_000, 200, { limit: QUOTA.perDay, remaining: 30, reset: DAY_RESET }) } }),
      outcome: 'pass',
      mentions: ['the minute window (Limit 60) on 12 responses, the day window (Limit 1000) on 1'],
    },
    { title: 'responses without X-RateLimit-Limit are not counted', run: () => keyRun({ start: observation(T0, 200, { remaining: 10, reset: RESET }), burst: fixedBurst(10, 3) }), outcome: 'pass', mentions: ['on all 4 responses'] },
    { title: 'no X-RateLimit-Limit anywhere: skip', run: () => keyRun({ start: observation(T0, 200, { remaining: 10, reset: RESET }) }), outcome: 'skip', mentions: ['no response of free-a carried an integer X-RateLimit-Limit'] },
    { title: 'not driven: skip', run: () => keyRun(), outcome: 'skip' },
  ])('$title', (c) => {
    expectCase(describeHeadersWindow(c.run()), c);
  });

  it('reads a Limit that is both quotas (a plan whose day is its minute) as the minute', () => {
    const run = keyRun({ quota: { perMinute: 60, perDay: 60 }, start: startAt(10), burst: fixedBurst(10, 10) });
    expectFinding(describeHeadersWindow(run), 'pass', ['the minute window (Limit 60) on all 12 responses']);
  });

  it('is recorded as info', () => {
    expect(headersWindow.id).toBe('rate-limit.headers-window');
    expect(headersWindow.severity).toBe('info');
    expect(RATE_LIMIT_CHECKS).toContain(headersWindow);
  });
});

describe('judgeBindingHeaders', () => {
  /** Minute headers from Remaining 39; after 20 accepted, a 429 whose Reset (no Retry-After) lies an hour ahead. */
  function dayRefusalByReset(): KeyRun {
    const burst = fixedBurst(39, 20, { retryAfter: null });
    burst.points.at(-1)!.reset = DAY_RESET;
    return keyRun({ start: startAt(39), burst });
  }

  it.each<Case>([
    { title: "the minute's headers, and the minute refuses first, passes", run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10) }), outcome: 'pass', mentions: ['the headers describe the minute window, whose quota refused first (after 10 accepted, Remaining said 10)'] },
    { title: "the day's headers, and the day refuses first, passes", run: () => keyRun({ start: dayStart(5), burst: dayHeadersBurst(5, 5, { retryAfter: '3600' }) }), outcome: 'pass', mentions: ['describe the day window, whose quota refused first (after 5 accepted, Remaining said 5)'] },
    {
      title: "the day's headers, refused by the minute (Retry-After within a minute), fails",
      run: () => keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 45, { retryAfter: '15', rejectedRemaining: 843 }) }),
      outcome: 'fail', code: 'other-limit-binds',
      mentions: ["free-a: the headers do not show the limit that binds: they describe the day window (Remaining said 888), but the minute's quota refused after 45 accepted", ', and the 429 itself says Remaining 843'],
    },
    {
      title: "the minute's headers, refused by the day (Retry-After beyond a minute), fails",
      run: () => keyRun({ start: startAt(39), burst: fixedBurst(39, 20, { retryAfter: '3600' }) }),
      outcome: 'fail', code: 'other-limit-binds',
      mentions: ["they describe the minute window (Remaining said 39), but the day's quota refused after 20 accepted"],
    },
    { title: "the minute's headers, refused by the day (no Retry-After, Reset beyond a minute), fails", run: dayRefusalByReset, outcome: 'fail', code: 'other-limit-binds', mentions: ["the day's quota refused after 20 accepted"] },
    // Remaining said 21, 20 accepted: one off is not judged a mismatch.
    { title: 'a mismatch of one request is not judged', run: () => keyRun({ start: startAt(21), burst: fixedBurst(21, 20, { retryAfter: '3600' }) }), outcome: 'pass' },
    {
      title: 'a 429 that says Remaining > 0 fails',
      run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { rejectedRemaining: 3 }) }),
      outcome: 'fail', code: 'remaining-left-on-429',
      mentions: ['free-a: a 429 says X-RateLimit-Remaining 3: the headers do not show the limit that refused'],
    },
    { title: 'no 429: skip', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { no429: true }) }), outcome: 'skip', mentions: ['no 429 came after a response stating Remaining'] },
    // Remaining counts the day under the minute's Limit (rate-limit.headers-one-window's failure): nothing to read which limit binds from.
    { title: 'Remaining that does not count down: skip, naming it', run: () => keyRun({ start: startAt(60), burst: fixedBurst(60, 58, { remainings: Array(58).fill(60), rejectedRemaining: 60 }) }), outcome: 'skip', mentions: ['X-RateLimit-Remaining does not count down (rate-limit.remaining judges that)'] },
    { title: 'Remaining above Limit: skip, naming it', run: () => keyRun({ start: startAt(998), burst: fixedBurst(60, 60, { rejectedRemaining: 940 }) }), outcome: 'skip', mentions: ['X-RateLimit-Remaining 998 is above X-RateLimit-Limit 60 (rate-limit.headers-one-window judges that)'] },
    { title: 'no probe before the burst: skip', run: () => keyRun({ burst: fixedBurst(10, 10) }), outcome: 'skip' },
    { title: 'a probe without Remaining: skip', run: () => keyRun({ start: observation(T0, 200, { limit: 60, reset: RESET }), burst: fixedBurst(10, 10) }), outcome: 'skip' },
    { title: 'not driven: skip', run: () => keyRun(), outcome: 'skip' },
  ])('$title', (c) => {
    expectCase(judgeBindingHeaders(c.run()), c);
  });

  it('says what the headers should have shown, and what they did', () => {
    const dayHeaders = judgeBindingHeaders(keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 45, { retryAfter: '15', rejectedRemaining: 843 }) }));
    expect(dayHeaders.outcome === 'fail' && [dayHeaders.expected, dayHeaders.actual]).toEqual(['X-RateLimit-* of the limit that refuses first (Remaining 45 at the start)', 'Remaining 888, refused after 45']);
    const minuteHeaders = judgeBindingHeaders(keyRun({ start: startAt(39), burst: fixedBurst(39, 20, { retryAfter: '3600' }) }));
    expect(minuteHeaders.outcome === 'fail' && [minuteHeaders.expected, minuteHeaders.actual]).toEqual(['X-RateLimit-* of the limit that refuses first (Remaining 20 at the start)', 'Remaining 39, refused after 20']);
    const leftover = judgeBindingHeaders(keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { rejectedRemaining: 3 }) }));
    expect(leftover.outcome === 'fail' && [leftover.expected, leftover.actual]).toEqual(['Remaining 0 on a 429 of the limit described', 'Remaining 3']);
  });

  it('is a should: either window reads "the applicable request limit"', () => {
    expect(bindingHeaders.id).toBe('rate-limit.binding-headers');
    expect(bindingHeaders.severity).toBe('should');
    expect(RATE_LIMIT_CHECKS).toContain(bindingHeaders);
  });
});

describe('judgeRemainingZeroOn429', () => {
  /** A key whose burst met the minute, then whose day test ended at the day's 429 (`block`), answered at T0 + 30 s. */
  function withDayBlock(block: RateHeaders, burst: BurstData = fixedBurst(10, 10)): KeyRun {
    const t = T0 + 30_000;
    const day: DayData = { accepted: 10, acceptedAt: [], bursts: [], ended: 'day-block', elapsedMs: 1, block: { t, status: 429, ...(block as Partial<TimelinePoint>), date: httpDate(t) } };
    return keyRun({ start: startAt(10), burst, day });
  }

  it.each<Case>([
    { title: "the minute's 429 under the minute's headers, Remaining 0, passes", run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10) }), outcome: 'pass', mentions: ['free-a: Remaining 0 on 1 429s of the window that refused'] },
    {
      title: "the minute's 429 under the minute's headers saying Remaining 3 fails",
      run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { rejectedRemaining: 3 }) }),
      outcome: 'fail', code: 'remaining-left-on-429',
      mentions: ['free-a: a 429 of the minute (Retry-After 44) says X-RateLimit-Remaining 3 under Limit 60 (the minute\'s quota), the window that refused: a refused key has no request remaining in it'],
    },
    {
      title: "the minute's 429 under the day's headers with the day's Remaining passes (headers-day-window)",
      run: () => keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 45, { retryAfter: '15' }) }),
      outcome: 'pass', mentions: ['1 minute refusals under headers of the day, whose Remaining counts the day, not judged'],
    },
    {
      title: "the day's 429 under the minute's headers with the minute's Remaining fails (fault rate-day-429-minute-remaining)",
      run: () => withDayBlock({ limit: 60, remaining: 12, reset: S0 + 45, retryAfter: '3570' }),
      outcome: 'fail', code: 'day-429-minute-remaining',
      mentions: ["free-a: a 429 of the spent day (Retry-After 3570) says X-RateLimit-Remaining 12 under Limit 60 (the minute's quota): it tells the client 12 requests remain in the minute, yet the day lets none through before it turns"],
    },
    { title: "the day's 429 under the minute's headers with Remaining 0 passes (headers-minute-window)", run: () => withDayBlock({ limit: 60, remaining: 0, reset: S0 + 45, retryAfter: '3570' }), outcome: 'pass', mentions: ['Remaining 0 on 2 429s'] },
    { title: "the day's 429 under the day's headers, Remaining 0, passes", run: () => withDayBlock({ limit: 1000, remaining: 0, reset: DAY_RESET, retryAfter: '3570' }), outcome: 'pass' },
    // A ban's headers are not judged: its length and what they describe are not shown.
    { title: 'a ban (kept out beyond the day window) saying Remaining 5 is not judged', run: () => keyRun({ start: observation(T0, 429, { limit: 60, remaining: 5, reset: S0 + 200_000, retryAfter: '200000' }), burst: fixedBurst(10, 10) }), outcome: 'pass' },
    { title: 'only bans: skip', run: () => keyRun({ start: observation(T0, 429, { limit: 60, remaining: 5, reset: S0 + 200_000, retryAfter: '200000' }) }), outcome: 'skip', mentions: ["free-a's only 429s were bans"] },
    { title: 'no 429: skip', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { no429: true }) }), outcome: 'skip', mentions: ['no 429 carried an integer X-RateLimit-Remaining'] },
    { title: 'a 429 without Remaining: skip', run: () => keyRun({ start: observation(T0, 429, { limit: 60, reset: RESET, retryAfter: '45' }) }), outcome: 'skip', mentions: ['headers.rate-limit-present judges the headers'] },
    { title: 'not driven: skip', run: () => keyRun(), outcome: 'skip' },
  ])('$title', (c) => {
    expectCase(judgeRemainingZeroOn429(c.run()), c);
  });

  it("judges the mix's 429s too", () => {
    const t = T0 + 5_000;
    const run = keyRun({
      start: startAt(10),
      burst: fixedBurst(10, 10),
      mix: { start: observation(T0, 200, { limit: 60, remaining: 60, reset: RESET }), expected: 60, ended: 'first-429', durationMs: 10, points: [{ t, status: 429, limit: 60, remaining: 7, reset: RESET, retryAfter: '40', date: httpDate(t), op: 'getPet' }] },
    });
    expect(judgeRemainingZeroOn429(run)).toMatchObject({ outcome: 'fail', code: 'remaining-left-on-429', message: expect.stringContaining('says X-RateLimit-Remaining 7') });
  });

  it('is a must of the headers clause, listed among the rate-limit checks; binding-headers shows under it', () => {
    expect(remainingZeroOn429).toMatchObject({ id: 'rate-limit.remaining-zero-on-429', severity: 'must', clause: 'Limits / Rate limit headers', suite: 'rate-limit' });
    expect(RATE_LIMIT_CHECKS).toContain(remainingZeroOn429);
    expect(bindingHeaders.explainedBy).toContain('rate-limit.remaining-zero-on-429');
  });
});

describe('judgeServedAtReset', () => {
  /** The burst's 429 (Reset RESET, Retry-After to it), then a request sent a second after RESET, answered as `status` and `h` say. */
  function atReset(status: number, h: RateHeaders = {}, o: { sameAsRetry?: boolean; sentLate?: number } = {}): KeyRun {
    const burst = fixedBurst(10, 10);
    const refusal = burst.points.at(-1)!;
    const aimedAt = (RESET + 1) * 1000;
    const sentAt = aimedAt + (o.sentLate ?? 0);
    return keyRun({ start: startAt(10), burst, atReset: { refusal, reset: RESET, slackMs: 1_000, aimedAt, sentAt, next: observation(sentAt + 5, status, h), ...(o.sameAsRetry ? { sameAsRetry: true } : {}) } });
  }

  it.each<Case>([
    { title: 'let through a second after Reset passes', run: () => atReset(200, { limit: 60, remaining: 59, reset: RESET + 60 }, { sameAsRetry: true }), outcome: 'pass', mentions: [`free-a: a request sent 1.0 s after the X-RateLimit-Reset ${RESET} its 429 named (the server's clock, read from its Date), also the request after Retry-After, got 200`] },
    {
      title: "refused by the window that refused before (a Reset before the window turns) fails",
      run: () => atReset(429, { limit: 60, remaining: 0, reset: RESET, retryAfter: '1' }),
      outcome: 'fail', code: 'refused-at-reset',
      mentions: [`free-a: a request sent 1.0 s after the X-RateLimit-Reset ${RESET} its 429 named (the server's clock, read from its Date) got 429 (Retry-After 1, X-RateLimit-Reset ${RESET}, Remaining 0): the minute window had not reset at the moment Reset named`],
    },
    { title: 'sent later than aimed (a Retry-After still ran), the time said', run: () => atReset(200, { limit: 60, remaining: 59, reset: RESET + 60 }, { sentLate: 1_500 }), outcome: 'pass', mentions: ['sent 2.5 s after'] },
    // The day spent meanwhile: refused by another window than the 429's.
    { title: "refused by the day (another window than the minute's 429) is not judged", run: () => atReset(429, { limit: 1000, remaining: 0, reset: DAY_RESET, retryAfter: '3554' }), outcome: 'skip', mentions: ["a refusal of the day, not of the minute that refused before: not judged"] },
    { title: 'another status is not judged', run: () => atReset(503, {}), outcome: 'skip', mentions: ['got 503, neither let through nor refused by the limiter'] },
    // Issue 43: refused at the minute's Reset with no Retry-After under headers of the minute: the spent day's, for all it says.
    {
      title: 'refused at Reset with no Retry-After (headers of the minute) is not judged',
      run: () => atReset(429, { limit: 60, remaining: 0, reset: RESET + 60 }),
      outcome: 'skip',
      mentions: ['but it carries no usable Retry-After under headers that do not show the day with requests left', 'rate-limit.retry-after-present'],
    },
    { title: 'no request at Reset, and why, from the driver', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10), atResetSkipped: 'free-a\'s 429 names X-RateLimit-Reset 1736208000, 43186 s after it arrived: more than the harness waits' }), outcome: 'skip', mentions: ['more than the harness waits'] },
    { title: 'a disposable key, probed for a ban: skip', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10), ban: { statuses: [429], after: observation(T0, 200) } }), outcome: 'skip', mentions: ['probed for a ban'] },
    { title: 'no 429 in the burst: skip', run: () => keyRun({ start: startAt(10), burst: fixedBurst(10, 10, { no429: true }) }), outcome: 'skip', mentions: ['met no 429 in its burst'] },
    { title: 'not driven: skip', run: () => keyRun({ unavailable: { reason: 'free-a was refused before', refusal: observation(T0, 429) } }), outcome: 'skip' },
  ])('$title', (c) => {
    expectCase(servedAtReset.judge(c.run()), c);
  });

  it('is a must of the headers clause, listed after the recovery; shown under retry-after-honoured when one request failed both', () => {
    expect(servedAtReset).toMatchObject({ id: 'rate-limit.served-at-reset', severity: 'must', clause: 'Limits / Rate limit headers', suite: 'rate-limit' });
    expect(servedAtReset.explainedBy).toContain('rate-limit.retry-after-honoured');
    const ids = RATE_LIMIT_CHECKS.map((c) => c.id);
    expect(ids.indexOf('rate-limit.served-at-reset')).toBe(ids.indexOf('rate-limit.retry-after-honoured') + 1);
    expect(judgeServedAtReset(keyRun())).toMatchObject({ outcome: 'skip' });
  });
});

describe('judgeQuota: a Reset that is no Unix time in seconds', () => {
  /** Accepted answers saying `remainings`, `stepMs` apart, then a 429 without Retry-After; Reset as `reset` says (absent by default). */
  function blindRun(start: number, remainings: number[], o: { stepMs?: number; reset?: number } = {}): KeyRun {
    const step = o.stepMs ?? 20;
    const extra = o.reset === undefined ? {} : { reset: o.reset };
    const points: TimelinePoint[] = remainings.map((remaining, i) => ({ t: T0 + (i + 1) * step, status: 200, limit: 60, remaining, date: httpDate(T0 + (i + 1) * step), ...extra }));
    const t = T0 + (remainings.length + 1) * step;
    points.push({ t, status: 429, limit: 60, remaining: 0, date: httpDate(t), ...extra });
    return keyRun({ start: observation(T0, 200, { limit: 60, remaining: start, ...extra }), burst: burstData(points) });
  }
  // 58 from Remaining 58, then a new window's 52 (59 down to 8): the turn cannot be seen without Reset.
  const turned = [...Array.from({ length: 58 }, (_, i) => 57 - i), ...Array.from({ length: 52 }, (_, i) => 59 - i)];

  it.each<Case>([
    { title: 'more than Remaining, within the turn the burst\'s time allows: skip, naming the Reset', run: () => blindRun(58, turned), outcome: 'skip', mentions: ['110 accepted before the first 429, more than Remaining 58', 'X-RateLimit-Reset is no Unix time in seconds (headers.rate-limit-present judges that)', 'not judged'] },
    { title: 'the same with a Reset counting seconds until the reset', run: () => blindRun(58, turned, { reset: 4 }), outcome: 'skip', mentions: ['cannot be seen'] },
    { title: 'far beyond a turn\'s quota fails', run: () => blindRun(58, Array.from({ length: 200 }, (_, i) => Math.max(0, 57 - i))), outcome: 'fail', code: 'more-than-minute-quota', mentions: ['200 accepted before the first 429, more than Remaining 58 and a whole window more allow'] },
    { title: 'exactly Remaining, without Reset, is judged as before', run: () => blindRun(10, Array.from({ length: 10 }, (_, i) => 9 - i)), outcome: 'pass' },
  ])('$title', (c) => {
    expectCase(judgeQuota(c.run()), c);
  });
});

describe('judgeQuota: headers that describe the day', () => {
  it.each<Case>([
    {
      title: "the minute refusing within its quota passes, naming the day's headers",
      run: () => keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 45, { retryAfter: '15' }) }),
      outcome: 'pass',
      mentions: ['the headers describe the day window (Remaining 888 of 1000)', "the minute's quota refused after 45 accepted, within the 60 a minute", 'rate-limit.binding-headers'],
    },
    { title: 'exactly the minute quota passes', run: () => keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 60, { retryAfter: '15', stepMs: 10 }) }), outcome: 'pass', mentions: ['refused after 60 accepted'] },
    // 61 accepted over 670 ms: a refilling limiter gives back floor(0.67) + 1 = 1 meanwhile.
    { title: 'one more than the minute quota, within a refill, passes', run: () => keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 61, { retryAfter: '15', stepMs: 10 }) }), outcome: 'pass', mentions: ['refused after 61 accepted'] },
    {
      title: 'more than the minute quota plus the refill fails',
      run: () => keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 62, { retryAfter: '15', stepMs: 10 }) }),
      outcome: 'fail', code: 'more-than-minute-quota',
      mentions: ['free-a: 62 accepted before the first 429, more than the 60 a minute of plan free (plus 1 a refilling limiter may give back meanwhile)'],
    },
    // 70 accepted over 7,150 ms: floor(7.15) + 1 = 8 may come back.
    { title: 'a long burst far beyond the minute quota fails', run: () => keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 70, { retryAfter: '15' }) }), outcome: 'fail', code: 'more-than-minute-quota', mentions: ['70 accepted', '(plus 8 a refilling'] },
    // The minute's headers and the day refusing first (its remainder was the smaller).
    {
      title: "the day refusing before the minute's Remaining was spent passes, naming it",
      run: () => keyRun({ start: startAt(39), burst: fixedBurst(39, 20, { retryAfter: '3600' }) }),
      outcome: 'pass',
      mentions: ["the day's quota refused after 20 accepted, before the minute's Remaining 39 was spent", 'rate-limit.daily-quota'],
    },
    { title: "the minute refusing before the minute's Remaining was spent still fails", run: () => keyRun({ start: startAt(39), burst: fixedBurst(39, 20) }), outcome: 'fail', code: 'not-the-stated-quota', mentions: ['20 requests accepted in the window before the first 429, but Remaining said 39'] },
    // Issue 43: the spent day's 429 with its wait in Retry-After-day only, under headers of the minute.
    {
      title: "a 429 with no Retry-After before the minute's Remaining was spent is not judged: the spent day's, for all it says",
      run: () => keyRun({ start: startAt(39), burst: fixedBurst(39, 20, { retryAfter: null }) }),
      outcome: 'skip',
      mentions: ["free-a: the burst's first 429 came after 20 accepted, before Remaining 39 was spent, but it carries no Retry-After and its headers (X-RateLimit-Limit 60, Remaining 0) do not show the day with requests left", 'rate-limit.retry-after-present'],
    },
    { title: 'a 429 with no Retry-After after exactly the stated Remaining passes', run: () => keyRun({ start: startAt(39), burst: fixedBurst(39, 39, { retryAfter: null }) }), outcome: 'pass', mentions: ['exactly 39'] },
    { title: 'a 429 with no Retry-After after more than the stated Remaining still fails', run: () => keyRun({ start: startAt(39), burst: fixedBurst(39, 40, { retryAfter: null }) }), outcome: 'fail', code: 'not-the-stated-quota' },
    // Remaining counting the day under the minute's Limit: it states no minute's quota; the plan's is counted.
    {
      title: "Remaining above Limit: the plan's minute quota counted, naming why",
      run: () => keyRun({ start: startAt(998), burst: fixedBurst(60, 58, { rejectedRemaining: 940 }) }),
      outcome: 'pass',
      mentions: ["X-RateLimit-Remaining 998 is above X-RateLimit-Limit 60 (rate-limit.headers-one-window judges that), so it states no one window's quota; the minute's quota refused after 58 accepted, within the 60 a minute"],
    },
    // Remaining that never falls (rate-limit.remaining's failure) states no quota either.
    {
      title: "Remaining that does not count down: the plan's minute quota counted, naming why",
      run: () => keyRun({ start: startAt(60), burst: fixedBurst(60, 58, { remainings: Array(58).fill(60), rejectedRemaining: 60 }) }),
      outcome: 'pass',
      mentions: ['X-RateLimit-Remaining does not count down (rate-limit.remaining judges that), so it states no quota', 'refused after 58 accepted, within the 60 a minute'],
    },
    { title: "Remaining above Limit, and more than the plan's minute quota accepted, fails", run: () => keyRun({ start: startAt(998), burst: fixedBurst(70, 70, { rejectedRemaining: 928 }) }), outcome: 'fail', code: 'more-than-minute-quota', mentions: ['70 accepted before the first 429, more than the 60 a minute'] },
    // Day headers and a day refusal: counted from the day's Remaining, as for the minute.
    { title: "the day's headers and the day refusing at its Remaining pass as a fixed window", run: () => keyRun({ start: dayStart(5), burst: dayHeadersBurst(5, 5, { retryAfter: '3600' }) }), outcome: 'pass', mentions: ['exactly 5'] },
  ])('$title', (c) => {
    expectCase(judgeQuota(c.run()), c);
  });

  it('fails as a must, with the most it allows', () => {
    const finding = judgeQuota(keyRun({ start: dayStart(888), burst: dayHeadersBurst(888, 62, { retryAfter: '15', stepMs: 10 }) }));
    expect(quota.severity).toBe('must');
    expect(finding.outcome === 'fail' && [finding.expected, finding.actual]).toEqual(['at most 61', '62']);
  });
});

describe('judgeDailyQuota: the spent day', () => {
  const at = (ms: number) => ({ t: T0 + ms, date: httpDate(T0 + ms) });
  /** The day's 429 at T0: Limit 1000, Remaining 0, Reset an hour ahead, Retry-After naming it. */
  const dayBlock = (changes: Partial<TimelinePoint> = {}): TimelinePoint => ({ ...at(0), status: 429, limit: QUOTA.perDay, remaining: 0, reset: DAY_RESET, retryAfter: '3600', ...changes });
  /** A request after the block, `ms` after T0. */
  const followUp = (ms: number, status: number, retryAfter?: string): TimelinePoint => ({ ...at(ms), status, limit: QUOTA.perDay, remaining: 0, reset: DAY_RESET, ...(retryAfter !== undefined ? { retryAfter } : {}) });
  const spent = (day: Partial<DayData>) => () => keyRun({ day: { accepted: 1000, acceptedAt: Array(1000).fill(S0 - 60), bursts: [], ended: 'day-block', elapsedMs: 900_000, block: dayBlock(), followUps: [], ...day } });

  it.each<Case>([
    {
      title: "ended 'still-refused' fails, naming the last Retry-After",
      run: spent({ ended: 'still-refused', block: { ...at(120_000), status: 429, limit: 60, remaining: 0, reset: S0 + 180, retryAfter: '60' }, followUps: [] }),
      outcome: 'fail', code: 'still-refused',
      mentions: ["free-a: after 1000 requests accepted, the key was refused again each time it waited out a 429's Retry-After (the last said Retry-After 60)", 'its 429s name times inside it'],
    },
    { title: "ended 'still-refused' without a block fails too", run: spent({ ended: 'still-refused', block: undefined }), outcome: 'fail', code: 'still-refused', mentions: ["waited out a 429's Retry-After: the day is spent"] },
    // Issue 43: no Retry-After (the day's wait in Retry-After-day only) under headers of the minute: nothing names a time in the day.
    {
      title: "ended 'still-refused' with no Retry-After under headers of the minute is not judged, naming retry-after-present",
      run: spent({ ended: 'still-refused', block: { ...at(120_000), status: 429, limit: 60, remaining: 0, reset: S0 + 180 }, followUps: [] }),
      outcome: 'skip',
      mentions: ["waited out a 429's X-RateLimit-Reset; its 429s carry no Retry-After, and their X-RateLimit-* describe the minute (Limit 60, Reset", 'rate-limit.retry-after-present'],
    },
    {
      title: "ended 'still-refused' with no Retry-After under headers of the day still fails: their Reset named a time inside the day",
      run: spent({ ended: 'still-refused', block: dayBlock({ retryAfter: undefined }), followUps: [] }),
      outcome: 'fail', code: 'still-refused',
      mentions: ["waited out a 429's X-RateLimit-Reset (it carried no usable Retry-After)"],
    },
    {
      title: "a block whose Retry-After names a time before the day's reset fails when the request sent then is refused",
      run: spent({ block: dayBlock({ retryAfter: '60' }), followUps: [followUp(60_000, 429, '3540'), followUp(3_600_000, 429, '1')] }),
      outcome: 'fail', code: 'retry-after-before-day-end',
      mentions: [`free-a: a 429 of the spent day says Retry-After 60, 3540 s before the day's reset at ${DAY_RESET}: the request sent then was refused again (429, Retry-After 3540)`],
    },
    // Nothing sent then: a fixed day (its answers held one Reset) has lied; a refilling day may name its next request's worth.
    { title: 'with no request sent after it, a fixed day fails too', run: spent({ block: dayBlock({ retryAfter: '60' }), dayResets: [DAY_RESET, DAY_RESET] }), outcome: 'fail', code: 'retry-after-before-day-end', mentions: ["Retry-After 60, 3540 s before the day's reset", 'no request was sent then'] },
    { title: 'with no request sent after it, a refilling day (one request back every 86.4 s) passes', run: spent({ block: dayBlock({ retryAfter: '60' }) }), outcome: 'pass' },
    {
      title: "a follow-up's 429 naming a time before the reset fails the same way",
      run: spent({ followUps: [followUp(1_000, 429, '60'), followUp(61_000, 429, '3539')] }),
      outcome: 'fail', code: 'retry-after-before-day-end',
      mentions: ["says Retry-After 60, 3539 s before the day's reset", 'refused again (429, Retry-After 3539)'],
    },
    // The reset rounds: two seconds early are let pass.
    { title: "a Retry-After two seconds short of the reset passes", run: spent({ block: dayBlock({ retryAfter: '3598' }) }), outcome: 'pass' },
    { title: "a Retry-After three seconds short of the reset fails", run: spent({ block: dayBlock({ retryAfter: '3597' }) }), outcome: 'fail', code: 'retry-after-before-day-end', mentions: ['3 s before'] },
    // One clock per comparison: a fractional delta counts from anywhere in its Date's second.
    { title: 'a fractional Retry-After whose latest moment is two seconds short of the reset passes', run: spent({ block: dayBlock({ retryAfter: '3597.001' }) }), outcome: 'pass' },
    { title: 'a fractional Retry-After whose latest moment is more than two seconds short fails', run: spent({ block: dayBlock({ retryAfter: '3596.999' }) }), outcome: 'fail', code: 'retry-after-before-day-end' },
    { title: 'an HTTP-date Retry-After naming the reset passes', run: spent({ block: dayBlock({ retryAfter: httpDate(DAY_RESET * 1000) }) }), outcome: 'pass' },
    { title: 'an HTTP-date Retry-After a minute ahead fails (a fixed day)', run: spent({ block: dayBlock({ retryAfter: httpDate((S0 + 60) * 1000) }), dayResets: [DAY_RESET, DAY_RESET] }), outcome: 'fail', code: 'retry-after-before-day-end', mentions: ['3540 s before'] },
    {
      title: 'a refilling day whose early Retry-After let the key through again passes, naming when',
      run: spent({ ended: 'reopened', block: dayBlock({ retryAfter: '60' }), followUps: [followUp(60_000, 200)] }),
      outcome: 'pass',
      mentions: ['; let through again at 60 s, when its Retry-After said'],
    },
    { title: "'reopened' after the day's reset passes, naming when", run: spent({ ended: 'reopened', followUps: [followUp(3_600_000, 200)] }), outcome: 'pass', mentions: ['let through again at 3600 s'] },
    {
      title: 'follow-ups refused while the day lasted, each Retry-After naming the reset, pass',
      run: spent({ followUps: [followUp(1_000, 429, '3599'), followUp(3_600_000, 429, '1')] }),
      outcome: 'pass',
      mentions: ['; 2 request(s) after its Retry-After, refused while the day lasted'],
    },
    { title: "a block whose Retry-After names the day's end passes", run: spent({}), outcome: 'pass', mentions: ["; its Retry-After names the day's end", 'Reset 3600 s ahead'] },
    { title: 'a block with no Retry-After says its Reset named the day\'s end, not a Retry-After', run: spent({ block: dayBlock({ retryAfter: undefined }) }), outcome: 'pass', mentions: ["; its X-RateLimit-Reset names the day's end (it carries no Retry-After: rate-limit.retry-after-present judges that)"] },
  ])('$title', (c) => {
    expectCase(judgeDailyQuota(c.run()), c);
  });

  it("says what a spent day's 429 should name, and what it named", () => {
    const finding = judgeDailyQuota(spent({ block: dayBlock({ retryAfter: '60' }), dayResets: [DAY_RESET, DAY_RESET] })());
    expect(finding.outcome === 'fail' && [finding.expected, finding.actual]).toEqual([`Retry-After naming ${DAY_RESET} (the day's reset) or later, or a time at which the key is let through`, `Retry-After 60 (until ${S0 + 60})`]);
    const still = judgeDailyQuota(spent({ ended: 'still-refused' })());
    expect(still.outcome === 'fail' && [still.expected, still.actual]).toEqual(["a 429 of a spent day names the day's end", `refused again after waiting out the Retry-After of ${DAY_FOLLOW_UPS} 429s in a row`]);
  });

  it('is a must, explained by rate-limit.retry-after-obeyed first', () => {
    expect(dailyQuota.severity).toBe('must');
    expect(dailyQuota.explainedBy?.[0]).toBe('rate-limit.retry-after-obeyed');
  });
});

describe('judgeDailyQuota: counting the day window', () => {
  /** The day's 429 at T0 (Limit 1000, Reset DAY_RESET, Retry-After naming it). */
  const dayBlock: TimelinePoint = { t: T0, status: 429, limit: QUOTA.perDay, remaining: 0, reset: DAY_RESET, retryAfter: '3600', date: httpDate(T0) };
  /** A fixed day: its answers held one Reset. */
  const FIXED = [DAY_RESET, DAY_RESET, DAY_RESET];
  /** A refilling day: Reset moved along. */
  const REFILLING = [DAY_RESET - 600, DAY_RESET - 300, DAY_RESET];
  /** `n` accepted seconds spread evenly over [from, to]. */
  const spread = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + Math.floor(n === 1 ? 0 : (i * (to - from)) / (n - 1)));
  /** `n` accepted over the hour before the block (3600 s counted). */
  const lastHour = (n: number) => spread(n, S0 - 3600, S0 - 1);
  const counted = (acceptedAt: number[], dayResets?: number[]) => () =>
    keyRun({ day: { accepted: acceptedAt.length, acceptedAt, bursts: [], ended: 'day-block', elapsedMs: 900_000, block: dayBlock, followUps: [], ...(dayResets ? { dayResets } : {}) } });

  it.each<Case>([
    { title: 'a fixed day: the quota accepted in the window passes', run: counted(lastHour(1000), FIXED), outcome: 'pass' },
    { title: 'a fixed day: one more than the quota fails', run: counted(lastHour(1001), FIXED), outcome: 'fail', code: 'over-day-quota', mentions: [`free-a: 1001 requests accepted in the day window that ends at X-RateLimit-Reset ${DAY_RESET}, more than the 1000 a day`] },
    { title: 'a fixed day whose Resets differ by rounding (2 s) is still fixed', run: counted(lastHour(1001), [DAY_RESET - 2, DAY_RESET - 1, DAY_RESET]), outcome: 'fail', code: 'over-day-quota', mentions: ['1001 requests accepted'] },
    { title: 'the whole window counts: from its first second', run: counted([DAY_START, ...lastHour(1000)], FIXED), outcome: 'fail', code: 'over-day-quota', mentions: ['1001 requests accepted'] },
    { title: 'the whole window counts: to its last second', run: counted([...lastHour(1000), DAY_RESET - 1], FIXED), outcome: 'fail', code: 'over-day-quota', mentions: ['1001 requests accepted'] },
    {
      title: 'seconds before the window or from its reset on are not counted',
      run: counted([DAY_START - 1, DAY_START - 1, DAY_START - 86_400, ...lastHour(1000), DAY_RESET, DAY_RESET, DAY_RESET + 30], FIXED),
      outcome: 'pass',
    },
    // 3600 s counted: a refilling day gives back ceil(3600 / 86400 × 1000) = 42 meanwhile.
    { title: 'a refilling day (Reset moving): the same quota + 1 passes, within what it gives back', run: counted(lastHour(1001), REFILLING), outcome: 'pass' },
    { title: 'a refilling day: up to its allowance passes', run: counted(lastHour(1042), REFILLING), outcome: 'pass' },
    {
      title: 'a refilling day: beyond its allowance fails, naming it',
      run: counted(lastHour(1043), REFILLING),
      outcome: 'fail', code: 'over-day-quota',
      mentions: ['1043 requests accepted in the day window', 'more than the 1000 a day (plus 42 a refilling day gives back over their 3600 s)'],
    },
    // Too few Resets of the day to tell: the day's 429 tells. Asked to wait an hour (to the day's end), the day is fixed.
    { title: 'too few Resets, the 429 asking for the day\'s end: a fixed day, perDay + 1 fails', run: counted(Array(1001).fill(S0 - 60)), outcome: 'fail', code: 'over-day-quota', mentions: ['1001 requests accepted', 'more than the 1000 a day'] },
    // Asked to wait about one request's worth of a day (86.4 s at 1000 a day): a refilling day, whose one second gives back 1.
    {
      title: 'too few Resets, the 429 asking for one refill: judged as refilling',
      run: () => ({ ...counted(Array(1001).fill(S0 - 60))(), day: { ...counted(Array(1001).fill(S0 - 60))().day!, block: { ...dayBlock, retryAfter: '87', reset: S0 + 87 } } }),
      outcome: 'pass',
    },
  ])('$title', (c) => {
    expectCase(judgeDailyQuota(c.run()), c);
  });

  it('says the most it allows, and what it counted', () => {
    const fixed = judgeDailyQuota(counted(lastHour(1001), FIXED)());
    expect(fixed.outcome === 'fail' && [fixed.expected, fixed.actual]).toEqual(['at most 1000', '1001']);
    expect(fixed.message).not.toContain('plus');
    const refilling = judgeDailyQuota(counted(lastHour(1043), REFILLING)());
    expect(refilling.outcome === 'fail' && [refilling.expected, refilling.actual]).toEqual(['at most 1042', '1043']);
  });

  it('counts in the pass message', () => {
    expectFinding(judgeDailyQuota(counted(lastHour(1000), FIXED)()), 'pass', [`accepted in the day window ending at Reset ${DAY_RESET} (every suite's requests counted)`]);
  });

  it('names the number accepted in the day window in its pass message', () => {
    expectFinding(judgeDailyQuota(counted(lastHour(1000), FIXED)()), 'pass', ['day quota enforced: 1000 accepted in the day window']);
  });
});
