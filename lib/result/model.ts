// The run result: one value that report.json, report.html, junit.xml and the console all read.
// report.json is this model written out; its JSON Schema (report.schema.json) is generated from it.
import { z } from 'zod';
import { Exchange } from './exchange.ts';
import { PacedLoadSection } from './paced-load.ts';
import { KeyPoliteness } from './politeness.ts';
import { RateLimitKey } from './rate-limits.ts';

export const REPORT_SCHEMA_VERSION = '1.0.0';

export const Severity = z.enum(['must', 'should', 'info']);
export type Severity = z.infer<typeof Severity>;

export const Outcome = z.enum(['pass', 'fail', 'skip', 'error']);
export type Outcome = z.infer<typeof Outcome>;

export const Evidence = z.object({
  expected: z.string().optional(),
  actual: z.string().optional(),
  exchanges: z.array(Exchange),
  offenders: z
    .array(z.number().int())
    .optional()
    .describe("A rule over every response of the run: the seq of every answer that broke it (`exchanges` keeps the first few). A failure is shown under this one only when its own answers are among them"),
  /** Shell commands that send the same requests; keys read from environment variables. */
  reproduce: z.array(z.string()),
  /** Property checks: the minimal counterexample and how to replay it. */
  counterexample: z.string().optional(),
  seed: z.number().int().optional(),
  path: z.string().optional(),
  /** Property checks: every other kind of failure found, each with its own minimal counterexample. */
  failures: z
    .array(
      z.object({
        kind: z.string().describe('What tells this failure apart, e.g. the reason an invalid NewPet is invalid'),
        code: z.string().optional().describe('The code of its finding'),
        message: z.string(),
        expected: z.string().optional(),
        actual: z.string().optional(),
        counterexample: z.string().describe('A property\'s minimal counterexample; for a rule over the run, its first offending answer in the server\'s words'),
        path: z.string().optional(),
        reproduce: z.array(z.string()),
        count: z.number().int().optional().describe('A rule over every response of the run: how many answers showed this kind'),
        offenders: z
          .array(z.number().int())
          .optional()
          .describe('A rule over every response of the run: the seq of every answer of this kind (as `offenders` for the first kind). A failure is shown under the check through this kind only when its own answers are among them'),
        exchanges: z.array(Exchange).optional().describe('A rule over every response of the run: the first answers of this kind, in full'),
      }),
    )
    .optional()
    .describe('The kinds of failure beyond the first: a property\'s, each shrunk on its own; a rule over the run\'s, each code with its own count, examples and offenders'),
});
export type Evidence = z.infer<typeof Evidence>;

export const CheckResult = z.object({
  id: z.string().describe('Stable dotted id, e.g. auth.missing-key'),
  subject: z.string().optional().describe('What the check was applied to, e.g. "GET /pets"'),
  clause: z.string().describe('Section of the interface the check enforces'),
  title: z.string(),
  severity: Severity,
  standard: z.string().optional().describe('A should\'s: the standard (an RFC and its section) or the interface\'s intent it rests on, since no sentence of the interface states it'),
  outcome: Outcome,
  code: z.string().optional().describe('A failure\'s kind within its check, stable across runs and wording (e.g. "too-many-accepted"): tools tell failures apart by it, never by the message. For an error, the harness\'s own code when it gave one (HARNESS_RUN_TIME_LIMIT, HARNESS_TARGET_GONE, HARNESS_REFUSED_WITHIN_QUOTA, …)'),
  message: z.string(),
  suite: z.string(),
  causedBy: z
    .object({
      id: z.string(),
      subject: z.string().optional(),
      code: z.string().optional().describe('When the root names several kinds of failure (evidence.failures): the code of the kind whose answers this failure shares, the one it is linked through'),
    })
    .optional()
    .describe('A failure explained by another that failed too (its root cause, reported on its own): reports show it under that one. The verdict counts both.'),
  durationMs: z.number(),
  evidence: Evidence.nullable(),
  expectedFailure: z
    .object({ reason: z.string() })
    .optional()
    .describe('A failure listed in the run\'s --expected-failures file, with its reason: shown apart, and it does not block the verdict'),
});
export type CheckResult = z.infer<typeof CheckResult>;

const OutcomeCounts = z.object({ pass: z.number().int(), fail: z.number().int(), skip: z.number().int(), error: z.number().int() });
export type OutcomeCounts = z.infer<typeof OutcomeCounts>;

export const Report = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  target: z.object({
    name: z.string(),
    baseUrl: z.string(),
    keys: z.array(z.object({ label: z.string(), plan: z.string(), disposable: z.boolean() })).describe('Never the key itself'),
  }),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number(),
  seed: z.number().int(),
  options: z.object({
    suites: z.array(z.string()),
    runs: z.number().int(),
    strict: z.boolean(),
    allowWrites: z.boolean(),
    allowLoad: z.boolean(),
    soak: z.boolean(),
    maxRequests: z.number().int(),
    loadRate: z.number().optional().describe("The load suite's paced rate, a fraction of each plan's per-minute quota (--load-rate); set when the load suite ran"),
    loadWindows: z.number().int().optional().describe('How many minute windows the paced load lasted (--load-windows); set when the load suite ran'),
  }),
  verdict: z.enum(['pass', 'fail']),
  exitCode: z.number().int(),
  summary: z.object({
    checks: z.number().int(),
    byOutcome: OutcomeCounts,
    bySeverity: z.object({ must: OutcomeCounts, should: OutcomeCounts, info: OutcomeCounts }),
    expectedFailures: z.number().int().optional().describe('Failed checks marked expected by --expected-failures (counted in byOutcome.fail too)'),
  }),
  requests: z.object({
    total: z.number().int(),
    byStatus: z.record(z.string(), z.number().int()).describe('HTTP status, or "transport-error"'),
    bySuite: z.record(z.string(), z.number().int()),
  }),
  warnings: z.array(z.string()),
  timeLimit: z
    .object({
      seconds: z.number().int().describe('budget.maxSeconds (26 h with --soak): nothing is sent, and no wait ends, past it'),
      reached: z.boolean().describe('The run was cut by it: checks left then ended as errors (code HARNESS_RUN_TIME_LIMIT), not judged'),
      notJudged: z.number().int().describe('Checks that could not be carried out (outcome error), whatever the reason'),
    })
    .optional()
    .describe("The run's time limit, and whether it cut the run: what was judged and what could not be"),
  checks: z.array(CheckResult),
  rateLimits: z.array(RateLimitKey).optional().describe('Per key: the timeline of the rate-limit suite (for charts) and its load figures'),
  politeness: z
    .array(KeyPoliteness)
    .optional()
    .describe("The harness's own politeness, from its exchange log: per key that got a 429 in the run (any suite), its 429 periods on the harness's clock and the key's requests inside them, by why (in flight when the 429 came back, sent on purpose, or unexplained: a bug of the harness). Absent when no key got a 429"),
  pacedLoad: PacedLoadSection.optional().describe('The load suite (--suite load): each key paced at a constant rate within its quota, with its rate, gaps, latency and answers, overall and second by second'),
  baseline: z
    .object({
      file: z.string(),
      entries: z.array(
        z.object({
          id: z.string(),
          reason: z.string(),
          target: z.string().optional(),
          status: z.enum(['failed-as-expected', 'stale', 'not-run']).describe('stale: the check passes now (the run fails until the entry is removed); not-run: it did not run, only skipped or could not be carried out (error), so nothing to judge'),
        }),
      ),
    })
    .optional()
    .describe('The --expected-failures file of the run and what became of each entry for this target'),
  segment: z
    .object({ index: z.number().int(), count: z.number().int(), startAt: z.string() })
    .optional()
    .describe('A load segment\'s report (--load-segment index/count, --start-at): its rate-limit checks are judged by `merge`, from rateLimits[].raw'),
  merged: z
    .object({
      startAt: z.string(),
      segments: z.array(z.object({ index: z.number().int(), dir: z.string(), startedAt: z.string(), finishedAt: z.string(), requests: z.number().int(), verdict: z.enum(['pass', 'fail']) })),
    })
    .optional()
    .describe('Made by `merge` from load segments\' reports: which, and what each sent; the checks are judged again over all of them as one run'),
});
export type Report = z.infer<typeof Report>;
