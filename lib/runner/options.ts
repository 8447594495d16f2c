// What one conformance run is asked to do, whoever asks (the CLI, a test, another tool), and how
// those wishes combine with the target's own settings into the RunContext the suites receive.
import type { Target } from '../config/schema.ts';
import { UsageError } from '../errors.ts';
import { DEFAULT_PACE, type PaceSettings, type RunContext, SOAK_LIMIT_SECONDS } from '../config/run-context.ts';

export interface RunOptions {
  /** A target name in targets/ (local, staging, production) or a path to a .yaml file. */
  target: string;
  /** Where the reports go (default: reports/<target>/<UTC timestamp>/). */
  reportDir?: string;
  /** Suites to run (default: every suite in suites/). */
  suites?: readonly string[];
  /** The same seed sends the same requests (default: random). */
  seed?: number;
  /** Cases each property check tries. */
  runs?: number;
  /** Allow writes and load even where the target does not. */
  allowWrites: boolean;
  allowLoad: boolean;
  /** Overrides budget.maxRequests. */
  maxRequests?: number;
  strict: boolean;
  soak: boolean;
  /** A YAML baseline of known failures: listed failures do not block the verdict; stale entries do. */
  expectedFailures?: string;
  /** Run only this check's tests in the suites (--replay): the suites' preparation still runs. */
  onlyCheck?: string;
  /** --load-segment I/N with --start-at (epoch ms): this runner's share of the rate-limit suite's load. */
  segment?: { index: number; count: number; startAt: number };
  /** --load-rate and --load-windows: the load suite's paced load (defaults: 0.9 of each quota, 2 windows). */
  pace?: Partial<PaceSettings>;
}

export const DEFAULT_RUNS = 20;

/** The run's settings once the options and the target are combined, and what the user should know. */
export interface ResolvedRun {
  context: Omit<RunContext, 'requestsBefore' | 'echoProgress'>;
  warnings: string[];
}

export function resolveRun(options: RunOptions, target: Target, startedAt: Date, random: () => number = Math.random): ResolvedRun {
  const warnings: string[] = [];
  if (options.allowWrites && !target.allow.writes) warnings.push(`--allow-writes: POST /pets will create animals on ${target.name}, and the interface has no delete`);
  if (options.allowLoad && !target.allow.load) warnings.push(`--allow-load: the load suite will drive ${target.name} above its plan rates`);
  if (target.http.insecure) warnings.push(`http.insecure: TLS certificates of ${target.name} are not verified`);
  // --soak lets checks that need real time (a day's quota) run to the end.
  const allowLoad = options.allowLoad || target.allow.load;
  if (options.segment && !allowLoad) throw new UsageError(`--load-segment splits the load of the rate-limit suite, which ${target.name} does not allow (allow.load in the target, or --allow-load)`);
  const seconds = options.soak ? Math.max(target.budget.maxSeconds, SOAK_LIMIT_SECONDS) : target.budget.maxSeconds;
  return {
    context: {
      target,
      // Load segments without --seed agree on one: their start time's seconds.
      seed: options.seed ?? (options.segment ? Math.floor(options.segment.startAt / 1000) % 2 ** 32 : Math.floor(random() * 2 ** 32)),
      runs: options.runs ?? DEFAULT_RUNS,
      allowWrites: options.allowWrites || target.allow.writes,
      allowLoad,
      soak: options.soak,
      strict: options.strict,
      maxRequests: options.maxRequests ?? target.budget.maxRequests,
      pace: { ...DEFAULT_PACE, ...options.pace },
      deadline: Math.max(startedAt.getTime(), options.segment?.startAt ?? 0) + seconds * 1000,
      timeLimitSeconds: seconds,
      ...(options.segment ? { segment: options.segment } : {}),
    },
    warnings,
  };
}
