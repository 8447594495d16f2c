// Load segments against one reference server: N harness processes (--load-segment I/N, one
// --start-at), then `merge`, and the same load from one runner, to compare: the merged verdict,
// the requests summed against the server's own count. Used by `npm run bench` and runnable alone:
//   node --import tsx bench/segments.ts [N] [--fault NAME]
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { Report } from '../lib/result/model.ts';
import type { FaultId } from '../targets/reference/faults.ts';
import { type RunningServer, startReferenceServer } from '../targets/reference/server.ts';

// The local target's keys and windows (targets/local.yaml): every plan, a day to spend, a disposable key.
export const KEYS = [
  { key: 'seg-free-key-1', plan: 'free' },
  { key: 'seg-free-key-2', plan: 'free' },
  { key: 'seg-pro-key-1', plan: 'pro' },
  { key: 'seg-business-key-1', plan: 'business' },
  { key: 'seg-daily-key-1', plan: 'daily' },
  { key: 'seg-spare-key-1', plan: 'free', disposable: true },
];
const PLANS = { daily: { perMinute: 40, perDay: 100 } };
const WINDOWS = { minute: 5, day: 60 };
type Keys = readonly { key: string; plan: string; disposable?: boolean }[];
const serverConfig = (keys: Keys, fault?: FaultId) => ({ keys: keys.map(({ key, plan }) => ({ key, plan })), plans: PLANS, windows: WINDOWS, ...(fault ? { faults: [fault] } : {}) });
const targetConfig = (baseUrl: string, keys: Keys) => ({ name: 'segments', baseUrl, keys, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true } });

interface Cli {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The harness's command line from source, bounded in time. */
export function runCli(args: string[], timeoutMs = 300_000): Promise<Cli> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/from-source.mjs', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

const readReport = (dir: string) => Report.parse(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')));

export interface SplitRun {
  segments: number;
  fault: string | null;
  segmentExits: (number | null)[];
  mergeExit: number | null;
  verdict: 'pass' | 'fail';
  requests: { merged: number; sumOfSegments: number; server: number };
  /** Rate-limit checks that failed in the merged report, by id and key. */
  failed: string[];
  merged: Report;
  mergeOutput: string;
}

interface RunOptions {
  fault?: FaultId;
  /** Suites to run (comma-separated; default: the rate-limit suite). */
  suites?: string;
  keys?: Keys;
}

/** A fresh reference server with the keys (and fault) asked for, and a target file for it in `dir`; closed after `use`. */
async function withServer<T>(dir: string, options: RunOptions, use: (target: string, server: RunningServer) => Promise<T>): Promise<T> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const keys = options.keys ?? KEYS;
  const server = await startReferenceServer(serverConfig(keys, options.fault));
  try {
    const target = path.join(dir, 'target.yaml');
    writeFileSync(target, stringify(targetConfig(server.baseUrl, keys)));
    return await use(target, server);
  } finally {
    await server.close();
  }
}

const failedRateLimitChecks = (report: Report) => report.checks.filter((c) => c.suite === 'rate-limit' && c.outcome === 'fail').map((c) => `${c.id} (${c.subject})`);

/**
 * N segments against one reference server (short windows), merged. `leadMs` is how far ahead
 * --start-at is: time for every process to start (and segment 1 to run the other suites).
 */
export function splitRun(dir: string, segments: number, options: RunOptions & { leadMs?: number } = {}): Promise<SplitRun> {
  return withServer(dir, options, async (target, server) => {
    const startAt = new Date(Date.now() + (options.leadMs ?? (options.suites && options.suites !== 'rate-limit' ? 25_000 : 8_000))).toISOString();
    const dirs = Array.from({ length: segments }, (_, i) => path.join(dir, `segment-${i + 1}`));
    const runs = await Promise.all(
      dirs.map((d, i) => runCli(['--target', target, '--suite', options.suites ?? 'rate-limit', '--load-segment', `${i + 1}/${segments}`, '--start-at', startAt, '--report-dir', d, '--quiet'])),
    );
    const serverCount = server.stats().requests;
    const out = path.join(dir, 'merged');
    const merge = await runCli(['merge', ...dirs, '--report-dir', out]);
    const merged = readReport(out);
    return {
      segments,
      fault: options.fault ?? null,
      segmentExits: runs.map((r) => r.code),
      mergeExit: merge.code,
      verdict: merged.verdict,
      requests: { merged: merged.requests.total, sumOfSegments: dirs.map(readReport).reduce((n, r) => n + r.requests.total, 0), server: serverCount },
      failed: failedRateLimitChecks(merged),
      merged,
      mergeOutput: merge.stdout + merge.stderr,
    };
  });
}

/** The same keys from one runner, for the comparison. */
export function singleRun(dir: string, options: RunOptions = {}) {
  return withServer(dir, options, async (target, server) => {
    const run = await runCli(['--target', target, '--suite', options.suites ?? 'rate-limit', '--report-dir', path.join(dir, 'single'), '--quiet']);
    const report = readReport(path.join(dir, 'single'));
    return { exit: run.code, verdict: report.verdict, requests: { harness: report.requests.total, server: server.stats().requests }, failed: failedRateLimitChecks(report) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 2);
  const faultAt = process.argv.indexOf('--fault');
  const fault = faultAt === -1 ? undefined : (process.argv[faultAt + 1] as FaultId);
  const suitesAt = process.argv.indexOf('--suite');
  const suites = suitesAt === -1 ? undefined : process.argv[suitesAt + 1];
  const result = await splitRun(path.join(PROJECT_ROOT, 'reports', 'bench', 'segments'), n, { ...(fault ? { fault } : {}), ...(suites ? { suites } : {}) });
  const { merged: _m, ...shown } = result;
  process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
}
