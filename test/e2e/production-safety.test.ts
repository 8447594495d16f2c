// The production target is safe by default: no POST (animals cannot be deleted), no load, and no
// more requests than its budget, counted at the server. --allow-writes lifts the first, loudly.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { readReport, runCli, tempDir } from './cli-helpers.ts';

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
    const { run, report, stats } = await runProduction([], 'default');
    expect(stats.posts).toBe(0);
    expect(stats.requests).toBeLessThanOrEqual(200);
    expect(report.requests.total).toBe(stats.requests);
    expect(report.options).toMatchObject({ allowWrites: false, allowLoad: false, maxRequests: 200 });
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
