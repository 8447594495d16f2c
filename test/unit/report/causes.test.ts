// One cause, one root, in every report: the console, report.html and junit.xml show a failure that
// another explains under that root, and still count it.
import { describe, expect, it } from 'vitest';
import { PLAIN, renderSummary } from '../../../lib/report/console.ts';
import { renderHtml } from '../../../lib/report/html.ts';
import { renderJunit } from '../../../lib/report/junit.ts';
import { check, report } from './fixture.ts';

const run = { subject: 'every response of the run', clause: 'Errors', suite: 'run' };
const root = check({ id: 'errors.error-body', outcome: 'fail', ...run, message: '401 without an Error body' });
const under = ['listPets GET /pets', 'createPet POST /pets', 'getPet GET /pets/{petId}'].map((subject) =>
  check({ id: 'auth.missing-key', subject, outcome: 'fail', causedBy: { id: 'errors.error-body', subject: run.subject } }),
);
const own = check({ id: 'auth.empty-token', subject: 'listPets GET /pets', outcome: 'fail', message: 'empty token accepted' });
const grouped = report([...under, root, own]);

describe('root causes in the reports', () => {
  it('console: one entry per root, naming what it explains; the counts keep every failure', () => {
    const text = renderSummary(grouped, ['report.json'], PLAIN);
    expect(text).toContain('Failures (2 root causes, 5 failures)');
    // The finding first, the check it broke second.
    expect(text).toContain('✗ must   fail  401 without an Error body\n      errors.error-body [every response of the run]: Title of errors.error-body');
    expect(text).toContain('explains 3 more failures: auth.missing-key [listPets GET /pets], auth.missing-key [createPet POST /pets], auth.missing-key [getPet GET /pets/{petId}]');
    expect(text).toContain('✗ must   fail  listPets GET /pets: empty token accepted\n      auth.empty-token [listPets GET /pets]: Title of auth.empty-token');
    expect(text).not.toContain('\n      auth.missing-key');
    expect(text).toContain('must       0 pass    5 fail');
  });

  it('html: the root first, the failures it explains after it, linked both ways', () => {
    const doc = renderHtml(grouped);
    expect(doc).toContain('<section id="failures" data-failures="5" data-root-causes="2"');
    expect(doc).toContain('Failures (5: 2 root causes)');
    const rootAt = doc.indexOf('data-failure-id="errors.error-body"');
    const explained = [...doc.matchAll(/<details class="failure filterable explained" id="(check-\d)" data-failure-id="auth.missing-key"/g)];
    expect(explained).toHaveLength(3);
    for (const m of explained) expect(m.index!).toBeGreaterThan(rootAt);
    expect(doc).toContain('<p class="note" data-explains="3">Explains 3 more failures below: <a href="#check-1">');
    expect(doc).toContain('<p class="note" data-explained-by="errors.error-body">Explained by <a href="#check-4"><code>errors.error-body [every response of the run]</code></a>');
  });

  it('junit: every failure stays a failure; an explained one says by what, the root lists what it explains', () => {
    const xml = renderJunit(grouped);
    expect(xml.match(/<failure /g)).toHaveLength(5);
    expect(xml).toContain('message="[explained by errors.error-body [every response of the run]] auth.missing-key went wrong"');
    expect(xml).toContain('Explains 3 more failures: auth.missing-key [listPets GET /pets], auth.missing-key [createPet POST /pets], auth.missing-key [getPet GET /pets/{petId}]');
    expect(xml).toContain('message="empty token accepted"');
  });

  it('without causes, nothing changes: no root-cause wording anywhere', () => {
    const plain = report([own]);
    expect(renderSummary(plain, [], PLAIN)).toMatch(/\nFailures\n/);
    expect(renderHtml(plain)).toContain('Failures (1)</h2>');
    expect(renderJunit(plain)).not.toContain('xplain');
  });
});
