// GitHub Actions output: the job summary and the ::error annotations, from the run result alone.
import { describe, expect, it } from 'vitest';
import { MAX_ANNOTATIONS, renderAnnotations, renderJobSummary, SUMMARY_MAX_BYTES } from '../../../lib/report/github.ts';
import { check, mixedChecks, rateLimitKey, report } from './fixture.ts';

const run = { subject: 'every response of the run', clause: 'Errors', suite: 'run' };
const root = check({ id: 'errors.error-body', outcome: 'fail', ...run, message: '401 without an Error body | twice\nsecond line' });
const explained = check({ id: 'auth.missing-key', subject: 'GET /pets', outcome: 'fail', causedBy: { id: 'errors.error-body', subject: run.subject } });

describe('renderJobSummary', () => {
  it('gives the verdict, the counts by outcome and severity, and each failing check with severity, clause and a one-line reason', () => {
    const md = renderJobSummary(report([...mixedChecks(), root, explained]), 'reports/staging/ci');
    expect(md).toContain('## ❌ Not conformant: local (http://127.0.0.1:4010/v1)');
    expect(md).toContain('| Outcome | must | should | info |');
    expect(md).toMatch(/\| fail \| 3 \| 1 \| 1 \|/);
    // The finding first, then the check it broke with its title, then the severity.
    expect(md).toContain('| Finding | Check | Severity |');
    expect(md).toContain('| GET /pets: auth.invalid-key went wrong | `auth.invalid-key [GET /pets]`: Title of auth.invalid-key | must |');
    // One line, pipes escaped; the explained failure under its root.
    expect(md).toContain('| 401 without an Error body \\| twice | `errors.error-body [every response of the run]`: Title of errors.error-body | must |');
    expect(md).toContain('| ↳ explained by the failure above: GET /pets: auth.missing-key went wrong | `auth.missing-key [GET /pets]`: Title of auth.missing-key | must |');
    expect(md).toContain('`reports/staging/ci`');
    expect(md).not.toContain('second line');
  });

  it('says so when nothing failed, and shows the rate-limit figures when the suite ran', () => {
    const md = renderJobSummary(report([check({ id: 'auth.missing-key' })], { rateLimits: [rateLimitKey()] }), 'r');
    expect(md).toContain('## ✅ Conformant');
    expect(md).toContain('No `must` or `should` check failed.');
    expect(md).toContain('### Rate limits');
    expect(md).toMatch(/\| free#1 \| free \| fixed window \| \d+ \| \d+ \| \d+ \| 0 \| \d+ \|/);
  });

  it('lists expected failures (--expected-failures) apart, not in the failing table, nor counted as must failures', () => {
    const expected = check({ id: 'auth.missing-key', subject: 'GET /pets', outcome: 'fail', expectedFailure: { reason: 'TICKET-7 | later' } });
    const baseline = { file: 'known.yaml', entries: [{ id: 'auth.missing-key', reason: 'TICKET-7 | later', status: 'failed-as-expected' as const }] };
    const md = renderJobSummary(report([check({ id: 'auth.invalid-key' }), expected], { baseline }), 'r');
    expect(md).toContain('## ✅ Conformant');
    expect(md).toContain('2 checks, 0 must failed, 1 expected failure, 7 requests');
    expect(md).not.toContain('### Failing checks');
    expect(md).toContain('No `must` or `should` check failed apart from the expected failures below.');
    expect(md).toContain('### Expected failures (1, from the --expected-failures baseline; not gated on)\n\n- auth.missing-key [GET /pets]: TICKET-7 \\| later\n');
    // Beside a real failure: the table has only that one.
    const both = renderJobSummary(report([check({ id: 'auth.invalid-key', outcome: 'fail' }), expected], { baseline }), 'r');
    expect(both).toContain('1 must failed, 1 expected failure');
    expect(both).toContain('### Failing checks (1 root cause, 1 failure)');
    expect(both).not.toMatch(/\| `auth\.missing-key/);
  });

  it('stays under its size cap with thousands of failures, counting the rest', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => check({ id: `auth.case-${i}`, outcome: 'fail', message: 'x'.repeat(190) }));
    const md = renderJobSummary(report(many), 'r');
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(md).toMatch(/… and \d+ more failures: see report\.html\./);
  });
});

describe('renderAnnotations', () => {
  it('gives one ::error per root failure that fails the gate, escaped, none for what a root explains or for a should without --strict', () => {
    const lines = renderAnnotations(report([...mixedChecks(), root, explained]));
    expect(lines).toEqual([
      // The finding as the headline; the whole message, then the check it broke.
      '::error title=GET /pets%3A auth.invalid-key went wrong::auth.invalid-key went wrong%0Aauth.invalid-key [GET /pets]: Title of auth.invalid-key (must)',
      '::error title=POST /pets%3A timed out::timed out%0Alimits.headers [POST /pets]: Title of limits.headers (must)',
      '::error title=401 without an Error body | twice::401 without an Error body | twice%0Asecond line%0Aerrors.error-body [every response of the run]: Title of errors.error-body (must)',
    ]);
  });

  it('gives none for an expected failure (--expected-failures), even a must under --strict', () => {
    const expected = check({ id: 'auth.missing-key', outcome: 'fail', expectedFailure: { reason: 'TICKET-7' } });
    const strict = { ...report([]).options, strict: true };
    expect(renderAnnotations(report([expected, check({ id: 'errors.no-5xx', severity: 'should', outcome: 'fail', expectedFailure: { reason: 'r' } })], { options: strict }))).toEqual([]);
    expect(renderAnnotations(report([expected, check({ id: 'auth.invalid-key', outcome: 'fail' })]))).toEqual(['::error title=auth.invalid-key went wrong::auth.invalid-key went wrong%0Aauth.invalid-key: Title of auth.invalid-key (must)']);
  });

  it('never gives more than ten, the last naming the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => check({ id: `auth.case-${i}`, outcome: 'fail' }));
    const lines = renderAnnotations(report(many));
    expect(lines).toHaveLength(MAX_ANNOTATIONS);
    expect(lines.at(-1)?.startsWith('::error title=16 more failures::auth.case-9, auth.case-10, ')).toBe(true);
  });

  it('escapes : and , in the title', () => {
    const [line] = renderAnnotations(report([check({ id: 'auth.missing-key', subject: 'a:b,c', outcome: 'fail', message: 'GET /pets: 200, not 401' })]));
    expect(line).toBe('::error title=GET /pets%3A 200%2C not 401::GET /pets: 200, not 401%0Aauth.missing-key [a:b,c]: Title of auth.missing-key (must)');
  });
});
