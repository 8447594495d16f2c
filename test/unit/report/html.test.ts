import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../../lib/report/html.ts';
import { check, evidence, exchange, mixedChecks, report } from './fixture.ts';

const HOSTILE = '</script><script>alert(1)</script><img src=x onerror="alert(2)">';

function count(haystack: string, needle: string | RegExp): number {
  return typeof needle === 'string' ? haystack.split(needle).length - 1 : (haystack.match(needle) ?? []).length;
}

describe('load segments in the header', () => {
  it('a segment says it holds its share only, and a merged report names its segments', () => {
    const startAt = '2026-11-24T18:30:00.000Z';
    const segment = renderHtml(report([check({ id: 'auth.missing-key' })], { segment: { index: 2, count: 4, startAt } }));
    expect(segment).toContain('<dd data-segment="2/4">2 of 4, load from <time datetime="2026-11-24T18:30:00.000Z">');
    expect(segment).toContain('the rate-limit checks are judged when the segments are merged');
    const segments = [1, 2].map((index) => ({ index, dir: `seg-${index}`, startedAt: startAt, finishedAt: startAt, requests: 100 * index, verdict: 'pass' as const }));
    const merged = renderHtml(report([check({ id: 'auth.missing-key' })], { merged: { startAt, segments } }));
    expect(merged).toMatch(/<dd data-merged="2">2 load segments from <time[^>]*>[^<]*<\/time> \(1: 100 requests, 2: 200 requests\), judged as one run<\/dd>/);
    expect(renderHtml(report([check({ id: 'auth.missing-key' })]))).not.toContain('data-merged');
  });
});

describe('renderHtml', () => {
  it('states the verdict, facts and counts', () => {
    const r = report(mixedChecks());
    const doc = renderHtml(r);
    expect(doc.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(doc).toContain('<main data-verdict="fail" data-failures="3" data-requests="7" data-checks="8">');
    expect(doc).toMatch(/<h1[^>]*>Not conformant<\/h1>/);
    expect(doc).toContain('http://127.0.0.1:4010/v1');
    expect(doc).toContain('2030-01-01T00:00:00.000Z');
    expect(doc).toContain('3.50 s');
    expect(doc).toContain('<code data-seed="42">42</code>');
    expect(doc).toContain('<dd data-requests="7">7 (');
    expect(doc).toContain('<span data-status="401">401: 2</span>');
    for (const severity of ['must', 'should', 'info'] as const) {
      for (const outcome of ['pass', 'fail', 'skip', 'error'] as const) {
        const n = r.summary.bySeverity[severity][outcome];
        expect(doc).toContain(`data-count="${severity}.${outcome}">${n}</td>`);
      }
    }
    expect(doc).toContain(`data-count="all.total">${r.checks.length}</td>`);
  });

  it('says Conformant when no blocking check failed', () => {
    const doc = renderHtml(report([check({ id: 'a' }), check({ id: 'b', severity: 'info', outcome: 'fail' })]));
    expect(doc).toContain('<main data-verdict="pass" data-failures="0" data-requests="7" data-checks="2">');
    expect(doc).toMatch(/<h1[^>]*>Conformant<\/h1>/);
  });

  it('lists failures first, must before should, each with its evidence', () => {
    const doc = renderHtml(report(mixedChecks()));
    const ids = [...doc.matchAll(/data-failure-id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['auth.invalid-key', 'limits.headers', 'errors.no-5xx']);
    expect(doc.indexOf('id="failures"')).toBeLessThan(doc.indexOf('id="checks"'));
    expect(doc).toContain('<h4>Expected</h4><pre>status 401</pre>');
    expect(doc).toContain(
      '<pre id="check-2-repro" class="repro">curl -sS -i &quot;http://127.0.0.1:4010/v1/pets&quot; -H &quot;Authorization: Bearer $ANIMAL_STORE_KEY&quot;</pre>',
    );
    expect(doc).toContain('data-copy="check-2-repro"');
  });

  it("leads each failure's line with the finding (what the server did), the check and its title second, the message not said twice", () => {
    const one = check({ id: 'auth.missing-key', subject: 'listPets GET /pets', outcome: 'fail', message: '`Bearer __proto__` got 500 on listPets' });
    const two = check({ id: 'errors.error-body', outcome: 'fail', message: '401 without an Error body\nsecond line' });
    const doc = renderHtml(report([one, two]));
    expect(doc).toContain('<span class="finding">`Bearer __proto__` got 500 on listPets</span><span class="about"><code>auth.missing-key</code> <span>[listPets GET /pets]</span>: Title of auth.missing-key</span></summary>');
    expect(doc.split('`Bearer __proto__` got 500 on listPets').length - 1).toBe(2); // the summary, and the table's message cell
    expect(doc).toContain('<span class="finding">401 without an Error body</span>');
    expect(doc).toContain('<p>401 without an Error body\nsecond line</p>');
  });

  it('shows expected failures (--expected-failures) apart: not counted as failures, marked in the table, stale entries named', () => {
    const expected = check({ id: 'auth.missing-key', subject: 'GET /pets', outcome: 'fail', expectedFailure: { reason: 'TICKET-7 <soon>' } });
    const stale = check({ id: 'harness.expected-failures', clause: 'Harness', suite: 'harness', outcome: 'fail', message: 'stale entry: auth.invalid-key passes now, remove it' });
    const baseline = {
      file: 'known.yaml',
      entries: [
        { id: 'auth.missing-key', reason: 'TICKET-7 <soon>', status: 'failed-as-expected' as const },
        { id: 'auth.invalid-key', reason: 'TICKET-8', status: 'stale' as const },
        { id: 'list-pets.limit', reason: 'TICKET-9', target: 'local', status: 'not-run' as const },
      ],
    };
    const doc = renderHtml(report([expected, check({ id: 'auth.invalid-key' }), stale], { baseline }));
    expect(doc).toContain('<main data-verdict="fail" data-failures="1" data-requests="7" data-checks="3">');
    expect(doc).toMatch(/<section id="failures" data-failures="1"/);
    expect(doc).toMatch(/<section id="expected" data-expected="1"/);
    const ids = [...doc.matchAll(/data-failure-id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['harness.expected-failures', 'auth.missing-key']);
    expect(doc.indexOf('id="failures"')).toBeLessThan(doc.indexOf('id="expected"'));
    expect(doc.indexOf('id="expected"')).toBeLessThan(doc.indexOf('id="checks"'));
    expect(doc).toContain('Expected: TICKET-7 &lt;soon&gt;');
    expect(doc).toContain('Stale entries, passing now (they fail the run until removed): <code>auth.invalid-key</code>.');
    expect(doc).toContain('Not run or skipped: <code>list-pets.limit</code>.');
    expect(doc).toContain('<dd data-baseline="known.yaml"><a href="#expected"><code>known.yaml</code></a>: 3 entries for this target, 1 failed as expected, 1 stale (passing now: remove them), 1 not run</dd>');
    // In the table: marked expected, with its reason, linking to its entry.
    expect(doc).toMatch(/data-check-id="auth.missing-key" data-outcome="fail"[^]*?<span class="sev" data-expected="" title="TICKET-7 &lt;soon&gt;">expected<\/span><\/td>\n<td class="msg">auth.missing-key went wrong <a href="#check-1">Details<\/a>/);
    expect(count(doc, 'data-expected=""')).toBe(1);
  });

  it('has one row per check, grouped by clause, and a coverage row per clause', () => {
    const checks = mixedChecks();
    const doc = renderHtml(report(checks));
    expect(count(doc, /<tr class="filterable" data-check-id=/g)).toBe(checks.length);
    expect(doc).toContain('<tr class="filterable" data-check-id="limits.headers" data-outcome="error" data-severity="must">');
    const clauses = [...doc.matchAll(/<section class="clause" id="clause-\d+" data-clause="([^"]+)">/g)].map((m) => m[1]);
    expect(clauses).toEqual(['Authentication', 'Errors', 'Limits', 'States and transitions', 'Endpoints']);
    expect(doc).toMatch(
      /<tr data-coverage-clause="Limits">.*?<td class="num">3<\/td><td class="num">0<\/td><td class="num">1<\/td><td class="num">1<\/td><td class="num">1<\/td><\/tr>/,
    );
    expect(doc).toContain('<tr data-suite="limits"><th scope="row">limits</th><td class="num">2</td></tr>');
  });

  it('shows every other kind of failure of a property check, each with its counterexample and commands', () => {
    const failures = [
      { kind: 'name missing', message: 'name missing: got 201 (accepted), not 400', counterexample: '{"categoryId": 1}', path: '0:1', reproduce: ['curl -X POST one'] },
      { kind: 'categoryId has a fraction', message: 'categoryId has a fraction: got 201', expected: '400', actual: '201', counterexample: '{"categoryId": 1.5}', reproduce: [] },
    ];
    const doc = renderHtml(report([check({ id: 'create-pet.invalid-rejected', outcome: 'fail', evidence: evidence({ counterexample: '{"name": 1}', failures }) })]));
    expect(doc).toContain('<h4>Other kinds of failure (2)</h4>');
    expect(count(doc, /<li data-failure-kind="/g)).toBe(2);
    expect(doc).toContain('<li data-failure-kind="name missing"><p><strong>name missing</strong>: name missing: got 201 (accepted), not 400</p>');
    expect(doc).toContain('Counterexample (path <code>0:1</code>)');
    expect(doc).toContain('<pre class="repro">curl -X POST one</pre>');
    expect(doc).toContain('<p class="note">Expected</p><pre>400</pre><p class="note">Actual</p><pre>201</pre>');
  });

  it('escapes hostile report text everywhere', () => {
    const hostileExchange = exchange({
      url: `http://127.0.0.1:4010/v1/pets?q=${HOSTILE}`,
      requestHeaders: { 'x-evil': HOSTILE },
      responseHeaders: { 'x-evil': HOSTILE },
      requestBody: HOSTILE,
      responseBody: `{"name":${JSON.stringify(HOSTILE)}}`,
      auth: { kind: 'literal', header: HOSTILE, where: 'header' },
    });
    const evil = check({
      id: `id"${HOSTILE}`,
      subject: HOSTILE,
      clause: HOSTILE,
      title: HOSTILE,
      outcome: 'fail',
      message: HOSTILE,
      suite: HOSTILE,
      evidence: evidence({
        expected: HOSTILE,
        actual: HOSTILE,
        counterexample: HOSTILE,
        path: HOSTILE,
        reproduce: [HOSTILE],
        exchanges: [hostileExchange, exchange({ responseBody: HOSTILE })],
      }),
    });
    const info = check({ id: 'info.x', severity: 'info', evidence: evidence({ actual: HOSTILE }) });
    const doc = renderHtml(
      report([evil, info], {
        target: { name: HOSTILE, baseUrl: HOSTILE, keys: [{ label: HOSTILE, plan: HOSTILE, disposable: true }] },
        warnings: [HOSTILE],
        requests: { total: 1, byStatus: { [HOSTILE]: 1 }, bySuite: { [HOSTILE]: 1 } },
      }),
    );
    expect(count(doc, /<script/gi)).toBe(1);
    expect(count(doc, /<\/script/gi)).toBe(1);
    expect(doc).not.toMatch(/<img/i);
    // Attribute values are always double-quoted and text never holds a raw quote: drop the values,
    // and no tag may be left with an event-handler attribute.
    expect(doc.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^<>]*\son\w+=/i);
    expect(doc).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(doc).toContain('data-failure-id="id&quot;&lt;/script&gt;');
  });

  it('loads nothing from the network and its CSP admits exactly its own style and script', () => {
    const doc = renderHtml(report(mixedChecks(), { target: { name: 'staging', baseUrl: 'https://staging.example/v1', keys: [] } }));
    expect(doc).toContain('<code>https://staging.example/v1</code>');
    expect(doc).not.toMatch(/\b(?:src|href|action|srcset|poster|data)\s*=\s*["']?\s*(?:[a-z]+:)?\/\//i);
    expect(doc).not.toMatch(/@import/i);
    expect(doc).not.toMatch(/url\s*\(/i);
    expect(doc).not.toMatch(/<(?:link|img|iframe|object|embed)\b/i);
    for (const m of doc.matchAll(/\bhref="([^"]*)"/g)) expect(m[1]).toMatch(/^#/);

    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(doc)?.[1]?.replaceAll('&#39;', "'") ?? '';
    expect(csp).toContain("default-src 'none'");
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    const style = /<style>([\s\S]*?)<\/style>/.exec(doc)?.[1] ?? '';
    const script = /<script>([\s\S]*?)<\/script>/.exec(doc)?.[1] ?? '';
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('pretty-prints JSON bodies losslessly, keeps other bodies as text, and truncates long ones', () => {
    const big = 'x'.repeat(20_000);
    const failing = check({
      id: 'pets.list',
      outcome: 'fail',
      evidence: evidence({
        exchanges: [
          exchange({ seq: 1, responseBody: '{"id":9007199254740993,"tags":[],"name":"Rex"}' }),
          exchange({ seq: 2, responseBody: 'not json {', responseBodyTruncated: true }),
          exchange({ seq: 3, responseBody: big }),
          exchange({ seq: 4, status: undefined, responseHeaders: {}, responseBody: undefined, transportError: 'ECONNRESET' }),
        ],
      }),
    });
    const doc = renderHtml(report([failing]));
    expect(doc).toContain('{\n  &quot;id&quot;: 9007199254740993,\n  &quot;tags&quot;: [],\n  &quot;name&quot;: &quot;Rex&quot;\n}');
    expect(doc).toContain('<pre class="body">not json {</pre>');
    expect(doc).toContain('stopped reading this body');
    expect(doc).not.toContain(big);
    expect(doc).toContain(`<pre class="body">${'x'.repeat(8192)}</pre>`);
    expect(doc).toContain('Showing the first 8192 of 20000 characters');
    expect(doc).toContain('no response (ECONNRESET)');
    // More than three exchanges: collapsed by default.
    expect(doc).toContain('<details class="exchange" data-seq="1">');
  });

  it('replaces characters that are illegal in documents, and is deterministic', () => {
    const r = report([check({ id: 'a', outcome: 'fail', message: 'bad\u0000byte\u0007 \uD800 ok 🐕' })], { warnings: ['slow target'] });
    const doc = renderHtml(r);
    expect(doc).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(doc).toContain('bad\uFFFDbyte\uFFFD \uFFFD ok 🐕');
    expect(doc).toContain('<li>slow target</li>');
    expect(renderHtml(r)).toBe(doc);
  });
});
