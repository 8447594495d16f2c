// The production target is safe by default: no POST (animals cannot be deleted), no load, and no
// more requests than its budget, counted at the server. --allow-writes lifts the first, loudly.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const KEY = 'sk-prod-safety-7e8f9a0b';

describe('the production target', () => {
  const dir = tempDir('production');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function runProduction(args: string[], name: string) {
    const server = await startReferenceServer({ keys: [{ key: KEY, plan: 'pro' }], preload: 30 });
    try {
      const reports = path.join(dir, name);
      const env = { ANIMAL_STORE_PRODUCTION_URL: server.baseUrl, ANIMAL_STORE_PRODUCTION_KEY: KEY, ANIMAL_STORE_PRODUCTION_PLAN: 'pro' };
      const run = await runCli(['--target', 'production', '--report-dir', reports, ...args], env);
      return { run, report: readReport(reports), stats: server.stats() };
    } finally {
      await server.close();
    }
  }

  it('sends no POST, no load, and no more requests than its budget of 200', async () => {
    // More cases than 200 requests can hold, so that the budget is what stops the run.
    const { run, report, stats } = await runProduction(['--runs', '60'], 'default');
    expect(stats.posts).toBe(0);
    expect(stats.requests).toBeLessThanOrEqual(200);
    expect(report.requests.total).toBe(stats.requests);
    expect(report.options).toMatchObject({ allowWrites: false, allowLoad: false, maxRequests: 200, runs: 60 });
    const skipped = report.checks.filter((c) => c.outcome === 'skip');
    expect(skipped.some((c) => c.message.includes('writes are not allowed'))).toBe(true);
    expect(skipped.some((c) => c.message.includes('load is not allowed'))).toBe(true);
    expect(skipped.some((c) => c.message.includes('request budget of 200 is spent'))).toBe(true);
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it('with --allow-writes creates animals, and says so in the console and the report', async () => {
    const { run, report, stats } = await runProduction(['--allow-writes'], 'writes');
    expect(stats.posts).toBeGreaterThan(0);
    expect(stats.requests).toBeLessThanOrEqual(200);
    expect(run.stdout).toMatch(/Warning: --allow-writes: POST \/pets will create animals on production/);
    expect(report.warnings.some((w) => w.startsWith('--allow-writes'))).toBe(true);
  });
});

describe('the whole-run time limit (budget.maxSeconds)', () => {
  const dir = tempDir('time-limit');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops sending at the limit: the checks left end as errors naming it, and the run ends soon after', async () => {
    const server = await startReferenceServer({ keys: [{ key: KEY, plan: 'free' }], windows: { minute: 5, day: 60 } });
    try {
      const reports = path.join(dir, 'out');
      const target = { name: 'limited', baseUrl: server.baseUrl, keys: [{ key: KEY, plan: 'free' }], windows: { minute: 5, day: 60 }, allow: { writes: true, load: true }, budget: { maxSeconds: 2 } };
      const started = Date.now();
      const run = await runCli(['--target', writeTarget(dir, target), '--report-dir', reports, '--quiet']);
      expect(run.code).toBe(1);
      const report = readReport(reports);
      const limited = report.checks.filter((c) => c.outcome === 'error' && /run time limit/.test(c.message));
      expect(limited.length).toBeGreaterThan(0);
      // Two seconds of checks, then the few already under way finish: well under a full run.
      expect(Date.now() - started).toBeLessThan(20_000);
      // Nothing reached the server after the limit (plus the second a request may take).
      const sentAt = readFileSync(path.join(reports, 'exchanges.jsonl'), 'utf8').trim().split('\n').map((l) => Date.parse((JSON.parse(l) as { startedAt: string }).startedAt));
      expect(Math.max(...sentAt)).toBeLessThan(Date.parse(report.startedAt) + 2_000 + 1_000);
    } finally {
      await server.close();
    }
  });
});
