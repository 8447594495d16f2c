// A run cut by its time limit says what it judged and what it could not: report.json's timeLimit,
// the console, the job summary and report.html, from the checks' error codes (never their messages).
import { describe, expect, it } from 'vitest';
import { renderSummary, PLAIN } from '../../../lib/report/console.ts';
import { renderJobSummary } from '../../../lib/report/github.ts';
import { renderHtml } from '../../../lib/report/html.ts';
import { buildReport } from '../../../lib/result/build.ts';
import type { CheckResult } from '../../../lib/result/model.ts';
import { check } from './fixture.ts';

const build = (checks: CheckResult[]) =>
  buildReport({
    tool: { name: 'animal-store-conformance', version: '0.1.0' },
    target: { name: 'local', baseUrl: 'http://127.0.0.1:4010/v1', keys: [] },
    startedAt: new Date('2030-01-01T00:00:00Z'),
    finishedAt: new Date('2030-01-01T00:02:01Z'),
    seed: 1,
    options: { suites: [], runs: 20, strict: false, allowWrites: true, allowLoad: true, soak: false, maxRequests: 5000 },
    checks,
    exchanges: [],
    warnings: [],
    timeLimitSeconds: 120,
  });

const cut = [
  check({ id: 'auth.missing-key' }),
  check({ id: 'list-pets.limit', outcome: 'error', code: 'HARNESS_RUN_TIME_LIMIT', message: 'HARNESS_RUN_TIME_LIMIT: the run time limit (budget.maxSeconds) is reached' }),
  check({ id: 'get-pet.found', outcome: 'error', code: 'HARNESS_RUN_TIME_LIMIT', message: 'HARNESS_RUN_TIME_LIMIT: …' }),
  check({ id: 'routes.orders', outcome: 'error', code: 'HARNESS_TARGET_GONE', message: 'HARNESS_TARGET_GONE: …' }),
];

describe('a run cut by its time limit', () => {
  it('report.json: the limit, that it was reached, and how many checks could not be carried out', () => {
    expect(build(cut).timeLimit).toEqual({ seconds: 120, reached: true, notJudged: 3 });
  });

  it('is told by the code of its errors, not by their messages', () => {
    const gone = [check({ id: 'a.b', outcome: 'error', message: 'the run time limit (budget.maxSeconds) is reached', code: 'HARNESS_TARGET_GONE' })];
    expect(build(gone).timeLimit).toEqual({ seconds: 120, reached: false, notJudged: 1 });
    expect(build([check({ id: 'a.b' })]).timeLimit).toEqual({ seconds: 120, reached: false, notJudged: 0 });
  });

  it('the console, the job summary and report.html say what was judged and what was not', () => {
    const report = build(cut);
    const line = "Cut at the run's time limit (120 s, budget.maxSeconds): 1 of 4 checks judged; 3 could not be carried out (errors): give the run more time, or fewer suites (--suite)";
    expect(renderSummary(report, [], PLAIN)).toContain(line);
    expect(renderJobSummary(report, 'reports/x')).toContain(`> ⏱ ${line}.`);
    // The page escapes the apostrophe; the rest reads the same.
    expect(renderHtml(report)).toMatch(/data-time-limit="120" data-cut="true">120 s \(budget.maxSeconds\): <strong>Cut at the run(&#39;|&#x27;|')s time limit \(120 s, budget.maxSeconds\): 1 of 4 checks judged; 3 could not be carried out/);
    const whole = build([check({ id: 'auth.missing-key' })]);
    expect(renderSummary(whole, [], PLAIN)).not.toContain('Cut at');
    expect(renderHtml(whole)).toContain('120 s (budget.maxSeconds), not reached');
  });
});

describe('a should that fails', () => {
  it('report.html names the standard it rests on beside its clause', () => {
    const should = check({ id: 'auth.scheme-case-insensitive', severity: 'should', standard: 'RFC 9110 §11.1: the authentication scheme is a case-insensitive token', outcome: 'fail' });
    const page = renderHtml(build([should]));
    expect(page).toContain('Clause: Authentication · rests on RFC 9110 §11.1: the authentication scheme is a case-insensitive token · suite auth');
    expect(renderHtml(build([check({ id: 'auth.missing-key', outcome: 'fail' })]))).not.toContain('rests on');
  });
});

