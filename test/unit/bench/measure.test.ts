import { describe, expect, it } from 'vitest';
import { median, summary } from '../../../bench/measure.ts';

describe('bench statistics', () => {
  it.each([
    { values: [3], want: 3 },
    { values: [5, 1, 3], want: 3 },
    { values: [4, 1, 3, 2], want: 2.5 },
  ])('the median of $values is $want, whatever the order', ({ values, want }) => {
    expect(median(values)).toBe(want);
  });

  it('summarises repeated measurements as median and spread', () => {
    expect(summary([14.3, 15.22, 15.18])).toEqual({ median: 15.18, min: 14.3, max: 15.22, n: 3 });
  });

  it('keeps the median within the spread when the inputs have three decimals', () => {
    const s = summary([0.265, 0.346, 0.346]);
    expect(s.median).toBe(0.346);
    expect(s.median).toBeLessThanOrEqual(s.max);
  });
});
