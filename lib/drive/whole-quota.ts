// Waiting until a key's limiter holds nothing sent before against it, for a load that must stay
// within the quota from its first request (the paced load).
import type { TargetKey } from '../config/schema.ts';
import { type Look } from '../result/rate-limits.ts';
import { resetAtMs, readRateAnswer, windowMs } from '../rate-limit/vocabulary.ts';
import type { DriveContext } from './drive-context.ts';
import { look } from './look.ts';
import { waitOut, waitUntil } from './wait.ts';
import { isAccepted } from '../status.ts';

/** A look at the key that shows its whole minute quota left: Limit the plan's per-minute quota, all but this request Remaining. */
function showsWholeQuota(key: TargetKey, o: Look): boolean {
  const { limit, remaining } = readRateAnswer(o);
  return isAccepted(o) && limit === key.quota.perMinute && remaining !== undefined && remaining >= limit - 1;
}

/**
 * A look at the key; unless it shows the whole minute quota left, a wait for its Reset (within a
 * window) and another look; failing that (no usable Reset, headers of the day window, a quota
 * still not whole), a whole minute window without a request, after which any limiter that honours
 * the plan holds nothing of what came before. A key refused for longer than the harness waits, or
 * answered 401 or 403, is not used: the reason says why. Returns the look that shows it.
 */
export async function wholeQuota(ctx: DriveContext, key: TargetKey, what: string): Promise<{ look: Look } | { unavailable: string }> {
  let looked = await look(ctx, key);
  if ('look' in looked && looked.look.status === 429) {
    const waited = await waitOut(ctx, looked.look, `${key.label} (rate-limited before ${what})`);
    looked = waited.waited ? await look(ctx, key) : { tooLong: waited.tooLong };
  }
  if ('tooLong' in looked) return { unavailable: `${looked.tooLong}; not used for ${what}` };
  let current = looked.look;
  if (showsWholeQuota(key, current)) return { look: current };
  if (current.status === 401 || current.status === 403) return { unavailable: `${key.label} got ${current.status} (banned, not allowed, or not accepted); not used for ${what}` };
  const minuteMs = windowMs(ctx.target.windows);
  const reset = readRateAnswer(current).reset;
  const resetAt = reset === undefined ? undefined : resetAtMs(reset, current.t, current.headers.date, true);
  if (resetAt !== undefined && resetAt > ctx.clock.now() && resetAt - current.t <= minuteMs + 2_000) {
    await waitUntil(ctx, Math.max(resetAt + 150, ctx.notBefore.get(key.label) ?? 0), `${key.label}: its window to reset before ${what}`);
    const again = await look(ctx, key);
    if ('tooLong' in again) return { unavailable: `${again.tooLong}; not used for ${what}` };
    current = again.look;
    if (showsWholeQuota(key, current)) return { look: current };
  }
  await waitUntil(ctx, ctx.clock.now() + minuteMs, `${key.label}: a whole ${ctx.target.windows.minute} s window without requests before ${what} (its headers did not show the whole quota left)`);
  const last = await look(ctx, key);
  if ('tooLong' in last) return { unavailable: `${last.tooLong}; not used for ${what}` };
  if (!isAccepted(last.look)) return { unavailable: `${key.label} got ${last.look.status} after a whole window without requests; not used for ${what}` };
  return { look: last.look };
}
