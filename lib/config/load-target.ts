// Reading a target: resolve the name to a file, parse YAML, substitute the environment, validate.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../errors.ts';
import { resolvePlans } from '../plans.ts';
import { harnessCommand, PROJECT_ROOT } from '../paths.ts';
import { didYouMean } from '../util/suggest.ts';
import { type Target, type TargetKey, TargetSchema } from './schema.ts';
import { fieldPath, substitute, SubstitutionSyntaxError } from './substitute.ts';

export { PROJECT_ROOT } from '../paths.ts';
export const TARGETS_DIR = path.join(PROJECT_ROOT, 'targets');

/** `local` means targets/local.yaml; anything ending in .yaml or .yml is a path. */
export function resolveTargetFile(ref: string, cwd = process.cwd()): string {
  if (/\.ya?ml$/i.test(ref)) {
    const file = path.resolve(cwd, ref);
    if (!existsSync(file)) throw new ConfigError(`target file ${ref} does not exist`, ref, [{ field: '--target', message: 'no such file' }]);
    return file;
  }
  const file = path.join(TARGETS_DIR, `${ref}.yaml`);
  if (!/^[A-Za-z0-9._-]+$/.test(ref) || !existsSync(file)) {
    const known = listTargets();
    throw new ConfigError(
      `unknown target "${ref}"${didYouMean(ref, known)}: use one of ${known.join(', ')}, or a path to a .yaml file`,
      ref,
      [{ field: '--target', message: 'unknown target' }],
    );
  }
  return file;
}

export function listTargets(): string[] {
  return readdirSync(TARGETS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();
}

export interface LoadOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Called when the target has `start:`: returns a free port, offered to the config as `${PORT}`
   * (taking precedence over the environment) and to the start command as the PORT variable.
   */
  allocatePort?: () => Promise<number>;
}

export interface LoadedTarget {
  target: Target;
  /** Set when a port was allocated for `start:`. */
  port?: number;
}

export async function loadTarget(ref: string, options: LoadOptions = {}): Promise<LoadedTarget> {
  const file = resolveTargetFile(ref);
  const text = readFileSync(file, 'utf8');
  const raw = parseYaml(text, file);
  // A start command may run this harness's own reference server: `${ANIMAL_STORE_HARNESS} serve`.
  const env: Record<string, string | undefined> = { ANIMAL_STORE_HARNESS: harnessCommand(), ...(options.env ?? process.env) };
  let port: number | undefined;
  if (raw !== null && typeof raw === 'object' && 'start' in raw && options.allocatePort) {
    port = await options.allocatePort();
    env.PORT = String(port);
  }
  const target = validateTarget(raw, file, env);
  return port === undefined ? { target } : { target, port };
}

function parseYaml(text: string, file: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const at = first.linePos?.[0];
    const where = at ? `line ${at.line}, column ${at.col}` : 'YAML';
    // First line only: the rest quotes the source, which may hold a literal key.
    const message = first.message.split('\n')[0] ?? first.message;
    throw new ConfigError(`${rel(file)}: ${where}: ${message}`, file, [{ field: where, message }]);
  }
  return doc.toJS();
}

/** Substitution and validation, apart from any file: what the unit tests drive. */
export function validateTarget(raw: unknown, source: string, env: Readonly<Record<string, string | undefined>>): Target {
  let substituted;
  try {
    substituted = substitute(raw, env);
  } catch (err) {
    if (err instanceof SubstitutionSyntaxError) throw new ConfigError(`${rel(source)}: ${err.message}`, source, [{ field: err.field, message: err.message }]);
    throw err;
  }
  if (substituted.missing.length > 0) {
    const problems = substituted.missing.map((m) => ({
      field: m.variable,
      message: `environment variable ${m.variable} is not set (needed by ${m.field})`,
    }));
    const list = substituted.missing.map((m) => `${m.variable} (for ${m.field})`).join(', ');
    throw new ConfigError(`${rel(source)}: environment variable not set: ${list}`, source, problems);
  }
  const parsed = TargetSchema.safeParse(substituted.value);
  if (!parsed.success) {
    const problems = parsed.error.issues.flatMap((issue) => describeIssue(issue));
    const lines = problems.map((p) => `  ${p.field}: ${p.message}`);
    throw new ConfigError(`${rel(source)}: invalid target config\n${lines.join('\n')}`, source, problems);
  }
  const t = parsed.data;
  const plans = resolvePlans(t.plans);
  const perPlan = new Map<string, number>();
  const keys: TargetKey[] = t.keys.map((k, i) => {
    const n = (perPlan.get(k.plan) ?? 0) + 1;
    perPlan.set(k.plan, n);
    const env = substituted.sources.get(`keys[${i}].key`) ?? `ANIMAL_STORE_${k.plan.toUpperCase().replace(/-/g, '_')}_KEY_${n}`;
    return { ...k, label: `${k.plan}#${n}`, env, quota: plans[k.plan]! };
  });
  return { ...t, keys, source };
}

function describeIssue(issue: z.core.$ZodIssue): { field: string; message: string }[] {
  if (issue.code === 'unrecognized_keys') {
    const known = knownFieldsAt(issue.path);
    return issue.keys.map((key) => ({
      field: fieldPath([...issue.path.map(asPart), key]),
      message: `unknown field${didYouMean(key, known)}${known.length ? `; known fields here: ${known.join(', ')}` : ''}`,
    }));
  }
  return [{ field: fieldPath(issue.path.map(asPart)), message: issue.message }];
}

function asPart(p: PropertyKey): string | number {
  return typeof p === 'number' ? p : String(p);
}

/** Field names the schema accepts at an object path, for "did you mean". */
function knownFieldsAt(issuePath: readonly PropertyKey[]): string[] {
  // Walks zod's definition objects: wrappers (optional, default, pipe...) are unwrapped.
  type Def = { type: string; shape?: Record<string, { _zod: { def: Def } }>; innerType?: { _zod: { def: Def } }; in?: { _zod: { def: Def } }; element?: { _zod: { def: Def } }; valueType?: { _zod: { def: Def } } };
  const unwrap = (d: Def): Def => {
    const next = d.innerType ?? d.in;
    return next && d.type !== 'object' ? unwrap(next._zod.def) : d;
  };
  let def = unwrap((TargetSchema as unknown as { _zod: { def: Def } })._zod.def);
  for (const part of issuePath) {
    if (def.type === 'object' && typeof part === 'string' && def.shape?.[part]) def = unwrap(def.shape[part]._zod.def);
    else if (def.type === 'array' && def.element) def = unwrap(def.element._zod.def);
    else if (def.type === 'record' && def.valueType) def = unwrap(def.valueType._zod.def);
    else return [];
  }
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

function rel(file: string): string {
  const r = path.relative(process.cwd(), file);
  return r && !r.startsWith('..') ? r : file;
}
