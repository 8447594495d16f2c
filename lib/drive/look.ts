// A look at a key: one request, never retried, whose status and headers tell where the key's
// limiter stands. It waits for the key's last Retry-After first (unless sent early on purpose, as
// the ban probe does: the exchange says why), and a 429 it gets is remembered: until when the key
// must wait, and which request will be that 429's evidence.
import type { TargetKey } from '../config/schema.ts';
import type { Look } from '../result/rate-limits.ts';
import { readRateAnswer, resetAtMs, resetShape, retryAfterWaitMs } from '../rate-limit/vocabulary.ts';
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
 * Remembers until when a 429 (answered to request `seq`) told the key to wait: its Retry-After (an
 * HTTP-date read from the Date as far as the service's Dates disagree: readRetryAfter's dateSkewS);
 * without a usable one, its X-RateLimit-Reset (a Unix time in seconds, read in the server's time),
 * as a polite client waits and as the run's politeness counts the 429's period (a spent day's 429
 * that names its wait only in Retry-After-day, issue 43). Only a Retry-After has its evidence
 * (`obeying`): a Reset waited for is no Retry-After obeyed.
 */
export function noteRetryAfter(ctx: DriveContext, key: TargetKey, t: number, headers: Readonly<Record<string, string | undefined>>, seq: number | undefined): void {
  const delay = retryAfterWaitMs(headers['retry-after'], t, headers.date, ctx.ledger.dateSkew());
  if (delay === undefined) {
    const { reset } = readRateAnswer(t, 429, headers);
    if (reset === undefined || resetShape(reset) !== undefined) return;
    const until = resetAtMs(reset, t, headers.date);
    if (until > Math.max(t, ctx.notBefore.get(key.label) ?? 0)) ctx.notBefore.set(key.label, until);
    return;
  }
  const until = t + delay;
  if (until < (ctx.notBefore.get(key.label) ?? 0)) return;
  ctx.notBefore.set(key.label, until);
  if (seq !== undefined) ctx.obeying.set(key.label, { seq, until });
}
