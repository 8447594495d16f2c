// lib/runner/baseline.ts: the --expected-failures file checked and applied, and what the verdict
// and the writers make of it. No server, no run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFailures } from '../../../lib/checks/harness.ts';
import { ConfigError } from '../../../lib/errors.ts';
import { renderSummary, PLAIN, verdictLine } from '../../../lib/report/console.ts';
import { renderCtrf } from '../../../lib/report/ctrf.ts';
import { renderAnnotations, renderJobSummary } from '../../../lib/report/github.ts';
import { renderHtml } from '../../../lib/report/html.ts';
import { renderJunit } from '../../../lib/report/junit.ts';
import { applyBaseline, loadBaseline, parseBaseline } from '../../../lib/runner/baseline.ts';
import { verdictOf } from '../../../lib/result/verdict.ts';
import { check, report } from '../report/fixture.ts';

const IDS = ['auth.missing-key', 'auth.invalid-key', 'list-pets.limit'];

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('no ConfigError');
}

describe('parseBaseline', () => {
  it('takes a list of { id, reason, target? }', () => {
    expect(parseBaseline([{ id: 'auth.missing-key', reason: 'TICKET-1' }, { id: 'list-pets.limit', reason: 'r', target: 'staging' }], 'b.yaml', IDS)).toEqual([
      { id: 'auth.missing-key', reason: 'TICKET-1' },
      { id: 'list-pets.limit', reason: 'r', target: 'staging' },
    ]);
    expect(parseBaseline(null, 'b.yaml', IDS)).toEqual([]);
  });

  it.each([
    { title: 'an unknown id, with a suggestion', raw: [{ id: 'auth.missing-kee', reason: 'r' }], mentions: ['[0].id', 'unknown check id "auth.missing-kee"', 'auth.missing-key'] },
    { title: 'a missing reason', raw: [{ id: 'auth.missing-key' }], mentions: ['[0].reason: required: say why'] },
    { title: 'an empty reason', raw: [{ id: 'auth.missing-key', reason: '  ' }], mentions: ['[0].reason', 'say why'] },
    { title: 'an unknown field', raw: [{ id: 'auth.missing-key', reason: 'r', reasn: 'x' }], mentions: ['[0].reasn', 'unknown field'] },
    { title: 'an id listed twice', raw: [{ id: 'auth.missing-key', reason: 'r' }, { id: 'auth.missing-key', reason: 's' }], mentions: ['[1].id', 'listed twice'] },
    { title: 'a map instead of a list', raw: { id: 'auth.missing-key' }, mentions: ['a YAML list'] },
    { title: 'a check of the harness itself', raw: [{ id: 'harness.suite-error', reason: 'r' }], mentions: ['[0].id', '"harness.suite-error" judges the harness\'s own run'] },
    { title: 'the baseline check itself', raw: [{ id: 'auth.missing-key', reason: 'r' }, { id: 'harness.expected-failures', reason: 'r' }], mentions: ['[1].id', 'cannot be an expected failure'] },
    { title: 'a field of the wrong type', raw: [{ id: 'auth.missing-key', reason: 12 }], mentions: ['[0].reason'] },
    { title: 'an entry that is not a map', raw: ['auth.missing-key'], mentions: ['[0]: an entry is a map'] },
  ])('refuses $title, naming the file and the field', ({ raw, mentions }) => {
    const err = configError(() => parseBaseline(raw, 'known.yaml', [...IDS, 'harness.suite-error', 'harness.expected-failures']));
    expect(err.exitCode).toBe(2);
    for (const m of ['known.yaml', ...mentions]) expect(err.message).toContain(m);
  });
});

describe('loadBaseline', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'baseline-'));
  it('keeps the entries for this target and those for any target', () => {
    const file = path.join(dir, 'b.yaml');
    writeFileSync(file, '- { id: auth.missing-key, reason: one }\n- { id: list-pets.limit, reason: two, target: staging }\n- { id: auth.invalid-key, reason: three, target: local }\n');
    expect(loadBaseline(file, 'local', IDS).entries.map((e) => e.id)).toEqual(['auth.missing-key', 'auth.invalid-key']);
  });

  it('names a missing file and a YAML error with its line', () => {
    expect(configError(() => loadBaseline(path.join(dir, 'none.yaml'), 'local', IDS)).message).toContain('no such file');
    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, '- { id: auth.missing-key, reason: one\n');
    expect(configError(() => loadBaseline(bad, 'local', IDS)).message).toMatch(/bad\.yaml: line \d+/);
  });
});

describe('applyBaseline', () => {
  const checks = [
    check({ id: 'auth.missing-key', outcome: 'fail', subject: 'GET /pets' }),
    check({ id: 'auth.missing-key', outcome: 'pass', subject: 'POST /pets' }),
    check({ id: 'auth.invalid-key', outcome: 'pass' }),
    check({ id: 'list-pets.limit', outcome: 'skip' }),
  ];
  const baseline = { file: 'b.yaml', entries: IDS.map((id) => ({ id, reason: `because ${id}` })) };

  it('marks listed failures expected, finds stale and not-run entries', () => {
    const { checks: marked, report: r } = applyBaseline(checks, baseline);
    expect(marked.map((c) => c.expectedFailure?.reason)).toEqual(['because auth.missing-key', undefined, undefined, undefined]);
    expect(r.entries.map((e) => [e.id, e.status])).toEqual([
      ['auth.missing-key', 'failed-as-expected'],
      ['auth.invalid-key', 'stale'],
      ['list-pets.limit', 'not-run'],
    ]);
  });

  it('takes the reason of an entry naming this target over one for every target', () => {
    const both = { file: 'b.yaml', entries: [{ id: 'auth.missing-key', reason: 'local only', target: 'local' }, { id: 'auth.missing-key', reason: 'everywhere' }] };
    expect(applyBaseline(checks, both).checks[0]!.expectedFailure).toEqual({ reason: 'local only' });
  });

  it('an entry whose check passed on one subject and errored on another is not judged stale', () => {
    const { report: r } = applyBaseline([check({ id: 'auth.invalid-key', outcome: 'pass', subject: 'a' }), check({ id: 'auth.invalid-key', outcome: 'error', subject: 'b' })], baseline);
    expect(r.entries[1]!.status).toBe('not-run');
  });

  it('does not excuse an error: the check could not be carried out', () => {
    const { checks: marked, report: r } = applyBaseline([check({ id: 'auth.invalid-key', outcome: 'error' })], baseline);
    expect(marked[0]!.expectedFailure).toBeUndefined();
    expect(verdictOf(marked, false)).toBe('fail');
    expect(r.entries[1]!.status).toBe('not-run');
  });

  it('an expected failure does not block the verdict; a stale entry fails the run through harness.expected-failures', () => {
    const { checks: marked, report: r } = applyBaseline(checks, baseline);
    expect(verdictOf(marked, true)).toBe('pass');
    const finding = expectedFailures.judge(r.entries);
    expect(finding).toMatchObject({ outcome: 'fail', message: 'stale entry: auth.invalid-key passes now, remove it' });
    expect(expectedFailures.judge(r.entries.filter((e) => e.status !== 'stale'))).toMatchObject({ outcome: 'pass', message: expect.stringContaining('1 listed failure failed as expected; not run, skipped or errored, so not judged: list-pets.limit') });
  });
});

describe('the writers show expected failures apart', () => {
  const { checks: marked, report: b } = applyBaseline([check({ id: 'auth.missing-key', outcome: 'fail', message: 'no Error body' }), check({ id: 'auth.invalid-key', outcome: 'pass' })], {
    file: 'known.yaml',
    entries: [{ id: 'auth.missing-key', reason: 'TICKET-7' }],
  });
  const r = report(marked, { baseline: b });

  it('console: under "Expected failures", not under Failures; CONFORMANT', () => {
    const text = renderSummary(r, [], PLAIN);
    expect(text).not.toContain('Failures');
    expect(text).toContain('Expected failures (--expected-failures known.yaml; not gated on)');
    expect(text).toContain('auth.missing-key: TICKET-7');
    expect(text).toContain('CONFORMANT');
    expect(verdictLine(r, PLAIN)).toMatch(/^CONFORMANT local: 2 checks, 0 must failed, 1 expected failure, 7 requests/);
  });

  it('JUnit: skipped with the reason; CTRF: other with the reason; no ::error annotation', () => {
    const junit = renderJunit(r);
    expect(junit).toContain('failures="0"');
    expect(junit).toMatch(/<skipped message="expected failure: TICKET-7">no Error body\n/);
    const ctrf = JSON.parse(renderCtrf(r)) as { results: { summary: { failed: number }; tests: { status: string; extra?: { expectedFailure?: string } }[] } };
    expect(ctrf.results.summary.failed).toBe(0);
    expect(ctrf.results.tests[0]).toMatchObject({ status: 'other', extra: { expectedFailure: 'TICKET-7' } });
    expect(renderAnnotations(r)).toEqual([]);
  });

  it('job summary and HTML: an expected section, no failing table', () => {
    const summary = renderJobSummary(r, 'reports/x');
    expect(summary).toContain('### Expected failures (1, from the --expected-failures baseline; not gated on)');
    expect(summary).not.toContain('### Failing checks');
    const page = renderHtml(r);
    expect(page).toMatch(/<section id="expected" data-expected="1"/);
    expect(page).toContain('Expected: TICKET-7');
    expect(page).toMatch(/<section id="failures" data-failures="0"/);
  });
});
