// The property engine: property checks on fast-check. Cases come from a seed derived from the
// run's seed and the check's name; every kind of failure (its code, or the cover function's kind)
// is shrunk on its own and replayed alone for its evidence; stateful properties (fc.commands) are
// shrunk in one pass. Each property is one check, registered through the vitest adapter.
import fc from 'fast-check';
import type { CheckDef } from '../checks/define.ts';
import type { Finding, OtherFailure, PropertyFailure } from '../checks/types.ts';
import { HarnessError } from '../errors.ts';
import { seedFor } from '../generators/seed.ts';
import { stringifyJson } from '../json.ts';
import type { Exchange } from '../result/exchange.ts';
import { type CheckContext, type CheckOptions, check } from './vitest-adapter.ts';

export interface PropertyOptions<T> extends CheckOptions {
  arbitrary: fc.Arbitrary<T>;
  /** Sends one case's requests and judges them. A `fail` finding falsifies the property. */
  predicate: (value: T, ctx: CheckContext) => Promise<Finding>;
  /** Cases to try (default: --runs). */
  runs?: number;
  /** Cases always tried first, before the generated ones (values the interface names). */
  examples?: readonly T[];
  /**
   * Also try one case of each kind this function tells apart (e.g. each reason an invalid NewPet
   * is invalid), drawn from the arbitrary with the check's seed: coverage that does not depend on
   * luck, and still replays from the seed.
   */
  coverEach?: (value: T) => string;
  /**
   * Stateful cases (fc.commands): each case runs anew, never answered from memory (a command
   * sequence marks what it ran as it runs, which is what shrinking and its printout go by), and the
   * first failure is shrunk in the same pass: one kind, no second round of requests.
   */
  stateful?: boolean;
}

/** How many samples coverEach draws to find one case of each kind. */
const COVERAGE_SAMPLES = 1_000;

/**
 * The cases a property tries first, on every run whatever the seed: its examples, then (with
 * coverEach) one case of each kind, drawn with the seed.
 */
export function examplesFor<T>(options: Pick<PropertyOptions<T>, 'arbitrary' | 'examples' | 'coverEach'>, seed: number): [T][] {
  const examples: T[] = [...(options.examples ?? [])];
  if (options.coverEach) {
    const kinds = new Set<string>();
    for (const value of fc.sample(options.arbitrary, { seed, numRuns: COVERAGE_SAMPLES })) {
      const kind = options.coverEach(value);
      if (!kinds.has(kind)) {
        kinds.add(kind);
        examples.push(value);
      }
    }
  }
  return examples.map((e) => [e]);
}

/**
 * What tells a failing case apart from the other failures of its property: the cover function's
 * kind when there is one, else the finding's code (never its message, whose wording and figures
 * vary from case to case).
 */
export function kindOfCase<T>(value: T, finding: Finding, coverEach?: (value: T) => string): string {
  return coverEach?.(value) ?? (finding.outcome === 'fail' ? finding.code : '');
}

/** Another kind of failure of a property, as its minimal case replayed alone reported it. */
export function otherFailure(kind: string, replayed: Extract<Finding, { outcome: 'fail' }>, property: PropertyFailure, exchanges: Exchange[]): OtherFailure {
  return {
    kind,
    code: replayed.code,
    message: replayed.message,
    ...(replayed.expected !== undefined ? { expected: replayed.expected } : {}),
    ...(replayed.actual !== undefined ? { actual: replayed.actual } : {}),
    property,
    exchanges,
  };
}

/** At most this many kinds of failure are each shrunk and reported for one property check. */
const MAX_KINDS = 20;

/**
 * A property check: fast-check generates cases from a seed derived from the run's seed and the
 * check's name (so `--seed` replays it even when other checks are left out). Every case is tried,
 * so that each distinct kind of failure is found (see kindOfCase: the cover function's kind, else
 * the failure's code); each kind, up to MAX_KINDS, is then shrunk on its own to a minimal
 * counterexample (the cases already tried are remembered, not sent again), and replayed alone so
 * that its evidence shows only its exchanges.
 */
export function property<T>(def: CheckDef, options: PropertyOptions<T>): void {
  const name = options.subject ? `${def.id} [${options.subject}]` : def.id;
  check(def, options, async (ctx) => {
    const seed = seedFor(ctx.run.seed, name);
    const numRuns = options.runs ?? ctx.run.runs;
    const kindOf = (value: T, finding: Finding) => kindOfCase(value, finding, options.coverEach);
    const judged = new Map<string, Finding>();
    let harnessError: unknown;
    const judge = async (value: T): Promise<Finding> => {
      // Once the harness itself has failed (budget spent, no response), stop asking the target.
      if (harnessError) throw harnessError;
      const key = options.stateful ? undefined : describeValue(value);
      const known = key === undefined ? undefined : judged.get(key);
      if (known) return known;
      try {
        const finding = await options.predicate(value, ctx);
        if (key !== undefined) judged.set(key, finding);
        return finding;
      } catch (err) {
        if (err instanceof HarnessError) harnessError = err;
        throw err;
      }
    };
    // fast-check counts examples within numRuns: they come on top of the generated cases here.
    const examples = examplesFor(options, seed);
    const settings = { seed, numRuns: numRuns + examples.length, examples };
    if (options.stateful) return statefulRun(options.arbitrary, judge, settings, ctx, () => harnessError);
    // Every case, noting the first failing value of each kind.
    const firstOfKind = new Map<string, Finding>();
    const all = await fc.check(
      fc.asyncProperty(options.arbitrary, async (value) => {
        const finding = await judge(value);
        if (finding.outcome === 'fail' && !firstOfKind.has(kindOf(value, finding))) firstOfKind.set(kindOf(value, finding), finding);
        return true;
      }),
      settings,
    );
    if (harnessError) throw harnessError;
    if (all.failed) throw all.errorInstance;
    if (firstOfKind.size === 0) return { outcome: 'pass', message: `${all.numRuns} cases passed (seed ${seed})` };

    const failures: { kind: string; replayed: Extract<Finding, { outcome: 'fail' }>; property: PropertyFailure; exchanges: Exchange[] }[] = [];
    for (const [kind, first] of [...firstOfKind].slice(0, MAX_KINDS)) {
      // The same cases in the same order, failing only on this kind: fast-check shrinks within it.
      const details = await fc.check(
        fc.asyncProperty(options.arbitrary, async (value) => {
          const finding = await judge(value);
          return !(finding.outcome === 'fail' && kindOf(value, finding) === kind);
        }),
        settings,
      );
      if (harnessError) throw harnessError;
      const counterexample = (details.failed ? details.counterexample?.[0] : undefined) as T | undefined;
      const { replayed, exchanges } = await replayAlone(ctx, first, 'the minimal case', counterexample === undefined ? undefined : () => options.predicate(counterexample, ctx));
      failures.push({
        kind,
        replayed,
        exchanges,
        property: {
          counterexample: describeValue(counterexample ?? null),
          seed: details.seed,
          ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
          runs: details.numRuns,
          kind,
        },
      });
    }
    const [main, ...rest] = failures as [(typeof failures)[number], ...typeof failures];
    const mainFinding = main.replayed;
    const more = firstOfKind.size > MAX_KINDS ? ` (${firstOfKind.size} kinds found; the first ${MAX_KINDS} are shown)` : '';
    return {
      ...mainFinding,
      message: `${mainFinding.message}${more}`,
      exchanges: main.exchanges,
      property: main.property,
      ...(rest.length > 0
        ? {
            others: rest.map((f) => otherFailure(f.kind, f.replayed, f.property, f.exchanges)),
          }
        : {}),
    };
  });
}

/**
 * A property's minimal failing case sent once more on its own: its exchanges are the evidence. If
 * it passes alone, the first failure stands, said to be flaky.
 */
async function replayAlone(ctx: CheckContext, first: Finding, what: string, replay: (() => Promise<Finding>) | undefined): Promise<{ replayed: Extract<Finding, { outcome: 'fail' }>; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const stop = ctx.client.subscribe((e) => exchanges.push(e));
  let replayed: Finding;
  try {
    replayed = replay ? await replay() : first;
  } finally {
    stop();
  }
  if (replayed.outcome === 'fail') return { replayed, exchanges };
  return { replayed: { ...(first as Extract<Finding, { outcome: 'fail' }>), message: `${first.message} (${what} passed when replayed alone: the target may be flaky)` }, exchanges };
}

/** A stateful property: the first failing sequence, shrunk, then replayed once alone for its evidence. */
async function statefulRun<T>(
  arbitrary: fc.Arbitrary<T>,
  judge: (value: T) => Promise<Finding>,
  settings: fc.Parameters<[T]>,
  ctx: CheckContext,
  harnessError: () => unknown,
): Promise<Finding> {
  let last: Finding | undefined;
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      const finding = await judge(value);
      if (finding.outcome === 'fail') last = finding;
      return finding.outcome !== 'fail';
    }),
    settings,
  );
  if (harnessError()) throw harnessError();
  if (!details.failed) return { outcome: 'pass', message: `${details.numRuns} sequences agreed (seed ${details.seed})` };
  if (details.errorInstance && !last) throw details.errorInstance;
  const counterexample = details.counterexample?.[0] as T | undefined;
  const { replayed, exchanges } = await replayAlone(ctx, last!, 'the shortest sequence', counterexample === undefined ? undefined : () => judge(counterexample));
  return {
    ...replayed,
    exchanges,
    property: {
      counterexample: String(counterexample),
      seed: details.seed,
      ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
      runs: details.numRuns,
    },
  };
}

function describeValue(value: unknown): string {
  try {
    return stringifyJson(value, 2);
  } catch {
    return fc.stringify(value);
  }
}
