// Measuring helpers for the bench: child runs with their peak memory, medians, load average.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';

export interface ChildRun {
  code: number | null;
  wallMs: number;
  /** Highest resident memory of the process tree seen while sampling every 100 ms, in MiB. */
  peakRssMiB: number;
  stdout: string;
}

function rssKiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The pid and all its descendants, from /proc (Linux). */
function tree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

/** Runs the CLI (no npm in between) and samples the memory of its process tree. */
export function runHarness(args: string[], env: Record<string, string> = {}, timeoutMs = 600_000): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['scripts/from-source.mjs', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    let peak = 0;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const sampler = setInterval(() => {
      if (child.pid) peak = Math.max(peak, tree(child.pid).reduce((sum, pid) => sum + rssKiB(pid), 0));
    }, 100);
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      clearTimeout(killer);
      resolve({ code, wallMs: Math.round(performance.now() - started), peakRssMiB: Math.round(peak / 1024), stdout });
    });
  });
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median and spread (min..max) of repeated measurements. */
export function summary(values: readonly number[]): { median: number; min: number; max: number; n: number } {
  // Rounded no coarser than its inputs (3 decimals), so the median never falls outside min..max.
  return { median: Math.round(median(values) * 1000) / 1000, min: Math.min(...values), max: Math.max(...values), n: values.length };
}

export function machine() {
  return { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(os.totalmem() / 2 ** 30), loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100) };
}
