// Where a run's memory goes, process by process. Runs the CLI through bench/measure.ts
// `runHarness` (which reports the peak of the whole process tree, as the bench does) and, beside
// it, samples every process of that tree every 100 ms from /proc (Linux), keeping each one's peak
// resident memory with its command line, and what each held when the tree as a whole peaked.
//
//   node --import tsx bench/peak.ts [--runs N] [--timeline] [-- harness args]
//
// Harness arguments default to a full local run (--seed 1 --quiet --report-dir
// reports/bench/peak). --timeline prints every process's memory every half second as well.
// The harness runs as `npm run conformance` does (scripts/from-source.mjs: a bundle, no loader);
// its esbuild service ends before the run starts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { runHarness } from './measure.ts';

/** One process at one sampling. */
export interface ProcessSample {
  pid: number;
  ppid: number;
  command: string;
  /** Resident memory (VmRSS), KiB. */
  kib: number;
}

/** Each process's peak, and the tree's: fed one sampling of the whole tree at a time. */
export class PeakTracker {
  private readonly peaks = new Map<number, ProcessSample>();
  private tree: { kib: number; at: ProcessSample[]; ms: number } = { kib: 0, at: [], ms: 0 };

  add(samples: readonly ProcessSample[], ms: number): number {
    for (const s of samples) {
      const known = this.peaks.get(s.pid);
      // A process that has just ended reads as no memory and no command line: keep what it had.
      if (!known || s.kib > known.kib) this.peaks.set(s.pid, { ...s, command: s.command || known?.command || '?' });
    }
    const kib = samples.reduce((t, s) => t + s.kib, 0);
    if (kib > this.tree.kib) this.tree = { kib, at: [...samples], ms };
    return kib;
  }

  /** Each process at its own peak, largest first. */
  perProcess(): ProcessSample[] {
    return [...this.peaks.values()].filter((s) => s.kib > 0).sort((a, b) => b.kib - a.kib);
  }

  /** The tree at its peak: the total, when (ms from the start), and each process then, largest first. */
  treePeak(): { kib: number; ms: number; at: ProcessSample[] } {
    return { ...this.tree, at: [...this.tree.at].sort((a, b) => b.kib - a.kib) };
  }
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // The process ended while we looked.
    return '';
  }
}

/**
 * The processes below `root` (not `root` itself) whose command runs `entry`, with everything below
 * them: the harness's tree, without this script's own helpers (tsx's esbuild service).
 */
function treeBelow(root: number, entry: string): ProcessSample[] {
  const children = new Map<number, number[]>();
  const info = new Map<number, { ppid: number; kib: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const status = read(`/proc/${name}/status`);
    if (!status) continue;
    const pid = Number(name);
    const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    info.set(pid, { ppid, kib: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) });
  }
  const command = (pid: number) => read(`/proc/${pid}/cmdline`).split('\0').filter(Boolean).join(' ');
  const pids = (children.get(root) ?? []).filter((pid) => command(pid).includes(entry));
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i]!) ?? []));
  return pids.map((pid) => ({ pid, ppid: info.get(pid)?.ppid ?? 0, command: command(pid), kib: info.get(pid)?.kib ?? 0 }));
}

const mib = (kib: number) => (kib / 1024).toFixed(1).padStart(6);
const short = (command: string) => command.replaceAll(`${PROJECT_ROOT}/`, '').slice(0, 140);
const line = (s: ProcessSample) => `  ${mib(s.kib)}  ${s.pid} (of ${s.ppid})  ${short(s.command)}`;

async function measure(args: string[], timeline: boolean, say: (line: string) => void): Promise<void> {
  const peaks = new PeakTracker();
  const started = Date.now();
  let tick = 0;
  const sampler = setInterval(() => {
    const samples = treeBelow(process.pid, 'scripts/from-source.mjs');
    const kib = peaks.add(samples, Date.now() - started);
    if (timeline && tick++ % 5 === 0) say(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s ${mib(kib)} MiB: ${samples.map((s) => `${s.pid} ${mib(s.kib).trim()}`).join(', ')}`);
  }, 100);
  const run = await runHarness(args);
  clearInterval(sampler);
  say(`exit ${run.code}, ${(run.wallMs / 1000).toFixed(1)} s, tree peak ${run.peakRssMiB} MiB (runHarness)`);
  say(`  ${run.stdout.trim().split('\n').at(-1) ?? ''}`);
  say('  each process at its peak (MiB):');
  for (const s of peaks.perProcess()) say(line(s));
  const tree = peaks.treePeak();
  say(`  at the tree's peak (${mib(tree.kib).trim()} MiB, ${(tree.ms / 1000).toFixed(1)} s in):`);
  for (const s of tree.at) say(line(s));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const sep = argv.indexOf('--');
  const own = sep === -1 ? argv : argv.slice(0, sep);
  const harnessArgs = sep === -1 ? ['--seed', '1', '--quiet', '--report-dir', path.join(PROJECT_ROOT, 'reports', 'bench', 'peak')] : argv.slice(sep + 1);
  const runsAt = own.indexOf('--runs');
  const runs = runsAt === -1 ? 1 : Number(own[runsAt + 1]);
  const say = (text: string) => process.stdout.write(`${text}\n`);
  for (let i = 1; i <= runs; i++) {
    say(`run ${i} of ${runs}:`);
    await measure(harnessArgs, own.includes('--timeline'), say);
  }
}
