// lib/checks/key-summary.ts (summariseKey): what report.json keeps of one key's run, the timeline and the load figures.
// Runs are built by hand from a fixed base time: no clock, no load.
import { describe, expect, it } from 'vitest';
import { type BurstData, burstPoint, headersOf, type KeyRun, type TimelinePoint } from '../../../lib/result/rate-limits.ts';
import { summariseKey } from '../../../lib/checks/key-summary.ts';

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const S0 = T0 / 1000;
const RESET = S0 + 45;
const LATENCY = { p50: 12, p90: 30, p99: 80, max: 95 };

function keyRun(extra: Partial<KeyRun> = {}): KeyRun {
  return { label: 'free-a', plan: 'free', quota: { perMinute: 60, perDay: 1000 }, windows: { minute: 60, day: 86_400 }, ...extra };
}

function burstData(points: TimelinePoint[], extra: Partial<BurstData> = {}): BurstData {
  return { points, sent: points.length, startedAt: T0, durationMs: 2_000, askedRate: 4, ended: 'first-429', latency: LATENCY, ...extra };
}

/** `n` accepted requests 100 ms apart, Remaining counting down, Reset from `reset(i)`. */
const accepted = (n: number, reset: (i: number) => number = () => RESET): TimelinePoint[] =>
  Array.from({ length: n }, (_, i) => ({ t: T0 + (i + 1) * 100, status: 200, limit: 60, remaining: n - 1 - i, reset: reset(i) }));

const rejected = (t: number, extra: Partial<TimelinePoint> = {}): TimelinePoint => ({ t, status: 429, limit: 60, remaining: 0, reset: RESET, retryAfter: '44', ...extra });

describe('summariseKey: behaviour', () => {
  it.each<{ title: string; run: () => KeyRun; behaviour: string }>([
    { title: 'one Reset through the burst, then a 429: fixed window', run: () => keyRun({ burst: burstData([...accepted(10), rejected(T0 + 1_100)]) }), behaviour: 'fixed window' },
    {
      title: 'Reset moving through the burst: refilling',
      run: () => keyRun({ burst: burstData([...accepted(10, (i) => S0 + 50 + i), rejected(T0 + 1_100)]) }),
      behaviour: 'refilling (sliding window or token bucket)',
    },
    {
      title: 'a 2xx in flight at the stop, from the next window, does not make a fixed window refilling',
      run: () => keyRun({ burst: burstData([...accepted(10), rejected(T0 + 1_100), { t: T0 + 1_150, status: 200, reset: RESET + 60, afterStop: true }]) }),
      behaviour: 'fixed window',
    },
    {
      title: 'a fixed window that turned during the burst: fixed window, saying so',
      run: () => keyRun({ burst: burstData([...accepted(5), ...accepted(60, () => RESET + 60).map((p) => ({ ...p, t: p.t + 500 })), rejected(T0 + 7_000, { reset: RESET + 60 })]) }),
      behaviour: `fixed window (the window turned during the burst: Reset ${RESET} then ${RESET + 60})`,
    },
    {
      title: 'two Resets a window apart but Remaining never back up: not a turn, refilling',
      run: () => keyRun({ burst: burstData([...accepted(10, (i) => (i < 5 ? RESET : RESET + 60)), rejected(T0 + 1_100)]) }),
      behaviour: 'refilling (sliding window or token bucket)',
    },
    { title: 'the load stopped at its request cap: no 429 seen', run: () => keyRun({ burst: burstData(accepted(10), { ended: 'max-requests' }) }), behaviour: 'no 429 seen' },
    { title: 'the load stopped at its time cap: no 429 seen', run: () => keyRun({ burst: burstData(accepted(10, (i) => S0 + i), { ended: 'max-duration' }) }), behaviour: 'no 429 seen' },
    { title: 'no burst: not observed', run: () => keyRun({ start: { t: T0, status: 200, headers: { 'x-ratelimit-remaining': '10' } } }), behaviour: 'not observed' },
  ])('$title', ({ run, behaviour }) => {
    expect(summariseKey(run()).behaviour).toBe(behaviour);
  });
});

describe('summariseKey: load', () => {
  it('counts accepted, 429 and other responses, and those in flight at the stop (sent - points)', () => {
    const points = [...accepted(10), rejected(T0 + 1_100), { t: T0 + 1_120, status: 429, afterStop: true }, { t: T0 + 1_150, status: 503, afterStop: true }];
    const summary = summariseKey(keyRun({ burst: burstData(points, { sent: 16, durationMs: 2_000, askedRate: 4 }) }));
    expect(summary.load).toEqual({ sent: 16, accepted: 10, rejected: 2, other: 1, inFlightAtStop: 3, durationMs: 2_000, askedRate: 4, achievedRate: 7, latency: LATENCY });
  });

  it('rounds the achieved rate (responses per second of the burst)', () => {
    // 11 responses in 3 s: 3.67 a second.
    const summary = summariseKey(keyRun({ burst: burstData([...accepted(10), rejected(T0 + 1_100)], { durationMs: 3_000 }) }));
    expect(summary.load?.achievedRate).toBe(4);
  });

  it('gives an achieved rate of 0 for a burst of no measurable duration', () => {
    expect(summariseKey(keyRun({ burst: burstData([rejected(T0)], { durationMs: 0 }) })).load?.achievedRate).toBe(0);
  });

  it('counts a 2xx of any kind as accepted, and leaves a burst with nothing in flight at 0', () => {
    const points: TimelinePoint[] = [
      { t: T0 + 1, status: 201 },
      { t: T0 + 2, status: 204 },
      { t: T0 + 3, status: 301 },
      { t: T0 + 4, status: 429 },
    ];
    const load = summariseKey(keyRun({ burst: burstData(points) })).load;
    expect(load && [load.accepted, load.rejected, load.other, load.inFlightAtStop]).toEqual([2, 1, 1, 0]);
  });

  it('has no load figures when no burst ran', () => {
    expect(summariseKey(keyRun())).not.toHaveProperty('load');
  });
});

describe('summariseKey: the rest', () => {
  it('keeps label, plan, quota and windows, and the timeline of probes and burst in time order', () => {
    const burst = burstData([...accepted(2), rejected(T0 + 300)]);
    const run = keyRun({
      start: { t: T0, status: 200, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': `${RESET}` } },
      burst,
      retry: { waitedMs: 44_000, next: { t: T0 + 45_000, status: 200, headers: { 'x-ratelimit-remaining': '59' } } },
    });
    const summary = summariseKey(run);
    expect(summary).toMatchObject({ label: 'free-a', plan: 'free', quota: { perMinute: 60, perDay: 1000 }, windows: { minute: 60, day: 86_400 } });
    expect(summary.timeline.map((p) => [p.t - T0, p.status, p.remaining])).toEqual([
      [0, 200, 2],
      [100, 200, 1],
      [200, 200, 0],
      [300, 429, 0],
      [45_000, 200, 59],
    ]);
  });
});


describe('burstPoint and headersOf: a load answer recorded in the server\'s words', () => {
  it('keeps an X-RateLimit-* header that is not an integer as sent, so that it is not recorded as missing', () => {
    const sent: Record<string, string> = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1736164803.38' };
    const point = burstPoint(1_736_164_800_000, 200, (name) => sent[name], '');
    expect(point).toMatchObject({ limit: 60, remaining: 59, unread: { 'x-ratelimit-reset': '1736164803.38' } });
    expect(point.reset).toBeUndefined();
    expect(headersOf(point)).toMatchObject(sent);
  });

  it('keeps nothing more when every header is an integer', () => {
    const point = burstPoint(1_736_164_800_000, 200, (name) => ({ 'x-ratelimit-reset': '1736164860' })[name], '');
    expect(point.unread).toBeUndefined();
    expect(headersOf(point)).toEqual({ 'x-ratelimit-reset': '1736164860' });
  });
});
