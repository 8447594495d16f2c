// The vitest adapter: what a suite file uses to register its work with vitest. `check()` turns a
// check's body into a vitest test whose result travels to the runner as an event, `prepare()` runs
// a suite's groundwork (reading the store, driving keys) with the same context, `sendEach()` stops
// at the first case that decides. Property checks (fast-check) are property-engine.ts, on top.
import path from 'node:path';
import { beforeAll, test } from 'vitest';
import type { RunnerTestCase, RunnerTestFile, RunnerTestSuite } from 'vitest';
import type { ApiClient } from '../client/client.ts';
import { shellQuote } from '../result/curl.ts';
import type { TargetKey } from '../config/schema.ts';
import { BudgetExhaustedError, describeError, HarnessError } from '../errors.ts';
import type { CheckDef } from '../checks/define.ts';
import { toCheckResult } from '../checks/to-check-result.ts';
import type { EachCase, Judgement } from '../checks/types.ts';
import type { CheckResult } from '../result/model.ts';
import type { Exchange } from '../result/exchange.ts';
import { blocksVerdict } from '../result/verdict.ts';
import type { HarnessEvent } from './events.ts';
import type { RunContext } from '../config/run-context.ts';
import { session } from './session.ts';
import type { ReadBack } from './read-back.ts';

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
  /** Requests that carried the key of this label so far in the run, whichever suite sent them (its day's quota counts them). */
  sentWith(label: string): number;
  /** When each of those requests was sent (our epoch ms), oldest first. */
  sentAt(label: string): number[];
  /** Sends an event to the runner (a rate-limit timeline, say). */
  emit(event: HarnessEvent): void;
  /** Forget the exchanges recorded so far: the evidence is what follows. */
  restartEvidence(): void;
  /** Reads back what the run wrote, waiting (bounded) for a store whose reads lag its writes; records the lag seen. */
  readBack: ReadBack;
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
    sentWith: (label) => s.accepted.sent(label).length,
    sentAt: (label) => s.accepted.sent(label),
    emit: (event) => s.channel.emit(event),
    restartEvidence,
    readBack: s.readBack,
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
    const stop = s.client.subscribe((e) => exchanges.push(e));
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

function outcomeOfError(err: unknown): Judgement {
  if (err instanceof BudgetExhaustedError) return { outcome: 'skip', message: err.message };
  return { outcome: 'error', message: describeError(err), ...(err instanceof HarnessError ? { code: err.code } : {}) };
}

/** The command that replays a whole suite with the run's seed (property cases included). */
function replayCommand(run: RunContext, suite: string): string {
  const target = run.target.source.endsWith(`targets/${run.target.name}.yaml`) ? run.target.name : run.target.source;
  return `npm run conformance -- --target ${shellQuote(target)} --suite ${shellQuote(suite)} --seed ${run.seed} --runs ${run.runs}`;
}

/** Why a check that needs load is skipped. */
export const LOAD_NOT_ALLOWED = 'load is not allowed on this target (allow.load in the target, or --allow-load)';

async function guarded(run: RunContext, options: CheckOptions, body: () => Promise<Judgement>): Promise<Judgement> {
  if (options.requires === 'writes' && !run.allowWrites) {
    return { outcome: 'skip', message: 'writes are not allowed on this target (allow.writes in the target, or --allow-writes)' };
  }
  if (options.requires === 'load' && !run.allowLoad) return { outcome: 'skip', message: LOAD_NOT_ALLOWED };
  return body();
}
