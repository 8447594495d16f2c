// lib/drive/recover.ts: when the request at a 429's X-RateLimit-Reset is sent, whether the
// recovery's request after Retry-After is that one, or why none is sent (pure: atResetPlan).
import { describe, expect, it } from 'vitest';
import { atResetPlan, RESET_ROUNDING_S } from '../../../lib/drive/recover.ts';
import type { BurstData, KeyRun, TimelinePoint } from '../../../lib/result/rate-limits.ts';

/** Monday 6 January 2025, 12:00:00 UTC. */
const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const S0 = T0 / 1000;
const WINDOWS = { minute: 60, day: 86_400 };
/** The minute window of the examples ends 45 s after T0. */
const END = S0 + 45;

/** The burst's 429, arriving 15.3 s after T0 (its Date the second before). */
function refusal(h: { reset?: number; retryAfter?: string; limit?: number }, date = new Date(T0 + 15_300).toUTCString()): TimelinePoint {
  return { t: T0 + 15_300, sentAt: T0 + 15_290, status: 429, limit: h.limit ?? 60, remaining: 0, ...(h.reset !== undefined ? { reset: h.reset } : {}), ...(h.retryAfter !== undefined ? { retryAfter: h.retryAfter } : {}), date };
}

/** A key whose burst of accepted answers (each Reset `resets[i]`, Remaining falling) ended at the 429 `p`. */
function runOf(p: TimelinePoint, resets: number[] = Array(10).fill(END)): KeyRun {
  const points: TimelinePoint[] = resets.map((reset, i) => ({ t: T0 + 1_000 * (i + 1), sentAt: T0 + 1_000 * (i + 1) - 10, status: 200, limit: 60, remaining: resets.length - 1 - i, reset, date: new Date(T0 + 1_000 * (i + 1)).toUTCString() }));
  const burst: BurstData = { points: [...points, p], sent: points.length + 1, startedAt: T0, durationMs: 15_300, askedRate: 4, ended: 'first-429', latency: { p50: 10, p90: 10, p99: 10, max: 10 } };
  return { label: 'free#1', plan: 'free', quota: { perMinute: 60, perDay: 1000 }, windows: WINDOWS, burst };
}

const plan = (p: TimelinePoint, resets?: number[]) => atResetPlan(runOf(p, resets), p, WINDOWS);

describe('atResetPlan', () => {
  it("a fixed window's 429 names its end in both: one request, a second after the second Reset names", () => {
    // Retry-After 30 from the Date's second (T0 + 15 s): T0 + 45 s, Reset's second.
    expect(RESET_ROUNDING_S).toBe(1);
    expect(plan(refusal({ reset: END, retryAfter: '30' }))).toEqual({ reset: END, slackMs: 1_000, aimAt: (END + 1) * 1000, merged: true });
  });

  it('a Retry-After that names an earlier moment (a token, or one cut short) keeps its own request; the request at Reset comes after it', () => {
    expect(plan(refusal({ reset: END, retryAfter: '29' }))).toMatchObject({ aimAt: (END + 1) * 1000, merged: false });
    expect(plan(refusal({ reset: END, retryAfter: '1' }))).toMatchObject({ merged: false });
  });

  it('without a usable Retry-After, Reset is the client\'s word: a request of its own', () => {
    expect(plan(refusal({ reset: END }))).toMatchObject({ aimAt: (END + 1) * 1000, merged: false });
    expect(plan(refusal({ reset: END, retryAfter: 'soon' }))).toMatchObject({ merged: false });
  });

  it("a Reset with noise (the burst's Resets back and forth a second) is aimed that much later", () => {
    const jittered = Array.from({ length: 10 }, (_, i) => END + (i % 2));
    expect(plan(refusal({ reset: END, retryAfter: '30' }), jittered)).toEqual({ reset: END, slackMs: 2_000, aimAt: (END + 2) * 1000, merged: true });
  });

  it("read on the server's clock, from the 429's Date, at the latest moment Reset can mean", () => {
    // The server 5 s ahead: its Date says T0 + 20 s when ours says T0 + 15.3 s.
    const ahead = refusal({ reset: END + 5, retryAfter: '30' }, new Date(T0 + 20_300).toUTCString());
    expect(plan(ahead, Array(10).fill(END + 5))).toMatchObject({ aimAt: (END + 1) * 1000 + 300, merged: true });
  });

  it.each([
    { title: 'a Retry-After later than Reset: the client may not send at Reset', p: refusal({ reset: END, retryAfter: '40' }), reason: `free#1's 429 names ${S0 + 55} to ${S0 + 55}.999 in Retry-After "40", 10 s after its X-RateLimit-Reset ${END}: the client retries only after the indicated time, so no request is sent at Reset` },
    { title: 'a Reset beyond what the harness waits (headers of the day)', p: refusal({ reset: S0 + 43_200, retryAfter: '30', limit: 1000 }), reason: `free#1's 429 names X-RateLimit-Reset ${S0 + 43_200}, 43186 s after it arrived: more than the harness waits for one key (two minute windows), so no request is sent at Reset` },
    { title: 'no Reset', p: refusal({ retryAfter: '30' }), reason: "free#1's 429 carried no integer X-RateLimit-Reset (headers.rate-limit-present judges the headers): no moment to send at" },
    { title: 'a Reset counting seconds', p: refusal({ reset: 30, retryAfter: '30' }), reason: 'no Unix time in seconds (it looks like seconds until the reset' },
    { title: 'a ban', p: refusal({ reset: S0 + 200_000, retryAfter: '200000' }), reason: "free#1's 429 keeps the key out beyond the day window (a ban, Retry-After 200000), whose Reset is not judged" },
  ])('none sent, saying why: $title', ({ p, reason }) => {
    expect(plan(p)).toEqual({ skip: expect.stringContaining(reason) });
  });
});
