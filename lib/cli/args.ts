// Command-line contract (DESIGN.md, "Command line"). Parsing is pure: argv in, options or a
// UsageError naming the option out.
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import { DEFAULT_RUNS, type RunOptions } from '../runner/options.ts';
import { didYouMean } from '../util/suggest.ts';
import { parseSegment, parseStartAt } from '../load/segment.ts';

export interface CliArgs extends RunOptions {
  quiet: boolean;
  help: boolean;
  /** Print the version and exit. */
  version: boolean;
  /** --replay REPORT.json --check ID: run that failing check again, alone. */
  replay?: { report: string; check: string };
  /** Print every check instead of running. */
  listChecks: boolean;
  /** With --list-checks: as a JSON array. */
  json: boolean;
}

const OPTIONS = {
  target: { type: 'string' },
  'report-dir': { type: 'string' },
  suite: { type: 'string', multiple: true },
  seed: { type: 'string' },
  runs: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'allow-load': { type: 'boolean' },
  'max-requests': { type: 'string' },
  strict: { type: 'boolean' },
  soak: { type: 'boolean' },
  quiet: { type: 'boolean' },
  'list-checks': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  'expected-failures': { type: 'string' },
  replay: { type: 'string' },
  check: { type: 'string' },
  'load-segment': { type: 'string' },
  'start-at': { type: 'string' },
  'load-rate': { type: 'string' },
  'load-windows': { type: 'string' },
} as const;

export const HELP = `Usage: animal-store-conformance [options]
       animal-store-conformance serve [--port N] [--fault NAME ...]   (the bundled reference server)
       animal-store-conformance merge DIR... --report-dir OUT   (load segments as one run)
       animal-store-conformance diff BASE HEAD   (what changed between two reports; diff --help)
       animal-store-conformance openapi [--json]   (the interface as OpenAPI 3.1)
       (in this repository: npm run conformance -- [options], npm run serve -- [options])

Checks a server against the Animal Store interface and writes report.json, report.html,
junit.xml and ctrf.json (Common Test Report Format). Exit status: 0 conformant, 1 not
conformant, 2 usage or config error, 3 target unreachable.

Options:
  --target NAME|PATH   target to check: a name in targets/ (local, staging, production) or a
                       path to a .yaml file (default: local, which starts the bundled reference
                       server)
  --report-dir DIR     write the reports to DIR (default: reports/<target>/<UTC timestamp>/
                       in the current directory)
  --suite NAME         run only this suite; repeat it, or give a comma-separated list
                       (default: every suite in suites/ but load, which runs only when named)
  --suite load         paced load: every key held at a constant rate within its plan's quota
                       for a few minute windows (needs allow.load): no 429 may come, Remaining
                       must count what was sent, and the target's load.thresholds (p50Ms,
                       p95Ms, p99Ms, errorRate) must hold. Says what it will send first
  --load-rate F        the paced load's rate, as a fraction of each plan's per-minute quota
                       (default 0.9; more than 0, at most 1)
  --load-windows N     how many minute windows the paced load lasts (default 2)
  --seed N             seed for generated cases; the same seed replays the same requests
                       (default: random, printed in the summary and the report)
  --runs N             cases each property check tries (default: ${DEFAULT_RUNS})
  --allow-writes       allow POST /pets, which creates animals nobody can delete
                       (overrides allow.writes in the target)
  --allow-load         allow the load and rate-limit suites (overrides allow.load in the
                       target)
  --max-requests N     hard cap on requests sent in this run (overrides budget.maxRequests)
  --strict             count failed "should" checks like failed "must" checks
  --expected-failures FILE
                       a YAML list of known failures, entries { id, reason, target? }: a
                       listed check that fails does not fail the run (shown as expected); one
                       that passes now fails it (stale entry: remove it); an unknown id is a
                       config error
  --soak               let checks that need real time (day-long windows) run to the end
  --quiet              print only the verdict line
  --list-checks        print every check (id, severity, suite, clause, title) and exit;
                       with --json, as a JSON array
  --replay REPORT.json --check ID
                       run that check again, alone, as it ran in that report (same seed, runs
                       and --strict; keys from the target config, never from the report):
                       exit 1 while it still fails, 0 once it passes now
  --load-segment I/N --start-at ISO-TIME
                       split the rate-limit suite's load over N runners (a CI job matrix):
                       this is runner I; every runner gets the same --start-at (e.g.
                       2026-11-24T18:30:00Z) and drives each key at the same moment with its
                       share of the load. Runner 1 also runs the other suites (before the
                       start time: give it the lead); the others run only the rate-limit
                       suite. Each writes its own report; merge judges them as one run
  --version            print the version and exit
  -h, --help           show this help

Environment: target files take \${VAR} and \${VAR:-default} from the environment, e.g.
ANIMAL_STORE_STAGING_URL and ANIMAL_STORE_STAGING_FREE_KEY for --target staging. When
GITHUB_STEP_SUMMARY is set (GitHub Actions sets it), a Markdown job summary is appended to that
file and each root failure (at most 10) is printed as an ::error annotation.
`;

function integer(option: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value.trim())) throw new UsageError(`--${option} takes a whole number, not "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${option} must be between ${min} and ${max}, not ${value}`);
  return n;
}

/** --replay and --check go together, and take the suites, seed and runs from the report. */
function replayOf(values: { replay?: string; check?: string; suite?: string[]; seed?: string; runs?: string; 'expected-failures'?: string; 'list-checks'?: boolean }): CliArgs['replay'] {
  if (values.check !== undefined && values.replay === undefined) throw new UsageError('--check goes with --replay REPORT.json');
  if (values.replay === undefined) return undefined;
  if (values.replay.trim() === '') throw new UsageError('--replay is empty');
  if (values.check === undefined || values.check.trim() === '') throw new UsageError('--replay needs --check ID: the failing check to run again');
  for (const option of ['suite', 'seed', 'runs', 'expected-failures', 'list-checks'] as const) {
    if (values[option] !== undefined) throw new UsageError(`--${option} does not go with --replay: the suite, seed and runs come from the report`);
  }
  return { report: values.replay, check: values.check.trim() };
}

/** --load-rate and --load-windows: the paced load of the load suite, which must be asked for. */
function paceOf(values: { 'load-rate'?: string; 'load-windows'?: string; replay?: string }, suites: readonly string[] | undefined): CliArgs['pace'] {
  const [rate, windows] = [values['load-rate'], values['load-windows']];
  if (rate === undefined && windows === undefined) return undefined;
  const given = rate !== undefined ? '--load-rate' : '--load-windows';
  if (values.replay !== undefined) throw new UsageError(`${given} does not go with --replay: the paced load is replayed as the report ran it`);
  if (!suites?.includes('load')) throw new UsageError(`${given} sets the paced load of the load suite, which runs only when named: add --suite load`);
  let fraction: number | undefined;
  if (rate !== undefined) {
    fraction = /^\s*(0|1)?\.[0-9]+\s*$|^\s*1\s*$/.test(rate) ? Number(rate) : Number.NaN;
    if (!(fraction > 0 && fraction <= 1)) throw new UsageError(`--load-rate takes a fraction of each plan's per-minute quota, more than 0 and at most 1 (e.g. 0.9), not "${rate}"`);
  }
  const count = integer('load-windows', windows, 1, 60);
  return { ...(fraction !== undefined ? { fraction } : {}), ...(count !== undefined ? { windows: count } : {}) };
}

/** --load-segment and --start-at go together. */
function segmentOf(values: { 'load-segment'?: string; 'start-at'?: string; replay?: string }, now: number): CliArgs['segment'] {
  const [segment, startAt] = [values['load-segment'], values['start-at']];
  if (segment === undefined && startAt === undefined) return undefined;
  if (segment === undefined) throw new UsageError('--start-at goes with --load-segment I/N');
  if (startAt === undefined) throw new UsageError('--load-segment needs --start-at ISO-TIME: the moment every runner starts, so that their loads meet in the same windows');
  if (values.replay !== undefined) throw new UsageError('--load-segment does not go with --replay');
  return { ...parseSegment(segment), startAt: parseStartAt(startAt, now) };
}

export function parseCli(argv: readonly string[], now: number = Date.now()): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
    if (unknown) {
      const hint = didYouMean(unknown.replace(/^-+/, ''), Object.keys(OPTIONS)).replace(/"(.*)"/, '"--$1"');
      throw new UsageError(`unknown option ${unknown}${hint}`);
    }
    throw new UsageError(message.split('\n')[0] ?? message);
  }
  const { values, positionals } = parsed;
  let suites = values.suite?.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  if (positionals.length > 0) {
    if (!suites) throw new UsageError(`unexpected argument "${positionals[0]}" (options start with --; see --help)`);
    suites = [...suites, ...positionals];
  }
  const seed = integer('seed', values.seed, 0, 2 ** 32 - 1);
  const runs = integer('runs', values.runs, 1, 100_000);
  const maxRequests = integer('max-requests', values['max-requests'], 1, 100_000_000);
  if (values.target !== undefined && values.target.trim() === '') throw new UsageError('--target is empty');
  if (values['report-dir'] !== undefined && values['report-dir'].trim() === '') throw new UsageError('--report-dir is empty');
  if (values['expected-failures'] !== undefined && values['expected-failures'].trim() === '') throw new UsageError('--expected-failures is empty');
  const replay = replayOf(values);
  const segment = segmentOf(values, now);
  const pace = paceOf(values, suites);
  if (values.json && !values['list-checks']) throw new UsageError('--json goes with --list-checks (the run itself always writes report.json)');
  return {
    target: values.target ?? 'local',
    ...(values['report-dir'] !== undefined ? { reportDir: values['report-dir'] } : {}),
    ...(suites ? { suites } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(runs !== undefined ? { runs } : {}),
    ...(maxRequests !== undefined ? { maxRequests } : {}),
    ...(values['expected-failures'] !== undefined ? { expectedFailures: values['expected-failures'] } : {}),
    ...(replay ? { replay } : {}),
    ...(segment ? { segment } : {}),
    ...(pace ? { pace } : {}),
    allowWrites: values['allow-writes'] ?? false,
    allowLoad: values['allow-load'] ?? false,
    strict: values.strict ?? false,
    soak: values.soak ?? false,
    quiet: values.quiet ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
    listChecks: values['list-checks'] ?? false,
    json: values.json ?? false,
  };
}

export const MERGE_HELP = `Usage: animal-store-conformance merge DIR... [--report-dir OUT] [--expected-failures FILE] [--quiet]
       (in this repository: npm run conformance -- merge DIR... --report-dir OUT)

Judges the reports of the N load segments of one run (--load-segment I/N, each written to its
own DIR) as one run: requests summed, each key's responses merged in time order and the
rate-limit checks judged again over all of them (quota per window, first 429, headers, latency
percentiles from the added histograms); the other suites' checks as the segments judged them.
Writes report.json, report.html, junit.xml and ctrf.json to OUT (default: reports/<target>/<UTC
timestamp>/). Refuses (exit 2, saying which) reports of different targets, seeds, start times or
segment counts, a segment missing or given twice. Exit status as a run: 0 conformant, 1 not.

Options:
  --report-dir OUT            where the merged reports go
  --expected-failures FILE    a baseline of known failures, as for a run
  --quiet                     print only the verdict line
  -h, --help                  show this help
`;

export interface MergeArgs {
  dirs: string[];
  reportDir?: string;
  expectedFailures?: string;
  quiet: boolean;
  help: boolean;
}

/** `merge DIR... [--report-dir OUT] [--expected-failures FILE] [--quiet]`. */
export function parseMergeCli(argv: readonly string[]): MergeArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { 'report-dir': { type: 'string' }, 'expected-failures': { type: 'string' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(`merge: ${message.split('\n')[0] ?? message}`);
  }
  const { values, positionals } = parsed;
  const help = values.help ?? false;
  if (!help && positionals.length === 0) throw new UsageError('merge needs the report directories of the load segments: merge DIR... --report-dir OUT');
  for (const option of ['report-dir', 'expected-failures'] as const) {
    if (values[option] !== undefined && values[option].trim() === '') throw new UsageError(`--${option} is empty`);
  }
  return {
    dirs: positionals,
    ...(values['report-dir'] !== undefined ? { reportDir: values['report-dir'] } : {}),
    ...(values['expected-failures'] !== undefined ? { expectedFailures: values['expected-failures'] } : {}),
    quiet: values.quiet ?? false,
    help,
  };
}
