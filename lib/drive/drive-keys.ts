// Every configured key through its limits: a first look at each, then plans side by side (as many
// as the cap on concurrent requests leaves room for), the keys of one plan one after another, so
// that each key's first request, right after the previous key was exhausted, tests isolation.
// After its burst each key recovers (or, disposable, is probed for a ban), one key of the run
// spends a window on a mix of operations (one-quota.ts), and one key per plan spends the day.
// What each key's run saw goes into `runs` as it is known, so that a run cut short
// still reports what it did.
import type { TargetKey } from '../config/schema.ts';
import { keySlots } from '../load/segment.ts';
import type { KeyRun, Look } from '../result/rate-limits.ts';
import { probeBan } from './ban-probe.ts';
import { driveDay } from './day.ts';
import type { DriveContext } from './drive-context.ts';
import { burstConnections, driveKey } from './drive-key.ts';
import { look } from './look.ts';
import { driveMix, mixKey } from './drive-mix.ts';
import { recover } from './recover.ts';
import { waitUntil } from './wait.ts';
import { describeWithinQuota } from '../rate-limit/within-quota.ts';

/** Keys grouped by plan, disposable ones last (the ban probe goes after the isolation checks). */
export function byPlan(keys: readonly TargetKey[]): TargetKey[][] {
  const groups = new Map<string, TargetKey[]>();
  for (const k of keys) groups.set(k.plan, [...(groups.get(k.plan) ?? []), k]);
  return [...groups.values()].map((g) => [...g].sort((a, b) => Number(a.disposable) - Number(b.disposable)));
}

/** Plans driven side by side: as many as the cap on concurrent requests leaves room for. */
export function lanesFor(ctx: Pick<DriveContext, 'target'>): number {
  return Math.max(1, Math.floor(ctx.target.http.maxConcurrency / burstConnections(ctx.target)));
}

export async function driveKeys(ctx: DriveContext, runs: Map<string, KeyRun>): Promise<void> {
  const keys = ctx.target.keys;
  const lanes = lanesFor(ctx);
  const segment = ctx.segment;
  if (segment) await waitUntil(ctx, segment.startAt, `--start-at (load segment ${segment.index} of ${segment.count})`);
  const initial = new Map<string, Look>();
  for (const key of keys) {
    const first = await look(ctx, key);
    if ('look' in first) initial.set(key.label, first.look);
  }
  const queue = byPlan(keys);
  await Promise.all(
    Array.from({ length: Math.min(lanes, queue.length) }, async () => {
      for (let group = queue.shift(); group; group = queue.shift()) await drivePlan(ctx, group, initial, runs);
    }),
  );
}

/** The slots of a load segment's keys: every runner drives each key at the same moment. */
export function segmentSlots(ctx: Pick<DriveContext, 'target'>, startAt: number): ReadonlyMap<string, number> {
  return keySlots(byPlan(ctx.target.keys), lanesFor(ctx), startAt, ctx.target.windows.minute);
}

/**
 * The keys of one plan, one after another. The first key that can be driven and is not disposable
 * spends the day's quota; a key refused from the start (banned) is left alone, and the next key
 * of the plan takes its place.
 */
async function drivePlan(ctx: DriveContext, group: TargetKey[], initial: Map<string, Look>, runs: Map<string, KeyRun>): Promise<void> {
  const followUps: Promise<void>[] = [];
  const mixer = mixKey(ctx.target.keys);
  let previous: KeyRun | undefined;
  let dayKey: string | undefined;
  const notDayKey: KeyRun[] = [];
  for (const key of group) {
    const { run, first } = await driveKey(ctx, key);
    runs.set(key.label, run);
    if (run.unavailable) continue;
    const before = initial.get(key.label);
    if (previous && before) run.isolation = { exhausted: previous.label, before, after: first };
    // With load segments, the day and the ban probe are driven by the first runner alone.
    const spendsDay = !key.disposable && dayKey === undefined && (ctx.segment?.index ?? 1) === 1;
    if (spendsDay) dayKey = key.label;
    else notDayKey.push(run);
    // A limiter that refused the key's burst within the plan's quota would make the mix and the day
    // wait out a Retry-After at every request or two: neither is sent (rate-limit.quota fails).
    const early = run.refusedWithinQuota?.[0];
    const tooEarly = early && `${key.label}'s burst was ${describeWithinQuota(key.label, key.plan, early)} (rate-limit.quota): a limiter that refuses below the plan's quota would have every request of it wait out a Retry-After`;
    followUps.push(
      (async () => {
        if (key.disposable && (ctx.segment?.index ?? 1) === 1) await probeBan(ctx, key, run);
        else await recover(ctx, key, run);
        if (mixer && key.label !== mixer.label) run.mixSkipped = `a mix of operations is sent with one key of the run, ${mixer.label} (the key of the smallest minute quota that is not disposable, preferring one that does not spend its plan's day)`;
        else if (mixer) {
          if (ctx.segment) run.mixSkipped = `a mix of operations is sent without load segments only (this is segment ${ctx.segment.index} of ${ctx.segment.count})`;
          else if (tooEarly) run.mixSkipped = `${tooEarly}; the mix of operations is not sent`;
          else await driveMix(ctx, key, run);
        }
        if (spendsDay && tooEarly) run.daySkipped = `${tooEarly}; the day's quota is not spent`;
        else if (spendsDay) await driveDay(ctx, key, run);
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
