import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../../lib/report/html.ts';
import { check, evidence, mixedChecks, rateLimitKey, report } from './fixture.ts';

const count = (haystack: string, needle: RegExp) => (haystack.match(needle) ?? []).length;

const loadOptions = (suites: string[] = []) => ({ suites, runs: 100, strict: false, allowWrites: false, allowLoad: true, soak: false, maxRequests: 5000 });

describe('renderHtml rate limits', () => {
  it('has one timeline per key, the load chart and the load figures', () => {
    const keys = [rateLimitKey(), rateLimitKey({ label: 'free#2' }), rateLimitKey({ label: 'pro#1', plan: 'pro', load: undefined })];
    const doc = renderHtml(report(mixedChecks(), { options: loadOptions(), rateLimits: keys }));
    expect(doc).toContain('<section id="rate-limits" data-rate-limits="3"');
    expect(count(doc, /data-chart="timeline"/g)).toBe(3);
    for (const k of keys) expect(doc).toContain(`<figure class="chart timeline" data-rate-limit-key="${k.label}">`);
    expect(count(doc, /data-chart="load"/g)).toBe(1);
    expect(doc).toContain('data-chart="load" data-keys="2"');
    expect(doc).toContain('<tr data-load-key="free#2"><th scope="row">free#2</th><td class="num">59</td>');
    expect(doc).toContain('<tr data-load-key="pro#1"><th scope="row">pro#1</th><td colspan="13" class="muted">not driven under load</td></tr>');
    // Per burst: what reached the server after its first 429, or that no 429 came.
    expect(doc).toContain('Sent after first 429</th>');
    expect(count(doc, /<td class="num" data-sent-after-first-429="0">0<\/td>/g)).toBe(2);
    const no429 = renderHtml(report(mixedChecks(), { options: loadOptions(), rateLimits: [rateLimitKey({ load: { ...rateLimitKey().load!, sentAfterFirst429: undefined } })] }));
    expect(no429).toContain('<td class="num muted" data-sent-after-first-429="">no 429</td>');
    // The daily quota's bursts: the most any let through after its 429, and how many there were.
    const day = renderHtml(report(mixedChecks(), { options: loadOptions(), rateLimits: [rateLimitKey({ dayBursts: [{ sent: 40, accepted: 38, sentAfterFirst429: 1 }, { sent: 41, accepted: 40, sentAfterFirst429: 2 }, { sent: 3, accepted: 3 }] })] }));
    expect(day).toContain('<span class="muted" data-day-bursts="2" data-day-most="2">day: at most 2 in 2 bursts</span></td>');
    expect(doc).not.toContain('data-no-rate-limits');
    expect(doc.indexOf('id="rate-limits"')).toBeGreaterThan(doc.indexOf('id="checks"'));
  });

  it('says why there are no charts when the rate-limit suite did not run', () => {
    const noLoad = renderHtml(report(mixedChecks()));
    expect(noLoad).toContain('<section id="rate-limits" data-rate-limits="0"');
    expect(noLoad).toContain('<p class="muted" data-no-rate-limits>The rate-limit suite did not run: load was not allowed');
    expect(noLoad).not.toContain('<svg');
    const notSelected = renderHtml(report(mixedChecks(), { options: loadOptions(['auth']), rateLimits: [] }));
    expect(notSelected).toContain('The rate-limit suite did not run: it was not selected');
    expect(notSelected).not.toContain('data-chart=');
  });

  it('stays small with 5 keys of 1,000 points, and loads nothing from the network', () => {
    const keys = Array.from({ length: 5 }, (_, i) => rateLimitKey({ label: `free#${i + 1}` }, { accepted: 990, rejected: 10, limit: 1000, stepMs: 7 }));
    const doc = renderHtml(report(mixedChecks(), { options: loadOptions(), rateLimits: keys }));
    expect(count(doc, /data-chart="timeline"/g)).toBe(5);
    expect(Buffer.byteLength(doc, 'utf8')).toBeLessThan(600 * 1024);
    expect(doc).not.toMatch(/NaN|Infinity/);
    expect(doc).not.toMatch(/\b(?:src|href|action|srcset|poster|data|xmlns)\s*=\s*["']?\s*(?:[a-z]+:)?\/\//i);
    expect(doc).not.toMatch(/\sstyle=/i);
    expect(count(doc, /<svg/g)).toBe(count(doc, /<\/svg>/g));
  });

  it('escapes key labels everywhere they appear', () => {
    const evil = '<script>alert(1)</script>';
    const doc = renderHtml(report([check({ id: 'a' })], { options: loadOptions(), rateLimits: [rateLimitKey({ label: evil, plan: evil, behaviour: evil })] }));
    expect(count(doc, /<script/gi)).toBe(1);
    expect(doc).toContain('data-load-key="&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('shows filters (revealed by the script) and property-check replay details', () => {
    const failing = check({ id: 'pets.roundtrip', outcome: 'fail', evidence: evidence({ counterexample: '{"name":""}', seed: 1234, path: '3:1:0' }) });
    const doc = renderHtml(report([failing, check({ id: 'a' })]));
    expect(doc).toContain('<div id="filters" role="group" hidden data-enhance');
    expect(doc).toContain('<input type="checkbox" value="outcome:fail" checked>');
    expect(doc).toContain('<input type="checkbox" value="severity:should" checked>');
    expect(doc).toContain('<output id="filter-count"');
    expect(doc).toContain('<dt>Seed</dt><dd><code>1234</code></dd>');
    expect(doc).toContain('<dt>Path</dt><dd><code>3:1:0</code></dd>');
    expect(doc).toContain('<pre>{&quot;name&quot;:&quot;&quot;}</pre>');
    expect(doc).toContain('<details class="failure filterable" id="check-1" data-failure-id="pets.roundtrip" data-outcome="fail" data-severity="must">');
  });
});
