// A fixed handful of legal servers composed of the families (targets/reference/families.ts), run
// as `npm run verify:legal` runs them: the functional suites through the command over sockets
// without --strict, the rate-limit checks on the virtual clock. No must fails, the command exits
// 0, and every should that fails names its standard. `npm run verify:legal -- --combos 200` runs
// many more; here, a few seeds' first servers on every run.
import { describe, expect, it } from 'vitest';
import { composeServers, describeCombination } from '../../targets/reference/families.ts';
import { runCombination, serverOf } from '../support/legal-combos.ts';
import { runNode } from './cli-helpers.ts';

const SERVERS = [
  ...composeServers({ seed: 43, count: 1, minFamilies: 5 }),
  ...composeServers({ seed: 2026, count: 1, minFamilies: 5 }),
  // A JSON body parser before authentication that reads every media type: a form body, no JSON,
  // gets its 400 before the key is looked at (auth.other-carrier, routes.refused-body once failed).
  serverOf(['json-parser-first', 'any-body-as-json']),
];

describe.concurrent('legal servers composed of the families', () => {
  it.concurrent.each(SERVERS.map((c) => ({ c, name: describeCombination(c) })))('$name', async ({ c }) => {
    const outcome = await runCombination(c);
    expect(outcome.violations.map((v) => v.text)).toEqual([]);
    expect(outcome.exitCode).toBe(0);
  });
});

describe.concurrent('npm run verify:legal', () => {
  const verify = (...args: string[]) => runNode(['--import', 'tsx', 'bench/verify-legal.ts', ...args], { timeoutMs: 60_000 });

  it.concurrent('refuses what it cannot run, naming the option, without a stack trace', async () => {
    for (const [args, message] of [
      [['--combos', '0'], /--combos takes an integer of at least 1, not "0"/],
      [['--variations', 'chunked-bodies,close-delimited'], /"chunked-bodies" and "close-delimited" are alternatives of one axis/],
      [['--variations', 'gzip-always', '--combos', '3'], /--variations names one server/],
      [['--min-families', '99'], /--min-families: there are 8 families, not 99/],
      [['--frobnicate'], /Unknown option '--frobnicate'/],
    ] as const) {
      const run = await verify(...args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toContain('Usage: npm run verify:legal');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it.concurrent('runs named servers on the clock and says what it covered', async () => {
    const run = await verify('--variations', 'sliding-window,headers-minute-window,pet-extra-members', '--clock-only');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 of 1 combinations hold: no must failed, every should that failed named its standard.');
    expect(run.stdout).toMatch(/Runtime: \d+ s/);
    expect(run.stdout).toMatch(/^ {2}rate-limits +1 {2}2\/13 \(never: sliding-log, /m);
    expect(run.stdout).toMatch(/^ {2}http +0 {2}0\/\d+ \(never: /m);
  });
});
