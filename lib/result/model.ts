// The run result: one value that report.json, report.html, junit.xml and the console all read.
// report.json is this model written out; its JSON Schema (report.schema.json) is generated from it.
import { z } from 'zod';
import { PacedLoadSection } from './paced-load.ts';
import { KeyPoliteness } from './politeness.ts';
import { RateLimitKey } from './rate-limits.ts';

export const REPORT_SCHEMA_VERSION = '1.0.0';

export const Severity = z.enum(['must', 'should', 'info']);
export type Severity = z.infer<typeof Severity>;

export const Outcome = z.enum(['pass', 'fail', 'skip', 'error']);
export type Outcome = z.infer<typeof Outcome>;

/** How a request was authenticated, without the secret: what a reader needs to reproduce it. */
export const AuthUsed = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({
    kind: z.literal('key'),
    /** e.g. "free#1": the plan and position among keys of that plan. */
    label: z.string(),
    /** Environment variable a reproduction reads the key from. */
    env: z.string(),
    /**
     * The header as sent, with the key replaced by the variable, e.g. "Bearer $FREE_KEY"; for a near
     * miss of the key, shell text (inside double quotes) that rebuilds it, e.g. "Bearer ${FREE_KEY%?}".
     */
    header: z.string(),
  }),
  /** A configured key sent in the query string (`param`), not the header. */
  z.object({ kind: z.literal('key-in-query'), label: z.string(), env: z.string(), param: z.string() }),
  /**
   * A configured key sent by other carriers than `Authorization: Bearer` (another scheme, another
   * header, a query parameter, a cookie, a body field), named in `carriers`, e.g. "X-API-Key header",
   * "Authorization: Basic base64(<key>:)". The URL, headers and body are recorded redacted; a
   * reproduction rebuilds each value from `env`.
   */
  z.object({ kind: z.literal('key-carrier'), label: z.string(), env: z.string(), carriers: z.array(z.string()) }),
  /** A credential the harness made up (unknown key, other scheme): not a secret, shown as sent. */
  z.object({ kind: z.literal('literal'), header: z.string(), where: z.enum(['header', 'query']) }),
]);
export type AuthUsed = z.infer<typeof AuthUsed>;

export const Exchange = z.object({
  seq: z.number().int().describe('Order of the request within the run'),
  suite: z.string(),
  method: z.string(),
  url: z.string(),
  auth: AuthUsed,
  requestHeaders: z.record(z.string(), z.string()).describe('As sent; Authorization redacted'),
  requestBody: z.string().optional(),
  requestBodyBytes: z.number().int().optional().describe('Present when requestBody holds only the start of a longer body (an oversized one sent on purpose): the whole body\'s length in bytes'),
  status: z.number().int().optional().describe('Absent when no response arrived'),
  interim: z.array(z.number().int()).optional().describe('The 1xx interim answers (100, 102, 103...) that came before the final one, in order; the exchange is the final answer alone'),
  responseHeaders: z.record(z.string(), z.string()),
  responseBody: z.string().optional(),
  responseBodyTruncated: z.boolean().optional(),
  transportError: z.string().optional().describe('Code of the failure when no complete response arrived'),
  inFlightAtStop: z.boolean().optional().describe('A load request already on the wire when the load stopped at its first 429'),
  earlyOnPurpose: z.string().optional().describe("Sent before the key's last Retry-After had passed, on purpose: why (the one request of another operation right after a 429 that rate-limit.one-quota sends; the ban probe's requests with a disposable key)"),
  followsRetryAfter: z
    .object({ seq: z.number().int(), until: z.string().describe('ISO 8601: the moment that 429 named') })
    .optional()
    .describe("Sent after waiting out the Retry-After of the 429 answered to request `seq`: that 429's evidence (rate-limit.retry-after-obeyed)"),
  refusedWithinQuota: z
    .object({
      sent: z.number().int().describe('Requests the harness sent with the key within one minute window\'s length before the 429, this one included'),
      quota: z.number().int().describe("The plan's per-minute quota"),
      seconds: z.number().int().describe("The minute window's length"),
    })
    .optional()
    .describe("A 429 of the minute's quota that no limiter of the plan gives: the key had been sent no more than its quota within a window's length (rate-limit.quota)"),
  startedAt: z.string().describe('ISO 8601'),
  durationMs: z.number(),
});
export type Exchange = z.infer<typeof Exchange>;

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
        counterexample: z.string(),
        path: z.string().optional(),
        reproduce: z.array(z.string()),
      }),
    )
    .optional()
    .describe('Property checks: the kinds of failure beyond the first, each shrunk on its own'),
});
export type Evidence = z.infer<typeof Evidence>;

export const CheckResult = z.object({
  id: z.string().describe('Stable dotted id, e.g. auth.missing-key'),
  subject: z.string().optional().describe('What the check was applied to, e.g. "GET /pets"'),
  clause: z.string().describe('Section of the interface the check enforces'),
  title: z.string(),
  severity: Severity,
  outcome: Outcome,
  code: z.string().optional().describe('A failure\'s kind within its check, stable across runs and wording (e.g. "too-many-accepted"): tools tell failures apart by it, never by the message. For an error, the harness\'s own code when it gave one (HARNESS_RUN_TIME_LIMIT, HARNESS_TARGET_GONE, HARNESS_REFUSED_WITHIN_QUOTA, …)'),
  message: z.string(),
  suite: z.string(),
  causedBy: z
    .object({ id: z.string(), subject: z.string().optional() })
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
