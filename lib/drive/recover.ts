// After a key's first 429: wait what its Retry-After says (from the last moment a request in
// flight could have been answered), then one request must be let through
// (rate-limit.retry-after-honoured); and one request sent at the moment the 429's X-RateLimit-Reset
// names must be let through too (rate-limit.served-at-reset: Reset is "Unix timestamp at which the
// limit resets"). Where the Retry-After names no moment before that Reset (a fixed window's 429
// names its end in both), one request, sent at Reset, is both; where it names an earlier one (a
// token bucket's next token, a Retry-After cut short), the recovery goes at Retry-After and the
// request at Reset after it; where it names a later one, the client may not send at Reset ("the
// client retries only after the indicated time") and nothing is sent for it.
import type { TargetKey, Target } from '../config/schema.ts';
import { beforeStop, resetJitter } from '../checks/limiter.ts';
import type { KeyRun, Look, TimelinePoint } from '../result/rate-limits.ts';
import { classifyRefusal, momentsText, resetAtMs, resetShape, retryAfterMoments, retryAfterWaitMs } from '../rate-limit/vocabulary.ts';
import type { DriveContext } from './drive-context.ts';
import { inFlightMargin } from './drive-key.ts';
import { look } from './look.ts';
import { waitCapMs, waitOut, waitUntil } from './wait.ts';

/**
 * Seconds after the second X-RateLimit-Reset names that the request at Reset is aimed, on the
 * server's clock: Reset is whole seconds, and a limiter may round its moment down or to the nearest
 * second rather than up, so one second, as rate-limit.retry-after-consistent allows between Reset
 * and Retry-After; plus the noise the burst's Resets showed (resetJitter: a second or two). The
 * server's clock is read from the 429's Date at the latest moment it can mean (resetAtMs, `latest`).
 */
export const RESET_ROUNDING_S = 1;

/** When to send the request at Reset, and whether the recovery's request is that one; or why none is sent. */
export type AtResetPlan = { skip: string } | { reset: number; slackMs: number; aimAt: number; merged: boolean };

/** Pure: the request at the Reset of the key's 429 `p`, from what the 429 and the burst's answers say. */
export function atResetPlan(run: KeyRun, p: TimelinePoint, windows: Target['windows']): AtResetPlan {
  const of = `${run.label}'s 429`;
  if (p.reset === undefined) return { skip: `${of} carried no integer X-RateLimit-Reset (headers.rate-limit-present judges the headers): no moment to send at` };
  const shape = resetShape(p.reset);
  if (shape) return { skip: `${of} says X-RateLimit-Reset "${p.reset}", no Unix time in seconds (${shape}; headers.rate-limit-present names it): no moment to send at` };
  if (classifyRefusal(run, p) === 'ban') return { skip: `${of} keeps the key out beyond the day window (a ban, Retry-After ${p.retryAfter ?? 'none'}), whose Reset is not judged` };
  const jitter = resetJitter(beforeStop(run));
  const slackS = RESET_ROUNDING_S + jitter;
  const named = retryAfterMoments(p);
  if (named && named.lo > p.reset + slackS) {
    return { skip: `${of} names ${momentsText(named)} in Retry-After "${p.retryAfter}", ${Math.round(named.lo - p.reset)} s after its X-RateLimit-Reset ${p.reset}: the client retries only after the indicated time, so no request is sent at Reset` };
  }
  const aimAt = resetAtMs(p.reset, p.t, p.date, true) + slackS * 1000;
  if (aimAt - p.t > waitCapMs(windows)) return { skip: `${of} names X-RateLimit-Reset ${p.reset}, ${Math.round((aimAt - p.t) / 1000)} s after it arrived: more than the harness waits for one key (two minute windows), so no request is sent at Reset` };
  // Sent at Reset, the recovery still tests Retry-After where that names no moment before Reset
  // (its noise allowed for): a Retry-After cut short names one, and keeps its own request.
  return { reset: p.reset, slackMs: slackS * 1000, aimAt, merged: named !== undefined && named.lo >= p.reset - jitter };
}

/** A look at the key once `at` (epoch ms) has come and no Retry-After runs: its answer and when it was sent. */
async function lookAt(ctx: DriveContext, key: TargetKey, at: number, what: string): Promise<{ look: Look; sentAt: number } | { tooLong: string }> {
  const notBefore = ctx.notBefore.get(key.label) ?? 0;
  if (notBefore - ctx.clock.now() <= waitCapMs(ctx.target.windows)) await waitUntil(ctx, Math.max(at, notBefore), what);
  const sentAt = ctx.clock.now();
  const looked = await look(ctx, key);
  return 'look' in looked ? { look: looked.look, sentAt } : looked;
}

export async function recover(ctx: DriveContext, key: TargetKey, run: KeyRun): Promise<void> {
  // The last 429 seen: answers to requests in flight at the stop carry later Retry-Afters.
  const burst = run.burst;
  const p = burst?.points.filter((x) => x.status === 429).at(-1);
  if (!burst || !p) return;
  const plan = atResetPlan(run, p, ctx.target.windows);
  const atReset = 'skip' in plan ? undefined : plan;
  if ('skip' in plan) run.atResetSkipped = plan.skip;
  const waited = await waitOut(ctx, p, key.label, { marginMs: inFlightMargin(burst) });
  if (!waited.waited) {
    run.retrySkipped = waited.tooLong;
    if (atReset) run.atResetSkipped = waited.tooLong;
    return;
  }
  const resetWhat = `${key.label}: the X-RateLimit-Reset ${atReset?.reset ?? ''} its 429 named, and ${(atReset?.slackMs ?? 0) / 1000} s for its rounding`;
  const sentAtReset = (plan: typeof atReset & object, next: { look: Look; sentAt: number }, sameAsRetry?: true): KeyRun['atReset'] => ({
    refusal: p,
    reset: plan.reset,
    slackMs: plan.slackMs,
    aimedAt: plan.aimAt,
    sentAt: next.sentAt,
    next: next.look,
    ...(sameAsRetry ? { sameAsRetry } : {}),
  });
  if (retryAfterWaitMs(p.retryAfter, p.t, p.date) !== undefined) {
    const merged = atReset?.merged === true;
    const next = await lookAt(ctx, key, merged ? atReset.aimAt : 0, resetWhat);
    if ('tooLong' in next) {
      run.retrySkipped = next.tooLong;
      if (atReset) run.atResetSkipped = next.tooLong;
      return;
    }
    run.retry = { waitedMs: Math.round(next.sentAt - p.t), next: next.look };
    if (merged) {
      run.atReset = sentAtReset(atReset, next, true);
      return;
    }
  }
  if (!atReset) return;
  // A request of its own: after the recovery's (its Retry-After named an earlier moment), or, with
  // no usable Retry-After, the only one (Reset is then the client's word, and waited for).
  const next = await lookAt(ctx, key, atReset.aimAt, resetWhat);
  if ('tooLong' in next) run.atResetSkipped = next.tooLong;
  else run.atReset = sentAtReset(atReset, next);
}
