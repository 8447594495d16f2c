// Legal servers composed of the server families (targets/reference/families.ts), run against the
// harness: the functional suites through the command over sockets (without --strict, as a gate
// runs), and the rate-limit suite's checks on the virtual clock. The invariant: the command exits
// 0, no must fails on either side, and every should that fails names the standard it rests on.
// Shared by `npm run verify:legal` (bench/verify-legal.ts) and its tests.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { checkById } from '../../lib/checks/registry.ts';
import type { CheckDef } from '../../lib/checks/define.ts';
import type { Finding } from '../../lib/checks/types.ts';
import type { KeyRun } from '../../lib/result/rate-limits.ts';
import { listSuites } from '../../lib/runner/vitest-run.ts';
import { SERVER_FAMILIES } from '../../lib/checks/server-families.ts';
import { type Combination, combinationOf, FAMILY_AXES, onSockets, onTheClock, reproduceCommand, variationsOf } from '../../targets/reference/families.ts';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { readReport, runCli, tempDir, writeTarget } from '../e2e/cli-helpers.ts';
import { driveOnClock } from './drive-on-clock.ts';
import { KEYS, PLANS, WINDOWS } from './fault-catalogue.ts';

/** What one failing check said, and where. */
export interface Failure {
  check: string;
  severity: 'must' | 'should' | 'info' | 'unknown';
  outcome: 'fail' | 'error';
  code?: string;
  /** The command's run over sockets, or the rate-limit checks on the virtual clock. */
  side: 'sockets' | 'clock';
  /** Its subject over sockets ("GET /pets"), its key on the clock ("free#1"); empty for the run's. */
  where: string;
  message: string;
  /** A should's standard: as report.json gave it over sockets, from its definition on the clock. */
  standard?: string;
}

/** One way a combination breaks the invariant. */
export interface Violation {
  /** The check that broke it; absent for the command's exit code. */
  check?: string;
  /** Which side showed it. */
  side: 'sockets' | 'clock';
  /** One line: the check, its severity and code, where, and its message. */
  text: string;
}

export interface ComboOutcome {
  combination: Combination;
  /** The command's exit code over sockets; undefined when that part was not run. */
  exitCode?: number | null;
  failures: Failure[];
  /** Why the combination breaks the invariant: empty when it holds. */
  violations: Violation[];
  durationMs: number;
  /** The command's stderr when it exited neither 0 nor 1 (a crash, a timeout). */
  stderr?: string;
}

export interface RunOptions {
  /** Which side to run (default both). */
  parts?: readonly ('sockets' | 'clock')[];
  /** Checks judged besides the registry's on every key's run on the clock (a test's, say). */
  extraClockChecks?: readonly CheckDef<string, (run: KeyRun) => Finding>[];
  /** Where reports go (a temporary directory by default, removed after). */
  dir?: string;
  /** The command's --seed (default the combination's seed). */
  runSeed?: number;
}

const CLOCK_LABELS = ['free#1', 'free#2', 'pro#1', 'daily#1'];

/** The suites that judge what answers look like: neither the rate-limit suite nor the paced load (those meet the clock). */
const FUNCTIONAL = listSuites().filter((s) => s !== 'rate-limit' && s !== 'load');

/** The invariant over a combination's failures and exit code. */
export function violationsOf(failures: readonly Failure[], exitCode: number | null | undefined): Violation[] {
  const out: Violation[] = [];
  if (exitCode !== undefined && exitCode !== 0) out.push({ side: 'sockets', text: `the command exited ${exitCode === null ? 'on a signal (timed out)' : exitCode}, not 0` });
  for (const f of failures) {
    const { check, side } = f;
    const where = `(${[side, f.where].filter((w) => w !== '').join(' ')})`;
    if (f.outcome === 'error') out.push({ check, side, text: `${check} errored ${where}: ${f.message}` });
    else if (f.severity === 'must' || f.severity === 'unknown') out.push({ check, side, text: `${check} [${f.severity}]${f.code ? ` ${f.code}` : ''} ${where}: ${f.message}` });
    else if (f.severity === 'should' && !f.standard) out.push({ check, side, text: `${check} [should] names no standard ${where}: ${f.message}` });
  }
  return out;
}

async function onSocketsRun(c: Combination, dir: string, seed: number): Promise<{ exitCode: number | null; failures: Failure[]; stderr: string }> {
  const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations: onSockets(variationsOf(c)) });
  const name = `combo-${c.seed}-${c.index}`;
  const reports = path.join(dir, name);
  try {
    const target = { name, baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true } };
    const run = await runCli(['--target', writeTarget(dir, target, `${name}.yaml`), '--report-dir', reports, '--seed', String(seed), '--quiet', '--suite', FUNCTIONAL.join(',')], {}, 180_000);
    let failures: Failure[] = [];
    try {
      failures = readReport(reports).checks.flatMap((r): Failure[] =>
        r.outcome === 'fail' || r.outcome === 'error'
          ? [{ check: r.id, severity: r.severity, outcome: r.outcome, ...(r.code ? { code: r.code } : {}), side: 'sockets', where: r.subject ?? '', message: r.message, ...(r.standard ? { standard: r.standard } : {}) }]
          : [],
      );
    } catch {
      // No report: the exit code and stderr say why.
    }
    return { exitCode: run.code, failures, stderr: run.stderr };
  } finally {
    await server.close();
  }
}

async function onClockRun(c: Combination, extra: RunOptions['extraClockChecks'] = []): Promise<Failure[]> {
  const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations: onTheClock(variationsOf(c)) });
  const failures: Failure[] = [];
  for (const label of CLOCK_LABELS) {
    const judged = [...r.findings(label)];
    const run = r.runs.get(label);
    if (run) for (const check of extra) judged.push([check.id, check.judge(run)]);
    for (const [id, f] of judged) {
      if (f.outcome !== 'fail') continue;
      const def = checkById(id) ?? extra.find((x) => x.id === id);
      failures.push({ check: id, severity: def?.severity ?? 'unknown', outcome: 'fail', ...(f.code ? { code: f.code } : {}), side: 'clock', where: label, message: f.message ?? '', ...(def?.standard ? { standard: def.standard } : {}) });
    }
  }
  // Run-level checks judge the whole run: the same finding under every key, told once.
  return failures.filter((f, i) => failures.findIndex((g) => g.check === f.check && g.message === f.message) === i);
}

/** The server of exactly these variations (a line verify:legal printed); throws where none is. */
export function serverOf(variations: readonly string[]): Combination {
  const c = combinationOf(variations);
  if ('error' in c) throw new Error(c.error);
  return c;
}

/** One combination, both sides (or those asked for), judged by the invariant. */
export async function runCombination(c: Combination, options: RunOptions = {}): Promise<ComboOutcome> {
  const started = Date.now();
  const parts = options.parts ?? ['sockets', 'clock'];
  const dir = options.dir ?? tempDir('legal');
  try {
    const failures: Failure[] = [];
    let exitCode: number | null | undefined;
    let stderr: string | undefined;
    if (parts.includes('clock')) failures.push(...(await onClockRun(c, options.extraClockChecks)));
    if (parts.includes('sockets')) {
      const s = await onSocketsRun(c, dir, options.runSeed ?? c.seed);
      exitCode = s.exitCode;
      failures.push(...s.failures);
      if (s.exitCode !== 0 && s.exitCode !== 1) stderr = s.stderr;
    }
    return { combination: c, ...(exitCode === undefined ? {} : { exitCode }), failures, violations: violationsOf(failures, exitCode), durationMs: Date.now() - started, ...(stderr ? { stderr } : {}) };
  } finally {
    if (!options.dir) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every combination, `concurrency` at a time, each outcome handed to `onOutcome` as it ends (for
 * progress); the outcomes in the combinations' order.
 */
export async function runCombinations(combinations: readonly Combination[], options: RunOptions & { concurrency?: number; onOutcome?: (o: ComboOutcome, done: number) => void } = {}): Promise<ComboOutcome[]> {
  const outcomes: ComboOutcome[] = new Array(combinations.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < combinations.length) {
      const i = next++;
      outcomes[i] = await runCombination(combinations[i]!, options);
      done++;
      options.onOutcome?.(outcomes[i]!, done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 2, combinations.length)) }, worker));
  return outcomes;
}

/**
 * The fewest variations of a combination that still break the invariant with a check it broke
 * (one variation left out at a time, kept out while the break stays): what a reader debugs. Each
 * try is a run of the parts asked for, so on sockets this costs a run per variation.
 */
export async function shrinkCombination(outcome: ComboOutcome, options: RunOptions = {}): Promise<ComboOutcome> {
  const broken = (o: ComboOutcome) => new Set(o.violations.map((v) => v.check ?? 'exit code'));
  const wanted = broken(outcome);
  let best = outcome;
  let variations = variationsOf(outcome.combination);
  for (const v of [...variations]) {
    const fewer = variations.filter((x) => x !== v);
    if (fewer.length === 0) continue;
    const c = combinationOf(fewer, outcome.combination.seed);
    if ('error' in c) continue;
    const tried = await runCombination({ ...c, index: outcome.combination.index }, options);
    if ([...broken(tried)].some((check) => wanted.has(check))) {
      best = tried;
      variations = fewer;
    }
  }
  return best;
}

export interface Summary {
  parts: readonly ('sockets' | 'clock')[];
  concurrency: number;
  seconds: number;
  /** The fewest variations found for a combination that broke the invariant, by its index. */
  smallest?: ReadonlyMap<number, ComboOutcome>;
}

/**
 * What the command prints after its runs: how many combinations held, the runtime, the families'
 * coverage, and for each one that broke the invariant the line that runs it again (and its
 * smallest, where shrunk), then the checks that broke it.
 */
export function summaryLines(outcomes: readonly ComboOutcome[], { parts, concurrency, seconds, smallest }: Summary): string[] {
  const failing = outcomes.filter((out) => out.violations.length > 0);
  const lines: string[] = [];
  lines.push(`${outcomes.length - failing.length} of ${outcomes.length} combinations hold: ${parts.includes('sockets') ? 'the command exited 0 without --strict, ' : ''}no must failed, every should that failed named its standard.`);
  lines.push(`Runtime: ${seconds.toFixed(0)} s (${(seconds / Math.max(1, outcomes.length)).toFixed(1)} s a combination, ${concurrency} at a time).`);
  const families = outcomes.map((out) => out.combination.members.length);
  if (families.length > 0) lines.push(`Families a combination: ${Math.min(...families)} to ${Math.max(...families)} (mean ${(families.reduce((a, b) => a + b, 0) / families.length).toFixed(1)}).`);
  lines.push('Coverage (family: combinations it took part in; its variations picked):');
  for (const family of SERVER_FAMILIES) {
    const inIt = outcomes.filter((out) => out.combination.members.some((m) => m.family === family.id));
    const own = FAMILY_AXES[family.id].flatMap((a) => a.alternatives);
    const picked = new Set(inIt.flatMap((out) => out.combination.members.filter((m) => m.family === family.id).flatMap((m) => m.variations)));
    const missed = own.filter((v) => !picked.has(v));
    lines.push(`  ${family.id.padEnd(15)} ${String(inIt.length).padStart(4)}  ${picked.size}/${own.length}${missed.length > 0 ? ` (never: ${missed.join(', ')})` : ''}`);
  }
  if (failing.length === 0) return lines;
  lines.push('', `${failing.length} combination(s) break the invariant; each runs again alone with:`);
  const onlyClock = (o: ComboOutcome) => o.violations.every((v) => v.side === 'clock');
  for (const out of failing) {
    lines.push(`  #${out.combination.index} (seed ${out.combination.seed}): ${reproduceCommand(out.combination)}${onlyClock(out) && !parts.includes('sockets') ? ' --clock-only' : ''}`);
    const least = smallest?.get(out.combination.index);
    if (least && variationsOf(least.combination).length < variationsOf(out.combination).length) {
      lines.push(`      smallest: ${reproduceCommand(least.combination)}${onlyClock(least) ? ' --clock-only' : ''}`);
      for (const v of least.violations) lines.push(`        ${v.text}`);
    }
  }
  const byCheck = new Map<string, number>();
  for (const out of failing) for (const check of new Set(out.violations.map((v) => v.check ?? 'exit code'))) byCheck.set(check, (byCheck.get(check) ?? 0) + 1);
  lines.push(`Checks that broke it, by combinations: ${[...byCheck].map(([check, n]) => `${check} ×${n}`).join(', ')}`);
  return lines;
}
