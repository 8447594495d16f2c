// The harness's politeness in the reports: a table per key in report.html, the unexplained in
// red; one line in the console and the job summary only when something is unexplained.
import { describe, expect, it } from 'vitest';
import { PLAIN, renderSummary } from '../../../lib/report/console.ts';
import { renderJobSummary } from '../../../lib/report/github.ts';
import { renderHtml } from '../../../lib/report/html.ts';
import type { KeyPoliteness } from '../../../lib/result/politeness.ts';
import { check, report } from './fixture.ts';

const polite = (over: Partial<KeyPoliteness> = {}): KeyPoliteness => ({
  label: 'free#1',
  refusals: 4,
  periods: 2,
  withoutPeriod: 0,
  inside: { inFlight: 3, onPurpose: 1, unexplained: 0 },
  worstPeriod: { seq: 120, from: '2030-01-01T00:00:01.000Z', until: '2030-01-01T00:00:05.000Z', requests: 3 },
  examples: [125, 121, 122, 123],
  ...over,
});
/** A key whose 429s named no later moment: no period. */
const { worstPeriod: _none, ...noPeriod } = polite({ label: 'daily#1', segment: 2, periods: 0, withoutPeriod: 1, refusals: 1, inside: { inFlight: 0, onPurpose: 0, unexplained: 0 }, examples: [] });
const lapsed = polite({ label: 'pro#1', refusals: 1, periods: 1, inside: { inFlight: 0, onPurpose: 0, unexplained: 2 }, worstPeriod: { seq: 300, from: '2030-01-01T00:00:01.000Z', until: '2030-01-01T00:00:05.000Z', requests: 2 }, examples: [301, 302] });

describe("the harness's politeness in the reports", () => {
  it('report.html: one row per key with its figures, what each reason means, and the unexplained in red', () => {
    const doc = renderHtml(report([check({ id: 'a' })], { politeness: [polite(), lapsed, noPeriod] }));
    expect(doc).toContain('<section id="politeness" data-politeness="3"');
    expect(doc).toContain("<h2 id=\"politeness-h\">The harness's politeness</h2>");
    expect(doc).toMatch(/<strong>In flight<\/strong>: on the wire when the 429 came back/);
    expect(doc).toMatch(/<strong>On purpose<\/strong>: sent early on purpose/);
    expect(doc).toMatch(/<strong>Unexplained<\/strong>: sent for no reason the harness has: a bug of the harness, to be 0/);
    expect(doc).toContain(
      '<tr data-politeness-key="free#1" data-unexplained="0"><th scope="row">free#1</th><td class="num">4</td><td class="num">2</td><td class="num">0</td><td class="num">3</td><td class="num">1</td><td class="num">0</td><td class="num">3<br><span class="muted">after the 429 of seq 120</span></td><td>125, 121, 122, 123</td></tr>',
    );
    expect(doc).toContain('<tr data-politeness-key="pro#1" data-unexplained="2">');
    expect(doc).toContain('<td class="num bad"><strong>2 ✗</strong></td>');
    expect(doc).toContain('<th scope="row">daily#1 <span class="muted">(segment 2)</span></th>');
    expect(doc).toContain('<span class="muted">no period</span>');
    expect(doc.indexOf('id="politeness"')).toBeGreaterThan(doc.indexOf('id="rate-limits"'));
    // More inside than the examples: counted.
    expect(renderHtml(report([], { politeness: [polite({ inside: { inFlight: 12, onPurpose: 0, unexplained: 0 }, examples: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] })] }))).toContain('1, 2, 3, 4, 5, 6, 7, 8, 9, 10 <span class="muted">(2 more)</span>');
  });

  it('report.html says when no key got a 429', () => {
    const doc = renderHtml(report([check({ id: 'a' })]));
    expect(doc).toContain('<section id="politeness" data-politeness="0"');
    expect(doc).toContain('No key got a 429 in this run');
  });

  it('the console and the job summary: one line when the harness sent requests it cannot explain, nothing otherwise', () => {
    const line = 'The harness sent 2 requests inside a key\'s 429 period for no reason it has (pro#1: 2): a bug of the harness, not of the server; see "The harness\'s politeness" in report.html';
    const bad = report([check({ id: 'a' })], { politeness: [polite(), lapsed] });
    expect(renderSummary(bad, ['report.json'], PLAIN)).toContain(`\n${line}\n`);
    expect(renderJobSummary(bad, 'r')).toContain(`⚠️ ${line}\n`);
    const good = report([check({ id: 'a' })], { politeness: [polite()] });
    expect(renderSummary(good, ['report.json'], PLAIN)).not.toContain('harness sent');
    expect(renderJobSummary(good, 'r')).not.toContain('harness sent');
  });
});
