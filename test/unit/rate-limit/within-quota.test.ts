// A 429 that no limiter of the plan gives: the key refused while the harness had sent it no more
// than the plan's minute quota within one window's length (lib/rate-limit/within-quota.ts).
import { describe, expect, it } from 'vitest';
import { dayMayBeSpent, describeWithinQuota, placedInMinute, refusedWithinQuota } from '../../../lib/rate-limit/within-quota.ts';
import type { RateAnswer } from '../../../lib/rate-limit/vocabulary.ts';

const T = 1_800_000_000_000;
const FREE = { quota: { perMinute: 60, perDay: 1000 }, windows: { minute: 60, day: 86_400 }, knownSince: T - 3_600_000 };
const refusal = (over: Partial<RateAnswer> = {}, sentAt = T - 5): { sentAt: number; answer: RateAnswer } => ({ sentAt, answer: { t: T, status: 429, limit: 60, remaining: 0, retryAfter: '1', ...over } });
/** The latest moments `n` requests a second apart were counted (their answers), the last the refused request itself. */
const sends = (n: number, lastAt = T - 5) => Array.from({ length: n }, (_, i) => lastAt - (n - 1 - i) * 1000);

describe('refusedWithinQuota', () => {
  it.each([
    { title: 'the 2nd request in a minute', sent: sends(2), over: {}, within: { sent: 2, quota: 60, seconds: 60 } },
    { title: 'the 60th: the quota itself', sent: sends(60, T - 5).map((t, i) => T - 5 - (59 - i) * 900), over: {}, within: { sent: 60, quota: 60, seconds: 60 } },
    { title: 'the 61st: over the quota', sent: sends(61).map((t, i) => T - 5 - (60 - i) * 900), over: {}, within: undefined },
    { title: 'requests older than a window do not count', sent: [T - 61_000, T - 70_000, ...sends(2)], over: {}, within: { sent: 2, quota: 60, seconds: 60 } },
    { title: 'a request still in flight beside it counts', sent: [...sends(2), Number.POSITIVE_INFINITY], over: {}, within: { sent: 3, quota: 60, seconds: 60 } },
    { title: 'a request sent before the window but answered in it counts', sent: [T - 5 - 59_999, ...sends(2)], over: {}, within: { sent: 3, quota: 60, seconds: 60 } },
    { title: 'headers of the day with room: the minute refused', sent: sends(3), over: { limit: 1000, remaining: 900 }, within: { sent: 3, quota: 60, seconds: 60 } },
    { title: 'no X-RateLimit-* at all', sent: sends(3), over: { limit: undefined, remaining: undefined }, within: { sent: 3, quota: 60, seconds: 60 } },
  ])('$title', ({ sent, over, within }) => {
    expect(refusedWithinQuota(sent, refusal(over), FREE)).toEqual(within);
  });

  it.each([
    { title: 'not a 429', answer: { status: 503 } },
    { title: "the day's: headers of the day with nothing left", answer: { limit: 1000, remaining: 0 } },
    { title: "the day's: a Retry-After beyond a minute window", answer: { retryAfter: '3600' } },
    { title: 'a ban: a Retry-After beyond the day window', answer: { retryAfter: '200000' } },
    { title: 'headers of the minute that still leave room: something else refused (a day near its end, say)', answer: { remaining: 12 } },
  ])('not judged: $title', ({ answer }) => {
    expect(refusedWithinQuota(sends(2), refusal(answer), FREE)).toBeUndefined();
  });

  it('not judged: sent less than a window after the harness began to know the key\'s traffic (an earlier run may have spent it)', () => {
    expect(refusedWithinQuota(sends(2), refusal(), { ...FREE, knownSince: T - 30_000 })).toBeUndefined();
    expect(refusedWithinQuota(sends(2), refusal(), { ...FREE, knownSince: T - 5 - 60_000 })).toEqual({ sent: 2, quota: 60, seconds: 60 });
  });

  // Issue 43: a spent day's 429 with its wait only in Retry-After-day, under headers of the minute.
  it('not judged: no Retry-After under headers of the minute (Reset the minute\'s end): the spent day\'s, for all it says', () => {
    const bare = refusal({ retryAfter: undefined, reset: Math.floor(T / 1000) + 40 });
    expect(placedInMinute(FREE, bare.answer)).toBe(false);
    expect(refusedWithinQuota(sends(2), bare, FREE)).toBeUndefined();
    // A Retry-After that names no moment names nothing of the day either.
    expect(refusedWithinQuota(sends(2), refusal({ retryAfter: 'soon' }), FREE)).toBeUndefined();
  });

  it('judged without Retry-After where the headers show the day with requests left: the minute refused', () => {
    const dayRoom = refusal({ retryAfter: undefined, limit: 1000, remaining: 900 });
    expect(placedInMinute(FREE, dayRoom.answer)).toBe(true);
    expect(refusedWithinQuota(sends(3), dayRoom, FREE)).toEqual({ sent: 3, quota: 60, seconds: 60 });
    // The day's headers with nothing left: the day's.
    expect(placedInMinute(FREE, refusal({ retryAfter: undefined, limit: 1000, remaining: 0 }).answer)).toBe(false);
  });

  it("not judged when the run's own accepted requests within a day window's length reach the day's quota; judged below it", () => {
    const day = { ...FREE, quota: { perMinute: 60, perDay: 100 } };
    const before = (n: number, from: number) => Array.from({ length: n }, (_, i) => from + i * 10);
    // 98 accepted half a day before, and the 2 of this minute: the day may be spent.
    const spent = [...before(98, T - 43_200_000), ...sends(2)];
    expect(dayMayBeSpent(spent, T - 5, day)).toBe(true);
    expect(refusedWithinQuota(sends(2), refusal(), { ...day, acceptedAt: spent })).toBeUndefined();
    // One fewer: the day has room for certain by the run's own count, and the minute's quota is judged.
    const room = [...before(97, T - 43_200_000), ...sends(2)];
    expect(dayMayBeSpent(room, T - 5, day)).toBe(false);
    expect(refusedWithinQuota(sends(2), refusal(), { ...day, acceptedAt: room })).toEqual({ sent: 2, quota: 60, seconds: 60 });
    // Accepted more than a day window's length before do not count.
    expect(dayMayBeSpent([...before(98, T - 86_400_000 - 10_000), ...sends(2)], T - 5, day)).toBe(false);
  });

  it('says which request it was and what the plan allows', () => {
    expect(describeWithinQuota('free#1', 'free', { sent: 2, quota: 60, seconds: 60 })).toBe("refused at free#1's 2nd request within 60 s, plan free allowing 60 a minute");
    expect(describeWithinQuota('pro#1', 'pro', { sent: 13, quota: 300, seconds: 4 })).toBe("refused at pro#1's 13th request within 4 s, plan pro allowing 300 a minute");
    expect(describeWithinQuota('pro#1', 'pro', { sent: 23, quota: 300, seconds: 4 })).toContain('23rd');
  });
});
