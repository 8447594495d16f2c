// Not judged is not failed (issue 28, points 1 and 5): a check that needs the server to reach a
// limit says "not reached: sent N in the window, the quota being M" when the harness could not
// spend it, whichever window the headers describe and whether Reset moves; only what was seen
// fails. And the day test, however it ended, counts the day from every request the key had
// accepted. Judges over runs built by hand, and the driver on a virtual clock.
import { describe, expect, it } from 'vitest';
import { minuteTurns, mostInOneWindow, notReached } from '../../lib/checks/not-reached.ts';
import { judgeOneQuota, mixAllowance } from '../../lib/checks/one-quota.ts';
import { judgeDailyQuota } from '../../lib/checks/rate-limit-day.ts';
import { judgeQuota } from '../../lib/checks/rate-limit-quota.ts';
import type { BurstData, DayData, KeyRun, MixData, TimelinePoint } from '../../lib/result/rate-limits.ts';
import { driveOnClock, T0 } from '../support/drive-on-clock.ts';

const S0 = T0 / 1000;
const BUSINESS = { perMinute: 1000, perDay: 100_000 };
const WINDOWS = { minute: 60, day: 86_400 };
const DAY_END = S0 + 86_400;
const httpDate = (ms: number) => new Date(ms).toUTCString();

function business(extra: Partial<KeyRun> = {}): KeyRun {
  return { label: 'business#1', plan: 'business', quota: BUSINESS, windows: WINDOWS, ...extra };
}

/** An answer whose headers describe the day (variation headers-day-window). */
function dayAnswer(t: number, status: number, remaining: number, retryAfter?: string): TimelinePoint {
  return { t, sentAt: t - 1, status, limit: BUSINESS.perDay, remaining, reset: DAY_END, date: httpDate(t), ...(retryAfter !== undefined ? { retryAfter } : {}) };
}

/** `accepted` answers with day headers, evenly from `from` to `to` (our ms), then a 429 or none. */
function dayBurst(accepted: number, from: number, to: number, refusal?: { at: number; retryAfter: string }): BurstData {
  const step = (to - from) / Math.max(1, accepted - 1);
  const points = Array.from({ length: accepted }, (_, i) => dayAnswer(Math.round(from + i * step), 200, 99_998 - i));
  if (refusal) points.push(dayAnswer(refusal.at, 429, 99_998 - accepted, refusal.retryAfter));
  const end = refusal?.at ?? to;
  return { points, sent: points.length, startedAt: from - 1, durationMs: end - from + 1, askedRate: 67, ended: refusal ? 'first-429' : 'max-requests', latency: { p50: 1, p90: 1, p99: 1, max: 1 } };
}

const look = { t: T0, status: 200, headers: { 'x-ratelimit-limit': '100000', 'x-ratelimit-remaining': '99999', 'x-ratelimit-reset': String(DAY_END), date: httpDate(T0) } };

describe('rate-limit.quota with headers of the day: the minute turns underneath them', () => {
  it('a fast burst across the minute window\'s turn (its 429 names a window that began after the burst did) is not judged, not failed', () => {
    // 500 accepted before the minute turned 0.6 s in, 1000 after it; the 429 says 59 s: the window began at 1.6 s at the latest.
    const run = business({ start: look, burst: dayBurst(1500, T0 + 100, T0 + 1_600, { at: T0 + 1_601, retryAfter: '59' }) });
    const f = judgeQuota(run);
    expect(f).toMatchObject({ outcome: 'skip', message: expect.stringContaining('the minute window may have turned during the burst') });
    expect(f.message).toContain('not judged');
  });

  it('more than two minutes\' quota across one turn still fails', () => {
    const run = business({ start: look, burst: dayBurst(2100, T0 + 100, T0 + 1_600, { at: T0 + 1_601, retryAfter: '59' }) });
    expect(judgeQuota(run)).toMatchObject({ outcome: 'fail', code: 'more-than-minute-quota' });
  });

  it('a burst within one minute window (its 429 names a window that began before it) judges the minute\'s quota as before', () => {
    // The 429 says 30 s: the window began half a minute before the burst.
    const run = business({ start: look, burst: dayBurst(1100, T0 + 100, T0 + 600, { at: T0 + 601, retryAfter: '30' }) });
    expect(judgeQuota(run)).toMatchObject({ outcome: 'fail', code: 'more-than-minute-quota' });
  });

  it('no 429 from answers too slow for the quota: "not reached: sent N in the window, the quota being M", skipped', () => {
    // 900 accepted over two minutes (dated 121 s apart: three minute windows met): 450 a minute window, the quota being 1000.
    const run = business({ start: look, burst: { ...dayBurst(900, T0 + 100, T0 + 120_000), ended: 'max-duration' } });
    const f = judgeQuota(run);
    expect(f).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/not reached: sent 45\d in the window, the quota being 1000\b/) });
    expect(f.message).toContain('its time cap, spanning 3 turns of the minute window');
  });

  it('no 429 after more than any minute limiter lets through over the burst\'s time fails, though the day\'s Remaining was far from spent', () => {
    const run = business({ start: look, burst: dayBurst(2100, T0 + 100, T0 + 600) });
    expect(judgeQuota(run)).toMatchObject({ outcome: 'fail', code: 'no-429', expected: expect.stringContaining('a 429 after 1000 accepted requests') });
  });
});

describe('what a burst spanned', () => {
  it('counts the most sent within one window\'s length', () => {
    const points = [0, 100, 200, 60_500, 60_600].map((t) => dayAnswer(T0 + t, 200, 1));
    expect(mostInOneWindow(points, 60)).toBe(3);
    expect(mostInOneWindow(points, 61)).toBe(5);
  });

  it('headers of the minute with one Reset show the window held; headers of the day show nothing, so time decides', () => {
    const minute = [0, 30_000].map((t): TimelinePoint => ({ t: T0 + t, status: 200, limit: 1000, remaining: 5, reset: S0 + 60, date: httpDate(T0 + t) }));
    expect(minuteTurns(business(), minute, T0)).toBe(0);
    const day = [0, 30_000].map((t) => dayAnswer(T0 + t, 200, 5));
    expect(minuteTurns(business(), day, T0)).toBe(1);
    expect(minuteTurns(business(), [...day, dayAnswer(T0 + 130_000, 200, 4)], T0)).toBe(3);
  });

  it('says a limit not reached in the words of the issue', () => {
    expect(notReached(412, 1000)).toBe('not reached: sent 412 in the window, the quota being 1000');
    expect(notReached(1200, 1000, 'the window', true)).toContain('across a turn of the window');
  });
});

describe('rate-limit.one-quota with headers of the day', () => {
  it('any turn of the minute is assumed (the look\'s Reset names the day\'s end), one for each window the mix took', () => {
    const mix: MixData = { start: look, expected: 1000, points: [{ ...dayAnswer(T0 + 130_000, 200, 1), op: 'listPets' }], ended: 'time', durationMs: 130_000 };
    expect(mixAllowance(business(), mix)).toMatchObject({ turned: true, turns: 3 });
    expect(judgeOneQuota(business({ mix }))).toMatchObject({ outcome: 'skip', message: expect.stringContaining('not reached: sent 1 in the window, the quota being 1000') });
  });
});

describe('rate-limit.daily-quota counts what it saw, however the day test ended', () => {
  const DAILY = { perMinute: 40, perDay: 100 };
  const W = { minute: 4, day: 40 };
  const R = S0 + 40;
  const daily = (accepted: number, day: Partial<DayData>, extra: Partial<KeyRun> = {}): KeyRun => ({
    label: 'daily#1',
    plan: 'daily',
    quota: DAILY,
    windows: W,
    day: { accepted, acceptedAt: Array.from({ length: accepted }, (_, i) => S0 + Math.floor((i * 30) / accepted)), bursts: [], ended: 'too-long', elapsedMs: 30_000, dayResets: [R, R], ...day },
    ...extra,
  });
  const why = 'daily#1: the minute window (spending the day\'s quota): asked to wait 120 s (Retry-After "120"), more than two minute windows';

  it('stopped by a wait longer than the harness sits out, with more than the quota in a day window its headers showed: fails', () => {
    const f = judgeDailyQuota(daily(101, {}, { daySkipped: why }));
    expect(f).toMatchObject({ outcome: 'fail', code: 'over-day-quota-shown-window', message: expect.stringContaining("the day test stopped before the day's 429") });
  });

  it('stopped so with no more than the quota seen: not reached, skipped with why it stopped', () => {
    const f = judgeDailyQuota(daily(60, {}, { daySkipped: why }));
    expect(f).toMatchObject({ outcome: 'skip', message: expect.stringContaining('not reached: sent 60 in the busiest 40 s') });
    expect(f.message).toContain('asked to wait 120 s');
  });

  it('the key refused again after each Retry-After, after more than two days\' quota within a day window\'s length: the overrun is the failure', () => {
    expect(judgeDailyQuota(daily(201, { ended: 'still-refused', dayResets: [] }))).toMatchObject({ outcome: 'fail', code: 'beyond-any-day' });
    expect(judgeDailyQuota(daily(90, { ended: 'still-refused', dayResets: [] }))).toMatchObject({ outcome: 'fail', code: 'still-refused' });
  });

  it('not driven at all: skipped with the reason', () => {
    expect(judgeDailyQuota({ label: 'daily#1', plan: 'daily', quota: DAILY, windows: W, daySkipped: 'the daily quota is spent on one key per plan (daily#2)' })).toEqual({ outcome: 'skip', message: 'the daily quota is spent on one key per plan (daily#2)' });
  });
});

describe('on the virtual clock: a Business-like key whose minute quota the harness cannot reach in one window (60 ms each way)', () => {
  // 200 a 4-second window: four connections at 120 ms a round trip send about 133 in one.
  const KEY = { key: 'sk-business-1-4d5e6f', plan: 'business' };
  const plans = { business: { perMinute: 200, perDay: 20_000 } };
  const windows = { minute: 4, day: 400 };

  it.each([
    { headers: 'of the day', variations: ['headers-day-window' as const] },
    { headers: 'of the minute', variations: [] },
  ])('headers $headers: rate-limit.quota says "not reached", never fails', async ({ variations }) => {
    const r = await driveOnClock({ keys: [KEY], plans, windows, variations, latencyMs: 60 });
    expect(r.runs.get('business#1')!.burst!.ended).not.toBe('first-429');
    expect(r.findings('business#1').get('rate-limit.quota')).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/not reached: sent \d+ in the window, the quota being (200|19\d)\b/) });
    expect(r.failed('business#1')).toEqual([]);
  });
});
