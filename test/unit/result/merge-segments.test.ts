// lib/result/merge-segments.ts: N load segments judged as one run. Runs and reports are built by hand from a
// fixed base time: no clock, no server.
import { describe, expect, it } from 'vitest';
import { judgePerConnection, judgeQuota } from '../../../lib/checks/rate-limit-quota.ts';
import { UsageError } from '../../../lib/errors.ts';
import { checkSegments, combineChecks, keyEvidence, mergeKeyRuns, segmentRuns, sumRequests, type SegmentReport } from '../../../lib/result/merge-segments.ts';
import type { CheckResult, Report } from '../../../lib/result/model.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { type KeyRun, keyRunRecord, type TimelinePoint } from '../../../lib/result/rate-limits.ts';
import { histogramOf, mergeHistograms, percentilesOf } from '../../../lib/result/latency.ts';

const T0 = Date.UTC(2026, 10, 24, 18, 0, 0);
const RESET = T0 / 1000 + 5;
const QUOTA = { perMinute: 60, perDay: 1000 };
const base = { label: 'free#1', plan: 'free', quota: QUOTA, windows: { minute: 5, day: 60 } };
const LATENCY = { p50: 0, p90: 0, p99: 0, max: 0 };

const ok = (t: number, remaining: number, conn: number): TimelinePoint => ({ t, status: 200, limit: 60, remaining, reset: RESET, conn });
const refused = (t: number, conn: number): TimelinePoint => ({ t, status: 429, limit: 60, remaining: 0, reset: RESET, retryAfter: '4', conn });
const look = (t: number, remaining: number) => ({ t, status: 200, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(RESET) } });

/**
 * One fixed window of 60 shared by two runners: each looks once (59 and 58 left), then runner 2
 * sends 20 and stops, runner 1 sends the rest and crosses. `ownQuota`: a limiter per runner
 * instead (each process counts its own 60), which lets 60 through for each.
 */
function twoRunners(ownQuota = false): { index: number; run: KeyRun }[] {
  const r2: TimelinePoint[] = [];
  const r1: TimelinePoint[] = [];
  let left = 58;
  let left2 = 59;
  for (let i = 0; i < 20; i++) r2.push(ok(T0 + 10 + 2 * i, ownQuota ? --left2 : --left, 1 + (i % 2)));
  const mine = ownQuota ? 59 : left;
  let own = ownQuota ? 59 : left;
  for (let i = 0; i < mine; i++) r1.push(ok(T0 + 11 + 2 * i, --own, 1 + (i % 2)));
  r1.push(refused(T0 + 200, 1));
  const hist1 = histogramOf(r1.map((_, i) => 1 + (i % 3)));
  const hist2 = histogramOf(r2.map((_, i) => 2 + (i % 5)));
  return [
    { index: 2, run: { ...base, start: look(T0 + 2, 58), burst: { points: r2, sent: r2.length, startedAt: T0 + 3, durationMs: 60, askedRate: 24, ended: 'max-requests', latency: percentilesOf(hist2), latencyHistogram: hist2 } } },
    { index: 1, run: { ...base, start: look(T0 + 1, 59), burst: { points: r1, sent: r1.length, startedAt: T0 + 2, durationMs: 200, askedRate: 24, ended: 'first-429', latency: percentilesOf(hist1), latencyHistogram: hist1, inFlightAtFirst429: 0 } } },
  ];
}

describe('mergeKeyRuns', () => {
  it('one shared window, split over two runners, merges into the run one runner would have recorded: the quota passes', () => {
    const merged = mergeKeyRuns(twoRunners());
    expect(merged.start?.headers['x-ratelimit-remaining']).toBe('59');
    // The other runner's look is a request of the window too.
    expect(merged.burst!.points.filter((p) => p.status === 200)).toHaveLength(59);
    expect(merged.burst!.ended).toBe('first-429');
    expect(merged.burst!.askedRate).toBe(48);
    expect(judgeQuota(merged).outcome).toBe('pass');
  });

  it('a limiter that counts per runner (per process) accepts more than the window allows: the merged quota fails', () => {
    const merged = mergeKeyRuns(twoRunners(true));
    const finding = judgeQuota(merged);
    expect(finding.outcome).toBe('fail');
    // Remaining repeats across the runners: judged as a refilling limiter, over its allowance.
    expect(finding.message).toMatch(/80 accepted, more than Remaining 59/);
  });

  it('numbers each runner\'s connections on from the previous runner\'s, so that connections stay apart', () => {
    const merged = mergeKeyRuns(twoRunners(true));
    expect(new Set(merged.burst!.points.map((p) => p.conn).filter((c) => c !== undefined))).toEqual(new Set([1, 2, 3, 4]));
    // Each runner counted over both its connections: not a limiter per connection.
    expect(judgePerConnection(merged).outcome).toBe('pass');
  });

  it('adds the latency histograms: the percentiles are those of every response of every runner', () => {
    const parts = twoRunners();
    const merged = mergeKeyRuns(parts);
    const all = mergeHistograms(parts.map((p) => p.run.burst!.latencyHistogram!));
    expect(merged.burst!.latencyHistogram).toEqual(all);
    expect(merged.burst!.latency).toEqual(percentilesOf(all));
    expect(all.reduce((n, [, c]) => n + c, 0)).toBe(parts.reduce((n, p) => n + p.run.burst!.points.length, 0));
  });

  it('keeps a failing recovery over a passing one, and the day and ban probe of the first runner', () => {
    const [two, one] = twoRunners();
    const day = { accepted: 1000, acceptedAt: [], bursts: [], ended: 'day-block' as const, elapsedMs: 1 };
    one!.run.day = day;
    one!.run.retry = { waitedMs: 4000, next: look(T0 + 4300, 59) };
    two!.run.retry = { waitedMs: 4000, next: { ...look(T0 + 4301, 0), status: 429 } };
    const merged = mergeKeyRuns([one!, two!]);
    expect(merged.retry?.next.status).toBe(429);
    expect(merged.day).toBe(day);
  });

  it("keeps a request at Reset that was refused over one let through, else a runner's reason for sending none", () => {
    const [two, one] = twoRunners();
    const p = one!.run.burst!.points.at(-1)!;
    const at = (next: ReturnType<typeof look>) => ({ refusal: p, reset: RESET, slackMs: 1000, aimedAt: (RESET + 1) * 1000, sentAt: (RESET + 1) * 1000, next });
    one!.run.atReset = at(look(T0 + 6_000, 59));
    two!.run.atReset = at({ ...look(T0 + 6_001, 0), status: 429 });
    expect(mergeKeyRuns([one!, two!]).atReset?.next.status).toBe(429);
    delete one!.run.atReset;
    delete two!.run.atReset;
    two!.run.atResetSkipped = 'no Reset';
    expect(mergeKeyRuns([one!, two!])).toMatchObject({ atResetSkipped: 'no Reset' });
  });

  it('a key unavailable in every runner stays unavailable, with the first runner\'s reason', () => {
    const refusal = { ...look(T0, 0), status: 429 };
    const merged = mergeKeyRuns([
      { index: 2, run: { ...base, unavailable: { reason: 'banned (2)', refusal } } },
      { index: 1, run: { ...base, unavailable: { reason: 'banned (1)', refusal } } },
    ]);
    expect(merged.unavailable?.reason).toBe('banned (1)');
  });
});

function report(index: number, overrides: Partial<Report> = {}, count = 2): Report {
  return {
    schemaVersion: '1.0.0',
    tool: { name: 'animal-store-conformance', version: '0.1.0' },
    target: { name: 'staging', baseUrl: 'http://127.0.0.1:4010/v1', keys: [{ label: 'free#1', plan: 'free', disposable: false }] },
    startedAt: new Date(T0).toISOString(),
    finishedAt: new Date(T0 + 1000).toISOString(),
    durationMs: 1000,
    seed: 7,
    options: { suites: ['rate-limit'], runs: 20, strict: false, allowWrites: false, allowLoad: true, soak: false, maxRequests: 5000 },
    verdict: 'pass',
    exitCode: 0,
    summary: { checks: 0, byOutcome: { pass: 0, fail: 0, skip: 0, error: 0 }, bySeverity: { must: { pass: 0, fail: 0, skip: 0, error: 0 }, should: { pass: 0, fail: 0, skip: 0, error: 0 }, info: { pass: 0, fail: 0, skip: 0, error: 0 } } },
    requests: { total: 10 * index, byStatus: { '200': 9 * index, '429': index }, bySuite: { 'rate-limit': 10 * index } },
    warnings: [],
    checks: [],
    segment: { index, count, startAt: new Date(T0).toISOString() },
    ...overrides,
  };
}
const part = (dir: string, r: Report): SegmentReport => ({ dir, report: r });

describe('checkSegments', () => {
  it('accepts every segment of one run, in any order', () => {
    expect(() => checkSegments([part('b', report(2)), part('a', report(1))])).not.toThrow();
  });
  it.each<[string, SegmentReport[], string]>([
    ['a whole run', [part('a', report(1)), part('b', { ...report(2), segment: undefined } as Report)], 'b holds the report of a whole run'],
    ['another target', [part('a', report(1)), part('b', report(2, { target: { name: 'prod', baseUrl: 'http://127.0.0.1:4010/v1', keys: [] } }))], 'different targets (prod and staging)'],
    ['other keys', [part('a', report(1)), part('b', report(2, { target: { name: 'staging', baseUrl: 'http://127.0.0.1:4010/v1', keys: [{ label: 'pro#1', plan: 'pro', disposable: false }] } }))], 'different keys (pro#1 and free#1)'],
    ['another seed', [part('a', report(1)), part('b', report(2, { seed: 8 }))], 'different seeds (8 and 7)'],
    ['another segment count', [part('a', report(1)), part('b', report(2, {}, 3))], 'different segment counts (3 and 2)'],
    ['a segment twice', [part('a', report(1)), part('b', report(1))], 'segment 1 of 2 is given twice (a and b)'],
    ['a segment missing', [part('a', report(1, {}, 3)), part('b', report(3, {}, 3))], 'segment 2 of 3 missing'],
    ['nothing', [], 'merge needs the report directories'],
  ])('refuses %s, saying which (exit 2)', (_title, parts, message) => {
    expect(() => checkSegments(parts)).toThrow(UsageError);
    expect(() => checkSegments(parts)).toThrow(message);
  });
});

const check = (id: string, outcome: CheckResult['outcome'], suite = 'run', extra: Partial<CheckResult> = {}): CheckResult => ({ id, clause: 'c', title: 't', severity: 'must', outcome, message: `${id} ${outcome}`, suite, durationMs: 0, evidence: null, ...extra });

describe('combineChecks and sumRequests', () => {
  it('keeps the worst outcome of a check judged by several segments, naming the segment; leaves out the rate-limit suite and the segments\' baselines', () => {
    const a = report(1, { checks: [check('run.no-5xx', 'pass'), check('auth.missing-key', 'pass', 'auth'), check('rate-limit.quota', 'skip', 'rate-limit', { subject: 'free#1' }), check('harness.expected-failures', 'pass', 'harness')] });
    const b = report(2, { checks: [check('run.no-5xx', 'fail', 'run', { expectedFailure: { reason: 'known' } })] });
    const combined = combineChecks([part('a', a), part('b', b)], 'rate-limit');
    expect(combined.map((c) => `${c.id} ${c.outcome}`)).toEqual(['run.no-5xx fail', 'auth.missing-key pass']);
    expect(combined[0]!.message).toBe('segment 2: run.no-5xx fail');
    expect(combined[0]!.expectedFailure).toBeUndefined();
  });
  it('sums the requests of every segment', () => {
    expect(sumRequests([part('a', report(1)), part('b', report(2))])).toEqual({ total: 30, byStatus: { '200': 27, '429': 3 }, bySuite: { 'rate-limit': 30 } });
  });
});

describe('segmentRuns and keyEvidence', () => {
  it('reads each key\'s run back from rateLimits[].raw', () => {
    const [two, one] = twoRunners();
    const summary = (run: KeyRun) => ({ label: run.label, plan: run.plan, quota: run.quota, windows: run.windows, behaviour: 'fixed window', timeline: [], raw: keyRunRecord(run) });
    const runs = segmentRuns([part('a', report(1, { rateLimits: [summary(one!.run)] })), part('b', report(2, { rateLimits: [summary(two!.run)] }))]);
    expect(runs.get('free#1')?.map((r) => r.index)).toEqual([1, 2]);
    expect(runs.get('free#1')?.[0]?.run).toEqual(one!.run);
  });
  it('takes from each segment the first exchanges, those around its first 429 and its last, in time order', () => {
    const ex = (seq: number, status: number, at: number): Exchange => ({ seq, suite: 'rate-limit', method: 'GET', url: 'u', auth: { kind: 'none' }, requestHeaders: {}, status, responseHeaders: {}, startedAt: new Date(T0 + at).toISOString(), durationMs: 0 });
    const one = Array.from({ length: 10 }, (_, i) => ex(i, i === 7 ? 429 : 200, i * 10));
    const two = [ex(0, 200, 5), ex(1, 200, 15), ex(2, 200, 25)];
    expect(keyEvidence([one, two]).map((e) => `${e.seq}@${Date.parse(e.startedAt) - T0}`)).toEqual(['0@0', '0@5', '1@10', '1@15', '2@25', '5@50', '6@60', '7@70', '9@90']);
  });
});

it('the latency fields are zero for no response at all', () => {
  expect(percentilesOf([])).toEqual(LATENCY);
});
