// lib/checks/types.ts: the small pieces every check shares.
import { describe, expect, it } from 'vitest';
import { eachCase, fail, kindOfMessage, pass, skip } from '../../../lib/checks/types.ts';

describe('kindOfMessage', () => {
  it('blanks numbers and quoted values, so failures alike in all else are one kind', () => {
    expect(kindOfMessage('limit=37 returned 50 animals')).toBe(kindOfMessage('limit=3 returned 4 animals'));
    expect(kindOfMessage('name "Rex" is not the "Rex " sent')).toBe('name "…" is not the "…" sent');
    expect(kindOfMessage('categoryId -12.5 is not 7')).toBe('categoryId # is not #');
  });

  it('keeps different failures apart', () => {
    expect(kindOfMessage('limit=3 returned 4 animals')).not.toBe(kindOfMessage('limit=3: got 500, not 200'));
  });
});

describe('eachCase', () => {
  const judge = eachCase((n: number) => (n < 0 ? fail(`${n} is negative`, '>= 0', `${n}`) : n === 0 ? skip('zero says nothing') : pass()), {
    all: (n) => pass(`${n} cases passed`),
  });

  it('passes when every case passes, describing them', () => {
    expect(judge([1, 2, 3])).toEqual({ outcome: 'pass', message: '3 cases passed' });
  });

  it('is decided by the first case that does not pass, failure or skip', () => {
    expect(judge([1, -2, 0]).message).toBe('-2 is negative');
    expect(judge([1, 0, -2]).outcome).toBe('skip');
  });

  it('skips with nothing to judge, never passes', () => {
    expect(judge([]).outcome).toBe('skip');
  });

  it('judges one case on its own for the suite to decide when to stop sending', () => {
    expect(judge.one(-1).outcome).toBe('fail');
  });
});
