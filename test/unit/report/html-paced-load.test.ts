// The paced load in the reports: report.html's section (figures, charts per key, thresholds),
// junit.xml's properties and ctrf.json's extra.figures of the load checks, the job summary's table.
import { validate } from 'ctrf';
import { describe, expect, it } from 'vitest';
import { renderCtrf } from '../../../lib/report/ctrf.ts';
import { renderJobSummary } from '../../../lib/report/github.ts';
import { renderHtml } from '../../../lib/report/html.ts';
import { renderJunit } from '../../../lib/report/junit.ts';
import { overallFigures, type PacedLoadSection, type PacedRequest, type PacedRun, pacedFigures } from '../../../lib/result/paced-load.ts';
import { check, mixedChecks, report } from './fixture.ts';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 10);

/** A key paced at 10 requests/s for 3 s; requests from `first429` on get 429; latency grows by 1 ms a request. */
function run(label: string, first429 = Infinity): PacedRun {
  const requests: PacedRequest[] = Array.from({ length: 30 }, (_, i) => {
    const sentAt = T0 + i * 100;
    const status = i >= first429 ? 429 : 200;
    return { sentAt, latencyMs: 1 + i, point: { t: sentAt + 1 + i, status, limit: 60, remaining: Math.max(0, 59 - i), reset: T0 / 1000 + 5, ...(status === 429 ? { retryAfter: '2', body: '{"code":"rate_limited"}' } : {}) } };
  });
  return { label, plan: 'free', quota: { perMinute: 60, perDay: 1000 }, windows: { minute: 5, day: 60 }, fraction: 0.9, askedRate: 10, planned: 30, requests, dropped: 0, startedAt: T0, durationMs: 2900 };
}

function section(): PacedLoadSection {
  const keys = [pacedFigures(run('free#1')), pacedFigures(run('free#2', 25)), pacedFigures({ ...run('daily#1'), requests: [], unavailable: 'daily#1: 72 paced requests would spend more than a quarter of plan daily\'s 100 a day' })];
  return { fraction: 0.9, windows: 2, keys, overall: overallFigures(keys), thresholds: { p99Ms: 25 } };
}

const checks = () => [
  ...mixedChecks(),
  check({ id: 'load.pacing', suite: 'load', clause: 'Limits / Request rate by plan', subject: 'free#1', severity: 'info' }),
  check({ id: 'load.paced-no-429', suite: 'load', clause: 'Limits / Request rate by plan', subject: 'free#2', outcome: 'fail' }),
  check({ id: 'load.thresholds', suite: 'load', clause: 'Limits / Request rate by plan', subject: 'every paced key', outcome: 'fail' }),
];

describe('the paced load in the reports', () => {
  it('report.html: the figures of every key, two charts per paced key, 429s marked, the thresholds', () => {
    const doc = renderHtml(report(checks(), { pacedLoad: section() }));
    expect(doc).toContain('<section id="paced-load" data-paced-keys="2"');
    expect(doc).toMatch(/<tr data-paced-row="free#1"><th scope="row">free#1<\/th><td class="num">30<\/td><td class="num">30<\/td><td class="num">0<\/td>/);
    expect(doc).toContain('<td colspan="15" class="muted">not paced: daily#1: 72 paced requests would spend');
    for (const key of ['free#1', 'free#2']) {
      expect(doc).toContain(`<figure class="chart paced-latency" data-paced-key="${key}">`);
      expect(doc).toContain(`<figure class="chart paced-answers" data-paced-key="${key}">`);
    }
    expect(doc).not.toContain('data-paced-key="daily#1"');
    // free#2's last 5 requests got 429: bars and a cross in the seconds they were sent.
    expect(doc).toContain('data-429="5"');
    expect(doc).toMatch(/<rect class="bar-429" data-second="2" data-count="5"/);
    expect(doc).toContain('Thresholds (load.thresholds): p99Ms 25.');
    expect(doc.indexOf('id="paced-load"')).toBeLessThan(doc.indexOf('id="rate-limits"'));
    // No paced load, no section.
    expect(renderHtml(report(mixedChecks()))).not.toContain('id="paced-load"');
  });

  it('junit.xml and ctrf.json: the load checks carry the figures they stand on', () => {
    const r = report(checks(), { pacedLoad: section() });
    const junit = renderJunit(r);
    expect(junit).toMatch(/name="load\.pacing \[free#1\]"[^>]*>\s*<properties>\s*<property name="askedRate" value="10"\/>\s*<property name="achievedRate" value="10"\/>\s*<property name="sent" value="30"\/>/);
    expect(junit).toMatch(/name="load\.paced-no-429 \[free#2\]"[^>]*>\s*<properties>[\s\S]*<property name="first429Request" value="26"\/>/);
    expect(junit).toMatch(/name="load\.thresholds \[every paced key\]"[^>]*>\s*<properties>[\s\S]*<property name="threshold\.p99Ms" value="25"\/>/);
    expect(junit).not.toMatch(/name="auth\.missing-key \[GET \/pets\]"[^>]*>\s*<properties>/);
    const ctrf = JSON.parse(renderCtrf(r));
    expect(validate(ctrf).valid).toBe(true);
    const test = (name: string) => ctrf.results.tests.find((t: { name: string }) => t.name === name);
    expect(test('load.paced-no-429 [free#2]').extra.figures).toMatchObject({ sent: 30, accepted: 25, rejected: 5, first429Request: 26, first429Rate: 10 });
    expect(test('load.thresholds [every paced key]').extra.figures).toMatchObject({ sent: 60, errors: 5, 'threshold.p99Ms': 25 });
    expect(test('auth.missing-key [GET /pets]').extra).toBeUndefined();
  });

  it('the job summary: a table of the paced keys, a skipped key with its reason', () => {
    const md = renderJobSummary(report(checks(), { pacedLoad: section() }), 'reports/x');
    expect(md).toContain('### Paced load');
    expect(md).toContain('| free#2 | free | 10 / 10 | 30 | 25 | 5 |');
    expect(md).toContain('| daily#1 | free | not paced: daily#1: 72 paced requests');
  });
});
