// A result's identity (id and subject) and finding it in another report, with the rule for checks
// that moved between a key's results and the run's (README "Subjects, test names and baselines
// across versions").
import { describe, expect, it } from 'vitest';
import { counterparts, resultKey, worstOf } from '../../../lib/result/match.ts';
import { check } from '../report/fixture.ts';

describe('resultKey', () => {
  it('names a result by id and subject; no subject is its own name', () => {
    expect(resultKey({ id: 'a.b', subject: 'free#1' })).not.toBe(resultKey({ id: 'a.b', subject: 'pro#1' }));
    expect(resultKey({ id: 'a.b' })).toBe(resultKey({ id: 'a.b', subject: undefined }));
    expect(resultKey({ id: 'a.b', subject: '' })).toBe(resultKey({ id: 'a.b' }));
  });
});

describe('worstOf', () => {
  it('takes a failure over an error over a pass over a skip, the first of equals', () => {
    const [skip, pass, error, fail, fail2] = [check({ id: 'x', outcome: 'skip' }), check({ id: 'x', outcome: 'pass' }), check({ id: 'x', outcome: 'error' }), check({ id: 'x', outcome: 'fail', subject: '1' }), check({ id: 'x', outcome: 'fail', subject: '2' })];
    expect(worstOf([skip, pass, error, fail, fail2])).toBe(fail);
    expect(worstOf([skip, pass, error])).toBe(error);
    expect(worstOf([skip, pass])).toBe(pass);
    expect(worstOf([])).toBeUndefined();
  });
});

describe('counterparts', () => {
  it('matches by id and subject', () => {
    const base = [check({ id: 'auth.missing-key', subject: 'GET /pets' }), check({ id: 'auth.missing-key', subject: 'POST /pets' })];
    const head = [check({ id: 'auth.missing-key', subject: 'POST /pets', outcome: 'fail' })];
    const inBase = counterparts(head, base);
    expect(inBase(head[0]!)).toEqual({ results: [base[1]] });
  });

  it('matches by id alone a check whose subjects the two reports do not share (per key then once over the run)', () => {
    const base = [check({ id: 'rate-limit.retry-after-present', subject: 'free#1', outcome: 'fail' }), check({ id: 'rate-limit.retry-after-present', subject: 'pro#1' })];
    const head = [check({ id: 'rate-limit.retry-after-present', subject: 'every response of the run' })];
    expect(counterparts(head, base)(head[0]!)).toEqual({ results: base, movedFrom: ['free#1', 'pro#1'] });
    expect(counterparts(base, head)(base[0]!)).toEqual({ results: head, movedFrom: ['every response of the run'] });
  });

  it('matches subjects one by one when they partly overlap: a key added has no counterpart', () => {
    const base = [check({ id: 'rate-limit.quota', subject: 'free#1' })];
    const head = [check({ id: 'rate-limit.quota', subject: 'free#1' }), check({ id: 'rate-limit.quota', subject: 'pro#1' })];
    const inBase = counterparts(head, base);
    expect(inBase(head[0]!)).toEqual({ results: [base[0]] });
    expect(inBase(head[1]!)).toEqual({ results: [] });
  });

  it('finds nothing for a check the other report does not have', () => {
    expect(counterparts([check({ id: 'new.check' })], [check({ id: 'old.check' })])(check({ id: 'new.check' }))).toEqual({ results: [] });
  });
});
