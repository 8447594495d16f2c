// `diff BASE HEAD` end to end: the reference server and a faulty reference (the faults of one
// group of the catalogue, auth-c) checked with the same seed and suite, then the command compares
// the two reports. `diff ref faulty` must list exactly the faulty run's root failures as new (exit
// 1), with every failure the faults are caught by among them; `diff faulty ref` must list the same
// roots as fixed (exit 0); the HTML diff, opened from disk in Debian's chromium, shows each new
// root failure, loads nothing and logs no error.
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../lib/result/model.ts';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { CAUGHT, KEYS, PLANS, WINDOWS } from '../support/fault-catalogue.ts';
import { readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const SEED = '1';
const SUITE = 'auth';
const FAULTS = CAUGHT.filter((c) => c.group === 'auth-c');
const CHROMIUM = '/usr/bin/chromium';

const dir = tempDir('diff');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const label = (c: { id: string; subject?: string }) => (c.subject ? `${c.id} [${c.subject}]` : c.id);
/** A report's root failures: each failure no other explains (causedBy names a root that failed). */
const rootsOf = (r: Report) => r.checks.filter((c) => (c.outcome === 'fail' || c.outcome === 'error') && !c.causedBy).map(label).sort();

interface DiffJson {
  newFailures: { root: { id: string; subject?: string }; explained: { id: string; subject?: string }[] }[];
  fixed: { root: { id: string; subject?: string }; explained: { id: string; subject?: string }[] }[];
  stillFailing: unknown[];
  exitCode: number;
}

/** One run of the auth suite against the reference, with faults or without; its report folder. */
async function runAgainst(name: string, faults: string[]): Promise<string> {
  const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: faults as never[] });
  const reports = path.join(dir, name);
  try {
    // One target name for both: the two runs differ by the server alone.
    const target = { name: 'diff', baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true } };
    await runCli(['--target', writeTarget(dir, target, `${name}.yaml`), '--report-dir', reports, '--seed', SEED, '--suite', SUITE, '--quiet']);
  } finally {
    await server.close();
  }
  return reports;
}

describe('diff of the reference and a faulty reference, same seed', () => {
  let ref: string;
  let faulty: string;
  let faultyReport: Report;
  beforeAll(async () => {
    [ref, faulty] = await Promise.all([runAgainst('ref', []), runAgainst('faulty', FAULTS.map((f) => f.fault))]);
    expect(readReport(ref).verdict).toBe('pass');
    faultyReport = readReport(faulty);
    expect(faultyReport.verdict).toBe('fail');
  }, 60_000);

  it('diff ref faulty: exactly the faulty run\'s root failures are new, every failure the faults are caught by under them; exit 1', async () => {
    const run = await runCli(['diff', ref, faulty, '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const diff = JSON.parse(run.stdout) as DiffJson;
    const roots = rootsOf(faultyReport);
    expect(roots.length).toBeGreaterThan(0);
    expect(diff.newFailures.map((g) => label(g.root)).sort()).toEqual(roots);
    expect([diff.fixed, diff.stillFailing, diff.exitCode]).toEqual([[], [], 1]);
    const listed = diff.newFailures.flatMap((g) => [g.root, ...g.explained]).map((c) => c.id);
    for (const f of FAULTS) expect({ fault: f.fault, listed: listed.includes(f.check) }).toEqual({ fault: f.fault, listed: true });
    // Every failure of the faulty run is listed once, under its root.
    const failures = faultyReport.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
    expect(diff.newFailures.reduce((n, g) => n + 1 + g.explained.length, 0)).toBe(failures.length);

    const text = await runCli(['diff', path.join(ref, 'report.json'), faulty]);
    expect(text.code).toBe(1);
    expect(text.stdout.split('\n')[0]).toBe(`${roots.length} new failures (+${failures.length - roots.length} they explain), 0 fixed, 0 still failing`);
    for (const root of roots) expect(text.stdout).toContain(`${root} (was pass)`);
    const md = await runCli(['diff', ref, faulty, '--format', 'markdown']);
    expect(md.stdout.split('\n')[0]).toBe(`## ❌ ${text.stdout.split('\n')[0]}`);
  });

  it('diff faulty ref: the same roots are fixed, nothing new; exit 0', async () => {
    const run = await runCli(['diff', faulty, ref, '--format', 'json']);
    expect(run.code).toBe(0);
    const diff = JSON.parse(run.stdout) as DiffJson;
    expect(diff.fixed.map((g) => label(g.root)).sort()).toEqual(rootsOf(faultyReport));
    expect([diff.newFailures, diff.stillFailing, diff.exitCode]).toEqual([[], [], 0]);
  });

  it('a missing report is a usage error naming it (exit 2, no stack trace)', async () => {
    const missing = path.join(dir, 'nowhere');
    const run = await runCli(['diff', ref, missing]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`error: HEAD ${missing}: no such file or folder\nRun with --help for usage.\n`);
  });

  // CI installs chromium (.ci/run); a developer machine without it is told so, not silently passed.
  const haveChromium = existsSync(CHROMIUM);
  if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);

  it.skipIf(!haveChromium)('the HTML diff in headless Chromium shows each new root failure, loads nothing, logs no error', async () => {
    const page = path.join(dir, 'diff', 'diff.html');
    const run = await runCli(['diff', ref, faulty, '--format', 'html', '--out', page]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^\d+ new failures .*\(html written to /);
    const roots = rootsOf(faultyReport);
    expect(readFileSync(page, 'utf8')).not.toMatch(/<script/);

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      tab.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      tab.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      tab.on('request', (r) => {
        if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`network request: ${r.url()}`);
      });
      await tab.goto(pathToFileURL(page).href);
      expect(await tab.getAttribute('main', 'data-new-failures')).toBe(String(roots.length));
      expect(await tab.textContent('h1')).toMatch(new RegExp(`^${roots.length} new failures`));
      const shown = tab.locator('#new-failures details[data-change="new"]:not(.explained)');
      expect(await shown.count()).toBe(roots.length);
      for (let i = 0; i < roots.length; i++) {
        const el = shown.nth(i);
        expect(await el.isVisible()).toBe(true);
        const subject = await el.getAttribute('data-subject');
        expect(roots).toContain(label({ id: (await el.getAttribute('data-check-id'))!, ...(subject ? { subject } : {}) }));
      }
      // Each run's report.html is linked, relative to the page.
      expect(await tab.locator('dd[data-run="HEAD"] a').getAttribute('href')).toBe('../faulty/report.html');
      const shot = path.join(dir, 'diff', 'diff.png');
      await tab.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(10_000);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
