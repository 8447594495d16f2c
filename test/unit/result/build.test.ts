import { describe, expect, it } from 'vitest';
import { buildReport, countRequests, type BuildInput } from '../../../lib/result/build.ts';
import { type CheckResult, Report, REPORT_SCHEMA_VERSION } from '../../../lib/result/model.ts';

function check(id: string, severity: CheckResult['severity'], outcome: CheckResult['outcome']): CheckResult {
  return { id, clause: 'Limits', title: id, severity, outcome, message: outcome, suite: 'unit', durationMs: 3, evidence: null };
}

const SECRET = 'sk-BUILD-SECRET-55aa';

function input(overrides: Partial<BuildInput> = {}): BuildInput {
  return {
    tool: { name: 'animal-store-conformance', version: '0.1.0' },
    target: {
      name: 'unit',
      baseUrl: 'http://127.0.0.1:4010/v1',
      keys: [{ key: SECRET, plan: 'free', disposable: true, label: 'free#1', env: 'UNIT_KEY', quota: { perMinute: 60, perDay: 1000 } }],
    },
    startedAt: new Date('2030-01-01T00:00:00.000Z'),
    finishedAt: new Date('2030-01-01T00:00:02.500Z'),
    seed: 1234,
    options: { suites: ['auth'], runs: 20, strict: false, allowWrites: false, allowLoad: false, soak: false, maxRequests: 5000 },
    checks: [check('a', 'must', 'pass'), check('b', 'should', 'fail')],
    exchanges: [
      { status: 200, suite: 'auth' },
      { status: 401, suite: 'auth' },
      { status: 200, suite: 'list-pets' },
      { status: undefined, suite: 'list-pets' },
    ],
    warnings: ['a warning'],
    ...overrides,
  };
}

describe('countRequests', () => {
  it('counts by status, with "transport-error" for exchanges without one, and by suite', () => {
    expect(countRequests(input().exchanges)).toEqual({
      total: 4,
      byStatus: { '200': 2, '401': 1, 'transport-error': 1 },
      bySuite: { auth: 2, 'list-pets': 2 },
    });
  });

  it('is all zeros for no exchanges', () => {
    expect(countRequests([])).toEqual({ total: 0, byStatus: {}, bySuite: {} });
  });
});

describe('buildReport', () => {
  it('builds a report the zod model accepts', () => {
    expect(Report.safeParse(buildReport(input())).success).toBe(true);
  });

  it('passes with exit status 0 when only a should check failed', () => {
    const report = buildReport(input());
    expect([report.verdict, report.exitCode]).toEqual(['pass', 0]);
  });

  it('fails with exit status 1 when strict turns the failed should check into a blocker', () => {
    const report = buildReport(input({ options: { ...input().options, strict: true } }));
    expect([report.verdict, report.exitCode]).toEqual(['fail', 1]);
  });

  it('fails with exit status 1 when a must check errored', () => {
    const report = buildReport(input({ checks: [check('a', 'must', 'error')] }));
    expect([report.verdict, report.exitCode]).toEqual(['fail', 1]);
  });

  it('fails with exit status 3 when the target was unreachable, even if every check passed', () => {
    const report = buildReport(input({ checks: [check('a', 'must', 'pass')], unreachable: true }));
    expect([report.verdict, report.exitCode]).toEqual(['fail', 3]);
  });

  it('records times, duration, seed, options, summary and request counts', () => {
    const report = buildReport(input());
    expect(report).toMatchObject({
      schemaVersion: REPORT_SCHEMA_VERSION,
      startedAt: '2030-01-01T00:00:00.000Z',
      finishedAt: '2030-01-01T00:00:02.500Z',
      durationMs: 2500,
      seed: 1234,
      options: { suites: ['auth'], maxRequests: 5000 },
      summary: { checks: 2, byOutcome: { pass: 1, fail: 1, skip: 0, error: 0 } },
      requests: { total: 4, byStatus: { 'transport-error': 1 } },
      warnings: ['a warning'],
    });
  });

  it("keeps the harness's politeness when a key got a 429, and leaves it out otherwise (as rateLimits)", () => {
    const politeness = [{ label: 'free#1', refusals: 1, periods: 1, withoutPeriod: 0, inside: { inFlight: 1, onPurpose: 0, unexplained: 0 }, examples: [7] }];
    expect(Report.parse(buildReport(input({ politeness }))).politeness).toEqual(politeness);
    expect(buildReport(input({ politeness: [] }))).not.toHaveProperty('politeness');
    expect(buildReport(input())).not.toHaveProperty('politeness');
  });

  it('describes the target keys by label and plan, never by the key', () => {
    const report = buildReport(input());
    expect(report.target).toEqual({ name: 'unit', baseUrl: 'http://127.0.0.1:4010/v1', keys: [{ label: 'free#1', plan: 'free', disposable: true }] });
    expect(JSON.stringify(report)).not.toContain(SECRET);
  });
});
