// lib/drive/drive-paced.ts: what each key's paced run will send, planned before anything is sent (pure).
import { describe, expect, it } from 'vitest';
import type { TargetKey } from '../../../lib/config/schema.ts';
import { planPacedLoad } from '../../../lib/drive/drive-paced.ts';
import { DEFAULT_PACE } from '../../../lib/config/run-context.ts';

/** Windows of a test target: 5 s for the minute, 60 s for the day. */
const WINDOWS = { minute: 5, day: 60 };
const BIG_BUDGET = 100_000;

const key = (label: string, plan: string, perMinute: number, perDay = 1000): TargetKey => ({ key: `secret-${label}`, plan, label, env: 'K', disposable: false, quota: { perMinute, perDay } });
const target = (...keys: TargetKey[]) => ({ keys, windows: WINDOWS });

describe('planPacedLoad', () => {
  it('paces 90% of 60 per 5 s for 2 windows: 10.8 a second, 108 requests', () => {
    expect(DEFAULT_PACE).toEqual({ fraction: 0.9, windows: 2 });
    const [plan] = planPacedLoad(target(key('free#1', 'free', 60)), DEFAULT_PACE, BIG_BUDGET);
    expect(plan).toEqual({ key: key('free#1', 'free', 60), fraction: 0.9, rate: 10.8, count: 108 });
  });

  it.each<{ title: string; perMinute: number; fraction: number; windows: number; plan: { fraction: number; rate: number; count: number } }>([
    // min(0.9 × 10, 10 - 2): the look before the run and one more at a window's edge need room.
    { title: 'a small quota is kept two below it (10 → 8 a window)', perMinute: 10, fraction: 0.9, windows: 2, plan: { fraction: 0.8, rate: 1.6, count: 16 } },
    { title: '90% of 20 is 18, two below it: kept', perMinute: 20, fraction: 0.9, windows: 2, plan: { fraction: 0.9, rate: 3.6, count: 36 } },
    { title: 'a quota of 3 leaves one a window', perMinute: 3, fraction: 0.9, windows: 2, plan: { fraction: 1 / 3, rate: 0.2, count: 2 } },
    { title: 'half the rate for one window', perMinute: 60, fraction: 0.5, windows: 1, plan: { fraction: 0.5, rate: 6, count: 30 } },
    { title: 'the whole quota is asked for, two below it is sent', perMinute: 60, fraction: 1, windows: 3, plan: { fraction: 58 / 60, rate: 11.6, count: 174 } },
  ])('$title', ({ perMinute, fraction, windows, plan }) => {
    const [p] = planPacedLoad(target(key('k#1', 'k', perMinute)), { fraction, windows }, BIG_BUDGET);
    expect(p).not.toHaveProperty('skip');
    expect(p?.fraction).toBeCloseTo(plan.fraction, 10);
    expect(p?.rate).toBeCloseTo(plan.rate, 10);
    expect(p?.count).toBe(plan.count);
  });

  it.each([2, 1])('skips a quota of %i per window, naming the key: nothing fits below it', (perMinute) => {
    const [p] = planPacedLoad(target(key('tiny#1', 'tiny', perMinute)), DEFAULT_PACE, BIG_BUDGET);
    expect(p?.skip).toBe(`tiny#1: plan tiny's quota of ${perMinute} per 5 s is too small to pace below it`);
    expect(p?.count).toBe(0);
  });

  it("skips a run that would spend more than a quarter of the plan's day, naming the key and the options to lower", () => {
    // 108 paced requests and the look: 109 > 400 / 4.
    const [p] = planPacedLoad(target(key('free#1', 'free', 60, 400)), DEFAULT_PACE, BIG_BUDGET);
    expect(p?.skip).toBe("free#1: 108 paced requests would spend more than a quarter of plan free's 400 a day (the other suites and other runs need the rest): lower --load-rate or --load-windows");
    expect(p?.count).toBe(108);
  });

  it.each<{ perDay: number; skipped: boolean }>([
    // A quarter of 436 is 109: the 108 paced requests and the look fit exactly.
    { perDay: 436, skipped: false },
    { perDay: 435, skipped: true },
  ])('day share boundary: 109 requests against a day of $perDay (skipped: $skipped)', ({ perDay, skipped }) => {
    const [p] = planPacedLoad(target(key('free#1', 'free', 60, perDay)), DEFAULT_PACE, BIG_BUDGET);
    expect(p?.skip !== undefined).toBe(skipped);
  });

  describe('the request budget, shared in key order (count + 3 a key)', () => {
    // 108 paced requests each (111 with the looks), and a small key of 3 a window (6, 9 with the looks).
    const keys = target(key('free#1', 'free', 60), key('free#2', 'free', 60), key('tiny#1', 'tiny', 5));
    const skips = (budget: number) => planPacedLoad(keys, DEFAULT_PACE, budget).map((p) => p.skip);

    it('paces every key when the budget holds them all, to the last request', () => {
      expect(planPacedLoad(keys, DEFAULT_PACE, 111 + 111 + 9).map((p) => [p.key.label, p.count, p.skip])).toEqual([
        ['free#1', 108, undefined],
        ['free#2', 108, undefined],
        ['tiny#1', 6, undefined],
      ]);
    });

    it('skips the keys beyond it, naming what is left', () => {
      expect(skips(230)).toEqual([undefined, undefined, "tiny#1: the request budget has 8 requests left, and tiny#1's paced run needs 9"]);
    });

    it('leaves what a skipped key would have spent to the keys after it', () => {
      // 120: free#1 takes 111; free#2 does not fit in 9; tiny#1 does.
      expect(skips(120)).toEqual([undefined, "free#2: the request budget has 9 requests left, and free#2's paced run needs 111", undefined]);
    });

    it('spends nothing on a key skipped for its quota or its day', () => {
      const plans = planPacedLoad(target(key('tiny#1', 'tiny', 2), key('small-day#1', 'free', 60, 100), key('free#1', 'free', 60)), DEFAULT_PACE, 111);
      expect(plans.map((p) => p.skip === undefined)).toEqual([false, false, true]);
    });

    it('skips every key when the budget is spent', () => {
      expect(skips(0)).toEqual([
        "free#1: the request budget has 0 requests left, and free#1's paced run needs 111",
        "free#2: the request budget has 0 requests left, and free#2's paced run needs 111",
        "tiny#1: the request budget has 0 requests left, and tiny#1's paced run needs 9",
      ]);
    });
  });
});
