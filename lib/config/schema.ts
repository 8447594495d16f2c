// The target config contract (DESIGN.md, "Target config"): a strict zod schema. Unknown fields are
// errors. Values substituted from the environment arrive as strings, so numeric and boolean fields
// accept their exact string forms too ("10000", "true"), and nothing looser ("yes" stays an error).
import { z } from 'zod';
import { CUSTOM_PLANS, PUBLISHED_PLANS, type PlanQuota, planQuota } from '../plans.ts';

const positiveInt = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*[0-9]+\s*$/.test(v) ? Number(v) : v),
  z.number().int().positive(),
);

/** A number, or its decimal string form ("0.001" from the environment). */
const decimal = z.preprocess((v) => (typeof v === 'string' && /^\s*[0-9]+(\.[0-9]+)?\s*$/.test(v) ? Number(v) : v), z.number());

const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

const PLAN_NAME = /^[a-z][a-z0-9-]*$/;
const PlanName = z.string().regex(PLAN_NAME, 'plan names are lower-case words, e.g. "free"');

const Key = z.strictObject({
  key: z.string().min(1, 'is empty (is its environment variable set to an empty value?)'),
  plan: PlanName,
  disposable: bool.default(false),
});

const Quota = planQuota(positiveInt);

const BaseUrl = z
  .string()
  .min(1, { message: 'is empty', abort: true })
  // abort: the refinements below call new URL(), which throws on what is not a URL.
  .refine((s) => URL.canParse(s), { message: 'is not a URL', abort: true })
  .refine((s) => /^https?:$/.test(new URL(s).protocol), 'must be an http:// or https:// URL')
  .refine((s) => /\/v1\/?$/.test(new URL(s).pathname), 'must end with /v1 (the interface puts the version last in the address)')
  .transform((s) => s.replace(/\/+$/, ''));

export const TargetSchema = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-"'),
    baseUrl: BaseUrl,
    keys: z.array(Key).min(1, 'needs at least one key'),
    plans: z.record(PlanName, Quota).default({}),
    windows: z.strictObject({ minute: positiveInt.default(60), day: positiveInt.default(86_400) }).prefault({}),
    allow: z.strictObject({ writes: bool.default(false), load: bool.default(false) }).prefault({}),
    budget: z
      .strictObject({
        maxRequests: positiveInt.default(5_000),
        /** Whole-run time limit: past it no request is sent and the remaining checks end as errors. */
        maxSeconds: positiveInt.default(1_800),
      })
      .prefault({}),
    start: z
      .strictObject({
        command: z.string().min(1, 'is empty'),
        cwd: z.string().optional(),
        readyTimeoutMs: positiveInt.default(20_000),
        env: z.record(z.string(), z.string()).default({}),
      })
      .optional(),
    /** The load suite's paced load: what its latency and errors must stay within (like k6's thresholds). */
    load: z
      .strictObject({
        thresholds: z
          .strictObject({
            p50Ms: decimal.pipe(z.number().positive()).optional(),
            p95Ms: decimal.pipe(z.number().positive()).optional(),
            p99Ms: decimal.pipe(z.number().positive()).optional(),
            errorRate: decimal.pipe(z.number().min(0).max(1, 'is a fraction of the requests, from 0 to 1')).optional(),
          })
          .prefault({}),
      })
      .prefault({}),
    http: z
      .strictObject({
        headers: z.record(z.string(), z.string()).default({}),
        /** Per request: silence before the headers and between body chunks; the whole exchange gets 1 s more. */
        timeoutMs: positiveInt.default(10_000),
        /** Establishing the connection (TCP and TLS); defaults to timeoutMs. */
        connectTimeoutMs: positiveInt.optional(),
        /** Requests in flight at once (load bursts); the functional suites send one at a time. */
        maxConcurrency: positiveInt.default(16),
        proxy: z.string().optional(),
        caFile: z.string().optional(),
        /** Accept any TLS certificate. Only for test hosts; the run warns about it. */
        insecure: bool.default(false),
      })
      .prefault({}),
  })
  .superRefine((t, ctx) => {
    t.keys.forEach((k, i) => {
      // A malformed name already has its issue; not echoing it keeps a key pasted there out of the message.
      if (Object.hasOwn(t.plans, k.plan) || Object.hasOwn(PUBLISHED_PLANS, k.plan) || !PLAN_NAME.test(k.plan)) return;
      const why = CUSTOM_PLANS.includes(k.plan)
        ? `plan "${k.plan}" has custom quotas: give them under plans.${k.plan} ({ perMinute, perDay })`
        : `unknown plan "${k.plan}": use one of ${Object.keys(PUBLISHED_PLANS).join(', ')} or define it under plans`;
      ctx.addIssue({ code: 'custom', path: ['keys', i, 'plan'], message: why });
    });
    const seen = new Map<string, number>();
    t.keys.forEach((k, i) => {
      const first = seen.get(k.key);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['keys', i, 'key'], message: `is the same key as keys[${first}].key` });
      } else seen.set(k.key, i);
    });
  });

type Parsed = z.output<typeof TargetSchema>;

export interface TargetKey {
  key: string;
  plan: string;
  disposable: boolean;
  /** "free#1": plan and 1-based position among the target's keys of that plan. */
  label: string;
  /** Environment variable the key came from, or a suggested name when it was written literally. */
  env: string;
  quota: PlanQuota;
}

export interface Target extends Omit<Parsed, 'keys'> {
  keys: TargetKey[];
  /** File the target was read from. */
  source: string;
}
