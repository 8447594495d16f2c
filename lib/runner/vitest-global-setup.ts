// The suites run by vitest alone (`ANIMAL_STORE_TARGET=local npx vitest run suites/auth.suite.ts`):
// this global setup does what the runner does before the suites. It reads the target named in
// the environment (a name in targets/ or a path to a .yaml file; `local` by default), starts it
// when its config has `start:`, checks something answers, and provides the run's context. Vitest
// prints its own report; a failed `must` check fails its test, so vitest exits non-zero.
//
// Environment: ANIMAL_STORE_TARGET, ANIMAL_STORE_SEED (a whole number), ANIMAL_STORE_STRICT=1
// (`should` failures fail their tests too), ANIMAL_STORE_RUNS (cases per property).
import type { TestProject } from 'vitest/node';
import { Redactor } from '../client/redact.ts';
import { loadTarget } from '../config/load-target.ts';
import { HarnessError } from '../errors.ts';
import { resolveRun, type RunOptions } from './options.ts';
import { probeTarget } from './probe.ts';
import { freePort, type StartedTarget, startConfigured } from './start-target.ts';

function wholeNumber(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^[0-9]+$/.test(value.trim())) throw new UserError(`${name} takes a whole number, not "${value}"`);
  return Number(value);
}

/** A mistake of the user's: vitest shows the message, without a stack trace. */
class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
    this.stack = `${this.name}: ${message}`;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const ref = process.env.ANIMAL_STORE_TARGET || 'local';
  let started: StartedTarget | undefined;
  try {
    const seed = wholeNumber('ANIMAL_STORE_SEED');
    const runs = wholeNumber('ANIMAL_STORE_RUNS');
    const options: RunOptions = { target: ref, allowWrites: false, allowLoad: false, strict: process.env.ANIMAL_STORE_STRICT === '1', soak: false, ...(seed !== undefined ? { seed } : {}), ...(runs ? { runs } : {}) };
    const { target, port } = await loadTarget(ref, { allocatePort: freePort });
    const redactor = new Redactor(target.keys);
    const say = (line: string) => console.info(redactor.scrub(line));
    const { context, warnings } = resolveRun(options, target, new Date());
    for (const w of warnings) say(`Warning: ${w}`);
    say(`Checking ${target.name} at ${target.baseUrl} (seed ${context.seed}, ANIMAL_STORE_SEED=${context.seed} replays it)`);
    started = await startConfigured(target, port, say, (t) => redactor.scrub(t));
    const probe = await probeTarget(target, context.maxRequests, () => {});
    if (!probe.reachable) throw new UserError(`target ${target.name} is unreachable at ${target.baseUrl}: ${probe.check.message}`);
    project.provide('run', { ...context, requestsBefore: probe.sent, echoProgress: true });
  } catch (err) {
    await started?.stop();
    if (err instanceof HarnessError) throw new UserError(`${err.message} (ANIMAL_STORE_TARGET=${ref})`);
    throw err;
  }
  return async () => {
    await started?.stop();
  };
}
