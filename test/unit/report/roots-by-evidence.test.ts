// Roots by evidence, in every report: a run where the 401s lack X-RateLimit-* and free#1's quota is
// overrun has two root causes, not one. headers.rate-limit-present blames the 401s; the quota's
// evidence is free#1's burst, which carried its headers: nothing links them. When the burst's
// answers are among the header check's offenders (Remaining missing there), the quota is shown
// under it. Built from CheckResults as the runner makes them (toCheckResult, linkCauses): no server.
import { describe, expect, it } from 'vitest';
import { linkCauses } from '../../../lib/checks/causes.ts';
import { quota } from '../../../lib/checks/rate-limit-quota.ts';
import { toCheckResult } from '../../../lib/checks/to-check-result.ts';
import { rateLimitHeaders } from '../../../lib/checks/run-level.ts';
import { fail } from '../../../lib/checks/types.ts';
import { LoadEvidence } from '../../../lib/load/evidence.ts';
import type { CheckResult, Report } from '../../../lib/result/model.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { PLAIN, renderSummary } from '../../../lib/report/console.ts';
import { renderCtrf } from '../../../lib/report/ctrf.ts';
import { renderJobSummary } from '../../../lib/report/github.ts';
import { renderHtml } from '../../../lib/report/html.ts';
import { renderJunit } from '../../../lib/report/junit.ts';
import { exchange, report } from './fixture.ts';

const RUN = 'every response of the run';
const free1 = { kind: 'key', label: 'free#1', env: 'FREE_KEY', header: 'Bearer $FREE_KEY' } as const;
const at = (seq: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + seq * 10).toISOString();

/** The auth suite's 401s: an Error body, and no X-RateLimit-* at all. */
const unauthorized = [1, 2, 3].map((seq) =>
  exchange({ seq, suite: 'auth', auth: { kind: 'none' }, requestHeaders: { accept: 'application/json' }, status: 401, responseHeaders: { 'content-type': 'application/json' }, responseBody: '{"code":"unauthorized","message":"no key","status":401}', startedAt: at(seq) }),
);

/**
 * free#1's burst: 75 answers 200 (5 more than the quota of 70), then a 429. 'errors-lack-headers':
 * its 429 has no X-RateLimit-* either (as the 401s); 'burst-lacks-remaining': no answer of the
 * burst has X-RateLimit-Remaining.
 */
type Server = 'burst-has-headers' | 'errors-lack-headers' | 'burst-lacks-remaining';
function burst(server: Server): Exchange[] {
  const quotaOf = 70;
  return Array.from({ length: 76 }, (_, i) => {
    const seq = 10 + i;
    const status = i < 75 ? 200 : 429;
    const remaining = server === 'burst-lacks-remaining' ? {} : { 'x-ratelimit-remaining': String(Math.max(0, quotaOf - 1 - i)) };
    const rateLimit = server === 'errors-lack-headers' && status === 429 ? {} : { 'x-ratelimit-limit': String(quotaOf), ...remaining, 'x-ratelimit-reset': '1893456060' };
    return exchange({
      seq,
      suite: 'rate-limit',
      auth: free1,
      status,
      responseHeaders: { 'content-type': 'application/json', ...rateLimit, ...(status === 429 ? { 'retry-after': '60' } : {}) },
      responseBody: status === 429 ? '' : '[]',
      startedAt: at(seq),
    });
  });
}

/** The checks of the run, linked as the runner links them (lib/runner/run.ts). */
function runOf(server: Server): Report {
  const answers = [...unauthorized, ...burst(server)];
  const kept = new LoadEvidence();
  for (const e of answers) kept.add(e);
  const quotaFinding = { ...fail('more-than-minute-quota', 'free#1: 75 accepted before the first 429, more than the 70 a minute of plan free', 'at most 70', '75'), exchanges: kept.of('free#1') };
  const checks: CheckResult[] = [
    toCheckResult(quota, quotaFinding, { subject: 'free#1', durationMs: 0, exchanges: [] }),
    toCheckResult(rateLimitHeaders, rateLimitHeaders.judge(answers), { subject: RUN, durationMs: 0, exchanges: [] }),
  ];
  return report(linkCauses(checks));
}

const byId = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;
/** Each CTRF test's root, in the order of the checks: the quota's, then the header check's. */
const causedByInCtrf = (r: Report): (string | undefined)[] => JSON.parse(renderCtrf(r)).results.tests.map((t: { extra?: { causedBy?: string } }) => t.extra?.causedBy);

describe('roots by evidence: 401s without X-RateLimit-* and an overrun quota are two roots', () => {
  const two = runOf('burst-has-headers');

  it('report.json: the header check blames the 401s (every offender listed); the quota, free#1\'s burst, is its own root', () => {
    const headers = byId(two, 'headers.rate-limit-present');
    expect(headers).toMatchObject({ outcome: 'fail', code: 'rate-limit-header-missing' });
    expect(headers.evidence?.offenders).toEqual([1, 2, 3]);
    const quotaResult = byId(two, 'rate-limit.quota');
    expect(quotaResult).toMatchObject({ outcome: 'fail', code: 'more-than-minute-quota' });
    expect(quotaResult.evidence?.exchanges.map((e) => e.seq)).toEqual([10, 11, 83, 84, 85]);
    expect(two.checks.map((c) => c.causedBy)).toEqual([undefined, undefined]);
  });

  it('console: two root causes, neither explaining the other', () => {
    const text = renderSummary(two, ['report.json'], PLAIN);
    expect(text).toMatch(/\nFailures\n/);
    expect(text).toMatch(/✗ must   fail  .+\n {6}headers\.rate-limit-present \[every response of the run\]: /);
    expect(text).toMatch(/✗ must   fail  .+\n {6}rate-limit\.quota \[free#1\]: /);
    expect(text).not.toContain('explains');
  });

  it('html: two failures, each its own root', () => {
    const doc = renderHtml(two);
    expect(doc).toContain('Failures (2)</h2>');
    expect(doc).not.toContain('data-explained-by');
    expect(doc).not.toContain('data-explains');
  });

  it('junit: two failures, neither said to be explained', () => {
    const xml = renderJunit(two);
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml).not.toContain('xplain');
  });

  it('job summary: two root causes, no row under another', () => {
    const md = renderJobSummary(two, 'r');
    expect(md).toContain('### Failing checks (2 root causes, 2 failures)');
    expect(md).toMatch(/\| `headers\.rate-limit-present \[every response of the run\]`: [^|]+\| must \|/);
    expect(md).toMatch(/\| `rate-limit\.quota \[free#1\]`: [^|]+\| must \|/);
    expect(md).not.toContain('↳');
  });

  it('ctrf: no test names another as its root', () => {
    expect(causedByInCtrf(two)).toEqual([undefined, undefined]);
  });

  it('still two roots when the key\'s 429 lacks X-RateLimit-* too: the quota rests on the accepted answers, not on the 429 shown beside them', () => {
    const errors = runOf('errors-lack-headers');
    expect(byId(errors, 'headers.rate-limit-present').evidence?.offenders).toEqual([1, 2, 3, 85]);
    expect(byId(errors, 'rate-limit.quota').evidence?.exchanges.map((e) => e.seq)).toContain(85);
    expect(errors.checks.map((c) => c.causedBy)).toEqual([undefined, undefined]);
    expect(renderJobSummary(errors, 'r')).toContain('### Failing checks (2 root causes, 2 failures)');
  });
});

describe('roots by evidence: the same header missing on the burst explains the quota', () => {
  const one = runOf('burst-lacks-remaining');

  it('report.json: the burst\'s answers are among the offenders, so the quota is under the header check', () => {
    const headers = byId(one, 'headers.rate-limit-present');
    expect(headers.evidence?.offenders).toEqual([1, 2, 3, ...Array.from({ length: 76 }, (_, i) => 10 + i)]);
    // Only the first three offenders are kept as exchanges: the link reads the full list.
    expect(headers.evidence?.exchanges.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(byId(one, 'rate-limit.quota').causedBy).toEqual({ id: 'headers.rate-limit-present', subject: RUN });
    expect(headers.causedBy).toBeUndefined();
  });

  it('console, html, junit and job summary show one root with the quota under it', () => {
    expect(renderSummary(one, [], PLAIN)).toContain('Failures (1 root cause, 2 failures)');
    expect(renderSummary(one, [], PLAIN)).toContain('explains 1 more failure: rate-limit.quota [free#1]');
    expect(renderHtml(one)).toContain('data-explained-by="headers.rate-limit-present"');
    expect(renderJunit(one)).toContain('[explained by headers.rate-limit-present [every response of the run]]');
    expect(renderJobSummary(one, 'r')).toMatch(/\| ↳ explained by the failure above: [^|]+\| `rate-limit\.quota \[free#1\]`: [^|]+\| must \|/);
    expect(causedByInCtrf(one)).toEqual(['headers.rate-limit-present [every response of the run]', undefined]);
  });
});
