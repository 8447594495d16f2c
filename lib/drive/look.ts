// A look at a key: one request, never retried, whose status and headers tell where the key's
// limiter stands. It waits for the key's last Retry-After first (unless sent early on purpose, as
// the ban probe does: the exchange says why), and a 429 it gets is remembered: until when the key
// must wait, and which request will be that 429's evidence.
import type { TargetKey } from '../config/schema.ts';
import type { Look } from '../result/rate-limits.ts';
import { retryAfterWaitMs } from '../rate-limit/vocabulary.ts';
import type { DriveContext } from './drive-context.ts';
import { waitCapMs, waitUntil } from './wait.ts';

/** A look, or why it was not sent: the key was told to wait longer than the harness waits. */
export type Looked = { look: Look } | { tooLong: string };

export async function look(ctx: DriveContext, key: TargetKey, earlyOnPurpose?: string): Promise<Looked> {
  const early = earlyOnPurpose !== undefined;
  const notBefore = ctx.notBefore.get(key.label);
  if (!early && notBefore !== undefined) {
    const left = notBefore - ctx.clock.now();
    if (left > waitCapMs(ctx.target.windows)) return { tooLong: `${key.label} was told to wait ${Math.round(left / 1000)} s more, longer than two minute windows: not used again` };
    await waitUntil(ctx, notBefore, `${key.label}: the Retry-After it was given`);
  }
  // At most one request is the evidence of a 429's Retry-After: the first sent after it, unless sent early.
  const obeyed = ctx.obeying.get(key.label);
  ctx.obeying.delete(key.label);
  const follows = !early && obeyed && ctx.clock.now() >= obeyed.until ? obeyed : undefined;
  const res = await ctx.wire.look(key, follows, earlyOnPurpose);
  const looked: Look = { t: ctx.clock.now(), status: res.status, headers: res.headers };
  if (looked.status === 429) {
    noteRetryAfter(ctx, key, looked.t, looked.headers, res.seq);
    if (!ctx.refusals.has(key.label)) ctx.refusals.set(key.label, looked);
  }
  return { look: looked };
}

/**
 * Remembers until when a 429 (answered to request `seq`) told the key to wait: an HTTP-date read
 * from the Date as far as the service's Dates disagree (readRetryAfter's dateSkewS).
 */
export function noteRetryAfter(ctx: DriveContext, key: TargetKey, t: number, headers: Readonly<Record<string, string | undefined>>, seq: number | undefined): void {
  const delay = retryAfterWaitMs(headers['retry-after'], t, headers.date, ctx.ledger.dateSkew());
  if (delay === undefined) return;
  const until = t + delay;
  if (until < (ctx.notBefore.get(key.label) ?? 0)) return;
  ctx.notBefore.set(key.label, until);
  if (seq !== undefined) ctx.obeying.set(key.label, { seq, until });
}
