// The rate-limit driver on a virtual clock, against model limiters: the reference server in this
// process, with the kind of window, the day, a ban, a limiter per connection, headers of the day
// or slow answers switched on. Each test names the limiter it models and asserts what was sent,
// when, and the verdict; none takes more than a fraction of a second of real time.
import { describe, expect, it } from 'vitest';
import { countWithin } from '../../lib/rate-limit/day-count.ts';
import { readRetryAfter, readRateAnswer } from '../../lib/rate-limit/vocabulary.ts';
import type { Exchange } from '../../lib/result/exchange.ts';
import { keyRequests, periodsOf } from '../../lib/result/politeness.ts';
import { SLOW_DAY } from '../../targets/reference/delivery.ts';
import { type ClockRun, driveOnClock, T0 } from '../support/drive-on-clock.ts';

const FREE_1 = { key: 'sk-clock-free-1-3c4d5e', plan: 'free' };
const FREE_2 = { key: 'sk-clock-free-2-6f7a8b', plan: 'free' };
const PRO = { key: 'sk-clock-pro-1-9c0d1e', plan: 'pro' };
const DAILY = { key: 'sk-clock-daily-1-2f3a4b', plan: 'daily' };
const SPARE = { key: 'sk-clock-spare-1-5c6d7e', plan: 'free', disposable: true };
/** A plan whose day can be spent within the short day window. */
const PLANS = { daily: { perMinute: 40, perDay: 100 } };
const WINDOWS = { minute: 4, day: 40 };

const ofKey = (r: ClockRun, label: string) => r.sim.exchanges.filter((e) => e.auth.kind === 'key' && e.auth.label === label);
const sentAt = (e: Exchange) => Date.parse(e.startedAt);

/** The key's requests inside its 429 periods, each with why (report.json's politeness, lib/result/politeness.ts). */
const insidePeriods = (r: ClockRun, label: string) => periodsOf(keyRequests(r.sim.exchanges).get(label) ?? []).periods.flatMap((p) => p.inside);

/**
 * The key's requests sent while a Retry-After it had been given was still running, other than
 * those already on the wire when a 429 came back and those sent early on purpose (earlyOnPurpose):
 * what a polite client never sends.
 */
const sentEarly = (r: ClockRun, label: string): Exchange[] => insidePeriods(r, label).filter((x) => x.why === 'unexplained').map((x) => x.exchange);

/** The checks that failed for the key, with the run-level ones; must and should alike. */
const failures = (r: ClockRun, label: string) => r.failed(label);
const finding = (r: ClockRun, label: string, id: string) => r.findings(label).get(id);

describe('fixed window (the reference limiter)', () => {
  it('bursts from a whole window to exactly the quota, crosses it with at most one request in flight, waits Retry-After, and passes', async () => {
    const r = await driveOnClock({ keys: [FREE_1, FREE_2], windows: WINDOWS });
    for (const label of ['free#1', 'free#2']) {
      expect({ label, failed: failures(r, label) }).toEqual({ label, failed: [] });
      const run = r.runs.get(label)!;
      // What was sent: the quota stated at the start, then the 429, nothing in flight beyond the pair's one.
      const start = readRateAnswer(run.start!).remaining!;
      expect(run.burst!.points.filter((p) => p.status === 200 && !p.afterStop)).toHaveLength(start);
      expect(run.burst!.inFlightAtFirst429).toBeLessThanOrEqual(1);
      expect(finding(r, label, 'rate-limit.quota')).toMatchObject({ outcome: 'pass', message: `fixed window: exactly ${start} accepted before the first 429, from Remaining ${start}` });
      expect(finding(r, label, 'rate-limit.boundary-race')).toMatchObject({ outcome: 'pass', message: 'two requests sent together at Remaining 1: 200 and 429' });
      // When: nothing with the key during a Retry-After, and the retry at the moment it named.
      expect(sentEarly(r, label)).toEqual([]);
      const last429 = run.burst!.points.filter((p) => p.status === 429).at(-1)!;
      expect(run.retry!.next.t - last429.t).toBeGreaterThanOrEqual(Number(last429.retryAfter) * 1000);
      expect(run.retry!.next.status).toBe(200);
      expect(r.server.stats().byKey[label]!.earlyRetries).toBeLessThanOrEqual(1);
    }
    expect(finding(r, 'free#2', 'rate-limit.isolation')).toMatchObject({ outcome: 'pass' });
    expect(r.server.stats().bans).toBe(0);
    // Every request the server saw is in the log.
    expect(r.sim.exchanges).toHaveLength(r.server.stats().requests);
  });

  it('with less than half a window left, waits for the next window and bursts within it', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, start: T0 + 3_000 });
    const run = r.runs.get('free#1')!;
    expect(run.start!.t).toBeGreaterThanOrEqual(T0 + 4_000);
    expect(new Set(run.burst!.points.filter((p) => p.status === 200).map((p) => p.reset))).toEqual(new Set([(T0 + 8_000) / 1000]));
    expect(readRateAnswer(run.start!).remaining).toBe(59);
    expect(failures(r, 'free#1')).toEqual([]);
  });
});

describe('a request at X-RateLimit-Reset (rate-limit.served-at-reset)', () => {
  /** The key's requests sent after its burst's last 429, before its mix or day (up to `until`). */
  const after429 = (r: ClockRun, label: string, until: number) => {
    const last429 = r.runs.get(label)!.burst!.points.filter((p) => p.status === 429).at(-1)!;
    return ofKey(r, label).filter((e) => sentAt(e) > last429.t && sentAt(e) <= until);
  };

  it('a fixed window names its end in Retry-After and Reset: the request after Retry-After is the one at Reset, a second after it, and no request more', async () => {
    const r = await driveOnClock({ keys: [FREE_1, FREE_2], windows: WINDOWS });
    for (const label of ['free#1', 'free#2']) {
      const run = r.runs.get(label)!;
      const last429 = run.burst!.points.filter((p) => p.status === 429).at(-1)!;
      expect(run.atReset).toMatchObject({ sameAsRetry: true, reset: last429.reset, slackMs: 1_000 });
      expect(run.atReset!.sentAt).toBeGreaterThanOrEqual((last429.reset! + 1) * 1000);
      expect(run.atReset!.next).toBe(run.retry!.next);
      expect(after429(r, label, run.atReset!.sentAt)).toHaveLength(1);
      expect(finding(r, label, 'rate-limit.served-at-reset')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('also the request after Retry-After, got 200') });
      expect(sentEarly(r, label)).toEqual([]);
    }
  });

  it('a Retry-After cut short (fault rate-retry-after-too-short): its own request at Retry-After, then one at Reset, none inside a 429 period', async () => {
    const r = await driveOnClock({ keys: [FREE_1, FREE_2], windows: WINDOWS, faults: ['rate-retry-after-too-short'] });
    for (const label of ['free#1', 'free#2']) {
      const run = r.runs.get(label)!;
      const last429 = run.burst!.points.filter((p) => p.status === 429).at(-1)!;
      expect(run.atReset).toMatchObject({ reset: last429.reset });
      expect(run.atReset!.sameAsRetry).toBeUndefined();
      expect(run.atReset!.sentAt).toBeGreaterThanOrEqual((last429.reset! + 1) * 1000);
      expect(after429(r, label, run.atReset!.sentAt)).toHaveLength(2);
      // The Reset was true: sent then, let through.
      expect(finding(r, label, 'rate-limit.served-at-reset')?.outcome).toBe('pass');
      expect(sentEarly(r, label)).toEqual([]);
    }
  });

  it("a minute's 429 that names a moment two seconds early in Reset and Retry-After (fault rate-reset-early): refused at Reset, failed with its code", async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, faults: ['rate-reset-early'] });
    expect(finding(r, 'free#1', 'rate-limit.served-at-reset')).toMatchObject({ outcome: 'fail', code: 'refused-at-reset', message: expect.stringMatching(/a request sent 1\.\d s after the X-RateLimit-Reset \d+ its 429 named .* got 429 .*: the minute window had not reset at the moment Reset named/) });
    expect(sentEarly(r, 'free#1')).toEqual([]);
  });

  it("headers of the day: the minute's 429 names the day's end in Reset, beyond what the harness waits: nothing is sent for it, and the check says why", async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, variations: ['headers-day-window'] });
    const run = r.runs.get('free#1')!;
    expect(run.atReset).toBeUndefined();
    expect(finding(r, 'free#1', 'rate-limit.served-at-reset')).toEqual({ outcome: 'skip', message: expect.stringMatching(/free#1's 429 names X-RateLimit-Reset \d+, \d+ s after it arrived: more than the harness waits for one key/) });
    // The recovery alone, until its answer (the mix's look follows it at once).
    expect(after429(r, 'free#1', run.retry!.next.t - 1)).toHaveLength(1);
  });
});

describe('sliding log (variation sliding-log)', () => {
  it('passes, every request of the log counted, nothing sent during a Retry-After', async () => {
    const r = await driveOnClock({ keys: [FREE_1, PRO], windows: WINDOWS, variations: ['sliding-log'] });
    for (const label of ['free#1', 'pro#1']) {
      expect({ label, failed: failures(r, label) }).toEqual({ label, failed: [] });
      expect(sentEarly(r, label)).toEqual([]);
      expect(finding(r, label, 'rate-limit.retry-after-honoured')?.outcome).toBe('pass');
    }
  });
});

describe('token bucket (variation sliding-window)', () => {
  it('passes: judged as refilling, the refill allowed for, the fast part taking over again when room comes back', async () => {
    const r = await driveOnClock({ keys: [FREE_1, PRO], windows: WINDOWS, variations: ['sliding-window'] });
    for (const label of ['free#1', 'pro#1']) {
      expect({ label, failed: failures(r, label) }).toEqual({ label, failed: [] });
      expect(sentEarly(r, label)).toEqual([]);
    }
    expect(finding(r, 'pro#1', 'rate-limit.quota')).toMatchObject({ outcome: 'pass', message: expect.stringMatching(/^refilling limiter/) });
  });
});

describe('minute + day (the daily plan: 40 a minute, 100 a day)', () => {
  it("from a day window's start: spends the day to its 429, counts exactly the quota in the window, and leaves the key until its end (beyond what the harness waits)", async () => {
    const r = await driveOnClock({ keys: [DAILY], plans: PLANS, windows: WINDOWS });
    const day = r.runs.get('daily#1')!.day!;
    expect(day.ended).toBe('day-block');
    expect(finding(r, 'daily#1', 'rate-limit.daily-quota')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('day quota enforced: 100 accepted in the day window') });
    expect(countWithin(r.sim.ledger.of('daily#1'), day.block!.reset! - WINDOWS.day, day.block!.reset!)).toBe(100);
    // Its Retry-After names the day's end, more than two minute windows away: nothing more is sent.
    expect(readRetryAfter(day.block!.retryAfter, day.block!.t, day.block!.date)!.seconds).toBeGreaterThan(2 * WINDOWS.minute + 5);
    expect(day.followUps).toEqual([]);
    expect(ofKey(r, 'daily#1').filter((e) => sentAt(e) > day.block!.t)).toEqual([]);
    expect(sentEarly(r, 'daily#1')).toEqual([]);
    expect(failures(r, 'daily#1')).toEqual([]);
  });

  it("late in a day window: sends one request at the moment the day's 429 names, and the next day lets it through", async () => {
    const r = await driveOnClock({ keys: [DAILY], plans: PLANS, windows: WINDOWS, start: T0 + 20_000 });
    const day = r.runs.get('daily#1')!.day!;
    expect(day.ended).toBe('reopened');
    const named = readRetryAfter(day.block!.retryAfter, day.block!.t, day.block!.date)!.untilMs!;
    expect(day.followUps).toHaveLength(1);
    expect(day.followUps![0]!.t).toBeGreaterThanOrEqual(named);
    expect(day.followUps![0]!.status).toBe(200);
    expect(finding(r, 'daily#1', 'rate-limit.daily-quota')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('let through again at') });
    expect(finding(r, 'daily#1', 'rate-limit.retry-after-obeyed')?.outcome).toBe('pass');
    expect(sentEarly(r, 'daily#1')).toEqual([]);
  });

  it('a day that lets one request too many through fails the day check, and only it', async () => {
    const r = await driveOnClock({ keys: [DAILY], plans: PLANS, windows: WINDOWS, faults: ['rate-day-one-too-many'] });
    expect(failures(r, 'daily#1')).toEqual(['rate-limit.daily-quota']);
    expect(finding(r, 'daily#1', 'rate-limit.daily-quota')).toMatchObject({ outcome: 'fail', code: 'over-day-quota', message: expect.stringContaining('101 requests accepted in the day window') });
  });

  it('a day that is never enforced is stopped once more came through than two days allow, and fails', async () => {
    const r = await driveOnClock({ keys: [DAILY], plans: PLANS, windows: WINDOWS, faults: ['rate-daily-not-enforced'] });
    const day = r.runs.get('daily#1')!.day!;
    expect(day.ended).toBe('over-quota');
    expect(day.accepted).toBeLessThanOrEqual(2 * 100 + 40 + 2);
    expect(finding(r, 'daily#1', 'rate-limit.daily-quota')).toMatchObject({ outcome: 'fail', code: 'beyond-any-day' });
  });
});

describe('ban after a 429 (variation ban-after-3-early: three early requests ban a key for two windows)', () => {
  it('never gets a polite key banned; the disposable key, probed on purpose, is recorded as banned', async () => {
    const r = await driveOnClock({ keys: [FREE_1, SPARE], windows: WINDOWS, variations: ['ban-after-3-early'] });
    expect(r.server.stats().byKey['free#1']!.bans).toBe(0);
    expect(failures(r, 'free#1')).toEqual([]);
    const spare = r.runs.get('free#2')!;
    expect(spare.ban?.statuses).toEqual([429, 429, 429, 429, 429]);
    expect(r.server.stats().byKey['free#2']!.bans).toBe(1);
    expect(finding(r, 'free#2', 'rate-limit.ban-probe')).toMatchObject({ outcome: 'pass', message: 'kept sending after a 429: 429, 429, 429, 429, 429; banned: the last 429 kept the key out 8 s (Retry-After 8), beyond one minute window; 200 after waiting it out, as it said' });
    // The probe's five were sent early on purpose, and say so; nothing else was.
    expect(insidePeriods(r, 'free#2').filter((x) => x.why === 'on-purpose').map((x) => x.exchange.earlyOnPurpose)).toEqual([1, 2, 3, 4, 5].map((i) => expect.stringContaining(`the ban probe of a disposable key: request ${i} of 5`)));
    expect(sentEarly(r, 'free#2')).toEqual([]);
  });
});

describe('a limiter per connection (fault rate-per-connection)', () => {
  it('each connection counts its own quota: the per-connection check and the quota fail', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, faults: ['rate-per-connection'] });
    expect(failures(r, 'free#1')).toEqual(expect.arrayContaining(['rate-limit.per-connection', 'rate-limit.quota']));
    const run = r.runs.get('free#1')!;
    expect(run.burst!.points.filter((p) => p.status === 200).length).toBeGreaterThan(60);
    expect(finding(r, 'free#1', 'rate-limit.per-connection')).toMatchObject({ outcome: 'fail', code: 'quota-per-connection' });
  });
});

describe('headers of the day window (variation headers-day-window)', () => {
  it('judges the quota against the minute, and the headers that do not show it as a should failure only', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, variations: ['headers-day-window'] });
    expect(finding(r, 'free#1', 'rate-limit.headers-window')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('the day window (Limit 1000) on all') });
    expect(finding(r, 'free#1', 'rate-limit.quota')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('the headers describe the day window') });
    expect(failures(r, 'free#1').sort()).toEqual(['rate-limit.binding-headers', 'rate-limit.retry-after-consistent']);
    // The burst counted down from the minute's quota, not the day's Remaining: at most the minute's 60 accepted.
    expect(r.runs.get('free#1')!.burst!.points.filter((p) => p.status === 200).length).toBeLessThanOrEqual(60);
    expect(sentEarly(r, 'free#1')).toEqual([]);
  });
});

describe('answers slow enough that a burst spans two windows (120 ms a round trip, 4 s windows)', () => {
  it('counts the window the burst ended in, from one more than its highest Remaining, and passes', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, latencyMs: 60, start: T0 + 1_700 });
    const burst = r.runs.get('free#1')!.burst!;
    const resets = new Set(burst.points.filter((p) => p.status === 200).map((p) => p.reset));
    expect(resets.size).toBe(2);
    expect(failures(r, 'free#1')).toEqual([]);
    expect(finding(r, 'free#1', 'rate-limit.quota')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('the window turned during the burst') });
  });

  it('answers too slow to spend the quota within any window (300 ms a round trip): the quota is not judged, and says why', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, latencyMs: 150 });
    expect(r.runs.get('free#1')!.burst!.ended).toBe('max-duration');
    expect(finding(r, 'free#1', 'rate-limit.quota')).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/not reached: sent \d+ in the window, the quota being \d+/) });
    expect(failures(r, 'free#1')).toEqual([]);
  });
});

describe('slow-day: a key past half its day answered 1.2 s late, its spending across two day windows', () => {
  // A day window of 60 s, as the local target's: until the headers describe the day, the day's room
  // is the harness's own count, and the careful part crosses it one request at a time, 1.2 s each
  // past half the day (a 40-s day window is too short for that). Starts 12 s before a day window
  // ends: the first half of the day goes fast, the rest slowly, past the window's end.
  const windows = { minute: 4, day: 60 };
  const start = T0 + 48_000;
  const turn = (T0 + 60_000) / 1000;

  it('counts each day window on its own (a slow answer dated after the window it was let through in is not counted in the next), and passes', async () => {
    const r = await driveOnClock({ keys: [DAILY], plans: PLANS, windows, variations: ['slow-day'], start });
    const day = r.runs.get('daily#1')!.day!;
    const accepted = r.sim.ledger.of('daily#1');
    // The key's accepted requests fall in two day windows, and some answers were dated a second later than they were sent, across the turn.
    expect(accepted.some((s) => s.to < turn)).toBe(true);
    expect(accepted.some((s) => s.from >= turn)).toBe(true);
    expect(accepted.some((s) => s.from < turn && s.to >= turn)).toBe(true);
    expect(SLOW_DAY.delayMs).toBeGreaterThan(1000);
    expect(day.ended === 'day-block' || day.ended === 'reopened').toBe(true);
    expect(failures(r, 'daily#1')).toEqual([]);
  });

  it('the quota + 1 in a day window still fails', async () => {
    const r = await driveOnClock({ keys: [DAILY], plans: PLANS, windows, variations: ['slow-day'], faults: ['rate-day-one-too-many'], start });
    expect(failures(r, 'daily#1')).toEqual(['rate-limit.daily-quota']);
  });
});

describe('one quota per key: a window spent on a mix of operations (the reference limiter)', () => {
  const mixed = (r: ClockRun) => r.runs.get('free#1')!.mix!;

  it('spends the whole quota across every operation, crosses it one request at a time, and sends one request of another operation into the 429', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS });
    const mix = mixed(r);
    // From the Remaining the look before it showed: exactly that many let through, then the 429.
    expect(mix.expected).toBe(readRateAnswer(mix.start).remaining);
    expect(mix.expected).toBeGreaterThan(50);
    const refusedAt = mix.points.findIndex((p) => p.status === 429);
    expect(refusedAt).toBe(mix.expected);
    expect(new Set(mix.points.map((p) => p.op))).toEqual(new Set(['listPets', 'getPet', 'listOrders']));
    expect(new Set(mix.points.map((p) => p.status))).toEqual(new Set([200, 400, 404, 429]));
    // At the limit, one at a time: the refused request was sent after the one before it was answered.
    expect(mix.points[refusedAt]!.sentAt).toBeGreaterThanOrEqual(mix.points[refusedAt - 1]!.t);
    expect(mix.other).toMatchObject({ status: 429 });
    expect(mix.other!.op).not.toBe(mix.points[refusedAt]!.op);
    // The only request sent during a Retry-After is that one, marked as sent early on purpose.
    const early = ofKey(r, 'free#1').filter((e) => e.earlyOnPurpose !== undefined);
    expect(early).toHaveLength(1);
    expect(sentEarly(r, 'free#1')).toEqual([]);
    expect(finding(r, 'free#1', 'rate-limit.one-quota')).toMatchObject({ outcome: 'pass' });
    expect(failures(r, 'free#1')).toEqual([]);
    expect(r.server.stats().bans).toBe(0);
  });

  it('a limiter per operation (fault rate-per-operation): more than the quota through, and the other operation let in after the 429 (to its own answer)', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, faults: ['rate-per-operation'] });
    const f = finding(r, 'free#1', 'rate-limit.one-quota');
    expect(f).toMatchObject({ outcome: 'fail', code: 'mix-over-quota' });
    // Without writes, the request after the 429 is getPet of a missing animal: its own bucket lets it in, and it answers 404.
    expect(f?.outcome === 'fail' && f.message).toMatch(/refused on listPets \(429, Retry-After \d\), then getPet, sent 0\.0 s later, got 404, not 429/);
  });

  it('a limiter per operation with neither Reset nor Retry-After (fault rate-per-operation-no-reset): never passed; the other operation answered within the same quarter second after the 429 fails it', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, faults: ['rate-per-operation-no-reset'] });
    const f = finding(r, 'free#1', 'rate-limit.one-quota');
    // More than Remaining got through, within what a turn would allow: the count alone is not judged (no turn assumed)...
    // ...but getPet, refused by no 429 a few milliseconds after listPets' 429, shows the buckets apart whatever the headers.
    expect(f).toMatchObject({ outcome: 'fail', code: 'not-429-over-limit' });
    expect(f?.outcome === 'fail' && f.message).toMatch(/refused on listPets \(429, no Retry-After\), then getPet, sent 0\.\d{3} s later \(within the same quarter second, and no window turns for one operation and not another\), got 404, not 429.*; the count \(\d+ let through from Remaining \d+\) is not judged: no X-RateLimit-Reset and no Retry-After on the 429: when the window turned cannot be told$/);
  });

  it('4xx not counted (fault rate-counts-only-success): the mix gets the 400s and 404s through beyond the quota', async () => {
    const r = await driveOnClock({ keys: [FREE_1], windows: WINDOWS, faults: ['rate-counts-only-success'] });
    expect(finding(r, 'free#1', 'rate-limit.one-quota')).toMatchObject({ outcome: 'fail', code: 'mix-over-quota', message: expect.stringMatching(/getPet \d+ \(404\)/) });
  });

  it('goes to a key that does not spend its plan\'s day when there is one, the day test then waiting for nothing of it', async () => {
    const r = await driveOnClock({ keys: [FREE_1, FREE_2, DAILY], plans: PLANS, windows: WINDOWS });
    expect([...r.runs.values()].filter((run) => run.mix).map((run) => run.label)).toEqual(['free#2']);
    expect(finding(r, 'free#2', 'rate-limit.one-quota')).toMatchObject({ outcome: 'pass' });
    expect(finding(r, 'daily#1', 'rate-limit.one-quota')).toMatchObject({ outcome: 'skip', message: expect.stringContaining('free#2') });
  });

  it('a disposable key is never the one: the mix goes to the smallest plan\'s first key that is not', async () => {
    const r = await driveOnClock({ keys: [SPARE, PRO, FREE_1], windows: WINDOWS });
    const free = r.target.keys.find((k) => k.key === FREE_1.key)!.label;
    expect([...r.runs.values()].filter((run) => run.mix).map((run) => run.label)).toEqual([free]);
    expect(finding(r, free, 'rate-limit.one-quota')).toMatchObject({ outcome: 'pass' });
  });
});
