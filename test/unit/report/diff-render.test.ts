// The diff's renderings: console text, Markdown (a pull-request comment or the job summary) and a
// self-contained HTML page. Each starts with the verdict line; each lists a root with what it
// explains; text from the reports is escaped.
import { describe, expect, it } from 'vitest';
import { COLOUR, PLAIN } from '../../../lib/report/console.ts';
import { renderDiffText } from '../../../lib/report/diff-console.ts';
import { renderDiffHtml } from '../../../lib/report/diff-html.ts';
import { renderDiffMarkdown } from '../../../lib/report/diff-markdown.ts';
import { diffReports } from '../../../lib/report/diff-model.ts';
import type { CheckResult } from '../../../lib/result/model.ts';
import { check, rateLimitKey, report } from './fixture.ts';

const ROOT = { id: 'auth.missing-key', subject: 'listPets GET /pets' };
const explained = (n: number) => Array.from({ length: n }, (_, i) => check({ id: 'auth.invalid-key', subject: `op${i}`, outcome: 'fail', causedBy: ROOT }));
const passing = (checks: CheckResult[]) => checks.map((c) => ({ ...c, outcome: 'pass' as const, evidence: null, message: 'ok' }));

function sample() {
  const headChecks = [
    check({ ...ROOT, outcome: 'fail', code: 'not-401', message: 'got 403 | <b>not</b> 401\nsecond line' }),
    ...explained(7),
    check({ id: 'errors.error-body', subject: 'every response of the run', severity: 'should', outcome: 'pass' }),
    check({ id: 'list-pets.limit', outcome: 'skip', message: 'needs a preloaded store' }),
  ];
  const baseChecks = [...passing(headChecks.slice(0, 8)), check({ id: 'errors.error-body', subject: 'every response of the run', severity: 'should', outcome: 'fail', message: 'plain text body' }), check({ id: 'list-pets.limit' })];
  const base = report(baseChecks, { rateLimits: [rateLimitKey({}, { accepted: 60 })] });
  const head = report(headChecks, { rateLimits: [rateLimitKey({ behaviour: 'refilling (sliding window or token bucket)' }, { accepted: 60 })] });
  return diffReports(base, head);
}

describe('console text', () => {
  it('starts with the verdict line, lists the root with what it explains, then the other changes', () => {
    const text = renderDiffText(sample(), PLAIN);
    const lines = text.split('\n');
    expect(lines[0]).toBe('1 new failure (+7 it explains), 1 fixed, 0 still failing');
    expect(lines[1]).toMatch(/^BASE local \(http:\/\/127\.0\.0\.1:4010\/v1\), .*seed 42: conformant/);
    expect(text).toContain('New failures (1 root cause, 8 checks)\n  ✗ must   fail  auth.missing-key [listPets GET /pets] (was pass)\n      got 403 | <b>not</b> 401\n      explains 7 more: auth.invalid-key [op0], auth.invalid-key [op1], auth.invalid-key [op2], auth.invalid-key [op3] (+3 more)');
    expect(text).toContain('Fixed (1)\n  ✓ should fail  errors.error-body [every response of the run] (now pass)\n      plain text body');
    expect(text).toContain('Newly skipped (1)\n  – list-pets.limit (was pass): needs a preloaded store');
    expect(text).toContain('Rate limits (1 of 1 keys changed)\n  ~ free#1: limiter changed\n      limiter: fixed window → refilling (sliding window or token bucket)');
    expect(text).not.toContain('\x1b[');
    expect(renderDiffText(sample(), COLOUR)).toContain('\x1b[31m');
  });

  it('says so when nothing changed', () => {
    const same = report([check({ id: 'x' })]);
    expect(renderDiffText(diffReports(same, same), PLAIN)).toContain('No check changed its outcome, severity or presence.');
  });
});

describe('Markdown', () => {
  it('the verdict line first, a table of new failures with the explained ones under their root (cut after five), cells escaped', () => {
    const md = renderDiffMarkdown(sample());
    expect(md.split('\n')[0]).toBe('## ❌ 1 new failure (+7 it explains), 1 fixed, 0 still failing');
    expect(md).toContain('### New failures (1 root cause, 8 checks)\n\n| Check | Severity | BASE | HEAD | Finding |\n|---|---|---|---|---|\n| `auth.missing-key [listPets GET /pets]` | must | pass | fail (not-401) | got 403 \\| &lt;b&gt;not&lt;/b&gt; 401 |');
    expect(md.match(/^\| ↳ `auth\.invalid-key/gm)).toHaveLength(5);
    expect(md).toContain('| ↳ … | | | | and 2 more explained by `auth.missing-key [listPets GET /pets]` |');
    expect(md).toContain('### Fixed (1)');
    expect(md).toContain('| `free#1` | limiter | fixed window | refilling (sliding window or token bucket) |');
    expect(md).not.toContain('second line');
  });

  it('a finding cannot add a link, an image or markup to a comment, nor end its cell', () => {
    const head = report([check({ id: 'x', subject: 'a|b', outcome: 'fail', message: 'body [click](http://x.test) ![i](http://y.test) <img src=x> a|b \\ end' })]);
    const md = renderDiffMarkdown(diffReports(report([check({ id: 'x', subject: 'a|b' })]), head));
    expect(md).toContain('| `x [a\\|b]` | must | pass | fail | body \\[click\\](http://x.test) !\\[i\\](http://y.test) &lt;img src=x&gt; a\\|b \\\\ end |');
    expect(md).not.toMatch(/[^\\]\]\(http/);
  });

  it('⚠️ when the new failures do not block, ✅ when there is none', () => {
    const should = diffReports(report([check({ id: 'x', severity: 'should' })]), report([check({ id: 'x', severity: 'should', outcome: 'fail' })]));
    expect(renderDiffMarkdown(should).split('\n')[0]).toBe('## ⚠️ 1 new failure, 0 fixed, 0 still failing');
    const same = report([check({ id: 'x' })]);
    expect(renderDiffMarkdown(diffReports(same, same)).split('\n')[0]).toBe('## ✅ 0 new failures, 0 fixed, 0 still failing');
  });
});

describe('HTML', () => {
  it('one self-contained page: the verdict, each change with its check id, nothing loaded or run, text escaped', () => {
    const doc = renderDiffHtml(sample(), { head: '../head/report.html' });
    expect(doc).toMatch(/^<!DOCTYPE html>/);
    expect(doc).toContain('<main data-new-failures="1" data-fixed="1" data-still-failing="0" data-blocking="true">');
    expect(doc).toContain('<h1 class="verdict-fail" data-verdict-line>1 new failure (+7 it explains), 1 fixed, 0 still failing</h1>');
    expect(doc).toContain('data-change="new" data-check-id="auth.missing-key" data-subject="listPets GET /pets"');
    expect(doc.match(/data-change="new" data-check-id="auth\.invalid-key"/g)).toHaveLength(7);
    expect(doc).toContain('data-change="fixed" data-check-id="errors.error-body"');
    expect(doc).toContain('got 403 | &lt;b&gt;not&lt;/b&gt; 401');
    expect(doc).not.toContain('<b>not</b>');
    expect(doc).toContain('<a href="../head/report.html">report.html</a>');
    expect(doc).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[^&]+&#39;; script-src &#39;none&#39;;/);
    expect(doc).not.toMatch(/<script|<link|<img|src="http|url\(/);
    expect(doc).toContain('<tr class="changed" data-key="free#1" data-fact="limiter" data-changed="true">');
  });
});
