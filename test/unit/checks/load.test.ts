// lib/checks/load.ts: the `load` suite's paced load judged over one key's paced run (or all of
// them, for the thresholds). Every run is built by hand from a fixed base time, its answers given
// by a small model limiter: no clock, no server, no load.
import { describe, expect, it } from 'vitest';
import { describePacing, fixedWindowsOf, judgePacedNo429, judgePacedRemaining, judgeThresholds } from '../../../lib/checks/load.ts';
import { type PacedRequest, type PacedRun, pacedFigures } from '../../../lib/result/paced-load.ts';
import type { Look, TimelinePoint } from '../../../lib/result/rate-limits.ts';
import { expectFinding } from './_seen.ts';

/** Monday 6 January 2025, 12:00:00 UTC: every paced run starts here. */
const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const S0 = T0 / 1000;
/** The free plan, with short windows as a test target has them: 60 per 5 s, 1,000 per 60 s. */
const QUOTA = { perMinute: 60, perDay: 1000 };
const WINDOWS = { minute: 5, day: 60 };
/** 90% of 60 per 5 s. */
const RATE = 10.8;
/** A little more than 1000 / 10.8 ms, so that a window never holds a send exactly on its edge. */
const GAP = 92.6;
const COUNT = 108;
/** The look at the key (a whole quota left) comes half a second before the first paced request. */
const LOOK_AT = T0 - 500;
/** Each answer arrives 2 ms after its send; the server sees the request 1 ms after the send. */
const LATENCY = 2;

/** What a server answers a request arriving at `at` (server time, epoch ms); undefined for no response. */
type Limiter = (at: number) => Omit<TimelinePoint, 't'> | undefined;

interface RunOptions {
  gap?: number;
  count?: number;
  /** The look before the run; null for none. Default: the limiter's answer to a request at LOOK_AT. */
  look?: Look | null;
  extra?: Partial<PacedRun>;
}

/** The headers a point carries, as a probe records them (lower-case names). */
function headersOf(p: Omit<TimelinePoint, 't'>): Record<string, string> {
  const h: Record<string, string> = {};
  if (p.limit !== undefined) h['x-ratelimit-limit'] = String(p.limit);
  if (p.remaining !== undefined) h['x-ratelimit-remaining'] = String(p.remaining);
  if (p.reset !== undefined) h['x-ratelimit-reset'] = String(p.reset);
  if (p.retryAfter !== undefined) h['retry-after'] = p.retryAfter;
  return h;
}

/** A key's paced run: the look, then `count` requests `gap` ms apart, each answered by `limiter`. */
function pacedRun(limiter: Limiter, o: RunOptions = {}): PacedRun {
  const gap = o.gap ?? GAP;
  const count = o.count ?? COUNT;
  let start: Look | undefined;
  if (o.look === undefined) {
    const answer = limiter(LOOK_AT + 1)!;
    start = { t: LOOK_AT + LATENCY, status: answer.status, headers: headersOf(answer) };
  } else if (o.look !== null) start = o.look;
  const requests: PacedRequest[] = Array.from({ length: count }, (_, i) => {
    const sentAt = T0 + i * gap;
    const answer = limiter(sentAt + 1);
    return answer ? { sentAt, point: { t: sentAt + LATENCY, ...answer }, latencyMs: LATENCY } : { sentAt, error: 'ECONNRESET' };
  });
  return {
    label: 'free#1',
    plan: 'free',
    quota: QUOTA,
    windows: WINDOWS,
    fraction: 0.9,
    askedRate: RATE,
    planned: COUNT,
    ...(start ? { start } : {}),
    requests,
    dropped: 0,
    startedAt: T0,
    durationMs: (count - 1) * gap,
    ...o.extra,
  };
}

/** The same run with the points of some paced requests (index from 0) changed. */
function changed(run: PacedRun, change: (p: TimelinePoint, i: number) => TimelinePoint): PacedRun {
  return { ...run, requests: run.requests.map((r, i) => (r.point ? { ...r, point: change(r.point, i) } : r)) };
}

/** Fixed windows of 5 s starting at S0 - 1 (the look falls in the first); Reset rounded with ±1 s of noise when asked. */
function fixedWindow(o: { limit?: number; noise?: boolean; retryAfter?: string } = {}): Limiter {
  const limit = o.limit ?? QUOTA.perMinute;
  const origin = (S0 - 1) * 1000;
  const counts = new Map<number, number>();
  let calls = 0;
  return (at) => {
    const w = Math.floor((at - origin) / (WINDOWS.minute * 1000));
    const used = (counts.get(w) ?? 0) + 1;
    counts.set(w, used);
    const end = S0 - 1 + WINDOWS.minute * (w + 1);
    const reset = end + (o.noise ? [0, 1, -1][calls % 3]! : 0);
    calls += 1;
    if (used > limit) return { status: 429, limit, remaining: 0, reset, retryAfter: o.retryAfter ?? String(Math.max(1, Math.ceil(end - at / 1000))) };
    return { status: 200, limit, remaining: limit - used, reset };
  };
}

/** A token bucket of `capacity`, refilled at `perSecond`; Reset is when it is full again. */
function tokenBucket(o: { capacity?: number; perSecond: number }): Limiter {
  const capacity = o.capacity ?? QUOTA.perMinute;
  let tokens = capacity;
  let last: number | undefined;
  return (at) => {
    if (last !== undefined) tokens = Math.min(capacity, tokens + ((at - last) * o.perSecond) / 1000);
    last = at;
    const reset = (t: number) => Math.ceil((at + ((capacity - t) * 1000) / o.perSecond) / 1000);
    if (tokens < 1) return { status: 429, limit: capacity, remaining: 0, reset: reset(tokens), retryAfter: '1' };
    tokens -= 1;
    return { status: 200, limit: capacity, remaining: Math.floor(tokens), reset: reset(tokens) };
  };
}

/** A sliding log: the requests accepted in the last 5 s count; Reset is when the oldest of them leaves it. */
function slidingLog(limit = QUOTA.perMinute): Limiter {
  let log: number[] = [];
  const span = WINDOWS.minute * 1000;
  return (at) => {
    log = log.filter((t) => t > at - span);
    if (log.length >= limit) return { status: 429, limit, remaining: 0, reset: Math.ceil((log[0]! + span) / 1000), retryAfter: '1' };
    log.push(at);
    return { status: 200, limit, remaining: limit - log.length, reset: Math.ceil((log[0]! + span) / 1000) };
  };
}

/** Headers describing the day window (Limit 1,000), with `used` requests already spent that day. */
function dayCounter(used: number): Limiter {
  let n = used;
  return () => {
    n += 1;
    return { status: 200, limit: QUOTA.perDay, remaining: QUOTA.perDay - n, reset: S0 + 40 };
  };
}

const ok = (extra: Omit<TimelinePoint, 't' | 'status'> = {}): Limiter => () => ({ status: 200, ...extra });

describe('judgePacedNo429', () => {
  it('passes when no request got a 429, naming the count and the rate', () => {
    const f = judgePacedNo429(pacedRun(fixedWindow()));
    expectFinding(f, 'pass', ["free#1: 108 requests at 10.8 req/s (90% of free's 60 per 5 s) over 9.9 s, 108 answered: no 429"]);
  });

  it('counts answered requests apart from those without a response', () => {
    let n = 0;
    // Every tenth request (from the first) got no response.
    const f = judgePacedNo429(pacedRun(() => (n++ % 10 === 0 ? undefined : { status: 200 }), { look: null }));
    expectFinding(f, 'pass', ['108 requests', '97 answered: no 429']);
  });

  it('fails on a 429 while the client sent no more than the quota in the window before it (a token bucket refilling at a third of the rate)', () => {
    // 60 tokens, 4 back a second: the plan's 60 per 5 s is 12 a second.
    const run = pacedRun(tokenBucket({ perSecond: 4 }));
    const i = run.requests.findIndex((r) => r.point?.status === 429);
    // Only after more than one window's worth of requests: the bucket started full.
    expect(i).toBeGreaterThan(54);
    const f = judgePacedNo429(run);
    expectFinding(f, 'fail', [
      `free#1: 429 at paced request ${i + 1} of 108, ${((i * GAP) / 1000).toFixed(1)} s in, while sending at 10.8 req/s`,
      "(asked 10.8 req/s (90% of free's 60 per 5 s))",
      // 5000 / 92.6 ms: 54 sends fit in the 5 s up to it.
      'only 54 requests of the key within the 5 s before it, the quota being 60',
    ]);
    expect(f).toMatchObject({ code: '429-within-quota' });
    expect(f).toMatchObject({ expected: 'no 429 while the client stays within its quota (60 per 5 s)', actual: '429 (Retry-After 1, Remaining 0, Limit 60) after 54 requests in 5 s' });
  });

  it('names a 429 without rate-limit headers as such', () => {
    const run = changed(pacedRun(fixedWindow()), (p, i) => (i === 19 ? { t: p.t, status: 429 } : p));
    const f = judgePacedNo429(run);
    expectFinding(f, 'fail', ['429 at paced request 20 of 108, 1.8 s in']);
    expect(f).toMatchObject({ code: '429-within-quota' });
    expect(f).toMatchObject({ actual: '429 (Retry-After (none)) after 21 requests in 5 s' });
  });

  it.each<{ title: string; retryAfter: string; outcome: 'fail' | 'skip'; mentions: string[] }>([
    // A minute window and 2 s of rounding: a limiter of the minute may ask for that.
    { title: 'a Retry-After of 7 s (window + 2 s) is judged', retryAfter: '7', outcome: 'fail', mentions: ['429 at paced request 50'] },
    { title: 'a Retry-After of 8 s lies beyond the window: skipped', retryAfter: '8', outcome: 'skip', mentions: ['a 429 at paced request 50 is not judged: its Retry-After (8) lies beyond one minute window'] },
    { title: 'a Retry-After of 30 s, within the 60 s day (the day spent): skipped', retryAfter: '30', outcome: 'skip', mentions: ["its Retry-After (30) lies beyond one minute window: the key's day is spent"] },
    { title: 'a Retry-After of an hour, beyond the day (a ban): skipped', retryAfter: '3600', outcome: 'skip', mentions: ['its Retry-After (3600) lies beyond one day window: the key is banned'] },
    { title: 'a Retry-After as an HTTP-date an hour away: skipped', retryAfter: new Date(T0 + 3_600_000).toUTCString(), outcome: 'skip', mentions: ['lies beyond one day window'] },
  ])('$title', ({ retryAfter, outcome, mentions }) => {
    const run = changed(pacedRun(fixedWindow()), (p, i) => (i === 49 ? { ...p, status: 429, remaining: 0, retryAfter } : p));
    expectFinding(judgePacedNo429(run), outcome, mentions);
    if (outcome === 'fail') expect(judgePacedNo429(run)).toMatchObject({ code: '429-within-quota' });
  });

  it("skips (does not fail) a 429 whose X-RateLimit-Limit is the day's quota: the key's day is spent", () => {
    const run = changed(pacedRun(fixedWindow()), (p, i) => (i === 49 ? { ...p, status: 429, limit: 1000, remaining: 0, retryAfter: '3' } : p));
    expectFinding(judgePacedNo429(run), 'skip', [
      "free#1: a 429 at paced request 50 is not judged: its X-RateLimit-Limit is the day's quota (1000) with nothing left: the key's day is spent",
      'rate-limit.daily-quota judges the day',
    ]);
  });

  it('judges a 429 with Limit equal to the day quota when the plan has the same quota for the minute', () => {
    const run = changed(pacedRun(fixedWindow(), { extra: { quota: { perMinute: 60, perDay: 60 } } }), (p, i) => (i === 49 ? { ...p, status: 429, remaining: 0, retryAfter: '3' } : p));
    expectFinding(judgePacedNo429(run), 'fail', ['429 at paced request 50']);
    expect(judgePacedNo429(run)).toMatchObject({ code: '429-within-quota' });
  });

  it('skips a 429 when the harness itself sent more than the quota within a window before it', () => {
    // 70 ms apart (14.3 a second, 71 per 5 s): the fixed window refuses its 61st request.
    const run = pacedRun(fixedWindow(), { gap: 70, count: 130 });
    const i = run.requests.findIndex((r) => r.point?.status === 429);
    expect(i).toBe(118);
    // Requests 47..119 lie within 5 s and the 100 ms of arrival slack before it.
    expectFinding(judgePacedNo429(run), 'skip', [
      'free#1: a 429 at paced request 119 is not judged: the harness itself sent 73 requests with the key within a minute window of it, more than the quota of 60',
    ]);
  });

  it('counts the look before the run among what the harness sent', () => {
    // 60 paced requests 75 ms apart from T0 (4.4 s), the look 500 ms before the first: a 429 on the
    // 60th is within the quota only while the look is left out.
    const look: Look = { t: T0 - 500, status: 200, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' } };
    let n = 0;
    const run = pacedRun(() => (++n === 60 ? { status: 429, limit: 60, remaining: 0, retryAfter: '1' } : { status: 200 }), { gap: 75, count: 60, look });
    expectFinding(judgePacedNo429(run), 'skip', ['free#1: a 429 at paced request 60 is not judged: the harness itself sent 61 requests with the key within a minute window of it, more than the quota of 60']);
    expectFinding(judgePacedNo429({ ...run, start: undefined }), 'fail', ['429 at paced request 60 of 60', 'only 60 requests of the key within the 5 s before it']);
    expect(judgePacedNo429({ ...run, start: undefined })).toMatchObject({ code: '429-within-quota' });
  });

  it('skips with the reason when the key was not paced', () => {
    const run = pacedRun(fixedWindow(), { count: 0, extra: { unavailable: 'free#1 got 401 (banned, not allowed, or not accepted); not used for the paced load' } });
    expectFinding(judgePacedNo429(run), 'skip', ['free#1 got 401 (banned, not allowed, or not accepted); not used for the paced load']);
  });

  it('skips when no paced request was sent, saying why it stopped', () => {
    expectFinding(judgePacedNo429(pacedRun(fixedWindow(), { count: 0 })), 'skip', ['free#1: no paced request was sent']);
    const stopped = pacedRun(fixedWindow(), { count: 0, extra: { stopped: 'the run time limit (budget.maxSeconds) was reached' } });
    expectFinding(judgePacedNo429(stopped), 'skip', ['free#1: no paced request was sent (the run time limit (budget.maxSeconds) was reached)']);
  });
});

describe('judgePacedRemaining', () => {
  it.each<{ title: string; limiter: () => Limiter; mentions: string[] }>([
    {
      // Window 0 holds the look and 44 paced requests (58 down to 15), window 1 holds 54 (59 down to 6).
      title: 'a fixed window: Reset still within each window, a window later after it; Remaining down by one a request',
      limiter: () => fixedWindow(),
      mentions: ['free#1: Remaining consistent over 108 accepted paced requests (the headers describe the minute window; fixed windows; lowest 6)'],
    },
    { title: 'a fixed window whose Reset is rounded with ±1 s of noise', limiter: () => fixedWindow({ noise: true }), mentions: ['fixed windows; lowest 6'] },
    // 10.8 a second is below the 12 a second it refills at: it stays full, less the request itself.
    { title: 'a token bucket: Remaining stays at the top, Reset moves every second', limiter: () => tokenBucket({ perSecond: 12 }), mentions: ['minute window; a refilling limiter; lowest 59'] },
    // 10.5 a second back against 10.8 sent: it drains by 0.03 a request, Remaining 59 down to 56 over the run.
    { title: 'a token bucket refilling a little slower than the rate: Remaining drifts down, repeating', limiter: () => tokenBucket({ perSecond: 10.5 }), mentions: ['minute window; a refilling limiter; lowest 56'] },
    // 54 sends in any 5 s once the log is full: 60 - 54.
    { title: 'a sliding log: Remaining is 59 less the requests of the last 5 s', limiter: () => slidingLog(), mentions: ['minute window; a refilling limiter; lowest 6'] },
    // The day's count holds the requests of the whole day before the run: only it going the right way is judged.
    { title: 'headers describing the day window (Limit 1000), counting down from 699', limiter: () => dayCounter(300), mentions: ['(the headers describe the day window; fixed windows; lowest 591)'] },
  ])('passes $title', ({ limiter, mentions }) => {
    expectFinding(judgePacedRemaining(pacedRun(limiter())), 'pass', mentions);
  });

  it('checks the models above give what the cases say', () => {
    const fixed = pacedRun(fixedWindow());
    expect(fixed.start?.headers['x-ratelimit-remaining']).toBe('59');
    expect(fixed.requests.slice(0, 3).map((r) => r.point?.remaining)).toEqual([58, 57, 56]);
    expect(new Set(fixed.requests.map((r) => r.point?.reset))).toEqual(new Set([S0 + 4, S0 + 9, S0 + 14]));
    const bucket = pacedRun(tokenBucket({ perSecond: 12 }));
    expect(new Set(bucket.requests.map((r) => r.point?.remaining))).toEqual(new Set([59]));
    expect(new Set(bucket.requests.map((r) => r.point?.reset)).size).toBeGreaterThan(5);
    const log = pacedRun(slidingLog());
    // The request itself and the 53 before it within 5 s.
    expect(log.requests.at(-1)?.point?.remaining).toBe(6);
    expect(log.requests[3]?.point?.remaining).toBe(59 - 4);
  });

  it('accepts a Remaining that does not count the request it answers (Limit on the first: one reading)', () => {
    // A token bucket that reports the tokens before taking one, and a fixed window that counts after answering.
    expectFinding(judgePacedRemaining(changed(pacedRun(tokenBucket({ perSecond: 12 })), (p) => ({ ...p, remaining: p.remaining! + 1 }))), 'pass');
    const run = pacedRun(fixedWindow());
    expectFinding(judgePacedRemaining(changed({ ...run, start: { ...run.start!, headers: { ...run.start!.headers, 'x-ratelimit-remaining': '60' } } }, (p) => ({ ...p, remaining: p.remaining! + 1 }))), 'pass');
  });

  it('fails on Remaining above Limit on an accepted response', () => {
    const run = changed(pacedRun(tokenBucket({ perSecond: 12 })), (p) => ({ ...p, remaining: p.remaining! + 2 }));
    const f = judgePacedRemaining(run);
    expectFinding(f, 'fail', ['free#1: X-RateLimit-Remaining 61 on the accepted paced request 1, more than its Limit 60']);
    expect(f).toMatchObject({ code: 'above-limit' });
    expect(f).toMatchObject({ expected: 'at most 60', actual: '61' });
  });

  it('fails on a fixed window whose Remaining lags two behind what it answered', () => {
    const run = pacedRun(fixedWindow());
    const late = changed({ ...run, start: { ...run.start!, headers: { ...run.start!.headers, 'x-ratelimit-remaining': '61' } } }, (p) => ({ ...p, remaining: p.remaining! + 2 }));
    const f = judgePacedRemaining(late);
    expectFinding(f, 'fail', ['free#1: X-RateLimit-Remaining 60 at paced request 1, though 1 requests of its window had been answered before it was sent']);
    expect(f).toMatchObject({ code: 'not-counting-answered' });
    expect(f).toMatchObject({ expected: 'at most 59', actual: '60' });
  });

  it('fails on Remaining far lower than the requests sent allow (a bucket shared with another key)', () => {
    // Another key's 29 requests land in the window between paced requests 9 and 10.
    const run = changed(pacedRun(fixedWindow()), (p, i) => (i >= 9 && i < 44 ? { ...p, remaining: Math.max(0, p.remaining! - 29) } : p));
    expect(run.requests[9]?.point?.remaining).toBe(20);
    const f = judgePacedRemaining(run);
    expectFinding(f, 'fail', ['free#1: X-RateLimit-Remaining 20 at paced request 10 counts 39 other requests in the window, but only 10 were sent with the key in the 5 s before it']);
    expect(f).toMatchObject({ code: 'counts-more-than-sent' });
    // 59 less the 10 sent, less the tolerance of 3 (5% of 60, at least 2).
    expect(f).toMatchObject({ expected: 'Remaining at least 46 (Limit 60 less what was sent)', actual: '20' });
  });

  it('tolerates a count a little above what was sent (5% of Limit, at least 2)', () => {
    // Three more than sent at paced request 10: within the tolerance of 3.
    const within = changed(pacedRun(fixedWindow()), (p, i) => (i === 9 ? { ...p, remaining: 46 } : p));
    expectFinding(judgePacedRemaining(within), 'pass');
    const beyond = changed(pacedRun(fixedWindow()), (p, i) => (i === 9 ? { ...p, remaining: 45 } : p));
    expectFinding(judgePacedRemaining(beyond), 'fail', ['X-RateLimit-Remaining 45 at paced request 10 counts 14 other requests']);
    expect(judgePacedRemaining(beyond)).toMatchObject({ code: 'counts-more-than-sent' });
  });

  it('fails on Remaining that does not fall although requests were answered (constant 50, constant Reset)', () => {
    const run = pacedRun(ok({ limit: 60, remaining: 50, reset: S0 + 4 }));
    expectFinding(judgePacedRemaining(run), 'fail', ['X-RateLimit-Remaining 50 at paced request 1 counts 9 other requests in the window, but only 1 were sent']);
    expect(judgePacedRemaining(run)).toMatchObject({ code: 'counts-more-than-sent' });
  });

  it('fails on Remaining going back up within a fixed window, after earlier requests were answered', () => {
    // Paced request 4 says 60, though the look and requests 1 to 3 were answered before it was sent (and 3 said 56).
    const run = changed(pacedRun(fixedWindow()), (p, i) => (i === 3 ? { ...p, remaining: 60 } : p));
    const f = judgePacedRemaining(run);
    expectFinding(f, 'fail', ['free#1: X-RateLimit-Remaining 60 at paced request 4, though 4 requests of its window had been answered before it was sent']);
    expect(f).toMatchObject({ code: 'not-counting-answered' });
    expect(f).toMatchObject({ expected: 'at most 56', actual: '60' });
  });

  it('fails on a negative Remaining', () => {
    const run = changed(pacedRun(fixedWindow()), (p, i) => (i === 49 ? { ...p, remaining: -1 } : p));
    const f = judgePacedRemaining(run);
    expectFinding(f, 'fail', ['free#1: X-RateLimit-Remaining -1 at paced request 50']);
    expect(f).toMatchObject({ code: 'negative' });
    expect(f).toMatchObject({ expected: 'never below 0', actual: '-1' });
  });

  it.each<{ title: string; run: () => PacedRun; mentions: string[] }>([
    {
      title: 'no Remaining header on the paced answers (the look had one)',
      run: () => changed(pacedRun(fixedWindow()), ({ remaining: _r, ...p }) => p),
      mentions: ['free#1: no accepted paced response carried an integer X-RateLimit-Remaining (headers.rate-limit-present judges the header)'],
    },
    { title: 'only 429s: no accepted answer', run: () => pacedRun(() => ({ status: 429, limit: 60, remaining: 0 })), mentions: ['no accepted paced response carried an integer X-RateLimit-Remaining'] },
    {
      title: 'no Limit header anywhere',
      run: () => pacedRun(() => ({ status: 200, remaining: 10, reset: S0 + 4 })),
      mentions: ['free#1: no X-RateLimit-Limit to count Remaining against (headers.rate-limit-present judges the header)'],
    },
    { title: 'the key was not paced', run: () => pacedRun(fixedWindow(), { count: 0, extra: { unavailable: 'free#1: not paced' } }), mentions: ['free#1: not paced'] },
  ])('skips: $title', ({ run, mentions }) => {
    expectFinding(judgePacedRemaining(run()), 'skip', mentions);
  });
});

describe('judgePacedRemaining: each answer judged against the window its headers describe', () => {
  it('passes when the headers switch to the day window once the day binds ("the applicable request limit")', () => {
    // From paced request 45 on, the day has fewer left than the minute: Limit 1000, Remaining counting down from 80.
    const base = pacedRun(fixedWindow());
    const run = changed(base, (p, i) => (i >= 44 ? { ...p, limit: QUOTA.perDay, remaining: 80 - (i - 44), reset: S0 + 40 } : p));
    const finding = judgePacedRemaining(run);
    expect(finding).toMatchObject({ outcome: 'pass', message: expect.stringContaining('the headers describe the minute and the day window') });
  });

  it('leaves out a look without Remaining (no "lowest NaN")', () => {
    const run = pacedRun(fixedWindow(), { look: { t: LOOK_AT, status: 200, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-reset': String(S0 + 4) } } });
    const finding = judgePacedRemaining(run);
    expect(finding.outcome).toBe('pass');
    expect(finding.outcome === 'pass' && finding.message).not.toContain('NaN');
  });
});

describe('fixedWindowsOf', () => {
  const point = (reset: number | undefined, remaining: number): TimelinePoint => ({ t: T0, status: 200, limit: 60, remaining, ...(reset === undefined ? {} : { reset }) });
  it.each<{ title: string; points: [number | undefined, number][]; windows: number[] | undefined }>([
    { title: 'one Reset a window: each answer its window', points: [[S0 + 4, 58], [S0 + 4, 57], [S0 + 4, 56], [S0 + 9, 59], [S0 + 9, 58]], windows: [0, 0, 0, 1, 1] },
    { title: 'Reset with ±1 s of noise within each window', points: [[S0 + 4, 58], [S0 + 5, 57], [S0 + 3, 56], [S0 + 10, 59], [S0 + 8, 58], [S0 + 9, 57]], windows: [0, 0, 0, 1, 1, 1] },
    { title: 'a window turning and Remaining 0 given more than once (one too many let through repeats only 0)', points: [[S0 + 4, 1], [S0 + 4, 0], [S0 + 4, 0], [S0 + 9, 59]], windows: [0, 0, 0, 1] },
    { title: 'Reset moving every second (a refilling limiter)', points: [[S0 + 1, 58], [S0 + 2, 57], [S0 + 3, 56], [S0 + 4, 55], [S0 + 5, 54], [S0 + 6, 53]], windows: undefined },
    { title: 'a positive Remaining repeated within a window (capacity came back)', points: [[S0 + 4, 58], [S0 + 4, 58], [S0 + 4, 57]], windows: undefined },
    { title: 'an answer without Reset', points: [[S0 + 4, 58], [undefined, 57]], windows: undefined },
    { title: 'no answer at all', points: [], windows: undefined },
  ])('$title', ({ points, windows }) => {
    expect(fixedWindowsOf(points.map(([reset, remaining]) => point(reset, remaining)), WINDOWS.minute)).toEqual(windows);
  });

  it('finds the windows of the fixed-window models above', () => {
    const windowOf = fixedWindowsOf(pacedRun(fixedWindow({ noise: true })).requests.map((r) => r.point!), WINDOWS.minute);
    // 44 paced requests in the first window, 54 in the second, 10 in the third.
    expect(windowOf?.filter((w) => w === 0)).toHaveLength(44);
    expect(windowOf?.filter((w) => w === 1)).toHaveLength(54);
    expect(windowOf?.filter((w) => w === 2)).toHaveLength(10);
    expect(fixedWindowsOf(pacedRun(tokenBucket({ perSecond: 12 })).requests.map((r) => r.point!), WINDOWS.minute)).toBeUndefined();
  });
});

describe('describePacing', () => {
  it('passes with the figures of the run in its message', () => {
    const f = describePacing(pacedRun(fixedWindow()));
    expectFinding(f, 'pass', [
      "free#1: asked 10.8 req/s (90% of free's 60 per 5 s), achieved 10.8 req/s (0% off) over 9.9 s",
      'gaps p50 92.6 ms, p99 92.6 ms',
      '108 sent: 108 2xx, 0 × 429, 0 other, 0 without response, 0 dropped',
      'latency p50 2 ms, p95 2 ms, p99 2 ms, max 2 ms; p99 2 ms in the first second, 2 ms in the last',
    ]);
    expect(f.message).not.toContain('not held');
  });

  it('says the rate was not held when half the arrivals were dropped at the cap of requests in flight', () => {
    const run = pacedRun(fixedWindow(), { gap: 2 * GAP, count: 54, extra: { dropped: 54 } });
    expectFinding(describePacing(run), 'pass', ['achieved 5.4 req/s (50% off: the rate was not held (54 arrivals dropped at the cap of requests in flight))', '54 sent', '54 dropped']);
  });

  it.each<{ title: string; achieved: number; held: boolean; off: string }>([
    { title: '1.9% fast: held', achieved: RATE * 1.019, held: true, off: '1.9% off' },
    { title: '3% fast: not held', achieved: RATE * 1.03, held: false, off: '3% off' },
    { title: '3% slow: not held', achieved: RATE * 0.97, held: false, off: '3% off' },
  ])('allows 2% between asked and achieved rates: $title', ({ achieved, held, off }) => {
    const f = describePacing(pacedRun(fixedWindow(), { gap: 1000 / achieved }));
    expectFinding(f, 'pass', [off]);
    expect(f.message?.includes('the rate was not held')).toBe(!held);
  });

  it('says why the run stopped when the rate was not held', () => {
    const run = pacedRun(fixedWindow(), { count: 20, extra: { stopped: 'the target stopped answering: 5 requests in a row got no response', askedRate: 20 } });
    expectFinding(describePacing(run), 'pass', ['the rate was not held (the target stopped answering: 5 requests in a row got no response)']);
  });

  it('skips when the key was not paced, or nothing was sent', () => {
    expectFinding(describePacing(pacedRun(fixedWindow(), { count: 0, extra: { unavailable: 'free#1: not paced' } })), 'skip', ['free#1: not paced']);
    expectFinding(describePacing(pacedRun(fixedWindow(), { count: 0 })), 'skip', ['free#1: no paced request was sent']);
  });
});

describe('describePacing: a single request', () => {
  it('has no rate to measure, and says so rather than "100% off"', () => {
    const finding = describePacing(pacedRun(fixedWindow(), { count: 1 }));
    expect(finding).toMatchObject({ outcome: 'pass', message: expect.stringContaining('a single paced request (2xx): no rate to measure') });
  });
});

describe('judgeThresholds', () => {
  /** 108 answers in 2 ms: 5 × 429, 3 × 503, 2 without response from request 90 on when `errors`. */
  function figures(errors = false) {
    let n = 0;
    const limiter: Limiter = () => {
      n += 1;
      if (!errors || n < 90) return { status: 200 };
      if (n < 95) return { status: 429, retryAfter: '1' };
      if (n < 98) return { status: 503 };
      if (n < 100) return undefined;
      return { status: 200 };
    };
    return pacedFigures(pacedRun(limiter, { look: null }));
  }

  it.each([undefined, {}, { p99Ms: undefined }])('skips when no threshold is set (%j)', (thresholds) => {
    expectFinding(judgeThresholds({ keys: [figures()], ...(thresholds ? { thresholds } : {}) }), 'skip', ['no thresholds set (load.thresholds in the target config: p50Ms, p95Ms, p99Ms, errorRate)']);
  });

  it('skips when no paced request was sent', () => {
    expectFinding(judgeThresholds({ keys: [], thresholds: { p99Ms: 10 } }), 'skip', ['no paced request was sent: nothing to measure']);
  });

  it.each<{ title: string; thresholds: Record<string, number>; mentions: string[] }>([
    { title: 'p99 under its threshold', thresholds: { p99Ms: 10 }, mentions: ['over 108 paced requests: p99 2 ms (threshold p99Ms 10)'] },
    // Not above is within.
    { title: 'p99 equal to its threshold', thresholds: { p99Ms: 2 }, mentions: ['p99 2 ms (threshold p99Ms 2)'] },
    { title: 'every threshold', thresholds: { p50Ms: 5, p95Ms: 5, p99Ms: 5, errorRate: 0 }, mentions: ['p50 2 ms (threshold p50Ms 5), p95 2 ms (threshold p95Ms 5), p99 2 ms (threshold p99Ms 5), error rate 0 (0 of 108) (threshold errorRate 0)'] },
  ])('passes: $title', ({ thresholds, mentions }) => {
    expectFinding(judgeThresholds({ keys: [figures()], thresholds }), 'pass', mentions);
  });

  it('fails naming the measured p99 and the threshold', () => {
    const f = judgeThresholds({ keys: [figures()], thresholds: { p99Ms: 1 } });
    expectFinding(f, 'fail', ['over 108 paced requests: p99 2 ms is above the threshold p99Ms 1']);
    expect(f).toMatchObject({ code: 'threshold-breached' });
    expect(f).toMatchObject({ expected: 'p99Ms ≤ 1', actual: 'p99 2 ms' });
  });

  it('counts 429s, other statuses and requests without a response as errors', () => {
    const key = figures(true);
    expect([key.rejected, key.other, key.noResponse]).toEqual([5, 3, 2]);
    const f = judgeThresholds({ keys: [key], thresholds: { errorRate: 0.05 } });
    expectFinding(f, 'fail', ['over 108 paced requests: error rate 0.093 (10 of 108) is above the threshold errorRate 0.05']);
    expect(f).toMatchObject({ code: 'threshold-breached' });
    expect(f).toMatchObject({ expected: 'errorRate ≤ 0.05', actual: 'error rate 0.093 (10 of 108)' });
  });

  it('names every breach in one message, over every key together', () => {
    const f = judgeThresholds({ keys: [figures(true), figures()], thresholds: { p50Ms: 10, p99Ms: 1, errorRate: 0.01 } });
    expectFinding(f, 'fail', ['over 216 paced requests: p99 2 ms is above the threshold p99Ms 1; error rate 0.046 (10 of 216) is above the threshold errorRate 0.01']);
    expect(f).toMatchObject({ code: 'threshold-breached' });
    expect(f.message).not.toContain('p50');
    expect(f).toMatchObject({ expected: 'p99Ms ≤ 1, errorRate ≤ 0.01', actual: 'p99 2 ms, error rate 0.046 (10 of 216)' });
  });
});
