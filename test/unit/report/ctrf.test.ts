// ctrf.json: the run in the Common Test Report Format, validated by the `ctrf` package (the
// format's reference implementation), one test per check with the gate's meaning kept.
import { validate } from 'ctrf';
import { describe, expect, it } from 'vitest';
import { ctrfStatus, renderCtrf } from '../../../lib/report/ctrf.ts';
import { check, mixedChecks, report } from './fixture.ts';

const root = check({ id: 'errors.error-body', outcome: 'fail', subject: 'every response of the run', clause: 'Errors', suite: 'run' });
const explained = check({ id: 'auth.missing-key', subject: 'GET /pets', outcome: 'fail', causedBy: { id: 'errors.error-body', subject: 'every response of the run' } });

describe('renderCtrf', () => {
  it('writes a report the ctrf validator accepts, with or without failures', () => {
    for (const r of [report(mixedChecks()), report([check({ id: 'auth.missing-key' })]), report([]), report([root, explained], { options: { ...report([]).options, strict: true } })]) {
      const result = validate(JSON.parse(renderCtrf(r)));
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });

  it('has one test per check, named as in JUnit, with summary counts that add up', () => {
    const r = report(mixedChecks());
    const ctrf = JSON.parse(renderCtrf(r));
    expect(ctrf.reportFormat).toBe('CTRF');
    expect(ctrf.results.tool).toEqual({ name: r.tool.name, version: r.tool.version });
    expect(ctrf.results.tests.map((t: { name: string }) => t.name)).toEqual(['auth.missing-key [GET /pets]', 'auth.invalid-key [GET /pets]', 'errors.no-5xx', 'limits.headers [POST /pets]', 'limits.retry-after', 'info.default-status', 'info.limit-zero', 'info.orders']);
    const s = ctrf.results.summary;
    expect(s.passed + s.failed + s.skipped + s.pending + s.other).toBe(s.tests);
    expect({ start: s.start, stop: s.stop }).toEqual({ start: Date.parse(r.startedAt), stop: Date.parse(r.finishedAt) });
  });

  it('keeps the gate: failed only when the check fails the run; other failures are "other" with their outcome', () => {
    const statuses = JSON.parse(renderCtrf(report(mixedChecks()))).results.tests.map((t: { status: string; rawStatus: string }) => `${t.status}/${t.rawStatus}`);
    // must fail, should fail (not strict), must error, skip, info pass, info fail, info error.
    expect(statuses).toEqual(['passed/pass', 'failed/fail', 'other/fail', 'failed/error', 'skipped/skip', 'passed/pass', 'other/fail', 'other/error']);
    expect(ctrfStatus({ severity: 'should', outcome: 'fail' }, true)).toBe('failed');
  });

  it('carries the id, severity, clause and subject as labels, the evidence as trace, and the root cause', () => {
    const [, test] = JSON.parse(renderCtrf(report([root, explained]))).results.tests;
    expect(test.labels).toEqual({ id: 'auth.missing-key', severity: 'must', clause: 'Authentication', suite: 'auth', subject: 'GET /pets' });
    expect(test.extra).toEqual({ causedBy: 'errors.error-body [every response of the run]' });
    expect(test.trace).toContain('Reproduce:');
    expect(test.message).toBe('auth.missing-key went wrong');
  });

  it('an expected failure (--expected-failures) is "other", never "failed", with its reason in extra; the validator accepts it', () => {
    const expected = check({ id: 'auth.invalid-key', outcome: 'fail', expectedFailure: { reason: 'TICKET-7' } });
    for (const strict of [false, true]) {
      const r = report([check({ id: 'auth.missing-key' }), expected, { ...explained, expectedFailure: { reason: 'TICKET-8' } }], { options: { ...report([]).options, strict } });
      const ctrf = JSON.parse(renderCtrf(r));
      const result = validate(ctrf);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(ctrf.results.summary).toMatchObject({ tests: 3, passed: 1, failed: 0, other: 2 });
      expect(ctrf.results.tests[1]).toMatchObject({ status: 'other', rawStatus: 'fail', extra: { expectedFailure: 'TICKET-7' } });
      expect(ctrf.results.tests[2].extra).toEqual({ causedBy: 'errors.error-body [every response of the run]', expectedFailure: 'TICKET-8' });
      expect(ctrf.results.environment.extra.verdict).toBe('pass');
    }
  });
});
