// The reference server's config: a strict zod schema and a YAML loader. Every error names the
// field at fault (`keys.1.plan`, `windows.extra`), never a key value.
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { PlanQuota, resolvePlans } from '../../lib/plans.ts';
import { FAULT_IDS, type FaultId } from './faults.ts';
import { VARIATION_IDS, type VariationId } from './variations.ts';

const PositiveInt = z.number().int().positive();

const KeyEntry = z.strictObject({
  // A key is sent in a header as a b64token-like value: visible ASCII, no spaces.
  key: z.string().regex(/^[\x21-\x7e]+$/, 'must be non-empty visible ASCII without spaces'),
  plan: z.string().min(1),
});

const FaultName = z.enum(FAULT_IDS as [FaultId, ...FaultId[]], {
  error: (issue) => `unknown fault ${JSON.stringify(issue.input)}; valid faults: ${FAULT_IDS.join(', ')}`,
});

const VariationName = z.enum(VARIATION_IDS as [VariationId, ...VariationId[]], {
  error: (issue) => `unknown variation ${JSON.stringify(issue.input)}; valid variations: ${VARIATION_IDS.join(', ')}`,
});

export const ServerConfigSchema = z
  .strictObject({
    host: z.string().min(1).default('127.0.0.1'),
    /** 0 asks the OS for a free port. */
    port: z.number().int().min(0).max(65535).default(0),
    keys: z.array(KeyEntry).min(1),
    /** Overrides or extends the published plan table (enterprise has no published numbers). */
    plans: z.record(z.string().min(1), PlanQuota).default({}),
    /** Window lengths in seconds; a local build may run short windows. */
    windows: z
      .strictObject({ minute: PositiveInt.default(60), day: PositiveInt.default(86_400) })
      .default({ minute: 60, day: 86_400 }),
    faults: z.array(FaultName).default([]),
    /** Legal variations from the catalogue in variations.ts. */
    variations: z.array(VariationName).default([]),
    /** Animals present at start. */
    preload: z.number().int().min(0).max(1_000_000).default(0),
  })
  .superRefine((config, ctx) => {
    const plans = resolvePlans(config.plans);
    const seen = new Map<string, number>();
    config.keys.forEach(({ key, plan }, i) => {
      if (!Object.hasOwn(plans, plan)) {
        const known = Object.keys(plans).join(', ');
        const message = `unknown plan "${plan}" (known: ${known}; add others under plans)`;
        ctx.addIssue({ code: 'custom', path: ['keys', i, 'plan'], message });
      }
      const first = seen.get(key);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['keys', i, 'key'], message: `same key as keys.${first}.key` });
      else seen.set(key, i);
    });
    if (config.windows.day < config.windows.minute) {
      ctx.addIssue({ code: 'custom', path: ['windows', 'day'], message: 'must not be shorter than windows.minute' });
    }
  });

export type ServerConfigInput = z.input<typeof ServerConfigSchema>;
export type ServerConfig = z.output<typeof ServerConfigSchema>;

export interface ConfigProblem {
  field: string;
  message: string;
}

export class ServerConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    super(`${source}: ${problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ')}`);
    this.name = 'ServerConfigError';
  }

  /** The first field at fault. */
  get field(): string {
    return this.problems[0]?.field ?? '';
  }
}

/** Validates a config object (as read from YAML, or built by a test) and fills in defaults. */
export function parseServerConfig(raw: unknown, source = 'config'): ServerConfig {
  const result = ServerConfigSchema.safeParse(raw ?? {}, {
    error: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'required' : undefined),
  });
  if (result.success) return result.data;
  throw new ServerConfigError(source, result.error.issues.flatMap(toProblems));
}

export async function loadServerConfig(file: string): Promise<ServerConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ServerConfigError(file, [{ field: '', message: `cannot read: ${(err as NodeJS.ErrnoException).code ?? String(err)}` }]);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ServerConfigError(file, [{ field: '', message: `not valid YAML: ${oneLine((err as Error).message)}` }]);
  }
  return parseServerConfig(raw, file);
}

/** The plan table a server with this config uses. */
export function configPlans(config: ServerConfig): Record<string, PlanQuota> {
  return resolvePlans(config.plans);
}

function toProblems(issue: z.core.$ZodIssue): ConfigProblem[] {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ field: field ? `${field}.${key}` : key, message: 'unknown field' }));
  }
  return [{ field, message: issue.message }];
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
