// report.html in a real browser: Debian's chromium driven by playwright-core. A run with failures
// (and rate-limit charts) is opened from disk; the page must show the verdict and every failure,
// draw a chart per key, log no error, and the screenshot is saved next to the report.
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const KEYS = [
  { key: 'sk-browser-free-1-1a2b3c', plan: 'free' },
  { key: 'sk-browser-pro-1-4d5e6f', plan: 'pro' },
];

// CI installs chromium (.ci/run); a developer machine without it is told so, not silently passed.
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);

describe.skipIf(!haveChromium)('report.html in headless Chromium', () => {
  const dir = tempDir('browser');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shows the verdict, every failure and a chart per key, logs no error, and is screenshotted', async () => {
    const server = await startReferenceServer({ keys: KEYS, windows: { minute: 4, day: 40 }, faults: ['auth-wrong-status', 'rate-no-retry-after'] });
    const reports = path.join(dir, 'out');
    try {
      const target = { name: 'browser', baseUrl: server.baseUrl, keys: KEYS, windows: { minute: 4, day: 40 }, allow: { writes: true, load: true } };
      const run = await runCli(['--target', writeTarget(dir, target), '--report-dir', reports, '--suite', 'auth', '--suite', 'rate-limit', '--quiet']);
      expect(run.code).toBe(1);
    } finally {
      await server.close();
    }
    const report = readReport(reports);
    const failures = report.checks.filter((c) => (c.outcome === 'fail' || c.outcome === 'error') && c.severity !== 'info');
    expect(failures.length).toBeGreaterThan(0);

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`network request: ${r.url()}`);
      });
      await page.goto(pathToFileURL(path.join(reports, 'report.html')).href);

      expect(await page.getAttribute('main', 'data-verdict')).toBe('fail');
      await expect.poll(() => page.textContent('body')).toMatch(/Not conformant/);
      expect(Number(await page.getAttribute('main', 'data-failures'))).toBe(failures.length);
      expect(await page.locator('details[data-failure-id]').count()).toBe(failures.length);
      for (const id of new Set(failures.map((c) => c.id))) expect(await page.locator(`details[data-failure-id="${id}"]`).count()).toBeGreaterThan(0);
      expect(await page.locator('svg[data-chart="timeline"]').count()).toBe(KEYS.length);
      expect(await page.locator('svg[data-chart="load"]').count()).toBe(1);

      // Filtering is live: showing failures only hides passing rows.
      const rows = await page.locator('tr.filterable').count();
      await page.locator('#filters input[value="outcome:pass"]').uncheck();
      expect(await page.locator('tr.filterable:visible').count()).toBeLessThan(rows);

      const shot = path.join(reports, 'report.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(10_000);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
