// Every kind named, roots by kind (issue 37, item 1): a run whose 401s lack X-RateLimit-* (kind A,
// rate-limit-header-missing) and whose 200s carry a Reset that counts seconds from now (kind B,
// reset-not-unix-seconds). headers.rate-limit-present fails once, naming both kinds, each with its
// own count, first example in the server's words, exchanges and offenders; a rate-limit failure
// whose answers are free#1's 200s is linked under it through kind B, never through A (the 401s);
// one that shares no answer with either kind is its own root. Pure: exchanges built by hand,
// CheckResults as the runner makes them (toCheckResult, linkCauses).
import { describe, expect, it } from 'vitest';
import { linkCauses } from '../../../lib/checks/causes.ts';
import { resetHeader } from '../../../lib/checks/rate-limit-headers.ts';
import { rateLimitHeaders } from '../../../lib/checks/run-level.ts';
import { toCheckResult } from '../../../lib/checks/to-check-result.ts';
import { fail } from '../../../lib/checks/types.ts';
import type { CheckResult, Report } from '../../../lib/result/model.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { PLAIN, renderSummary } from '../../../lib/report/console.ts';
import { renderJobSummary } from '../../../lib/report/github.ts';
import { renderHtml } from '../../../lib/report/html.ts';
import { renderJunit } from '../../../lib/report/junit.ts';
import { exchange, report } from './fixture.ts';

const RUN = 'every response of the run';
const key = (label: string) => ({ kind: 'key', label, env: 'KEY', header: 'Bearer $KEY' }) as const;
const at = (seq: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + seq * 10).toISOString();

/** The auth suite's 401s: an Error body, and no X-RateLimit-* at all (kind A). */
const unauthorized = [1, 2, 3].map((seq) =>
  exchange({ seq, suite: 'auth', auth: { kind: 'none' }, status: 401, responseHeaders: { 'content-type': 'application/json' }, responseBody: '{"code":"unauthorized","message":"no key","status":401}', startedAt: at(seq) }),
);

/**
 * A key's burst: 10 answers 200 with X-RateLimit-Reset `reset`, then a 429 without X-RateLimit-*
 * (as the 401s: fault headers-missing-on-errors strips them from every error).
 */
function burst(label: string, from: number, reset: string): Exchange[] {
  return Array.from({ length: 11 }, (_, i) => {
    const status = i < 10 ? 200 : 429;
    const rateLimit: Record<string, string> = status === 429 ? {} : { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': String(9 - i), 'x-ratelimit-reset': reset };
    return exchange({
      seq: from + i,
      suite: 'rate-limit',
      auth: key(label),
      status,
      responseHeaders: { 'content-type': 'application/json', ...rateLimit, ...(status === 429 ? { 'retry-after': '60' } : {}) },
      responseBody: status === 429 ? '' : '[]',
      startedAt: at(from + i),
    });
  });
}

/** free#1's Reset counts seconds from now (kind B); pro#1's is a Unix time in seconds (no fault). */
const free = burst('free#1', 10, '60');
const pro = burst('pro#1', 30, '1893456060');
const answers = [...unauthorized, ...free, ...pro];

/** A reset-header failure of a key, its evidence the key's burst (as the check keeps it). */
function resetFailure(subject: string, shown: Exchange[], code = 'reset-not-ahead'): CheckResult {
  const finding = { ...fail(code, `${subject}: X-RateLimit-Reset names no moment ahead`, 'a Unix time ahead', 'not one'), exchanges: shown };
  return toCheckResult(resetHeader, finding, { subject, durationMs: 0, exchanges: [] });
}

function run(): Report {
  const checks = [
    // As the suite keeps a key's evidence (LoadEvidence): the first two, the two before the 429, the 429 (kind A's, as the 401s).
    resetFailure('free#1', [free[0]!, free[1]!, free[8]!, free[9]!, free[10]!]),
    // Another code: not the same failure as free#1's (which would make free#1's its root).
    resetFailure('pro#1', pro.slice(0, 3), 'reset-beyond-window'),
    toCheckResult(rateLimitHeaders, rateLimitHeaders.judge(answers), { subject: RUN, durationMs: 0, exchanges: [] }),
  ];
  return report(linkCauses(checks));
}

const r = run();
const byLabel = (id: string, subject: string) => r.checks.find((c) => c.id === id && c.subject === subject)!;
const headers = byLabel('headers.rate-limit-present', RUN);

describe('every kind named: headers.rate-limit-present with 401s lacking the headers and a relative Reset on 200s', () => {
  it('fails once with the worst kind first: the 401s, with their count, example and offenders', () => {
    expect(headers).toMatchObject({ outcome: 'fail', code: 'rate-limit-header-missing' });
    expect(headers.message).toMatch(/^5 of 25 responses: GET \/v1\/pets → 401: X-RateLimit-Limit missing; X-RateLimit-Remaining missing; X-RateLimit-Reset missing/);
    expect(headers.message).toContain('(and 1 more kind of failure: reset-not-unix-seconds ×10)');
    expect(headers.evidence?.offenders).toEqual([1, 2, 3, 20, 40]);
    expect(headers.evidence?.exchanges.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('names the other kind with its own count, first examples quoting the header as sent, exchanges and offenders', () => {
    const kinds = headers.evidence?.failures ?? [];
    expect(kinds).toHaveLength(1);
    const b = kinds[0]!;
    expect(b).toMatchObject({ kind: 'reset-not-unix-seconds', code: 'reset-not-unix-seconds', count: 10 });
    expect(b.message).toMatch(/^10 of 25 responses: GET \/v1\/pets → 200: X-RateLimit-Reset is "60", not a Unix time in seconds: it looks like seconds until the reset$/);
    expect(b.counterexample).toBe('GET /v1/pets → 200: X-RateLimit-Reset is "60", not a Unix time in seconds: it looks like seconds until the reset');
    expect(b.actual?.split('\n')).toHaveLength(3);
    expect(b.offenders).toEqual(free.slice(0, 10).map((e) => e.seq));
    expect(b.exchanges?.map((e) => e.seq)).toEqual([10, 11, 12]);
    expect(b.reproduce).toHaveLength(3);
  });

  it('links the rate-limit failure resting on the 200s under the root through kind B, though its 429 is kind A\'s; nothing through the 401s\' kind', () => {
    expect(byLabel('rate-limit.reset-header', 'free#1').causedBy).toEqual({ id: 'headers.rate-limit-present', subject: RUN, code: 'reset-not-unix-seconds' });
    // pro#1's burst shares no answer with either kind: its own root.
    expect(byLabel('rate-limit.reset-header', 'pro#1').causedBy).toBeUndefined();
    expect(r.checks.filter((c) => c.causedBy?.code === 'rate-limit-header-missing')).toEqual([]);
  });

  it('a failure resting on the 401s alone is linked through kind A, not B', () => {
    const onErrors = resetFailure('free#1', unauthorized.slice(0, 1));
    const [linked] = linkCauses([onErrors, headers]);
    expect(linked!.causedBy).toEqual({ id: 'headers.rate-limit-present', subject: RUN, code: 'rate-limit-header-missing' });
  });

  it('console: every kind under the failure, one line each with its count and first example; the explained failure names the kind', () => {
    const text = renderSummary(r, ['report.json'], PLAIN);
    expect(text).toContain('Failures (2 root causes, 3 failures)');
    expect(text).toMatch(/✗ must   fail  5 of 25 responses: GET \/v1\/pets → 401: X-RateLimit-Limit missing.*\n {6}headers\.rate-limit-present \[every response of the run\]: .*\n {6}\+ reset-not-unix-seconds ×10: GET \/v1\/pets → 200: X-RateLimit-Reset is "60"/);
    expect(text).toContain('explains 1 more failure: rate-limit.reset-header [free#1] (reset-not-unix-seconds)');
  });

  it('html: the other kind with its count, first example and exchanges; the explained failure through its kind', () => {
    const doc = renderHtml(r);
    expect(doc).toContain('data-failure-kind="reset-not-unix-seconds" data-count="10"');
    expect(doc).toMatch(/<strong>reset-not-unix-seconds<\/strong> ×10: 10 of 25 responses/);
    expect(doc).toContain('First example</p><pre>GET /v1/pets → 200: X-RateLimit-Reset is &quot;60&quot;');
    expect(doc).toContain('data-through-kind="reset-not-unix-seconds"');
  });

  it('job summary: the other kind on its own short line in the failure\'s cell; the explained row names the kind', () => {
    const md = renderJobSummary(r, 'r');
    expect(md).toContain('### Failing checks (2 root causes, 3 failures)');
    expect(md).toMatch(/\| 5 of 25 responses: GET \/v1\/pets → 401: [^|]+<br>\+ reset-not-unix-seconds ×10: GET \/v1\/pets → 200: X-RateLimit-Reset is "60"[^|]*\| `headers\.rate-limit-present/);
    expect(md).toContain('| ↳ explained by the failure above (through its kind reset-not-unix-seconds): ');
  });

  it('junit: the other kind with its count and first example; the explained failure through its kind', () => {
    const xml = renderJunit(r);
    expect(xml).toContain('Also failing (reset-not-unix-seconds ×10)');
    expect(xml).toContain('First example: GET /v1/pets → 200: X-RateLimit-Reset is "60"');
    expect(xml).toContain('(through its kind reset-not-unix-seconds): one cause');
  });
});
