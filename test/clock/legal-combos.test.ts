// The generator of legal servers finds what it is for: a must that a combination of legal
// variations breaks. A check made too strict on purpose here (X-RateLimit-Limit must be the
// minute's quota, when the interface lets the headers describe either window) fails on exactly
// the composed servers whose headers describe the day, the shrinker brings one of them down to that
// variation alone, and the summary prints the line that runs it again.
import { describe, expect, it } from 'vitest';
import { defineCheck } from '../../lib/checks/define.ts';
import { fail, pass } from '../../lib/checks/types.ts';
import type { KeyRun } from '../../lib/result/rate-limits.ts';
import { composeServers, type Combination, reproduceCommand, variationsOf } from '../../targets/reference/families.ts';
import { runCombination, runCombinations, serverOf, shrinkCombination, summaryLines } from '../support/legal-combos.ts';

const TOO_STRICT = defineCheck({
  id: 'rate-limit.limit-is-the-minute',
  clause: 'Limits / Rate limit headers',
  title: 'X-RateLimit-Limit is the minute quota (too strict on purpose: either window is "the applicable request limit")',
  severity: 'must',
  suite: 'rate-limit',
  judge: (run: KeyRun) => {
    const limit = run.start?.headers['x-ratelimit-limit'];
    return limit === undefined || limit === String(run.quota.perMinute) ? pass() : fail('not-the-minute', `${run.label}: X-RateLimit-Limit ${limit}, not the minute's ${run.quota.perMinute}`);
  },
});

const brokenBy = (violations: readonly { check?: string }[]) => violations.some((v) => v.check === TOO_STRICT.id);

describe('verify:legal finds a must that a legal combination breaks', () => {
  it('the too-strict check fails on exactly the servers whose headers describe the day, shrunk to that variation, with the line that reproduces it', async () => {
    // Seed 7's first 16 servers: some with headers-day-window, most without.
    const combos = composeServers({ seed: 7, count: 16 });
    const withDay = (c: Combination) => variationsOf(c).includes('headers-day-window');
    expect(combos.filter(withDay).length).toBeGreaterThan(0);
    expect(combos.filter((c) => !withDay(c)).length).toBeGreaterThan(0);

    const outcomes = await runCombinations(combos, { parts: ['clock'], extraClockChecks: [TOO_STRICT] });
    expect(outcomes.filter((o) => brokenBy(o.violations)).map((o) => o.combination.index)).toEqual(combos.filter(withDay).map((c) => c.index));

    const first = outcomes.find((o) => brokenBy(o.violations))!;
    const smallest = await shrinkCombination(first, { parts: ['clock'], extraClockChecks: [TOO_STRICT] });
    expect(variationsOf(smallest.combination)).toEqual(['headers-day-window']);
    expect(brokenBy(smallest.violations)).toBe(true);

    const lines = summaryLines(outcomes, { parts: ['clock'], concurrency: 2, seconds: 1, smallest: new Map([[first.combination.index, smallest]]) });
    expect(lines).toContain(`  #${first.combination.index} (seed 7): ${reproduceCommand(first.combination)} --clock-only`);
    expect(lines.join('\n')).toContain(`rate-limit.limit-is-the-minute [must] not-the-minute (clock free#1): free#1: X-RateLimit-Limit 1000, not the minute's 60`);

    // The printed line runs the same server again: the same break.
    expect(brokenBy((await runCombination(serverOf(variationsOf(first.combination)), { parts: ['clock'], extraClockChecks: [TOO_STRICT] })).violations)).toBe(true);
  });

  it('holds on the same servers when the check reads the interface as it is (either window)', async () => {
    const [one] = composeServers({ seed: 7, count: 16 }).filter((c) => variationsOf(c).includes('headers-day-window'));
    const outcome = await runCombination(one!, { parts: ['clock'] });
    expect(outcome.violations.filter((v) => v.check === TOO_STRICT.id)).toEqual([]);
  });
});
