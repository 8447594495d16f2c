// rate-limit.quota and a 429 within the plan's minute quota (lib/rate-limit/within-quota.ts): the
// burst's count may agree with what the headers stated (a limiter with no room for a burst says
// Remaining 0 honestly), and the quota still fails; a failure of the burst's own count keeps its code.
import { describe, expect, it } from 'vitest';
import { judgeQuota } from '../../../lib/checks/rate-limit-quota.ts';
import type { KeyRun, TimelinePoint } from '../../../lib/result/rate-limits.ts';

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const S0 = T0 / 1000;
const base = { label: 'free#1', plan: 'free', quota: { perMinute: 60, perDay: 1000 }, windows: { minute: 60, day: 86_400 } };
const point = (t: number, status: number, remaining: number, reset: number): TimelinePoint => ({ t, status, limit: 60, remaining, reset, ...(status === 429 ? { retryAfter: '1' } : {}), date: new Date(t).toUTCString(), sentAt: t - 2 });
const look = (t: number, remaining: number, reset: number) => ({ t, status: 200, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset), date: new Date(t).toUTCString() } });
const burst = (points: TimelinePoint[]) => ({ points, sent: points.length, startedAt: T0, durationMs: 20, askedRate: 4, ended: 'first-429' as const, latency: { p50: 2, p90: 2, p99: 2, max: 2 }, latencyHistogram: [[2, points.length]] as [number, number][] });

/** A limiter with no room for a burst, honest about it: Remaining 0 at the start, one accepted, refused. */
const honest: KeyRun = { ...base, start: look(T0, 0, S0 + 1), burst: burst([point(T0 + 10, 429, 0, S0 + 1)]) };

describe('rate-limit.quota: a 429 within the plan quota', () => {
  it('passes what the headers stated when nothing says it came within the plan quota', () => {
    expect(judgeQuota(honest).outcome).not.toBe('fail');
  });

  it("fails the burst's 429 that came within the plan quota, naming the request and the plan", () => {
    const run: KeyRun = { ...honest, refusedWithinQuota: [{ suite: 'rate-limit', at: T0 + 10, sent: 2, quota: 60, seconds: 60 }] };
    expect(judgeQuota(run)).toMatchObject({ outcome: 'fail', code: 'refused-within-quota', message: expect.stringMatching(/^free#1: refused at free#1's 2nd request within 60 s, plan free allowing 60 a minute \(the key's burst\)/) });
  });

  it("fails one another suite met, even when the key's burst could not run", () => {
    const run: KeyRun = { ...base, refusedWithinQuota: [{ seq: 12, suite: 'create-pet', at: T0, sent: 3, quota: 60, seconds: 60 }, { seq: 15, suite: 'create-pet', at: T0 + 900, sent: 5, quota: 60, seconds: 60 }] };
    expect(judgeQuota(run)).toMatchObject({ outcome: 'fail', code: 'refused-within-quota', message: expect.stringMatching(/\(a request of the create-pet suite\).*; 1 more such 429s$/) });
  });

  it("keeps the burst's own failure and its code when it has one", () => {
    const lying: KeyRun = { ...base, start: look(T0, 60, S0 + 45), burst: burst([point(T0 + 10, 200, 59, S0 + 45), point(T0 + 20, 429, 0, S0 + 45)]), refusedWithinQuota: [{ suite: 'rate-limit', at: T0 + 20, sent: 3, quota: 60, seconds: 60 }] };
    expect(judgeQuota(lying)).toMatchObject({ outcome: 'fail', code: 'not-the-stated-quota' });
  });
});
