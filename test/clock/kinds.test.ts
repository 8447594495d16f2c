// Every kind named, roots by kind (issue 37, "What it must show"), on the reference server in this
// process on a virtual clock: faults headers-missing-on-errors (no X-RateLimit-* on any 4xx/5xx)
// and rate-reset-relative (Reset counts seconds until the reset). The auth suite's 401s come first,
// then the rate-limit suite drives every key; every rate-limit check and every run-level check
// judges what was recorded and becomes a result as the runner makes it (the key's evidence kept as
// the suite keeps it, toCheckResult, linkCauses). headers.rate-limit-present fails once with two
// kinds, each with its own count and example; no rate-limit check is linked under the 401s' kind.
import { describe, expect, it } from 'vitest';
import { linkCauses } from '../../lib/checks/causes.ts';
import { RATE_LIMIT_CHECKS } from '../../lib/checks/rate-limit.ts';
import { RUN_CHECKS } from '../../lib/checks/run-level.ts';
import { toCheckResult } from '../../lib/checks/to-check-result.ts';
import { LoadEvidence } from '../../lib/load/evidence.ts';
import type { CheckResult } from '../../lib/result/model.ts';
import { PLAIN, renderSummary } from '../../lib/report/console.ts';
import { report } from '../unit/report/fixture.ts';
import { driveOnClock } from '../support/drive-on-clock.ts';
import { KEYS, PLANS, WINDOWS } from '../support/fault-catalogue.ts';
import type { FaultId } from '../../targets/reference/faults.ts';

const RUN = 'every response of the run';

async function catalogueRun(more: FaultId[] = []): Promise<CheckResult[]> {
  const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: ['headers-missing-on-errors', 'rate-reset-relative', ...more], unauthorized: 3 });
  const evidence = new LoadEvidence();
  for (const e of r.sim.exchanges) evidence.add(e);
  const perKey = [...r.runs.keys()].flatMap((label) =>
    RATE_LIMIT_CHECKS.map((def) => {
      const finding = def.judge(r.runs.get(label)!);
      // As suites/rate-limit.suite.ts keeps a failing key's evidence.
      const kept = finding.outcome === 'fail' ? { ...finding, exchanges: evidence.of(label) } : finding;
      return toCheckResult(def, kept, { subject: label, durationMs: 0, exchanges: [] });
    }),
  );
  const run = RUN_CHECKS.map((def) => toCheckResult(def, def.judge(r.sim.exchanges), { subject: RUN, durationMs: 0, exchanges: [] }));
  return linkCauses([...perKey, ...run]);
}

describe('401s without X-RateLimit-* and a Reset counting seconds from now: two kinds, roots by kind', () => {
  it('headers.rate-limit-present names both kinds, each with its count and example; no rate-limit check is under the 401s\' kind', async () => {
    const checks = await catalogueRun();
    const headers = checks.find((c) => c.id === 'headers.rate-limit-present')!;
    expect(headers).toMatchObject({ outcome: 'fail', code: 'rate-limit-header-missing' });
    // Kind A: the 401s first (the auth suite ran first), quoted with what they lack.
    expect(headers.message).toMatch(/^\d+ of \d+ responses: GET \/v1\/pets → 401: X-RateLimit-Limit missing; X-RateLimit-Remaining missing; X-RateLimit-Reset missing/);
    expect(headers.evidence?.exchanges.slice(0, 3).map((e) => e.status)).toEqual([401, 401, 401]);
    // Kind B: the accepted answers' relative Reset, quoted as sent.
    const kinds = headers.evidence?.failures ?? [];
    expect(kinds.map((k) => k.code)).toEqual(['reset-not-unix-seconds']);
    const b = kinds[0]!;
    expect(b.count).toBeGreaterThan(0);
    expect(b.counterexample).toMatch(/^GET \/v1\/pets\?limit=1 → 200: X-RateLimit-Reset is "\d{1,2}", not a Unix time in seconds: it looks like seconds until the reset$/);
    expect(b.exchanges?.length).toBe(3);
    expect(headers.message).toContain(`(and 1 more kind of failure: reset-not-unix-seconds ×${b.count})`);
    // Each kind its own offenders, and none shared: a 429 lacks the headers (A), a 200 has a relative Reset (B).
    const a = new Set(headers.evidence?.offenders);
    expect(b.offenders?.filter((seq) => a.has(seq))).toEqual([]);

    const underA = checks.filter((c) => c.causedBy?.id === 'headers.rate-limit-present' && c.causedBy.code === 'rate-limit-header-missing' && c.suite === 'rate-limit');
    expect(underA.map((c) => `${c.id} [${c.subject}]`)).toEqual([]);
    // Every rate-limit failure under the header check is there through kind B.
    for (const c of checks.filter((x) => x.suite === 'rate-limit' && x.causedBy?.id === 'headers.rate-limit-present')) expect(c.causedBy).toEqual({ id: 'headers.rate-limit-present', subject: RUN, code: 'reset-not-unix-seconds' });

    const text = renderSummary(report(checks), [], PLAIN);
    expect(text).toMatch(/ {6}\+ reset-not-unix-seconds ×\d+: GET \/v1\/pets\?limit=1 → 200: X-RateLimit-Reset is "\d+"/);
  });

  // A third fault that fails rate-limit checks of every key, whose evidence is the key's burst: its
  // 200s (relative Reset, kind B) and its 429 (no X-RateLimit-*, kind A, as the 401s). None of
  // them is linked through kind A.
  it('with rate-limit-wrong-plan too: the keys\' failures, their 429s kind A\'s, are never under the 401s\' kind', async () => {
    const checks = await catalogueRun(['rate-limit-wrong-plan']);
    const failed = checks.filter((c) => c.suite === 'rate-limit' && c.outcome === 'fail');
    expect(failed.map((c) => c.id)).toContain('rate-limit.limit-header');
    expect(failed.every((c) => c.evidence?.exchanges.some((e) => e.status === 429))).toBe(true);
    expect(failed.filter((c) => c.causedBy?.code === 'rate-limit-header-missing').map((c) => `${c.id} [${c.subject}]`)).toEqual([]);
  });
});
