// Assembling the run result from what the run produced. Pure: no clock, no files.
import type { Target } from '../config/schema.ts';
import type { CheckResult, Report } from './model.ts';
import type { Exchange } from './exchange.ts';
import { REPORT_SCHEMA_VERSION } from './model.ts';
import { summarise, verdictOf } from './verdict.ts';
import { EXIT, RunTimeLimitError } from '../errors.ts';

export function countRequests(exchanges: readonly Pick<Exchange, 'status' | 'suite'>[]): Report['requests'] {
  const byStatus: Record<string, number> = {};
  const bySuite: Record<string, number> = {};
  for (const e of exchanges) {
    const status = e.status === undefined ? 'transport-error' : String(e.status);
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    bySuite[e.suite] = (bySuite[e.suite] ?? 0) + 1;
  }
  return { total: exchanges.length, byStatus, bySuite };
}

export interface BuildInput {
  tool: Report['tool'];
  /** The target's keys (never written: only their labels, plans and whether disposable), or a report's. */
  target: Pick<Target, 'name' | 'baseUrl'> & { keys: Target['keys'] | Report['target']['keys'] };
  startedAt: Date;
  finishedAt: Date;
  seed: number;
  options: Report['options'];
  checks: CheckResult[];
  exchanges: readonly Pick<Exchange, 'status' | 'suite'>[];
  warnings: string[];
  /** Set when the target never answered: the run ends with exit status 3 whatever the checks say. */
  unreachable?: boolean;
  rateLimits?: Report['rateLimits'];
  /** The harness's politeness per key (lib/result/politeness.ts): left out when empty, as rateLimits. */
  politeness?: Report['politeness'];
  pacedLoad?: Report['pacedLoad'];
  baseline?: Report['baseline'];
  segment?: Report['segment'];
  merged?: Report['merged'];
  /** Requests counted elsewhere (a merge sums its segments'), instead of counting `exchanges`. */
  requests?: Report['requests'];
  /** The run's time limit in seconds (budget.maxSeconds, or --soak's). */
  timeLimitSeconds?: number;
}

export function buildReport(input: BuildInput): Report {
  const verdict = input.unreachable ? 'fail' : verdictOf(input.checks, input.options.strict);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: input.tool,
    target: {
      name: input.target.name,
      baseUrl: input.target.baseUrl,
      keys: input.target.keys.map((k) => ({ label: k.label, plan: k.plan, disposable: k.disposable })),
    },
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    seed: input.seed,
    options: input.options,
    verdict,
    exitCode: input.unreachable ? EXIT.unreachable : verdict === 'pass' ? EXIT.conformant : EXIT.notConformant,
    summary: summarise(input.checks),
    requests: input.requests ?? countRequests(input.exchanges),
    warnings: input.warnings,
    ...(input.timeLimitSeconds !== undefined
      ? { timeLimit: { seconds: input.timeLimitSeconds, reached: input.checks.some((c) => c.outcome === 'error' && c.code === RunTimeLimitError.CODE), notJudged: input.checks.filter((c) => c.outcome === 'error').length } }
      : {}),
    checks: input.checks,
    ...(input.rateLimits ? { rateLimits: input.rateLimits } : {}),
    ...(input.politeness && input.politeness.length > 0 ? { politeness: input.politeness } : {}),
    ...(input.pacedLoad ? { pacedLoad: input.pacedLoad } : {}),
    ...(input.baseline ? { baseline: input.baseline } : {}),
    ...(input.segment ? { segment: input.segment } : {}),
    ...(input.merged ? { merged: input.merged } : {}),
  };
}
