// After a key's first 429: wait what its Retry-After says (from the last moment a request in
// flight could have been answered), then one request must be let through.
import type { TargetKey } from '../config/schema.ts';
import type { KeyRun } from '../result/rate-limits.ts';
import { retryAfterWaitMs } from '../rate-limit/vocabulary.ts';
import type { DriveContext } from './drive-context.ts';
import { inFlightMargin } from './drive-key.ts';
import { look } from './look.ts';
import { waitOut } from './wait.ts';

export async function recover(ctx: DriveContext, key: TargetKey, run: KeyRun): Promise<void> {
  // The last 429 seen: answers to requests in flight at the stop carry later Retry-Afters.
  const p = run.burst?.points.filter((x) => x.status === 429).at(-1);
  if (!p) return;
  const waited = await waitOut(ctx, p, key.label, { marginMs: inFlightMargin(run.burst!) });
  if (!waited.waited) {
    run.retrySkipped = waited.tooLong;
    return;
  }
  if (retryAfterWaitMs(p.retryAfter, p.t, p.date) === undefined) return;
  const next = await look(ctx, key);
  if ('look' in next) run.retry = { waitedMs: waited.ms, next: next.look };
  else run.retrySkipped = next.tooLong;
}
