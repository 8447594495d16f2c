// lib/result/paced-load.ts: what report.json keeps of a key's paced run, and the figures the load
// checks count with. Runs are built by hand from a fixed base time: no clock, no load.
import { describe, expect, it } from 'vitest';
import { achievedRate, arrivalSlackMs, first429, overallFigures, PacedLoadKey, type PacedRequest, type PacedRun, pacedFigures, rateError, sentWithin } from '../../../lib/result/paced-load.ts';
import type { Look, TimelinePoint } from '../../../lib/result/rate-limits.ts';

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const LOOK: Look = { t: T0 - 300, status: 200, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' } };

function pacedRun(requests: PacedRequest[], extra: Partial<PacedRun> = {}): PacedRun {
  return {
    label: 'free#1',
    plan: 'free',
    quota: { perMinute: 60, perDay: 1000 },
    windows: { minute: 5, day: 60 },
    fraction: 0.9,
    askedRate: 10.8,
    planned: 108,
    start: LOOK,
    requests,
    dropped: 0,
    startedAt: T0,
    durationMs: requests.length > 0 ? requests.at(-1)!.sentAt - T0 : 0,
    ...extra,
  };
}

/** A request sent `at` ms after T0, answered with `status` after `latency` ms. */
function answered(at: number, status: number, latency: number, extra: Partial<TimelinePoint> = {}): PacedRequest {
  return { sentAt: T0 + at, point: { t: T0 + at + latency, status, ...extra }, latencyMs: latency };
}
const unanswered = (at: number, error = 'ECONNRESET'): PacedRequest => ({ sentAt: T0 + at, error });

/** A little of everything, over two and a half seconds. */
const MIXED = [
  answered(0, 200, 10),
  answered(100, 200, 20),
  answered(200, 429, 5, { limit: 60, remaining: 0, retryAfter: '3', body: '{"code":"rate_limited"}' }),
  answered(300, 503, 30),
  unanswered(1000),
  answered(1100, 204, 40.4),
  answered(2500, 200, 7),
];

/** `n` requests `gap` ms apart from T0, each answered 200 in `latency(i)` ms. */
const even = (n: number, gap: number, latency: (i: number) => number = () => 2) => Array.from({ length: n }, (_, i) => answered(i * gap, 200, latency(i)));

describe('pacedFigures', () => {
  it('counts what was sent and what came back (a 204 is accepted as a 200 is)', () => {
    const f = pacedFigures(pacedRun(MIXED, { dropped: 2 }));
    expect(f).toMatchObject({ planned: 108, sent: 7, accepted: 4, rejected: 1, other: 1, noResponse: 1, dropped: 2, durationMs: 2500 });
  });

  it('keeps what the run was asked for, and the key', () => {
    const f = pacedFigures(pacedRun(MIXED, { askedRate: 10.8049 }));
    expect(f).toMatchObject({ label: 'free#1', plan: 'free', quota: { perMinute: 60, perDay: 1000 }, windows: { minute: 5, day: 60 }, fraction: 0.9, askedRate: 10.8 });
  });

  it('gives the achieved rate as (n - 1) sends over the span from the first send to the last', () => {
    // 6 gaps over 2.5 s.
    expect(pacedFigures(pacedRun(MIXED)).achievedRate).toBe(2.4);
    // 108 sends 92.6 ms apart: 10.799 a second, two decimals kept.
    expect(pacedFigures(pacedRun(even(108, 92.6))).achievedRate).toBe(10.8);
  });

  it('gives the gaps between sends, p50 and p99', () => {
    // Gaps 100, 100, 100, 700, 100, 1400 ms.
    expect(pacedFigures(pacedRun(MIXED)).gaps).toEqual({ p50: 100, p99: 1400 });
    expect(pacedFigures(pacedRun([answered(0, 200, 1)])).gaps).toEqual({ p50: 0, p99: 0 });
  });

  it('gives latency percentiles and the histogram over the answered requests only', () => {
    const f = pacedFigures(pacedRun(MIXED));
    // 40.4 ms goes in the 40 ms bucket; the request without a response has no latency.
    expect(f.latencyHistogram).toEqual([[5, 1], [7, 1], [10, 1], [20, 1], [30, 1], [40, 1]]);
    expect(f.latency).toEqual({ p50: 10, p90: 40, p95: 40, p99: 40, max: 40 });
  });

  it('counts second by second, by when each request was sent', () => {
    const f = pacedFigures(pacedRun(MIXED));
    expect(f.perSecond).toEqual([
      // Latencies 10, 20, 5, 30.
      { second: 0, sent: 4, ok: 2, rejected: 1, other: 1, noResponse: 0, p50: 10, p95: 30, p99: 30 },
      { second: 1, sent: 2, ok: 1, rejected: 0, other: 0, noResponse: 1, p50: 40, p95: 40, p99: 40 },
      { second: 2, sent: 1, ok: 1, rejected: 0, other: 0, noResponse: 0, p50: 7, p95: 7, p99: 7 },
    ]);
  });

  it('leaves out the seconds nothing was sent in, and shows latency growing second by second', () => {
    const f = pacedFigures(pacedRun([...even(3, 100, () => 5), answered(3050, 200, 80), answered(3900, 200, 90)]));
    expect(f.perSecond.map((s) => [s.second, s.sent, s.p99])).toEqual([
      [0, 3, 5],
      [3, 2, 90],
    ]);
  });

  it('names the first 429: its place from 1, when it was sent, the rate up to it, what was sent in the window before it, its headers', () => {
    const f = pacedFigures(pacedRun(MIXED));
    // Two requests in 200 ms before it: 10 a second; the look, 300 ms before the first, is within the 5 s window.
    expect(f.first429).toEqual({ request: 3, atMs: 200, rate: 10, sentInWindow: 4, retryAfter: '3', limit: 60, remaining: 0 });
    expect(first429(pacedRun(MIXED))).toEqual(f.first429);
  });

  it('gives the asked rate for a 429 on the first request, and leaves out headers it did not carry', () => {
    const f = pacedFigures(pacedRun([answered(0, 429, 3), answered(100, 200, 3)]));
    expect(f.first429).toEqual({ request: 1, atMs: 0, rate: 10.8, sentInWindow: 2 });
  });

  it('has no first429 without a 429, and no skipped or stopped unless set', () => {
    const f = pacedFigures(pacedRun(even(5, 100)));
    expect(f).not.toHaveProperty('first429');
    expect(f).not.toHaveProperty('skipped');
    expect(f).not.toHaveProperty('stopped');
  });

  it('says why the run stopped', () => {
    const stopped = 'the target stopped answering: 5 requests in a row got no response';
    expect(pacedFigures(pacedRun(MIXED, { stopped })).stopped).toBe(stopped);
  });

  it('says why a key was not paced (skipped), with zero counts', () => {
    const f = pacedFigures(pacedRun([], { unavailable: 'free#1: plan free is too small', start: undefined }));
    expect(f).toMatchObject({ skipped: 'free#1: plan free is too small', sent: 0, accepted: 0, achievedRate: 0, durationMs: 0, perSecond: [], latencyHistogram: [] });
    expect(f.latency).toEqual({ p50: 0, p90: 0, p95: 0, p99: 0, max: 0 });
  });

  it('gives what the report schema accepts', () => {
    expect(() => PacedLoadKey.parse(pacedFigures(pacedRun(MIXED, { stopped: 'x' })))).not.toThrow();
    expect(() => PacedLoadKey.parse(pacedFigures(pacedRun([], { unavailable: 'x' })))).not.toThrow();
  });
});

describe('achievedRate and rateError', () => {
  it.each<{ title: string; requests: PacedRequest[]; rate: number }>([
    { title: 'no request', requests: [], rate: 0 },
    { title: 'one request: no span', requests: [answered(0, 200, 1)], rate: 0 },
    { title: 'two sent at once: no span', requests: [answered(0, 200, 1), answered(0, 200, 1)], rate: 0 },
    { title: '11 over one second', requests: even(11, 100), rate: 10 },
    { title: 'three over 300 ms', requests: even(3, 150), rate: 6.67 },
  ])('$title: $rate a second', ({ requests, rate }) => {
    expect(achievedRate(requests)).toBe(rate);
  });

  it('gives how far the achieved rate is from the asked one, either way', () => {
    expect(rateError({ askedRate: 10, requests: even(11, 100) })).toBe(0);
    expect(rateError({ askedRate: 8, requests: even(11, 100) })).toBeCloseTo(0.25);
    expect(rateError({ askedRate: 20, requests: even(11, 100) })).toBeCloseTo(0.5);
    // Nothing asked: nothing to be off from.
    expect(rateError({ askedRate: 0, requests: even(11, 100) })).toBe(0);
  });
});

describe('sentWithin', () => {
  const run = pacedRun(even(10, 1000));
  it.each<{ title: string; to: number; span: number; n: number }>([
    // (T0 + 4000 - 5000, T0 + 4000]: requests 0..4 and the look (T0 - 300).
    { title: 'the paced requests and the look in the span', to: T0 + 4000, span: 5000, n: 6 },
    // (T0 - 1000, T0 + 5000]: the request at T0 - 1000 would be left out; the one at `to` is in.
    { title: 'a send at the end of the span is in', to: T0 + 5000, span: 6000, n: 7 },
    // (T0, T0 + 5000]: the request at T0 is on the open edge; the look before it too.
    { title: 'a send at the start of the span is out, and the look before it', to: T0 + 5000, span: 5000, n: 5 },
    { title: 'the look alone', to: T0 - 100, span: 5000, n: 1 },
    { title: 'nothing before the look', to: T0 - 400, span: 5000, n: 0 },
  ])('$title', ({ to, span, n }) => {
    expect(sentWithin(run, to, span)).toBe(n);
  });

  it('counts no look when there was none', () => {
    expect(sentWithin({ requests: run.requests }, T0 + 4000, 5000)).toBe(5);
  });
});

describe('arrivalSlackMs', () => {
  it.each<{ title: string; latencies: number[]; slack: number }>([
    { title: 'no answer: 100 ms', latencies: [], slack: 100 },
    { title: 'fast answers: at least 100 ms', latencies: [2, 3, 30], slack: 100 },
    // The 99th of 100 answers took 300 ms (nearest rank); the slowest alone does not count.
    { title: 'p99 of 300 ms: 350 ms', latencies: [...Array<number>(98).fill(10), 300, 900], slack: 350 },
    { title: 'one slow answer in a hundred is not the p99', latencies: [...Array<number>(99).fill(10), 900], slack: 100 },
    { title: 'slow answers: at most a second', latencies: [5000, 6000], slack: 1000 },
  ])('$title', ({ latencies, slack }) => {
    expect(arrivalSlackMs({ requests: latencies.map((l, i) => answered(i * 100, 200, l)) })).toBe(slack);
  });

  it('leaves out requests without a response', () => {
    expect(arrivalSlackMs({ requests: [answered(0, 200, 200), unanswered(100)] })).toBe(250);
  });
});

describe('overallFigures', () => {
  it('sums the keys, counting 429s, other statuses and requests without response as errors', () => {
    const a = pacedFigures(pacedRun(MIXED));
    const b = pacedFigures(pacedRun(even(13, 100)));
    const o = overallFigures([a, b]);
    expect(o).toMatchObject({ sent: 20, errors: 3 });
    expect(o.errorRate).toBeCloseTo(3 / 20);
  });

  it('merges the latency histograms: the percentiles of every answer together', () => {
    // Ten fast answers (1..10 ms) on one key, ten slow ones (100 ms) on the other.
    const fast = pacedFigures(pacedRun(even(10, 100, (i) => i + 1)));
    const slow = pacedFigures(pacedRun(even(10, 100, () => 100)));
    expect(overallFigures([fast, slow]).latency).toEqual({ p50: 10, p90: 100, p95: 100, p99: 100, max: 100 });
    expect(overallFigures([fast]).latency).toEqual({ p50: 5, p90: 9, p95: 10, p99: 10, max: 10 });
  });

  it('is all zero without a request', () => {
    expect(overallFigures([])).toEqual({ sent: 0, errors: 0, errorRate: 0, latency: { p50: 0, p90: 0, p95: 0, p99: 0, max: 0 } });
    expect(overallFigures([pacedFigures(pacedRun([], { unavailable: 'x' }))]).errorRate).toBe(0);
  });
});
