// lib/load/approach.ts: approach a quota fast, cross it one request at a time. The two parts are
// replaced by a model limiter here: no sockets, no clock beyond the test's own.
import { describe, expect, it } from 'vitest';
import { approach, carefulMargin, type Phases } from '../../../lib/load/approach.ts';
import { systemClock } from '../../../lib/load/clock.ts';
import type { BurstResult } from '../../../lib/load/fast.ts';
import { type TimelinePoint } from '../../../lib/result/rate-limits.ts';
import { histogramOf, mergeHistograms, percentilesOf } from '../../../lib/result/latency.ts';

const LATENCY = { p50: 1, p90: 2, p99: 3, max: 4 };
/** Each answer took (its index within the part mod 5) + 1 ms. */
const histogramFor = (n: number) => histogramOf(Array.from({ length: n }, (_, i) => (i % 5) + 1));

/** A part's result over its answers. */
const result = (points: TimelinePoint[], sent: number, ended: BurstResult['ended']): BurstResult => ({ points, sent, startedAt: Date.now(), durationMs: 1, latency: LATENCY, histogram: histogramFor(points.length), unanswered: [], ended });

/** The fast part over a model's answers: several connections, so at the first 429 `inFlight` more requests were already sent. */
function fastPhase(answer: () => TimelinePoint, inFlight = 3): Phases['fast'] {
  return async ({ maxRequests }) => {
    const points: TimelinePoint[] = [];
    for (let i = 0; i < maxRequests; i++) {
      const p = answer();
      points.push(p);
      if (p.status === 429) {
        const late = Math.min(inFlight, maxRequests - i - 1);
        for (let k = 0; k < late; k++) points.push({ ...answer(), afterStop: true });
        return result(points, i + 1 + late, 'first-429');
      }
    }
    return result(points, maxRequests, 'max-requests');
  };
}

/** A limiter that lets `quota` requests through, then refuses; `refill` more come back once, before the first careful part. */
function model(quota: number, o: { refill?: number; lies?: number; inFlight?: number } = {}) {
  let left = quota;
  let refill = o.refill ?? 0;
  const answer = (): TimelinePoint => {
    if (left > 0) {
      left -= 1;
      return { t: Date.now(), status: 200, remaining: left + (o.lies ?? 0) };
    }
    return { t: Date.now(), status: 429, remaining: 0, retryAfter: '1' };
  };
  const phases: Phases = {
    fast: fastPhase(answer, o.inFlight),
    careful: async ({ maxRequests, roomAbove }) => {
      left += refill;
      refill = 0;
      const points: TimelinePoint[] = [];
      for (let i = 0; i < maxRequests; i++) {
        const p = answer();
        points.push(p);
        if (p.status === 429) return { ...result(points, i + 1, 'first-429'), room: false };
        if ((p.remaining ?? 0) > roomAbove) return { ...result(points, i + 1, 'max-requests'), room: true };
      }
      return { ...result(points, maxRequests, 'max-requests'), room: false };
    },
  };
  return phases;
}

const options = { url: 'http://127.0.0.1:1/v1/pets?limit=1', headers: {}, rate: 100, connections: 4, maxDurationMs: 10_000, timeoutS: 5 };

describe('approach', () => {
  it('spends most of the quota fast, then crosses it with nothing in flight', async () => {
    const r = await approach({ ...options, remaining: 60, maxRequests: 200 }, model(60), systemClock);
    expect(r.ended).toBe('first-429');
    expect(r.inFlightAtFirst429).toBe(0);
    expect(r.phases).toEqual([`fast ${60 - carefulMargin(4)}`, `careful ${carefulMargin(4) + 1}`]);
    expect(r.points.filter((p) => p.status === 200)).toHaveLength(60);
    expect(r.points.at(-1)?.status).toBe(429);
    expect(r.sent).toBe(61);
  });

  it('goes careful from the start when little is left', async () => {
    const r = await approach({ ...options, remaining: 5, maxRequests: 200 }, model(5), systemClock);
    expect(r.phases).toEqual(['careful 6']);
    expect(r.inFlightAtFirst429).toBe(0);
  });

  it('counts what was in flight when a server refused earlier than its Remaining said', async () => {
    const r = await approach({ ...options, remaining: 60, maxRequests: 200 }, model(30, { lies: 30, inFlight: 3 }), systemClock);
    expect(r.ended).toBe('first-429');
    expect(r.phases).toEqual(['fast 34']);
    expect(r.inFlightAtFirst429).toBe(3);
  });

  it('hands back to the fast part when a refilling limiter says there is room again', async () => {
    const r = await approach({ ...options, remaining: 40, maxRequests: 500 }, model(40, { refill: 100 }), systemClock);
    expect(r.phases).toEqual(['fast 32', 'careful 1', 'fast 99', 'careful 9']);
    expect(r.points.filter((p) => p.status === 200)).toHaveLength(140);
    expect(r.ended).toBe('first-429');
    expect(r.inFlightAtFirst429).toBe(0);
  });

  it('takes its latency from every response of every part: the parts\' histograms added up', async () => {
    const r = await approach({ ...options, remaining: 60, maxRequests: 200 }, model(60), systemClock);
    expect(r.histogram).toEqual(mergeHistograms([histogramFor(60 - carefulMargin(4)), histogramFor(carefulMargin(4) + 1)]));
    expect(r.histogram.reduce((n, [, c]) => n + c, 0)).toBe(r.points.length);
    expect(r.latency).toEqual(percentilesOf(r.histogram));
  });

  it('a load segment that does not cross spends its share of what is left fast, then leaves the limit to the one that does', async () => {
    const r = await approach({ ...options, remaining: 120, maxRequests: 500, share: { of: 2, crosses: false } }, model(120), systemClock);
    // Alone against the model, it goes on while its half of what the server says is left is above the margin.
    expect(r.phases).toEqual(['fast 44', 'fast 22', 'fast 11']);
    expect(r.ended).toBe('max-requests');
    expect(r.points.every((p) => p.status === 200)).toBe(true);
    expect(r.points.at(-1)?.remaining).toBeLessThanOrEqual(2 * 3 * carefulMargin(4));
    expect(r.points.at(-1)?.remaining).toBeGreaterThan(2 * carefulMargin(4));
  });

  it('the segment that crosses goes on to the first 429 one request at a time', async () => {
    const r = await approach({ ...options, remaining: 120, maxRequests: 500, share: { of: 2, crosses: true } }, model(120), systemClock);
    // Its share of what is left is half of what the server says: fast while that is above the margin.
    expect(r.phases[0]).toBe(`fast ${60 - carefulMargin(4)}`);
    expect(r.ended).toBe('first-429');
    expect(r.inFlightAtFirst429).toBe(0);
    expect(r.points.filter((p) => p.status === 200)).toHaveLength(120);
  });

  it('never sends more than its cap, whatever the server says', async () => {
    const r = await approach({ ...options, remaining: 60, maxRequests: 100 }, model(1_000, { lies: -1_000 }), systemClock);
    expect(r.sent).toBe(100);
    expect(r.ended).toBe('max-requests');
  });
});

describe('approach: the pair at Remaining 1', () => {
  /** A careful part that reports a pair, and records whether it was asked for one. */
  function withPair(asked: boolean[]): Phases {
    const before: TimelinePoint = { t: 1, status: 200, remaining: 1 };
    const together: TimelinePoint[] = [{ t: 2, status: 200, remaining: 0 }, { t: 3, status: 429, remaining: 0 }];
    return {
      fast: async () => ({ points: [], sent: 0, startedAt: 0, durationMs: 0, latency: LATENCY, histogram: [], unanswered: [], ended: 'max-requests' }),
      careful: async ({ pairAtLastOne }) => {
        asked.push(pairAtLastOne ?? false);
        const points = [before, ...together];
        return { points, sent: 3, startedAt: 0, durationMs: 1, latency: LATENCY, histogram: histogramFor(3), unanswered: [], ended: 'first-429', room: false, ...(pairAtLastOne ? { pair: { before, together } } : {}) };
      },
    };
  }

  it('asks the careful part for the pair on two or more connections, and returns it', async () => {
    const asked: boolean[] = [];
    const r = await approach({ ...options, remaining: 3, maxRequests: 10 }, withPair(asked), systemClock);
    expect(asked).toEqual([true]);
    expect(r.pair?.together.map((p) => p.status)).toEqual([200, 429]);
    // The 429 came back last: nothing else was in flight.
    expect(r.inFlightAtFirst429).toBe(0);
  });

  it('never asks for it on one connection', async () => {
    const asked: boolean[] = [];
    const r = await approach({ ...options, connections: 1, remaining: 3, maxRequests: 10 }, withPair(asked), systemClock);
    expect(asked).toEqual([false]);
    expect(r.pair).toBeUndefined();
  });
});

describe('approach: headers that describe the day (the plan\'s quota given)', () => {
  const PER_MINUTE = 60;
  const PER_DAY = 1_000;
  const QUOTA = { perMinute: PER_MINUTE, perDay: PER_DAY };
  /** The plan, real windows, and nothing sent with the key before the burst. */
  const OWN = { quota: QUOTA, windows: { minute: 60, day: 86_400 }, sent: [] };
  type Window = 'minute' | 'day';

  /**
   * A limiter with a minute's quota of 60 and a day with `dayLeft` left; its answers state the
   * window `describe` picks for each accepted answer (by its place in the run). The careful parts
   * it is given are recorded, to see what they were asked.
   */
  function twoWindows(o: { dayLeft?: number; describe?: (n: number) => Window; inFlight?: number } = {}) {
    let minute = PER_MINUTE;
    let day = o.dayLeft ?? 900;
    let n = 0;
    const describe = o.describe ?? (() => 'day');
    const carefulAsked: { maxRequests: number; quota?: { perMinute: number; perDay: number } }[] = [];
    const answer = (): TimelinePoint => {
      if (minute > 0 && day > 0) {
        minute -= 1;
        day -= 1;
        const window = describe(n++);
        return { t: Date.now(), status: 200, limit: window === 'day' ? PER_DAY : PER_MINUTE, remaining: window === 'day' ? day : minute };
      }
      return { t: Date.now(), status: 429, limit: PER_MINUTE, remaining: 0, retryAfter: '30' };
    };
    const phases: Phases = {
      fast: fastPhase(answer, o.inFlight),
      careful: async (options) => {
        carefulAsked.push({ maxRequests: options.maxRequests, ...(options.own !== undefined ? { quota: options.own.quota } : {}) });
        const points: TimelinePoint[] = [];
        for (let i = 0; i < options.maxRequests; i++) {
          const p = answer();
          points.push(p);
          if (p.status === 429) return { ...result(points, i + 1, 'first-429'), room: false };
        }
        return { ...result(points, options.maxRequests, 'max-requests'), room: false };
      },
    };
    return { phases, carefulAsked };
  }

  it("counts down answers that carry the day's Limit: the fast part does not go on by the day's Remaining", async () => {
    const { phases, carefulAsked } = twoWindows();
    const r = await approach({ ...options, remaining: PER_MINUTE, maxRequests: 200, own: OWN }, phases, systemClock);
    // 52 accepted, the day's Remaining then 848: counted down, 8 of the minute are left, below the margin.
    expect(r.phases).toEqual([`fast ${PER_MINUTE - carefulMargin(4)}`, `careful ${carefulMargin(4) + 1}`]);
    expect(r.ended).toBe('first-429');
    expect(r.inFlightAtFirst429).toBe(0);
    expect(r.points.filter((p) => p.status === 200)).toHaveLength(PER_MINUTE);
    expect(r.points.filter((p) => p.afterStop)).toEqual([]);
    expect(carefulAsked).toEqual([{ maxRequests: 200 - (PER_MINUTE - carefulMargin(4)), quota: QUOTA }]);
  });

  it("without the plan's quota the same answers are followed by the day's Remaining, and the fast part runs into the minute's 429", async () => {
    const { phases, carefulAsked } = twoWindows();
    const r = await approach({ ...options, remaining: PER_MINUTE, maxRequests: 200 }, phases, systemClock);
    expect(r.phases[0]).toBe(`fast ${PER_MINUTE - carefulMargin(4)}`);
    expect(r.phases).toHaveLength(2);
    expect(r.phases[1]).toMatch(/^fast /);
    expect(r.inFlightAtFirst429).toBe(3);
    expect(carefulAsked).toEqual([]);
  });

  it('still follows the Remaining of answers that state the minute', async () => {
    // The last answer of the first fast part (its 32nd) states the minute; the ones before it, the day.
    const { phases } = twoWindows({ describe: (n) => (n === 31 ? 'minute' : 'day') });
    const r = await approach({ ...options, remaining: 40, maxRequests: 500, own: OWN }, phases, systemClock);
    // Told 40 were left: the fast part's 32 would leave 8 counted down, but its last answer says
    // the minute has 28 left (the quota is 60), so the fast part goes on.
    expect(r.phases).toEqual(['fast 32', 'fast 20', 'careful 9']);
    expect(r.points.filter((p) => p.status === 200)).toHaveLength(PER_MINUTE);
    expect(r.inFlightAtFirst429).toBe(0);
  });

  it("takes the lowest Remaining of the minute's answers, whatever the day's say", async () => {
    // The first ten answers state the minute (Remaining 59 … 50), the rest the day (899 … 868).
    const { phases } = twoWindows({ describe: (n) => (n < 10 ? 'minute' : 'day') });
    const r = await approach({ ...options, remaining: 40, maxRequests: 500, own: OWN }, phases, systemClock);
    // Lowest minute Remaining 50: fast again for 42, which the minute refuses at 28.
    expect(r.phases).toEqual(['fast 32', 'fast 32']);
    expect(r.ended).toBe('first-429');
  });

  it('follows answers that carry no X-RateLimit-Limit when the day is given', async () => {
    const r = await approach({ ...options, remaining: 40, maxRequests: 500, own: OWN }, model(40, { refill: 100 }), systemClock);
    expect(r.phases).toEqual(['fast 32', 'careful 1', 'fast 99', 'careful 9']);
  });

  // Answers without an X-RateLimit-Limit are followed whether a day limit is given or not.
  it('follows answers that carry no X-RateLimit-Limit when no day is given', async () => {
    const r = await approach({ ...options, remaining: 40, maxRequests: 500 }, model(40, { refill: 100 }), systemClock);
    expect(r.phases).toEqual(['fast 32', 'careful 1', 'fast 99', 'careful 9']);
  });

  it("headers of the minute only: the day's room is the plan's quota less the harness's own count, crossed carefully", async () => {
    // 980 of the day's 1,000 sent within the last day by the harness; the headers say the minute has 60.
    const sent = Array<number>(980).fill(Date.now() - 3_600_000);
    const { phases } = twoWindows({ dayLeft: 20, describe: () => 'minute' });
    const r = await approach({ ...options, remaining: 20, maxRequests: 500, own: { ...OWN, sent } }, phases, systemClock);
    // Fast while the day's counted room is above the margin (12 of 20), then one at a time: the
    // minute's Remaining (48) is not followed into the day's 429.
    expect(r.phases).toEqual(['fast 12', 'careful 9']);
    expect(r.ended).toBe('first-429');
    expect(r.inFlightAtFirst429).toBe(0);
    // Without the count the minute's Remaining is followed, and the day refuses with requests in flight.
    const { phases: blind } = twoWindows({ dayLeft: 20, describe: () => 'minute' });
    const without = await approach({ ...options, remaining: 20, maxRequests: 500 }, blind, systemClock);
    expect(without.phases).toEqual(['fast 12', 'fast 12']);
    expect(without.inFlightAtFirst429).toBe(3);
  });

  it('follows minute answers with the day given, as it does without it', async () => {
    const { phases } = twoWindows({ describe: () => 'minute' });
    const r = await approach({ ...options, remaining: 40, maxRequests: 500, own: OWN }, phases, systemClock);
    // A stated 40 (lower than the minute's 60): the fast part's 32 leave Remaining 28, so fast again.
    expect(r.phases).toEqual(['fast 32', 'fast 20', 'careful 9']);
    expect(r.ended).toBe('first-429');
  });
});
