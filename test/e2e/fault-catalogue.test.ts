// The reference server's fault catalogue against the suites: each fault must fail the run through
// the check meant for it. Faults whose checks belong to suites not written yet are listed apart,
// so the gap is visible and a new fault cannot be forgotten.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_IDS, type FaultId } from '../../targets/reference/faults.ts';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const KEYS = [
  { key: 'sk-fault-free-1-7f3a9c', plan: 'free' },
  { key: 'sk-fault-pro-1-2b8d4e', plan: 'pro' },
];

/** Fault, the check id that must fail, and the store it needs (animals present beforehand). */
const CAUGHT: { fault: FaultId; check: string; preload?: number }[] = [
  { fault: 'auth-disabled', check: 'auth.missing-key' },
  { fault: 'auth-wrong-status', check: 'auth.invalid-key' },
  { fault: 'auth-no-error-body', check: 'auth.missing-key' },
  { fault: 'error-status-mismatch', check: 'auth.wrong-scheme' },
  { fault: 'error-plain-text', check: 'auth.missing-key' },
  { fault: 'list-pet-missing-id', check: 'list-pets.smoke', preload: 5 },
  { fault: 'list-default-limit-50', check: 'list-pets.smoke', preload: 30 },
  { fault: 'list-ignores-limit', check: 'list-pets.smoke', preload: 30 },
  { fault: 'content-type-text', check: 'list-pets.smoke' },
];

/** Faults whose checks arrive with the functional suites (issue 3) and the rate-limit suite (issue 4). */
const AWAITING_SUITES: FaultId[] = [
  'auth-scheme-case-sensitive',
  'auth-after-validation',
  'list-wrong-status-filter',
  'create-500-on-bad-input',
  'create-accepts-missing-name',
  'create-truncates-int64',
  'create-uses-body-id',
  'get-200-for-missing',
  'headers-missing-on-errors',
  'headers-missing',
];

const dir = tempDir('faults');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fault catalogue', () => {
  it('lists every fault of the reference server exactly once, as caught or as awaiting its suite', () => {
    const listed = [...CAUGHT.map((c) => c.fault), ...AWAITING_SUITES];
    expect([...listed].sort()).toEqual([...FAULT_IDS].sort());
  });

  it.each(CAUGHT)('$fault fails the run through $check', async ({ fault, check, preload }) => {
    const server = await startReferenceServer({ keys: KEYS, windows: { minute: 2, day: 30 }, faults: [fault], preload: preload ?? 0 });
    try {
      const reports = path.join(dir, fault);
      const target = { name: fault, baseUrl: server.baseUrl, keys: KEYS, windows: { minute: 2, day: 30 }, allow: { writes: true } };
      const run = await runCli(['--target', writeTarget(dir, target, `${fault}.yaml`), '--report-dir', reports, '--quiet']);
      expect(run.code).toBe(1);
      const failed = readReport(reports).checks.filter((c) => c.outcome === 'fail').map((c) => c.id);
      expect(failed).toContain(check);
    } finally {
      await server.close();
    }
  });
});

describe('legal variations pass', () => {
  it('a store preloaded with 500 animals', async () => {
    const server = await startReferenceServer({ keys: KEYS, windows: { minute: 2, day: 30 }, preload: 500 });
    try {
      const reports = path.join(dir, 'preload-500');
      const target = { name: 'preload', baseUrl: server.baseUrl, keys: KEYS, windows: { minute: 2, day: 30 }, allow: { writes: true } };
      const run = await runCli(['--target', writeTarget(dir, target, 'preload.yaml'), '--report-dir', reports, '--quiet']);
      expect(run.stdout).toMatch(/^CONFORMANT/);
      expect(run.code).toBe(0);
      expect(readReport(reports).checks.every((c) => c.outcome === 'pass')).toBe(true);
    } finally {
      await server.close();
    }
  });
});
