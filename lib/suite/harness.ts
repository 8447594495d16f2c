// The worker side of a run: one client for all suites (they run in one worker, one file at a time,
// so the budget and the request sequence are shared), and `check()`, which turns a check body into
// a vitest test whose result travels to the runner in the test's meta.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { inject, test } from 'vitest';
import { ApiClient } from '../client/client.ts';
import type { TargetKey } from '../config/schema.ts';
import { Budget } from '../client/budget.ts';
import { curlCommand } from '../client/curl.ts';
import { targetClientOptions } from '../client/for-target.ts';
import { BudgetExhaustedError, describeError } from '../errors.ts';
import type { CheckDef, Finding } from '../checks/types.ts';
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
      seqStart: run.requestsBefore,
      onExchange: (exchange) => appendFileSync(run.exchangeLog, `${JSON.stringify(exchange)}\n`),
      onWait: (ms, reason) => console.info(`waiting ${Math.ceil(ms / 1000)} s: ${reason}`),
    });
  }
  return holder[GLOBAL];
}

export interface CheckContext {
  client: ApiClient;
  run: RunContext;
  /** Auth with the target's first key of the plan, or its first key. */
  auth(plan?: string): { key: TargetKey };
}

export interface CheckOptions {
  /** What the check is applied to, e.g. "GET /pets". */
  subject?: string;
  /** Skipped unless the target allows it. */
  requires?: 'writes' | 'load';
}

/** Registers one check as a vitest test. The body sends requests and returns the finding. */
export function check(def: CheckDef, options: CheckOptions, body: (ctx: CheckContext) => Promise<Finding>): void {
  const name = options.subject ? `${def.id} [${options.subject}]` : def.id;
  test(name, async ({ task, skip }) => {
    const run = runContext();
    const api = client();
    api.suite = path.basename(task.file.name, '.suite.ts');
    const exchanges: Exchange[] = [];
    const stop = api.observe((e) => exchanges.push(e));
    const started = Date.now();
    let finding: Finding | { outcome: 'error'; message: string };
    try {
      finding = await guarded(run, options, () =>
        body({
          client: api,
          run,
          auth: (plan) => ({ key: run.target.keys.find((k) => k.plan === plan) ?? run.target.keys[0]! }),
        }),
      );
    } catch (err) {
      finding = err instanceof BudgetExhaustedError ? { outcome: 'skip', message: err.message } : { outcome: 'error', message: describeError(err) };
    } finally {
      stop();
    }
    const showEvidence = finding.outcome === 'fail' || finding.outcome === 'error';
    const result: CheckResult = {
      id: def.id,
      ...(options.subject ? { subject: options.subject } : {}),
      clause: def.clause,
      title: def.title,
      severity: def.severity,
      outcome: finding.outcome,
      message: finding.message ?? def.title,
      suite: api.suite,
      durationMs: Date.now() - started,
      evidence: showEvidence
        ? {
            ...('expected' in finding && finding.expected !== undefined ? { expected: finding.expected } : {}),
            ...('actual' in finding && finding.actual !== undefined ? { actual: finding.actual } : {}),
            exchanges,
            reproduce: exchanges.map(curlCommand),
          }
        : null,
    };
    task.meta.check = api.redactor.scrubDeep(result);
    if (finding.outcome === 'skip') skip(api.redactor.scrub(finding.message));
    if (finding.outcome === 'fail' || finding.outcome === 'error') throw new Error(api.redactor.scrub(result.message));
  });
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
