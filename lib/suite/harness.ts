// What a suite file uses: `check()` turns a check's body into a vitest test whose result travels
// to the runner as an event, `property()` the same for fast-check properties, `prepare()` runs a
// suite's groundwork (reading the store, driving keys) with the same context.
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, test } from 'vitest';
import type { RunnerTestCase, RunnerTestFile, RunnerTestSuite } from 'vitest';
import type { ApiClient } from '../client/client.ts';
import { shellQuote } from '../client/curl.ts';
import type { TargetKey } from '../config/schema.ts';
import { BudgetExhaustedError, describeError, HarnessError } from '../errors.ts';
import type { CheckDef } from '../checks/define.ts';
import { toCheckResult } from '../checks/result.ts';
import { type EachCase, type Finding, type Judgement, type OtherFailure, type PropertyFailure } from '../checks/types.ts';
import { seedFor } from '../generators/seed.ts';
import { stringifyJson } from '../json.ts';
import type { CheckResult, Exchange } from '../result/model.ts';
import { blocksVerdict } from '../result/verdict.ts';
import type { HarnessEvent } from './events.ts';
import type { RunContext } from './run-context.ts';
import { session } from './session.ts';

export interface CheckContext {
  client: ApiClient;
  run: RunContext;
  /**
   * A key to authenticate with: of the given plan if asked, else the one with the most headroom
   * (highest per-minute quota), so functional checks wait least. Disposable keys are kept for the
   * ban probe.
   */
  auth(plan?: string): { key: TargetKey };
  /** A line for the console (what is being done or waited for). */
  progress(line: string): void;
  /** Sends an event to the runner (a rate-limit timeline, say). */
  emit(event: HarnessEvent): void;
  /** Forget the exchanges recorded so far: the evidence is what follows. */
  restartEvidence(): void;
}

export interface CheckOptions {
  /** What the check is applied to, e.g. "GET /pets". */
  subject?: string;
  /** Skipped unless the target allows it. */
  requires?: 'writes' | 'load';
}

const suiteName = (file: string) => path.basename(file).replace(/\.suite\.[jt]s$/, '');

function contextFor(restartEvidence: () => void): CheckContext {
  const s = session();
  return {
    client: s.client,
    run: s.run,
    auth: (plan) => ({ key: pickKey(s.run.target.keys, plan) }),
    progress: (line) => s.progress(line),
    emit: (event) => s.channel.emit(event),
    restartEvidence,
  };
}

export function pickKey(keys: readonly TargetKey[], plan?: string): TargetKey {
  const usable = keys.filter((k) => !k.disposable);
  const pool = usable.length > 0 ? usable : keys;
  if (plan) {
    const match = pool.find((k) => k.plan === plan);
    if (match) return match;
  }
  return [...pool].sort((a, b) => b.quota.perMinute - a.quota.perMinute)[0]!;
}

/** The test a suite's preparation reports on: its first test that will run. */
function firstTest(suite: Readonly<RunnerTestSuite | RunnerTestFile>): RunnerTestCase | undefined {
  const tests: RunnerTestCase[] = [];
  const walk = (s: Readonly<RunnerTestSuite | RunnerTestFile>) => {
    for (const t of s.tasks) {
      if (t.type === 'test') tests.push(t);
      else walk(t);
    }
  };
  walk(suite);
  return tests.find((t) => t.mode === 'run') ?? tests[0];
}

/**
 * Work a suite does before its checks (reading the store, say), with the same context as a
 * check. Its requests are counted under the suite; an error here fails the suite's checks.
 */
export function prepare(body: (ctx: CheckContext) => Promise<void>): void {
  // vitest requires the context argument to be destructured, even when nothing is taken from it.
  beforeAll(async ({}, suite) => {
    const s = session();
    const first = firstTest(suite);
    if (!first) return;
    s.enter(first, suiteName(suite.file.name));
    try {
      await body(contextFor(() => {}));
    } finally {
      await s.channel.flush();
    }
  });
}

/** Registers one check as a vitest test. The body sends requests and returns the judgement. */
export function check(def: CheckDef, options: CheckOptions, body: (ctx: CheckContext) => Promise<Judgement>): void {
  const name = options.subject ? `${def.id} [${options.subject}]` : def.id;
  test(name, async ({ task, skip, annotate }) => {
    const s = session();
    const suite = suiteName(task.file.name);
    s.enter(task, suite);
    let exchanges: Exchange[] = [];
    const stop = s.client.observe((e) => exchanges.push(e));
    const started = Date.now();
    let judgement: Judgement;
    try {
      if (def.suite !== suite) throw new Error(`check ${def.id} belongs to suite ${def.suite}, not ${suite}`);
      judgement = await guarded(s.run, options, () => body(contextFor(() => (exchanges = []))));
    } catch (err) {
      judgement = outcomeOfError(err);
    } finally {
      stop();
    }
    const replay = replayCommand(s.run, suite);
    const result = s.client.redactor.scrubDeep(toCheckResult(def, judgement, { ...(options.subject ? { subject: options.subject } : {}), durationMs: Date.now() - started, exchanges, replay }));
    s.channel.emit({ kind: 'check', check: result });
    await s.channel.flush();
    if (result.outcome === 'skip') skip(result.message);
    if (blocksVerdict(result, s.run.strict)) throw new CheckFailed(result);
    // A failure that does not block the verdict (a `should`, an `info`) is shown, not thrown.
    if (result.outcome === 'fail' || result.outcome === 'error') await annotate(`${result.severity} ${result.outcome}: ${result.message}`, 'warning');
  });
}

/** How a failed check shows in vitest's own report: what was expected, what came back, how to reproduce it. */
class CheckFailed extends Error {
  constructor(result: CheckResult) {
    const e = result.evidence;
    const details = [
      ...(e?.expected ? [`expected: ${e.expected}`] : []),
      ...(e?.actual ? [`actual:   ${e.actual}`] : []),
      ...(e?.counterexample ? [`counterexample (seed ${e.seed}): ${e.counterexample}`] : []),
      ...(e?.reproduce.length ? ['reproduce:', ...e.reproduce.slice(0, 3).map((r) => `  ${r}`)] : []),
    ];
    super([result.message, ...details].join('\n'));
    this.name = `${result.severity} check ${result.outcome === 'error' ? 'could not run' : 'failed'}`;
    // No stack: the place in the harness that threw says nothing about the target.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * Sends one case at a time and stops after the first that `judge.one` does not pass: a failing
 * target costs no more requests than the verdict needs. Returns the cases sent, for `judge`.
 */
export async function sendEach<I, C>(items: readonly I[], send: (item: I) => Promise<C>, judge: EachCase<C>): Promise<C[]> {
  const cases: C[] = [];
  for (const item of items) {
    const c = await send(item);
    cases.push(c);
    if (judge.one(c).outcome !== 'pass') break;
  }
  return cases;
}

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

function examplesFor<T>(options: PropertyOptions<T>, seed: number): [T][] {
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
  const stop = ctx.client.observe((e) => exchanges.push(e));
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

function outcomeOfError(err: unknown): Judgement {
  return err instanceof BudgetExhaustedError ? { outcome: 'skip', message: err.message } : { outcome: 'error', message: describeError(err) };
}

/** The command that replays a whole suite with the run's seed (property cases included). */
function replayCommand(run: RunContext, suite: string): string {
  const target = run.target.source.endsWith(`targets/${run.target.name}.yaml`) ? run.target.name : run.target.source;
  return `npm run conformance -- --target ${shellQuote(target)} --suite ${shellQuote(suite)} --seed ${run.seed} --runs ${run.runs}`;
}

async function guarded(run: RunContext, options: CheckOptions, body: () => Promise<Judgement>): Promise<Judgement> {
  if (options.requires === 'writes' && !run.allowWrites) {
    return { outcome: 'skip', message: 'writes are not allowed on this target (allow.writes in the target, or --allow-writes)' };
  }
  if (options.requires === 'load' && !run.allowLoad) {
    return { outcome: 'skip', message: 'load is not allowed on this target (allow.load in the target, or --allow-load)' };
  }
  return body();
}
