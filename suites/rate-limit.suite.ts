// Limits, for every configured key: X-RateLimit-* meaning, the quota, 429 with Retry-After,
// recovery, isolation between keys of one plan, the daily quota, a ban probe on disposable keys.
// The keys are driven first (lib/drive/drive-keys.ts: plans in parallel, the keys of one plan
// one after another, so that each key's first request right after the previous key was exhausted
// tests isolation); then each check judges what was recorded.
import { describe } from 'vitest';
import { RATE_LIMIT_CHECKS } from '../lib/checks/rate-limit.ts';
import { quota } from '../lib/checks/rate-limit-quota.ts';
import { skip } from '../lib/checks/types.ts';
import { systemClock } from '../lib/load/clock.ts';
import { LoadEvidence } from '../lib/load/evidence.ts';
import { clientWire, driveContext } from '../lib/drive/drive-context.ts';
import { driveKeys, segmentSlots } from '../lib/drive/drive-keys.ts';
import { type KeyRun, keyRunRecord } from '../lib/result/rate-limits.ts';
import { summariseKey } from '../lib/checks/key-summary.ts';
import { check, LOAD_NOT_ALLOWED, prepare } from '../lib/suite-kit/vitest-adapter.ts';
import { HarnessError, SuiteCutShort } from '../lib/errors.ts';
import { runStart } from '../lib/config/run-context.ts';
import { session } from '../lib/suite-kit/session.ts';

const runs = new Map<string, KeyRun>();
/** The driver's error, for every check it left without a record: its code kept (a run cut by its time limit, say). */
const cutShort = (err: unknown) => new SuiteCutShort(`the rate-limit run could not finish: ${err instanceof Error ? err.message : String(err)}`, err instanceof HarnessError ? err.code : 'HARNESS_SUITE_ERROR');
const earlyRefusals = (label: string) => session().client.earlyRefusals(label);
const recordOf = ({ exchange: _exchange, ...refusal }: ReturnType<typeof earlyRefusals>[number]) => refusal;
const evidence = new LoadEvidence();
let failure: unknown;

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
      knownSince: runStart(ctx.run),
      progress: ctx.progress,
      ledger: session().accepted,
      ...(segment ? { segment: { ...segment, slots: segmentSlots(ctx.run, segment.startAt) } } : {}),
    });
    try {
      await driveKeys(drive, runs);
    } catch (err) {
      failure = err;
    } finally {
      stop();
      for (const key of ctx.run.target.keys) {
        const recorded = runs.get(key.label);
        // The 429s within the plan's quota that the client met (every suite's), beside the burst's own.
        const early = earlyRefusals(key.label).map(recordOf);
        if (recorded && early.length > 0) recorded.refusedWithinQuota = [...early, ...(recorded.refusedWithinQuota ?? [])].sort((a, b) => a.at - b.at);
        // A load segment keeps the whole run of each key, for `merge` to judge the runners as one.
        if (recorded) ctx.emit({ kind: 'rate-limit', key: { ...summariseKey(recorded), ...(segment ? { raw: keyRunRecord(recorded) } : {}) } });
      }
    }
  });

  for (const key of run.target.keys) {
    for (const def of RATE_LIMIT_CHECKS) {
      // The quota is judged without load too when another suite's request was refused within it: that needs no request more.
      check(def, { subject: key.label, ...(def === quota ? {} : { requires: 'load' as const }) }, async () => {
        const early = earlyRefusals(key.label);
        if (!run.allowLoad) {
          if (early.length === 0) return skip(LOAD_NOT_ALLOWED);
          const finding = def.judge({ label: key.label, plan: key.plan, quota: key.quota, windows: run.target.windows, refusedWithinQuota: early.map(recordOf) });
          return { ...finding, exchanges: early.map((r) => r.exchange) };
        }
        if (failure !== undefined) throw cutShort(failure);
        if (run.segment) return skip(`judged when the ${run.segment.count} load segments are merged (animal-store-conformance merge): this runner saw its share of the load only`);
        const recorded = runs.get(key.label);
        if (!recorded) return skip(`${key.label} was not driven`);
        const finding = def.judge(recorded);
        return finding.outcome === 'fail' ? { ...finding, exchanges: [...early.map((r) => r.exchange), ...evidence.of(key.label)] } : finding;
      });
    }
  }
});
