// The suites as ordinary vitest files: `ANIMAL_STORE_TARGET=... npx vitest run suites/X.suite.ts`
// starts the target when its config says so, prints vitest's own report, and exits non-zero
// exactly when a check that blocks the verdict fails.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config/load-target.ts';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { type CliRun, tempDir, writeTarget } from './cli-helpers.ts';

const KEYS = [
  { key: 'sk-alone-FREE-1a2b3c4d', plan: 'free' },
  { key: 'sk-alone-PRO-5e6f7a8b', plan: 'pro' },
];
const WINDOWS = { minute: 4, day: 40 };

function vitestAlone(suite: string, env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', `suites/${suite}.suite.ts`], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, NO_COLOR: '1', CI: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const dir = tempDir('vitest-alone');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function againstFault(fault: string | undefined, env: Record<string, string> = {}, suite = 'auth'): Promise<CliRun> {
  const server = await startReferenceServer({ keys: KEYS, windows: WINDOWS, faults: fault ? [fault as never] : [] });
  try {
    const file = writeTarget(dir, { name: fault ?? 'conforming', baseUrl: server.baseUrl, keys: KEYS, windows: WINDOWS, allow: { writes: true, load: false } }, `${fault ?? 'conforming'}.yaml`);
    return await vitestAlone(suite, { ANIMAL_STORE_TARGET: file, ...env });
  } finally {
    await server.close();
  }
}

describe('a suite run by vitest alone', () => {
  it('starts the local target itself and exits 0 on the bundled reference', async () => {
    const run = await vitestAlone('auth', { ANIMAL_STORE_TARGET: 'local', ANIMAL_STORE_SEED: '5' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Target started \(pid \d+\)/);
    // auth.cookie-not-credential skips: the reference sets no cookie.
    expect(run.stdout).toMatch(/suites\/auth\.suite\.ts \(42 tests \| 1 skipped\)/);
    expect(run.stdout).toMatch(/Tests\s+41 passed \| 1 skipped/);
    expect(run.stdout + run.stderr).not.toContain('local-free-key-1');
    // Near misses are made from the key with the most headroom: nothing of it, in any case.
    expect(run.stdout + run.stderr).not.toMatch(/local-business-key/i);
  });

  it('exits non-zero against a server that accepts any key, naming the failed must check with its evidence', async () => {
    const run = await againstFault('auth-disabled');
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/auth\.missing-key \[listPets GET \/pets\]/);
    expect(run.stdout + run.stderr).toMatch(/must check failed: got 200, not 401\s+expected: 401 with an Error body/);
    expect(run.stdout + run.stderr).toContain('curl ');
    for (const { key } of KEYS) expect(run.stdout + run.stderr).not.toContain(key);
  });

  it('exits 0 when only a should check fails, and 1 with ANIMAL_STORE_STRICT=1', async () => {
    const lenient = await againstFault('auth-scheme-case-sensitive');
    expect(lenient.code, lenient.stdout + lenient.stderr).toBe(0);
    const strict = await againstFault('auth-scheme-case-sensitive', { ANIMAL_STORE_STRICT: '1' });
    expect(strict.code).toBe(1);
    expect(strict.stdout + strict.stderr).toMatch(/should check failed: "bearer <key>"/);
  });

  it('reads listPets of each status before the suite writes, and fails list-pets.empty-page on a null page', async () => {
    const run = await againstFault('list-null-when-empty', {}, 'list-pets');
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/list-pets\.empty-page \[GET \/pets\?status=… before any write\]/);
    expect(run.stdout + run.stderr).toMatch(/must check failed: GET \/pets\?status=available → 200 with null: body is not a JSON array/);
  });

  it('names an unknown target without a stack trace, and exits non-zero', async () => {
    const run = await vitestAlone('auth', { ANIMAL_STORE_TARGET: 'stagin' });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('unknown target "stagin" (did you mean "staging"?)');
    expect(run.stdout + run.stderr).not.toMatch(/at .*\.ts:\d+:\d+/);
  });
});
