// lib/checks/headers-one-window.ts: X-RateLimit-Limit, -Remaining and -Reset describe one window.
// Runs built by hand from a fixed base time, with real window lengths (60 s and a day): the
// faults mix windows; every limiter the interface allows (fixed windows, token buckets, sliding
// logs naming their emptying or their oldest request's leaving) passes.
import { describe, expect, it } from 'vitest';
import { answersOf, countedOrder, headersOneWindow, judgeHeadersOneWindow } from '../../../lib/checks/headers-one-window.ts';
import { RATE_LIMIT_CHECKS } from '../../../lib/checks/rate-limit.ts';
import type { BurstData, KeyRun, Look, TimelinePoint } from '../../../lib/result/rate-limits.ts';
import { expectFinding } from './_seen.ts';

/** Monday 6 January 2025, 12:00:00 UTC. */
const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const S0 = T0 / 1000;
const QUOTA = { perMinute: 60, perDay: 1000 };
const WINDOWS = { minute: 60, day: 86_400 };
/** The minute window of the examples ends 45 s after T0; the day at midnight, 12 h after T0. */
const MINUTE_END = S0 + 45;
const DAY_END = S0 + 43_200;

const httpDate = (ms: number) => new Date(ms).toUTCString();

interface H {
  limit?: number;
  remaining?: number;
  reset?: number;
  retryAfter?: string;
}

/** An answer of a burst, sent `latency` ms before it arrived at `t`. */
function point(t: number, status: number, h: H, latency = 10): TimelinePoint {
  return { t, sentAt: t - latency, status, ...h, date: httpDate(t) };
}

/** A probe's answer (lower-case header names). */
function look(t: number, status: number, h: H): Look {
  const headers: Record<string, string> = { date: httpDate(t) };
  if (h.limit !== undefined) headers['x-ratelimit-limit'] = String(h.limit);
  if (h.remaining !== undefined) headers['x-ratelimit-remaining'] = String(h.remaining);
  if (h.reset !== undefined) headers['x-ratelimit-reset'] = String(h.reset);
  if (h.retryAfter !== undefined) headers['retry-after'] = h.retryAfter;
  return { t, status, headers };
}

function burst(points: TimelinePoint[]): BurstData {
  return {
    points,
    sent: points.length,
    startedAt: T0,
    durationMs: (points.at(-1)?.t ?? T0) - T0 + 20,
    askedRate: 4,
    ended: points.some((p) => p.status === 429) ? 'first-429' : 'max-requests',
    latency: { p50: 10, p90: 10, p99: 10, max: 10 },
  };
}

function keyRun(extra: Partial<KeyRun>): KeyRun {
  return { label: 'free#1', plan: 'free', quota: QUOTA, windows: WINDOWS, ...extra };
}

/**
 * The key driven to its 429 from a look at T0 that says `from` left, one request each 15 ms, then
 * one request after the 429's wait: every answer's headers from `headers(i, remaining, t)`.
 */
function drivenRun(from: number, headers: (remaining: number, t: number) => H, retry: { afterMs: number; h: H; status?: number }): KeyRun {
  const points: TimelinePoint[] = [];
  for (let i = 1; i <= from; i++) {
    const t = T0 + 15 * i;
    points.push(point(t, 200, headers(from - i, t)));
  }
  const refusedAt = T0 + 15 * (from + 1);
  points.push(point(refusedAt, 429, { ...headers(0, refusedAt), retryAfter: String(Math.ceil(retry.afterMs / 1000)) }));
  return keyRun({
    start: look(T0, 200, headers(from, T0)),
    burst: burst(points),
    retry: { waitedMs: retry.afterMs, next: look(refusedAt + retry.afterMs, retry.status ?? 200, retry.h) },
  });
}

describe('rate-limit.headers-one-window', () => {
  it('is a must of "Limits / Rate limit headers", judged per key in the rate-limit suite', () => {
    expect(headersOneWindow).toMatchObject({ severity: 'must', clause: 'Limits / Rate limit headers', suite: 'rate-limit' });
    expect(RATE_LIMIT_CHECKS.map((c) => c.id)).toContain('rate-limit.headers-one-window');
  });

  describe('fails when the headers mix windows', () => {
    it("Limit and Reset of the day, Remaining of the minute: Remaining back to 59 before the day's Reset", () => {
      // Fault rate-headers-mixed-windows, as a real server with real windows would show it.
      const run = drivenRun(59, (remaining) => ({ limit: 1000, remaining, reset: DAY_END }), { afterMs: 44_000, h: { limit: 1000, remaining: 59, reset: DAY_END } });
      const finding = judgeHeadersOneWindow(run);
      expectFinding(finding, 'fail', ['Remaining 0 → 59 in 44.0 s', 'Limit 1000 (the day\'s quota)', `Reset ${DAY_END}`, 'unchanged', 'the day window cannot give back 59 requests before its Reset', "it fits the minute's: 60 a minute"]);
      expect(finding).toMatchObject({ code: 'remaining-rose-before-reset' });
    });

    it('Limit and Reset of the minute, Remaining of the day: Remaining above Limit', () => {
      // Fault rate-remaining-of-day.
      const run = drivenRun(59, (remaining) => ({ limit: 60, remaining: remaining + 940, reset: MINUTE_END }), { afterMs: 44_000, h: { limit: 60, remaining: 939, reset: MINUTE_END + 60 } });
      const finding = judgeHeadersOneWindow(run);
      expectFinding(finding, 'fail', ['X-RateLimit-Remaining 999 with Limit 60 (the minute\'s quota) and Reset 45 s away', 'more requests remaining in the window than its limit', 'Remaining counts the day, Limit the minute']);
      expect(finding).toMatchObject({ code: 'remaining-above-limit' });
    });

    it('a rise judged against a Reset the answer before named, even when the later Reset differs', () => {
      // Limit of the day; the Reset moved (a minute's), but the first one had not come yet.
      const run = drivenRun(30, () => ({ limit: 1000, remaining: 0, reset: DAY_END }), { afterMs: 5_000, h: { limit: 1000, remaining: 40, reset: S0 + 50 } });
      expect(judgeHeadersOneWindow(run)).toMatchObject({ outcome: 'fail', code: 'remaining-rose-before-reset', message: expect.stringContaining(`Reset ${DAY_END}`) });
    });
  });

  /** Answers of one key with the day's Limit, given back twice: after Reset S0+10 and after the later `secondReset`, each time to 59. */
  function givenBackTwice(secondReset: number): KeyRun {
    const points: TimelinePoint[] = [];
    for (let i = 0; i < 3; i++) points.push(point(T0 + 1000 * i, 200, { limit: 1000, remaining: 2 - i, reset: S0 + 10 }));
    for (let i = 0; i < 3; i++) points.push(point(T0 + 11_000 + 1000 * i, 200, { limit: 1000, remaining: 59 - i, reset: secondReset }));
    points.push(point((secondReset + 1) * 1000, 200, { limit: 1000, remaining: 59, reset: secondReset + 60 }));
    return keyRun({ burst: burst(points) });
  }

  it("fails the day's Limit over a Remaining and Reset that turn with the minute: given back twice, a minute apart", () => {
    // Fault rate-limit-of-day-window-of-minute.
    const finding = judgeHeadersOneWindow(givenBackTwice(S0 + 70));
    expect(finding).toMatchObject({ outcome: 'fail', code: 'window-turned-too-soon' });
    expectFinding(finding, 'fail', ["Limit 1000 (the day's quota), yet its window gave its requests back twice 60 s apart, in step with the minute", 'Remaining 0 → 59 after Reset', 'where a day window turns once in 86400 s']);
  });

  it("passes a sliding log of the day giving back as earlier traffic leaves, at that traffic's times (not in step with the minute)", () => {
    expect(judgeHeadersOneWindow(givenBackTwice(S0 + 47))).toMatchObject({ outcome: 'pass' });
  });

  describe('passes every limiter the interface allows', () => {
    it('a fixed minute window: counts down, and is whole again after its Reset', () => {
      const run = drivenRun(59, (remaining) => ({ limit: 60, remaining, reset: MINUTE_END }), { afterMs: 44_200, h: { limit: 60, remaining: 59, reset: MINUTE_END + 60 } });
      expectFinding(judgeHeadersOneWindow(run), 'pass', ['62 answers, Remaining at most Limit on each', 'Remaining never came back more than a token bucket of its window refills']);
    });

    it('a fixed day window (headers of the day): Remaining only falls within the day', () => {
      const run = drivenRun(59, (remaining) => ({ limit: 1000, remaining: remaining + 500, reset: DAY_END }), { afterMs: 44_000, h: { limit: 1000, remaining: 499, reset: DAY_END } });
      expectFinding(judgeHeadersOneWindow(run), 'pass');
    });

    it('a token bucket of the day gives back its rate: one request in 70 s passes, two do not', () => {
      // 1000 a day: 0.0116 a second, so 70 s give back less than one; one more is the rounding of Remaining.
      const bucket = (after: number) => drivenRun(5, (remaining) => ({ limit: 1000, remaining, reset: S0 + 80_000 }), { afterMs: 70_000, h: { limit: 1000, remaining: after, reset: S0 + 80_000 } });
      expectFinding(judgeHeadersOneWindow(bucket(1)), 'pass');
      expect(judgeHeadersOneWindow(bucket(3))).toMatchObject({ outcome: 'fail', code: 'remaining-rose-before-reset', message: expect.stringContaining('refills at most 1 in') });
    });

    it('a token bucket of the minute: Remaining comes back at the plan rate, before the Reset', () => {
      // 60 a minute: one a second. After 20 s, 20 back (Reset: when the bucket is full again).
      const run = drivenRun(10, (remaining, t) => ({ limit: 60, remaining, reset: Math.ceil(t / 1000) + 60 - remaining }), { afterMs: 20_000, h: { limit: 60, remaining: 19, reset: S0 + 61 } });
      expectFinding(judgeHeadersOneWindow(run), 'pass');
    });

    it('a sliding log naming its emptying (a window after its newest request) is not judged: it gives back as its requests age', () => {
      const run = drivenRun(10, (_remaining, t) => ({ limit: 60, remaining: 0, reset: Math.ceil(t / 1000) + 60 }), { afterMs: 30_000, h: { limit: 60, remaining: 45, reset: S0 + 91 } });
      expectFinding(judgeHeadersOneWindow(run), 'pass', ['no two answers could be compared against a Reset']);
    });

    it("a sliding log naming its oldest request's leaving (koa-ratelimit's ratelimiter): gives back from that Reset on", () => {
      const run = drivenRun(10, (remaining) => ({ limit: 60, remaining, reset: S0 + 20 }), { afterMs: 20_500, h: { limit: 60, remaining: 30, reset: S0 + 27 } });
      expectFinding(judgeHeadersOneWindow(run), 'pass');
    });

    it('answers of a burst arriving out of order are compared in the order the server decided them', () => {
      // Sent 10 and 12 ms in, decided in that order (9, then 8), the second answered first.
      const inOrder = [point(T0 + 30, 200, { limit: 60, remaining: 8, reset: MINUTE_END }, 18), point(T0 + 40, 200, { limit: 60, remaining: 9, reset: MINUTE_END }, 30), point(T0 + 60, 200, { limit: 60, remaining: 7, reset: MINUTE_END }, 10)];
      const run = (points: TimelinePoint[]) => keyRun({ start: look(T0, 200, { limit: 60, remaining: 10, reset: MINUTE_END }), burst: burst(points) });
      expectFinding(judgeHeadersOneWindow(run(inOrder)), 'pass');
      // A 10 sent after the 8 had come back was decided after it: a rise (beyond the one a bucket's rounding allows).
      const late = point(T0 + 50, 200, { limit: 60, remaining: 10, reset: MINUTE_END }, 15);
      expect(judgeHeadersOneWindow(run([inOrder[0]!, late]))).toMatchObject({ outcome: 'fail', code: 'remaining-rose-before-reset' });
    });

    it('answers in flight together are never read as before, then after: two sent and answered within one millisecond (issue 42)', () => {
      // Headers of the day (variation headers-day-window): a Pro key's burst on four connections,
      // two answers sent and answered in the same millisecond, counted 2682 then 2679 but arriving
      // the other way round. "Remaining 2679 → 2682 in 0.0 s" was this pair read in arrival order.
      const pro = { perMinute: 300, perDay: 10_000 };
      const day = (remaining: number) => ({ limit: 10_000, remaining, reset: DAY_END });
      const t = T0 + 1_500;
      const pair = [point(t, 200, day(2679), 0), point(t, 200, day(2682), 0)];
      const run = keyRun({ plan: 'pro', quota: pro, start: look(T0, 200, day(2690)), burst: burst([point(t - 40, 200, day(2683)), ...pair, point(t + 20, 200, day(2678))]) });
      expectFinding(judgeHeadersOneWindow(run), 'pass');
      // The same pair a millisecond apart, the higher sent after the lower came back: counted after it, a rise.
      const apart = [point(t, 200, day(2679), 0), point(t + 1, 200, day(2682), 0)];
      const late = keyRun({ plan: 'pro', quota: pro, start: look(T0, 200, day(2690)), burst: burst(apart) });
      expect(judgeHeadersOneWindow(late)).toMatchObject({ outcome: 'fail', code: 'remaining-rose-before-reset', message: expect.stringContaining('Remaining 2679 → 2682 in 0.0 s') });
    });

    it('answers in flight together are walked as counted (Remaining falling), not as they arrived, for the turns of a window', () => {
      // Limit of the day over a Reset that moves a minute on (a log of the day naming its oldest
      // request's leaving), Remaining never given back. At each Reset's edge two answers of one
      // millisecond arrive swapped: read in arrival order, Remaining "came back" after each Reset,
      // twice 60 s apart, in step with the minute.
      const at = (ms: number, remaining: number, reset: number, latency = 10) => ({ ...point(T0 + ms, 200, { limit: 1000, remaining, reset }, latency) });
      const points = [at(9_000, 8, S0 + 10), at(10_002, 5, S0 + 10, 5), at(10_002, 7, S0 + 10, 5), at(69_000, 4, S0 + 70), at(70_002, 1, S0 + 70, 5), at(70_002, 3, S0 + 70, 5)];
      const run = keyRun({ burst: burst(points) });
      expectFinding(judgeHeadersOneWindow(run), 'pass');
      expect(countedOrder(points.map((p) => p as TimelinePoint & { limit: number; remaining: number; reset: number })).map((p) => p.remaining)).toEqual([8, 7, 5, 4, 3, 1]);
      // Counted so, the same answers sent after the earlier came back would be two turns: judged.
      const apart = points.map((p, i) => (i % 3 === 2 ? { ...p, t: p.t + 2, sentAt: p.t + 1 } : p));
      expect(judgeHeadersOneWindow(keyRun({ burst: burst(apart) }))).toMatchObject({ outcome: 'fail', code: 'window-turned-too-soon' });
    });

    it("a ban's 429 names the ban's end: what follows the ban is not held to it", () => {
      const run = keyRun({
        start: look(T0, 429, { limit: 60, remaining: 0, reset: S0 + 172_800, retryAfter: '172800' }),
        burst: burst([point(T0 + 1_000, 200, { limit: 60, remaining: 59, reset: MINUTE_END })]),
      });
      expectFinding(judgeHeadersOneWindow(run), 'pass');
    });
  });

  describe('skips with the true reason', () => {
    it('no answer carried the three headers together', () => {
      const run = keyRun({ start: look(T0, 200, { limit: 60, remaining: 59 }) });
      expectFinding(judgeHeadersOneWindow(run), 'skip', ['carried integer X-RateLimit-Limit, -Remaining and -Reset together']);
    });

    it('the key was not driven', () => {
      expectFinding(judgeHeadersOneWindow(keyRun({})), 'skip', ['was not driven']);
    });

    it('a key refused before it was driven (banned) skips saying so', () => {
      const run = keyRun({ unavailable: { reason: 'free#1 was refused before anything was driven', refusal: look(T0, 429, { retryAfter: '600' }) } });
      expectFinding(headersOneWindow.judge(run), 'skip', ['refused before']);
    });
  });

  it("answersOf: every answer of the key with headers, the isolation looks and the day's 429 included, once each, in time order", () => {
    const first = look(T0, 200, { limit: 60, remaining: 59, reset: MINUTE_END });
    const block = point(T0 + 5_000, 429, { limit: 1000, remaining: 0, reset: DAY_END, retryAfter: '43195' });
    const run = keyRun({ start: first, isolation: { exhausted: 'free#2', before: look(T0 - 1_000, 200, { limit: 60, remaining: 60, reset: MINUTE_END }), after: first }, day: { accepted: 1, acceptedAt: [], bursts: [], ended: 'day-block', elapsedMs: 1, block } });
    expect(answersOf(run).map((p) => p.t)).toEqual([T0 - 1_000, T0, T0 + 5_000]);
  });
});
