// Load segments end to end (issue 15): two harness processes (--load-segment 1/2 and 2/2, one
// --start-at) against one reference server, then `merge`: the merged report counts what the server
// counted and passes. A limiter kept per connection, caught over the merged runs, is shown on the
// virtual clock (test/clock/segments.test.ts).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, runCli, splitRun } from '../../bench/segments.ts';
import { tempDir } from './cli-helpers.ts';

describe('two load segments merged', () => {
  const dir = tempDir('segments');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('against the reference: verdict pass, requests the sum of the segments and the server\'s own count', { timeout: 150_000 }, async () => {
    // Two plans, no day to spend: the flow of segments and merge, not the day test, is what is shown here.
    const keys = [KEYS[0]!, KEYS[2]!];
    const run = await splitRun(path.join(dir, 'reference'), 2, { leadMs: 10_000, keys });
    expect(run.segmentExits).toEqual([0, 0]);
    expect(run.mergeExit, run.mergeOutput).toBe(0);
    expect(run.verdict).toBe('pass');
    expect(run.requests.merged).toBe(run.requests.sumOfSegments);
    expect(run.requests.merged).toBe(run.requests.server);
    expect(run.merged.merged?.segments.map((s) => s.index)).toEqual([1, 2]);
    // Each runner's politeness, by its own clock, kept apart by segment: nothing unexplained.
    expect(run.merged.politeness?.length).toBeGreaterThan(0);
    for (const k of run.merged.politeness ?? []) expect({ label: k.label, segment: k.segment, unexplained: k.inside.unexplained }).toEqual({ label: k.label, segment: expect.toBeOneOf([1, 2]), unexplained: 0 });
    // Judged again over both segments: the quota of every key passes (none is left to the segments).
    const quota = run.merged.checks.filter((c) => c.id === 'rate-limit.quota');
    expect(quota.map((c) => c.outcome)).toEqual(keys.map(() => 'pass'));
    // Merging the same segment twice is refused, naming it (exit 2).
    const twice = await runCli(['merge', path.join(dir, 'reference', 'segment-1'), path.join(dir, 'reference', 'segment-1'), '--report-dir', path.join(dir, 'twice')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('segment 1 of 2 is given twice');
  });
});
