// Limits, for every configured key: X-RateLimit-* meaning, the quota, 429 with Retry-After,
// recovery, isolation between keys of one plan, the daily quota, a ban probe on disposable keys.
// The keys are driven first (lib/rate-limit/drive-keys.ts: plans in parallel, the keys of one plan
// one after another, so that each key's first request right after the previous key was exhausted
// tests isolation); then each check judges what was recorded.
import { describe } from 'vitest';
import * as rl from '../lib/checks/rate-limit.ts';
import { skip } from '../lib/checks/types.ts';
import { systemClock } from '../lib/load/clock.ts';
import { LoadEvidence } from '../lib/load/evidence.ts';
import { clientWire, driveContext } from '../lib/rate-limit/drive-context.ts';
import { driveKeys, segmentSlots } from '../lib/rate-limit/drive-keys.ts';
import { type KeyRun, keyRunRecord, summariseKey } from '../lib/result/rate-limits.ts';
import { check, prepare } from '../lib/worker/vitest-adapter.ts';
import { session } from '../lib/worker/session.ts';

const runs = new Map<string, KeyRun>();
const evidence = new LoadEvidence();
let failure: string | undefined;

describe('Limits', () => {
  const { run } = session();

  prepare(async (ctx) => {
    if (!ctx.run.allowLoad) return;
    const stop = ctx.client.subscribe(evidence.add);
    const segment = ctx.run.segment;
    const drive = driveContext({
      clock: systemClock,
      wire: clientWire(ctx.client),
      target: ctx.run.target,
      soak: ctx.run.soak,
      deadline: ctx.run.deadline,
      progress: ctx.progress,
      ledger: session().accepted,
      ...(segment ? { segment: { ...segment, slots: segmentSlots(ctx.run, segment.startAt) } } : {}),
    });
    try {
      await driveKeys(drive, runs);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    } finally {
      stop();
      for (const key of ctx.run.target.keys) {
        const recorded = runs.get(key.label);
        // A load segment keeps the whole run of each key, for `merge` to judge the runners as one.
        if (recorded) ctx.emit({ kind: 'rate-limit', key: { ...summariseKey(recorded), ...(segment ? { raw: keyRunRecord(recorded) } : {}) } });
      }
    }
  });

  for (const key of run.target.keys) {
    for (const def of rl.RATE_LIMIT_CHECKS) {
      check(def, { subject: key.label, requires: 'load' }, async () => {
        if (failure) throw new Error(`the rate-limit run could not finish: ${failure}`);
        if (run.segment) return skip(`judged when the ${run.segment.count} load segments are merged (animal-store-conformance merge): this runner saw its share of the load only`);
        const recorded = runs.get(key.label);
        if (!recorded) return skip(`${key.label} was not driven`);
        const finding = def.judge(recorded);
        return finding.outcome === 'fail' ? { ...finding, exchanges: evidence.of(key.label) } : finding;
      });
    }
  }
});
