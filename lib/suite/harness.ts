// The worker side of a run: one client for all suites (they run in one worker, one file at a time,
// so the budget and the request sequence are shared), `check()`, which turns a check body into a
// vitest test whose result travels to the runner in the test's meta, and `property()`, the same
// for fast-check properties.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, inject, test } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { Budget } from '../client/budget.ts';
import { curlCommand, shellQuote } from '../client/curl.ts';
import { targetClientOptions } from '../client/for-target.ts';
import type { TargetKey } from '../config/schema.ts';
import { BudgetExhaustedError, describeError, HarnessError } from '../errors.ts';
import type { CheckDef, Finding } from '../checks/types.ts';
import { seedFor } from '../generators/seed.ts';
import { stringifyJson } from '../json.ts';
import type { CheckResult, Exchange } from '../result/model.ts';
import type { RunContext } from './run-context.ts';

const GLOBAL = Symbol.for('animal-store-harness.client');

export function runContext(): RunContext {
  return inject('run');
}

/** The run's one client, created on first use in this worker. */
export function client(): ApiClient {
  const holder = globalThis as { [GLOBAL]?: ApiClient };
  if (!holder[GLOBAL]) {
    const run = runContext();
    holder[GLOBAL] = new ApiClient({
      ...targetClientOptions(run.target),
      budget: new Budget(run.maxRequests, run.requestsBefore),
      deadline: run.deadline,
      seqStart: run.requestsBefore,
      onExchange: (exchange) => appendFileSync(run.exchangeLog, `${JSON.stringify(exchange)}\n`),
      onWait: (ms, reason) => console.info(`waiting ${Math.ceil(ms / 1000)} s: ${reason}`),
    });
  }
  return holder[GLOBAL];
}

const suiteName = (file: string) => path.basename(file, '.suite.ts');

/**
 * Work a suite does before its checks (reading the store, say), with the same context as a
 * check. Its requests are counted under the suite; an error here fails the suite's checks.
 */
export function prepare(body: (ctx: CheckContext) => Promise<void>): void {
  beforeAll(async ({}, suite) => {
    const run = runContext();
    const api = client();
    api.suite = suiteName(suite.file.name);
    await body(contextFor(api, run, () => {}));
  });
}

function contextFor(api: ApiClient, run: RunContext, restartEvidence: () => void): CheckContext {
  return { client: api, run, auth: (plan) => ({ key: pickKey(run.target.keys, plan) }), restartEvidence };
}

export interface CheckContext {
  client: ApiClient;
  run: RunContext;
  /**
   * A key to authenticate with: of the given plan if asked, else the one with the most headroom
   * (highest per-minute quota), so functional checks wait least. Disposable keys are kept for the
   * ban probe.
   */
  auth(plan?: string): { key: TargetKey };
  /** Forget the exchanges recorded so far: the evidence is what follows. */
  restartEvidence(): void;
}

export interface CheckOptions {
  /** What the check is applied to, e.g. "GET /pets". */
  subject?: string;
  /** Skipped unless the target allows it. */
  requires?: 'writes' | 'load';
}

type Outcome = Finding | { outcome: 'error'; message: string };

export function pickKey(keys: readonly TargetKey[], plan?: string): TargetKey {
  const usable = keys.filter((k) => !k.disposable);
  const pool = usable.length > 0 ? usable : keys;
  if (plan) {
    const match = pool.find((k) => k.plan === plan);
    if (match) return match;
  }
  return [...pool].sort((a, b) => b.quota.perMinute - a.quota.perMinute)[0]!;
}

/** Registers one check as a vitest test. The body sends requests and returns the finding. */
export function check(def: CheckDef, options: CheckOptions, body: (ctx: CheckContext) => Promise<Finding>): void {
  const name = options.subject ? `${def.id} [${options.subject}]` : def.id;
  test(name, async ({ task, skip }) => {
    const run = runContext();
    const api = client();
    api.suite = suiteName(task.file.name);
    let exchanges: Exchange[] = [];
    const stop = api.observe((e) => exchanges.push(e));
    const started = Date.now();
    let finding: Outcome;
    try {
      const ctx = contextFor(api, run, () => {
        exchanges = [];
      });
      finding = await guarded(run, options, () => body(ctx));
    } catch (err) {
      finding = outcomeOfError(err);
    } finally {
      stop();
    }
    const result = resultOf(def, options, finding, { suite: api.suite, durationMs: Date.now() - started, exchanges, run, checkName: name });
    task.meta.check = api.redactor.scrubDeep(result);
    if (finding.outcome === 'skip') skip(api.redactor.scrub(finding.message));
    if (finding.outcome === 'fail' || finding.outcome === 'error') throw new Error(api.redactor.scrub(result.message));
  });
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
 * A property check: fast-check generates cases from a seed derived from the run's seed and the
 * check's name (so `--seed` replays it even when other checks are left out), shrinks a failure to
 * a minimal counterexample, and the counterexample is replayed once on its own so that the
 * evidence shows only its exchanges.
 */
export function property<T>(def: CheckDef, options: PropertyOptions<T>): void {
  const name = options.subject ? `${def.id} [${options.subject}]` : def.id;
  check(def, options, async (ctx) => {
    const seed = seedFor(ctx.run.seed, name);
    const numRuns = options.runs ?? ctx.run.runs;
    let harnessError: unknown;
    let lastFailure: Finding | undefined;
    const prop = fc.asyncProperty(options.arbitrary, async (value) => {
      // Once the harness itself has failed (budget spent, no response), stop asking the target.
      if (harnessError) throw harnessError;
      try {
        const finding = await options.predicate(value, ctx);
        if (finding.outcome === 'fail') {
          lastFailure = finding;
          return false;
        }
        return true;
      } catch (err) {
        if (err instanceof HarnessError) harnessError = err;
        throw err;
      }
    });
    // fast-check counts examples within numRuns: they come on top of the generated cases here.
    const examples = examplesFor(options, seed);
    const details = await fc.check(prop, { seed, numRuns: numRuns + examples.length, examples });
    if (harnessError) throw harnessError;
    if (!details.failed) {
      return { outcome: 'pass', message: `${details.numRuns} cases passed (seed ${seed})` };
    }
    const counterexample = details.counterexample?.[0] as T;
    ctx.restartEvidence();
    let replayed = await options.predicate(counterexample, ctx);
    if (replayed.outcome !== 'fail') {
      replayed = lastFailure ?? { outcome: 'fail', message: describeError(details.errorInstance) };
      replayed = { ...replayed, message: `${replayed.message} (the minimal case passed when replayed alone: the target may be flaky)` } as Finding;
    }
    if (replayed.outcome !== 'fail') return replayed;
    return {
      ...replayed,
      property: {
        counterexample: describeValue(counterexample),
        seed: details.seed,
        ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
        runs: details.numRuns,
      },
    };
  });
}

function describeValue(value: unknown): string {
  try {
    return stringifyJson(value, 2);
  } catch {
    return fc.stringify(value);
  }
}

function outcomeOfError(err: unknown): Outcome {
  return err instanceof BudgetExhaustedError ? { outcome: 'skip', message: err.message } : { outcome: 'error', message: describeError(err) };
}

interface ResultContext {
  suite: string;
  durationMs: number;
  exchanges: Exchange[];
  run: RunContext;
  checkName: string;
}

function resultOf(def: CheckDef, options: CheckOptions, finding: Outcome, ctx: ResultContext): CheckResult {
  const showEvidence = finding.outcome === 'fail' || finding.outcome === 'error';
  const property = finding.outcome === 'fail' ? finding.property : undefined;
  const exchanges = finding.outcome === 'fail' && finding.exchanges ? finding.exchanges : ctx.exchanges;
  const reproduce = exchanges.map(curlCommand);
  if (property) reproduce.push(replayCommand(ctx.run, ctx.suite, ctx.run.seed));
  return {
    id: def.id,
    ...(options.subject ? { subject: options.subject } : {}),
    clause: def.clause,
    title: def.title,
    severity: def.severity,
    outcome: finding.outcome,
    message: finding.message ?? def.title,
    suite: ctx.suite,
    durationMs: ctx.durationMs,
    evidence: showEvidence
      ? {
          ...('expected' in finding && finding.expected !== undefined ? { expected: finding.expected } : {}),
          ...('actual' in finding && finding.actual !== undefined ? { actual: finding.actual } : {}),
          exchanges,
          reproduce,
          ...(property ? { counterexample: property.counterexample, seed: property.seed, ...(property.path ? { path: property.path } : {}) } : {}),
        }
      : null,
  };
}

/** The command that replays a whole suite with the run's seed (property cases included). */
function replayCommand(run: RunContext, suite: string, seed: number): string {
  const target = run.target.source.endsWith(`targets/${run.target.name}.yaml`) ? run.target.name : run.target.source;
  return `npm run conformance -- --target ${shellQuote(target)} --suite ${shellQuote(suite)} --seed ${seed} --runs ${run.runs}`;
}

async function guarded(run: RunContext, options: CheckOptions, body: () => Promise<Finding>): Promise<Finding> {
  if (options.requires === 'writes' && !run.allowWrites) {
    return { outcome: 'skip', message: 'writes are not allowed on this target (allow.writes in the target, or --allow-writes)' };
  }
  if (options.requires === 'load' && !run.allowLoad) {
    return { outcome: 'skip', message: 'load is not allowed on this target (allow.load in the target, or --allow-load)' };
  }
  return body();
}
