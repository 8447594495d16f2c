// A 429 that no limiter of the plan gives: the key refused while the harness itself had sent it no
// more than the plan's per-minute quota within one minute window's length. Whatever the kind of
// window (fixed, at any offset; a sliding log; a token bucket of the quota refilled over the
// window), what a limiter holds against a key when it decides is among the requests sent within
// the window's length before: a fixed window's are a part of them, a sliding log's are exactly
// them, and a token bucket's missing tokens are never more than them. So when those requests,
// the refused one included, are within the quota, the refusal is certain to be too early: a
// limiter that smooths requests out with no room for a burst, a quota smaller than the plan's.
// It assumes, as every quota check does, that the key is the harness's alone during the run; and
// since requests sent before the run (an earlier run, moments ago) are not known, only a 429 sent a
// whole window after the harness began to know the key's traffic is judged.
//
// Only the minute's 429s are judged (a day spent by earlier runs today, or a ban, is another
// clause), and only where its headers leave no room in the window they describe: a 429 whose
// headers still count the minute with requests left was refused by something they do not count
// (a day near its end, headers of the minute only), which this cannot tell. Pure.
import type { PlanQuota } from '../plans.ts';
import { classifyRefusal, type RateAnswer, windowDescribed, windowMs } from './vocabulary.ts';

/** How early a 429 came: the key's requests within one minute window's length, the refused one included, and the plan's quota. */
export interface WithinQuota {
  sent: number;
  quota: number;
  /** The minute window's length, seconds. */
  seconds: number;
}

/**
 * Whether the 429 answered at `answer.t` to a request sent at `sentAt` came within the plan's
 * minute quota. `counted` has, for every request the harness had sent with the key by then
 * (whatever its answer, the refused one included), the latest moment the limiter may have counted
 * it: its answer's arrival (our epoch ms), or later for one still in flight; `knownSince` when
 * the harness began to know them all (the run's start). Undefined when the 429 did not come within
 * the quota, or that cannot be told.
 */
export function refusedWithinQuota(counted: readonly number[], refusal: { sentAt: number; answer: RateAnswer }, ctx: { quota: PlanQuota; windows: { minute: number; day: number }; knownSince: number }): WithinQuota | undefined {
  const { answer } = refusal;
  if (answer.status !== 429 || classifyRefusal(ctx, answer) !== 'minute') return undefined;
  // Requests of the window before the harness knew the key's traffic may have spent it.
  if (refusal.sentAt - windowMs(ctx.windows) < ctx.knownSince) return undefined;
  if (windowDescribed(ctx.quota, answer) === 'minute' && answer.remaining !== undefined && answer.remaining > 0) return undefined;
  const seconds = ctx.windows.minute;
  // The limiter decided at the sending at the earliest: what it held then it had counted within a
  // window's length before, so after `from` (each request counted by its answer at the latest).
  const from = refusal.sentAt - windowMs(ctx.windows);
  const sent = counted.filter((at) => at > from).length;
  return sent <= ctx.quota.perMinute ? { sent, quota: ctx.quota.perMinute, seconds } : undefined;
}

/** "the 3rd request of free#1 within 60 s, the plan allowing 60 a minute". */
export function describeWithinQuota(label: string, plan: string, w: WithinQuota): string {
  return `refused at ${label}'s ${ordinal(w.sent)} request within ${w.seconds} s, plan ${plan} allowing ${w.quota} a minute`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
