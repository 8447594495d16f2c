// Limits, for every configured key: X-RateLimit-* meaning, the quota, 429 with Retry-After,
// recovery, isolation between keys of one plan, the daily quota, a ban probe on disposable keys.
// The keys are driven first (plans in parallel; the keys of one plan one after another, so that
// each key's first request, right after the previous key was exhausted, tests isolation); then
// each check judges what was recorded.
import { describe } from 'vitest';
import * as rl from '../lib/checks/rate-limit.ts';
import { skip } from '../lib/checks/types.ts';
import type { TargetKey } from '../lib/config/schema.ts';
import { burstConnections, type DriveContext, driveDay, driveKey, observe, probeBan, recover, waitUntil } from '../lib/load/drive.ts';
import { LoadEvidence } from '../lib/load/evidence.ts';
import { keySlots } from '../lib/load/segment.ts';
import { type KeyRun, keyRunRecord, type Observation, summariseKey } from '../lib/result/rate-limits.ts';
import { check, prepare } from '../lib/suite/harness.ts';
import { session } from '../lib/suite/session.ts';

const runs = new Map<string, KeyRun>();
const evidence = new LoadEvidence();
let failure: string | undefined;

/** Keys grouped by plan, disposable ones last (the ban probe goes after the isolation checks). */
function byPlan(keys: readonly TargetKey[]): TargetKey[][] {
  const groups = new Map<string, TargetKey[]>();
  for (const k of keys) groups.set(k.plan, [...(groups.get(k.plan) ?? []), k]);
  return [...groups.values()].map((g) => [...g].sort((a, b) => Number(a.disposable) - Number(b.disposable)));
}

/**
 * The keys of one plan, one after another. The first key that can be driven and is not disposable
 * spends the day's quota; a key refused from the start (banned) is left alone, and the next key
 * of the plan takes its place.
 */
async function drivePlan(ctx: DriveContext, group: TargetKey[], initial: Map<string, Observation>): Promise<void> {
  const followUps: Promise<void>[] = [];
  let previous: KeyRun | undefined;
  let dayKey: string | undefined;
  const notDayKey: KeyRun[] = [];
  for (const key of group) {
    const { run, first } = await driveKey(ctx, key);
    runs.set(key.label, run);
    if (run.unavailable) continue;
    if (previous) run.isolation = { exhausted: previous.label, before: initial.get(key.label)!, after: first };
    // With load segments, the day and the ban probe are driven by the first runner alone.
    const spendsDay = !key.disposable && dayKey === undefined && (ctx.segment?.index ?? 1) === 1;
    if (spendsDay) dayKey = key.label;
    else notDayKey.push(run);
    followUps.push(
      (async () => {
        if (key.disposable && (ctx.segment?.index ?? 1) === 1) await probeBan(ctx, key, run);
        else await recover(ctx, key, run);
        if (spendsDay) await driveDay(ctx, key, run);
      })(),
    );
    previous = run;
  }
  const why = dayKey
    ? `the daily quota is spent on one key per plan (${dayKey})`
    : ctx.segment && ctx.segment.index > 1
      ? `the daily quota is spent by load segment 1 of ${ctx.segment.count}`
      : `no key of plan ${group[0]?.plan} that is not disposable could be driven`;
  for (const run of notDayKey) run.daySkipped = why;
  await Promise.all(followUps);
}

describe('Limits', () => {
  const { run } = session();

  prepare(async (ctx) => {
    if (!ctx.run.allowLoad) return;
    const stop = ctx.client.observe(evidence.add);
    const drive: DriveContext = { client: ctx.client, target: ctx.run.target, soak: ctx.run.soak, deadline: ctx.run.deadline, progress: ctx.progress, notBefore: new Map(), refusals: new Map(), obeying: new Map(), accepted: (label) => session().accepted.of(label) };
    // Plans run side by side, as many as the cap on concurrent requests leaves room for.
    const lanes = Math.max(1, Math.floor(ctx.run.target.http.maxConcurrency / burstConnections(ctx.run.target)));
    const segment = ctx.run.segment;
    try {
      if (segment) {
        drive.segment = { ...segment, slots: keySlots(byPlan(ctx.run.target.keys), lanes, segment.startAt, ctx.run.target.windows.minute) };
        await waitUntil(drive, segment.startAt, `--start-at (load segment ${segment.index} of ${segment.count})`);
      }
      const initial = new Map<string, Observation>();
      for (const key of ctx.run.target.keys) initial.set(key.label, await observe(drive, key));
      const queue = byPlan(ctx.run.target.keys);
      await Promise.all(
        Array.from({ length: Math.min(lanes, queue.length) }, async () => {
          for (let group = queue.shift(); group; group = queue.shift()) await drivePlan(drive, group, initial);
        }),
      );
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
