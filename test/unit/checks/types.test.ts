// lib/checks/types.ts: the small pieces every check shares.
import { describe, expect, it } from 'vitest';
import { eachCase, fail, findingOf, pass, skip } from '../../../lib/checks/types.ts';

describe('fail', () => {
  it('carries its code first, then the message, expected and actual', () => {
    expect(fail('not-401', 'got 200, not 401', '401', '200 []')).toEqual({ outcome: 'fail', code: 'not-401', message: 'got 200, not 401', expected: '401', actual: '200 []' });
    expect(fail('too-many-animals', 'limit=3 returned 4 animals')).toEqual({ outcome: 'fail', code: 'too-many-animals', message: 'limit=3 returned 4 animals' });
  });

  it('takes codes of lower-case words and digits joined by hyphens', () => {
    for (const code of ['not-401', 'x', 'name-not-echoed', 'error-body-not-json', '429-error-body']) expect(fail(code, 'm')).toMatchObject({ outcome: 'fail', code });
  });

  it.each([
    ['a message passed where the code goes', 'got 200, not 401'],
    ['upper case', 'Not-401'],
    ['an underscore', 'not_401'],
    ['a leading hyphen', '-not-401'],
    ['a trailing hyphen', 'not-401-'],
    ['two hyphens in a row', 'not--401'],
    ['a dot', 'auth.not-401'],
    ['nothing', ''],
  ])('throws, naming the code, on %s', (_, code) => {
    expect(() => fail(code, 'the message', 'expected', 'actual')).toThrow(JSON.stringify(code));
  });
});

describe('findingOf', () => {
  it('passes without problems', () => {
    expect(findingOf('too-many-animals', [], 'at most 3', '4 animals')).toEqual({ outcome: 'pass' });
  });

  it('joins the problems into one failure of the code given', () => {
    expect(findingOf('name-not-echoed', ['name "a" is not the "b" sent', 'status absent is not the "sold" sent'], 'as sent', '201')).toEqual({
      outcome: 'fail',
      code: 'name-not-echoed',
      message: 'name "a" is not the "b" sent; status absent is not the "sold" sent',
      expected: 'as sent',
      actual: '201',
    });
  });

  it('checks the code as fail does', () => {
    expect(() => findingOf('limit=3 returned 4 animals', ['limit=3 returned 4 animals'], 'at most 3', '4')).toThrow('"limit=3 returned 4 animals"');
  });
});

describe('eachCase', () => {
  const judge = eachCase((n: number) => (n < 0 ? fail('negative', `${n} is negative`, '>= 0', `${n}`) : n === 0 ? skip('zero says nothing') : pass()), {
    all: (n) => pass(`${n} cases passed`),
  });

  it('passes when every case passes, describing them', () => {
    expect(judge([1, 2, 3])).toEqual({ outcome: 'pass', message: '3 cases passed' });
  });

  it('is decided by the first case that does not pass, failure or skip', () => {
    expect(judge([1, -2, 0])).toMatchObject({ outcome: 'fail', code: 'negative', message: '-2 is negative' });
    expect(judge([1, 0, -2]).outcome).toBe('skip');
  });

  it('skips with nothing to judge, never passes', () => {
    expect(judge([]).outcome).toBe('skip');
  });

  it('judges one case on its own for the suite to decide when to stop sending', () => {
    expect(judge.one(-1)).toMatchObject({ outcome: 'fail', code: 'negative' });
  });
});
