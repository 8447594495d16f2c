// What a server does to a key that keeps sending after its 429 (disposable keys only): a bounded
// handful of requests sent early on purpose, then a wait for the last Retry-After and one more.
import type { TargetKey } from '../config/schema.ts';
import type { KeyRun, Look } from '../result/rate-limits.ts';
import type { DriveContext } from './drive-context.ts';
import { look } from './look.ts';
import { waitOut } from './wait.ts';

/** Requests the probe sends without waiting for Retry-After. */
export const BAN_PROBE_REQUESTS = 5;

export async function probeBan(ctx: DriveContext, key: TargetKey, run: KeyRun): Promise<void> {
  const statuses: number[] = [];
  let last: Look | undefined;
  for (let i = 0; i < BAN_PROBE_REQUESTS; i++) {
    const early = await look(ctx, key, `the ban probe of a disposable key: request ${i + 1} of ${BAN_PROBE_REQUESTS} sent without waiting for Retry-After (rate-limit.ban-probe)`);
    if (!('look' in early)) break;
    last = early.look;
    statuses.push(last.status);
  }
  if (!last) return;
  const waited = await waitOut(ctx, last, `${key.label} after the ban probe`);
  const after = waited.waited ? await look(ctx, key) : undefined;
  run.ban = { statuses, last, after: after && 'look' in after ? after.look : last };
}
