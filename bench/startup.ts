// Start-up of the built command (dist/, what `npx animal-store-conformance` runs): --help,
// --version and --list-checks against a bare `node -e 0`, interleaved, medians of five, with the
// peak memory of each (GNU time's %M). Builds dist/ first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { median } from './measure.ts';

const GNU_TIME = '/usr/bin/time';

function once(args: string[]): { ms: number; peakMiB?: number } {
  const timed = existsSync(GNU_TIME);
  const started = performance.now();
  const r = timed
    ? spawnSync(GNU_TIME, ['-f', '%M', process.execPath, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8' })
    : spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const kib = timed ? Number(r.stderr.trim().split('\n').at(-1)) : Number.NaN;
  return Number.isFinite(kib) ? { ms, peakMiB: Math.round(kib / 102.4) / 10 } : { ms };
}

export function startup(rounds = 5) {
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
  const bin = path.join('dist', 'lib', 'cli', 'main.js');
  const cases: Record<string, string[]> = { bare: ['-e', '0'], help: [bin, '--help'], version: [bin, '--version'], listChecks: [bin, '--list-checks'] };
  const seen: Record<string, { ms: number[]; peakMiB: number[] }> = {};
  for (let i = 0; i < rounds; i++) {
    for (const [name, args] of Object.entries(cases)) {
      const r = once(args);
      const s = (seen[name] ??= { ms: [], peakMiB: [] });
      s.ms.push(r.ms);
      if (r.peakMiB !== undefined) s.peakMiB.push(r.peakMiB);
    }
  }
  const figure = (name: string) => ({ medianMs: Math.round(median(seen[name]!.ms)), peakMiB: Math.max(0, ...seen[name]!.peakMiB) });
  const [bare, help, version, listChecks] = ['bare', 'help', 'version', 'listChecks'].map(figure) as [Figure, Figure, Figure, Figure];
  const ratio = (f: Figure) => Math.round((f.medianMs / bare.medianMs) * 100) / 100;
  return { bare, help, version, listChecks, ratioToBare: { help: ratio(help), version: ratio(version), listChecks: ratio(listChecks) }, rounds };
}

interface Figure {
  medianMs: number;
  /** 0 when GNU time is not there to measure it. */
  peakMiB: number;
}
