// `--replay REPORT.json --check ID` through the real CLI: a failing check run again alone says
// "still fails" (exit 1) against the faulty server and "passes now" (exit 0) against the fixed one,
// with the key from the target config; the report holds none.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startReferenceServer } from '../../targets/reference/server.ts';
import { filesUnder, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const KEYS = [{ key: 'sk-replay-pro-1-4d5e6f', plan: 'pro' }];
const WINDOWS = { minute: 2, day: 60 };
const dir = tempDir('replay');

describe('--replay', () => {
  let faulty: RunningServer;
  let fixed: RunningServer;
  const target = (server: RunningServer, name: string) => writeTarget(dir, { name, baseUrl: server.baseUrl, keys: KEYS, windows: WINDOWS, allow: { writes: true, load: false } }, `${name}.yaml`);
  const failed = path.join(dir, 'failed');

  beforeAll(async () => {
    faulty = await startReferenceServer({ keys: KEYS, windows: WINDOWS, faults: ['auth-wrong-status'] });
    fixed = await startReferenceServer({ keys: KEYS, windows: WINDOWS });
    const run = await runCli(['--target', target(faulty, 'faulty'), '--suite', 'auth', '--seed', '5', '--report-dir', failed, '--quiet']);
    expect(run.code).toBe(1);
  }, 60_000);
  afterAll(async () => {
    await faulty.close();
    await fixed.close();
  });

  it('still fails against the faulty server: exit 1, sending only that check\'s requests', async () => {
    const before = faulty.stats().requests;
    const run = await runCli(['--target', target(faulty, 'faulty'), '--replay', path.join(failed, 'report.json'), '--check', 'auth.missing-key']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: '' });
    expect(run.stdout).toContain('was fail: auth.missing-key');
    expect(run.stdout).toMatch(/STILL FAILS auth\.missing-key: \d+ of \d+ results failing/);
    const replayed = JSON.parse(readFileSync(path.join(failed, 'replay-auth.missing-key', 'report.json'), 'utf8')) as { checks: { id: string; suite: string }[] };
    expect(new Set(replayed.checks.filter((c) => c.suite === 'auth').map((c) => c.id))).toEqual(new Set(['auth.missing-key']));
    expect(faulty.stats().requests - before).toBeLessThan(20);
    for (const { text } of [...filesUnder(path.join(failed, 'replay-auth.missing-key')), { text: run.stdout }]) expect(text).not.toContain(KEYS[0]!.key);
  });

  it('passes now against the fixed server: exit 0', async () => {
    const run = await runCli(['--target', target(fixed, 'fixed'), '--replay', path.join(failed, 'report.json'), '--check', 'auth.missing-key', '--quiet']);
    expect({ code: run.code, out: run.stdout.trim() }).toEqual({ code: 0, out: expect.stringMatching(/^PASSES NOW auth\.missing-key: \d+ results, none failing$/) });
  });

  it('refuses a check that did not fail, and --replay without --check, with exit 2', async () => {
    const passed = await runCli(['--target', target(fixed, 'fixed'), '--replay', path.join(failed, 'report.json'), '--check', 'auth.scheme-case-insensitive']);
    expect(passed.code).toBe(2);
    expect(passed.stderr).toContain('did not fail');
    const alone = await runCli(['--replay', path.join(failed, 'report.json')]);
    expect({ code: alone.code, stderr: alone.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('--replay needs --check ID') });
  });
});
