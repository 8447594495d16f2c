// lib/load/segment.ts: the command line of a load segment and the schedule every runner computes alike.
import { describe, expect, it } from 'vitest';
import type { TargetKey } from '../../../lib/config/schema.ts';
import { UsageError } from '../../../lib/errors.ts';
import { FIRST_SLOT_AFTER_MS, keySlots, parseSegment, parseStartAt, segmentSuites, slotMs } from '../../../lib/load/segment.ts';

const NOW = Date.UTC(2026, 10, 24, 18, 0, 0);
const key = (label: string, plan: string): TargetKey => ({ key: `secret-${label}`, plan, label, env: 'K', disposable: false, quota: { perMinute: 60, perDay: 1000 } });

describe('parseSegment', () => {
  it('reads I/N', () => {
    expect(parseSegment('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseSegment(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });
  it.each([
    ['2', 'takes I/N'],
    ['a/b', 'takes I/N'],
    ['0/4', 'I must be between 1 and N (4)'],
    ['5/4', 'I must be between 1 and N (4)'],
    ['1/0', 'N must be between 1 and 64'],
    ['1/65', 'N must be between 1 and 64'],
  ])('refuses %s, saying why', (value, why) => {
    expect(() => parseSegment(value)).toThrow(UsageError);
    expect(() => parseSegment(value)).toThrow(why);
  });
});

describe('parseStartAt', () => {
  it('reads an ISO time with its zone', () => {
    expect(parseStartAt('2026-11-24T18:05:00Z', NOW)).toBe(NOW + 300_000);
    expect(parseStartAt('2026-11-24T19:05:00+01:00', NOW)).toBe(NOW + 300_000);
  });
  it('refuses a time without a zone (runners in other zones would read it otherwise), or no time at all', () => {
    expect(() => parseStartAt('2026-11-24T18:05:00', NOW)).toThrow('with its zone');
    expect(() => parseStartAt('in five minutes', NOW)).toThrow('--start-at takes an ISO 8601 time');
  });
  it('refuses a time in the past, and one more than a day away', () => {
    expect(() => parseStartAt('2026-11-24T17:59:00Z', NOW)).toThrow('60 s in the past');
    expect(() => parseStartAt('2026-11-26T18:00:00Z', NOW)).toThrow('more than a day away');
  });
});

describe('keySlots', () => {
  it('gives the keys of a plan one slot after another, and each lane its own plans, from the start time', () => {
    const groups = [[key('free#1', 'free'), key('free#2', 'free')], [key('pro#1', 'pro')], [key('business#1', 'business')]];
    const slots = keySlots(groups, 2, NOW, 5);
    const first = NOW + FIRST_SLOT_AFTER_MS;
    expect(Object.fromEntries(slots)).toEqual({
      'free#1': first,
      'free#2': first + slotMs(5),
      'pro#1': first,
      // Lane 0 again, after the free plan's two keys.
      'business#1': first + 2 * slotMs(5),
    });
  });
  it('is the same table for every runner: it depends on the config and the start time only', () => {
    const groups = [[key('free#1', 'free')], [key('pro#1', 'pro')]];
    expect(keySlots(groups, 1, NOW, 60)).toEqual(keySlots(groups, 1, NOW, 60));
  });
  it('leaves room in a slot to wait for a fresh window and burst through it', () => {
    expect(slotMs(60)).toBeGreaterThanOrEqual(2 * 60_000);
  });
});

describe('segmentSuites', () => {
  const all = ['auth', 'list-pets', 'rate-limit'];
  it('runner 1 runs every suite asked for, the others only the rate-limit suite', () => {
    expect(segmentSuites(all, { index: 1, count: 3 })).toEqual(all);
    expect(segmentSuites(all, { index: 3, count: 3 })).toEqual(['rate-limit']);
  });
  it('refuses a split without the rate-limit suite', () => {
    expect(() => segmentSuites(['auth'], { index: 1, count: 2 })).toThrow('not among the suites asked for');
  });
});
