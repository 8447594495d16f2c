// The installed command: `npm run build` compiles the harness into dist/ (plain JavaScript, what
// package.json `bin` names), and that build runs as the TypeScript does: its own version, the same
// checks, the local target started through `serve`, the suites run from .suite.js files.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listChecks } from '../../lib/checks/registry.ts';
import { PROJECT_ROOT } from '../../lib/config/load-target.ts';
import { readReport, runNode, tempDir } from './cli-helpers.ts';

const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
const BIN = path.join(PROJECT_ROOT, pkg.bin['animal-store-conformance']!);

/** The built command, as `npx animal-store-conformance ARGS` would run it. Bounded. */
const runBuilt = (args: string[], cwd: string) => runNode([BIN, ...args], { cwd });

describe('the built command (dist/)', () => {
  beforeAll(() => {
    const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
  }, 120_000);

  it('prints its version and its help', async () => {
    const cwd = tempDir('built');
    const version = await runBuilt(['--version'], cwd);
    expect({ code: version.code, out: version.stdout.trim() }).toEqual({ code: 0, out: pkg.version });
    const help = await runBuilt(['--help'], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: animal-store-conformance [options]');
  });

  it('lists the same checks as the registry', async () => {
    const listed = await runBuilt(['--list-checks', '--json'], tempDir('built'));
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(listChecks());
  });

  it('checks the local target from another directory: it starts the server with `serve`, runs the built suites and writes the reports there', async () => {
    const cwd = tempDir('built');
    const run = await runBuilt(['--suite', 'auth,get-pet', '--seed', '7', '--quiet'], cwd);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const latest = path.join(cwd, 'reports', 'local', 'latest');
    const report = readReport(latest);
    expect(report.options.suites).toEqual(['auth', 'get-pet']);
    expect(report.checks.filter((c) => c.suite === 'auth' && c.outcome === 'pass').length).toBeGreaterThan(5);
  });
});
