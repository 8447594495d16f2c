import { describe, expect, it } from 'vitest';
import type { CheckResult, Outcome, Severity } from '../../../lib/result/model.ts';
import { blocksVerdict, countOutcomes, summarise, verdictOf } from '../../../lib/result/verdict.ts';

let n = 0;
function check(severity: Severity, outcome: Outcome): CheckResult {
  n += 1;
  return { id: `unit.check-${n}`, clause: 'Authentication', title: `check ${n}`, severity, outcome, message: outcome, suite: 'unit', durationMs: 1, evidence: null };
}

describe('blocksVerdict', () => {
  it.each([
    ['must', 'fail', false, true],
    ['must', 'error', false, true],
    ['must', 'pass', false, false],
    ['must', 'skip', false, false],
    ['must', 'skip', true, false],
    ['should', 'fail', false, false],
    ['should', 'error', false, false],
    ['should', 'fail', true, true],
    ['should', 'error', true, true],
    ['should', 'pass', true, false],
    ['info', 'fail', false, false],
    ['info', 'fail', true, false],
    ['info', 'error', true, false],
  ] as const)('a %s check with outcome %s (strict %s) blocks: %s', (severity, outcome, strict, blocks) => {
    expect(blocksVerdict({ severity, outcome }, strict)).toBe(blocks);
  });
});

describe('verdictOf', () => {
  it('passes with no checks', () => {
    expect(verdictOf([], false)).toBe('pass');
  });

  it('fails when a must check failed among passes', () => {
    expect(verdictOf([check('must', 'pass'), check('must', 'fail'), check('should', 'pass')], false)).toBe('fail');
  });

  it('fails when a must check could not run (error)', () => {
    expect(verdictOf([check('must', 'pass'), check('must', 'error')], false)).toBe('fail');
  });

  it('passes a failed should check unless strict', () => {
    const checks = [check('must', 'pass'), check('should', 'fail')];
    expect(verdictOf(checks, false)).toBe('pass');
    expect(verdictOf(checks, true)).toBe('fail');
  });

  it('never fails on info checks, strict or not', () => {
    const checks = [check('info', 'fail'), check('info', 'error'), check('must', 'skip')];
    expect(verdictOf(checks, false)).toBe('pass');
    expect(verdictOf(checks, true)).toBe('pass');
  });
});

describe('countOutcomes and summarise', () => {
  it('counts every outcome, zero included', () => {
    expect(countOutcomes([{ outcome: 'pass' }, { outcome: 'pass' }, { outcome: 'error' }])).toEqual({ pass: 2, fail: 0, skip: 0, error: 1 });
  });

  it('counts by outcome and by severity', () => {
    const checks = [
      check('must', 'pass'),
      check('must', 'pass'),
      check('must', 'fail'),
      check('should', 'fail'),
      check('should', 'skip'),
      check('info', 'error'),
      check('info', 'pass'),
    ];
    expect(summarise(checks)).toEqual({
      checks: 7,
      byOutcome: { pass: 3, fail: 2, skip: 1, error: 1 },
      bySeverity: {
        must: { pass: 2, fail: 1, skip: 0, error: 0 },
        should: { pass: 0, fail: 1, skip: 1, error: 0 },
        info: { pass: 1, fail: 0, skip: 0, error: 1 },
      },
    });
  });
});
