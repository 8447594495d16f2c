import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from '../../../lib/util/suggest.ts';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['seed', 'seed', 0],
    ['seeed', 'seed', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['dayy', 'day', 1],
  ])('between %j and %j is %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closest and didYouMean', () => {
  const candidates = ['local', 'staging', 'production'];

  it('finds the nearest candidate, ignoring case', () => {
    expect(closest('stagin', candidates)).toBe('staging');
    expect(closest('LOCAL', candidates)).toBe('local');
  });

  it('suggests nothing when every candidate is too far', () => {
    expect(closest('xyz', candidates)).toBeUndefined();
    expect(didYouMean('qqqqqqqq', candidates)).toBe('');
  });

  it('writes the hint ready to append to a message', () => {
    expect(didYouMean('prodution', candidates)).toBe(' (did you mean "production"?)');
  });
});
