// The load suite end to end, as a user runs it: against the reference server (short windows) the
// paced load gets no 429 and holds the asked rate within 2 %, and its figures reach report.json,
// junit.xml, ctrf.json and the HTML charts. Faults that break paced traffic are in the fault
// catalogue (rate-slow-refill; latency-grows-with-load, whose breached threshold fails the run with
// the measured figure); without allow.load nothing is sent (test/e2e/rate-limit.test.ts).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { validate } from 'ctrf';
import { afterAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const KEYS = [
  { key: 'sk-paced-free-1-4c1d', plan: 'free' },
  { key: 'sk-paced-free-2-9e2a', plan: 'free' },
  { key: 'sk-paced-pro-1-7b3f', plan: 'pro' },
  // Its paced run would spend most of its day: not paced, saying why.
  { key: 'sk-paced-daily-1-2d8e', plan: 'daily' },
];
const PLANS = { daily: { perMinute: 40, perDay: 100 } };
const WINDOWS = { minute: 4, day: 40 };

const dir = tempDir('paced');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pacedRun(name: string, server: { baseUrl: string }, extra: Record<string, unknown> = {}, args: string[] = []) {
  const reports = path.join(dir, name);
  const target = { name, baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true }, ...extra };
  const run = await runCli(['--target', writeTarget(dir, target, `${name}.yaml`), '--suite', 'load', '--report-dir', reports, '--seed', '1', ...args], {}, 120_000);
  return { run, report: readReport(reports), reports };
}

describe('paced load', () => {
  it('against the reference: no 429, the asked rate held within 2 %, the figures in every report', async () => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS });
    try {
      const { run, report, reports } = await pacedRun('reference', server, { load: { thresholds: { p99Ms: 1000, errorRate: 0.001 } } });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/pacing 3 of 4 keys at 90% of their plans' per-minute quotas for 2 windows of 4 s: 756 requests/);
      const section = report.pacedLoad!;
      expect(section).toMatchObject({ fraction: 0.9, windows: 2, thresholds: { p99Ms: 1000, errorRate: 0.001 } });
      const paced = section.keys.filter((k) => !k.skipped);
      expect(paced.map((k) => k.label)).toEqual(['free#1', 'free#2', 'pro#1']);
      for (const k of paced) {
        expect({ key: k.label, rejected: k.rejected, other: k.other, noResponse: k.noResponse, dropped: k.dropped, sent: k.sent }).toEqual({ key: k.label, rejected: 0, other: 0, noResponse: 0, dropped: 0, sent: k.planned });
        expect(Math.abs(k.achievedRate / k.askedRate - 1)).toBeLessThanOrEqual(0.02);
        expect(k.perSecond.reduce((n, s) => n + s.ok, 0)).toBe(k.accepted);
      }
      expect(section.keys.find((k) => k.label === 'daily#1')?.skipped).toContain('more than a quarter of plan daily');
      // The server agrees: nothing refused, and it saw every paced request and each look before.
      expect(server.stats().rateLimited).toBe(0);
      expect(report.requests.bySuite.load).toBe(server.stats().requests - 1);
      const outcome = (id: string, subject: string) => report.checks.find((c) => c.id === id && c.subject === subject)?.outcome;
      for (const k of paced) for (const id of ['load.paced-no-429', 'load.paced-remaining', 'load.pacing']) expect(`${id} ${k.label} ${outcome(id, k.label)}`).toBe(`${id} ${k.label} pass`);
      expect(outcome('load.paced-no-429', 'daily#1')).toBe('skip');
      expect(report.checks.find((c) => c.id === 'load.thresholds')).toMatchObject({ outcome: 'pass', message: expect.stringMatching(/^over 756 paced requests: p99 \d+ ms \(threshold p99Ms 1000\), error rate 0 \(0 of 756\) \(threshold errorRate 0\.001\)$/) });
      expect(report.options).toMatchObject({ loadRate: 0.9, loadWindows: 2 });

      const junit = readFileSync(path.join(reports, 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testcase [^>]*name="load\.pacing \[free#1\]"[^>]*>\s*<properties>\s*<property name="askedRate" value="13\.5"\/>/);
      const ctrf = JSON.parse(readFileSync(path.join(reports, 'ctrf.json'), 'utf8'));
      expect(validate(ctrf).valid).toBe(true);
      const pacing = ctrf.results.tests.find((t: { name: string }) => t.name === 'load.pacing [pro#1]');
      expect(pacing.extra.figures).toMatchObject({ askedRate: 67.5, sent: 540, rejected: 0 });
      const html = readFileSync(path.join(reports, 'report.html'), 'utf8');
      for (const k of paced) {
        expect(html).toContain(`data-chart="paced-latency"`);
        expect(html).toContain(`<figure class="chart paced-answers" data-paced-key="${k.label}">`);
      }
      expect(html).toContain('data-429="0"');
    } finally {
      await server.close();
    }
  });
});
