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
// (a day near its end, headers of the minute only), which this cannot tell. Nor is a 429 the
// minute cannot be told from the day by (placedInMinute): one with no Retry-After, under headers
// that do not show the day with room, may be a day's spent before the run (a limiter that names
// the day's wait only in a header of its own, Retry-After-day, issue 43); one sent when the run's
// own accepted requests of the key within a day window's length reach the day's quota may be the
// day's too. Pure.
import type { PlanQuota } from '../plans.ts';
import { classifyRefusal, type RateAnswer, readRetryAfter, type RefusalContext, windowDescribed, windowMs } from './vocabulary.ts';

/**
 * Whether a 429 is the minute's for certain enough to judge the minute's quota by: classified the
 * minute's (classifyRefusal), and either its Retry-After names a moment within the minute (a spent
 * day names its end, beyond the minute) or its headers describe the day with requests left. A 429
 * with no usable Retry-After under headers of the minute (or none) names nothing of the day: its
 * Reset may be the minute's while the day is spent (headers of the minute are a legal reading),
 * so it is never placed in the minute.
 */
export function placedInMinute(ctx: RefusalContext, answer: RateAnswer): boolean {
  if (answer.status !== 429 || classifyRefusal(ctx, answer) !== 'minute') return false;
  if (readRetryAfter(answer.retryAfter, answer.t, answer.date)?.seconds !== undefined) return true;
  return windowDescribed(ctx.quota, answer) === 'day' && answer.remaining !== undefined && answer.remaining > 0;
}

/**
 * Whether the run's own accepted requests of the key (`acceptedAt`, when each answer came) within
 * a day window's length before `sentAt` reach the day's quota: the day may then be spent, whatever
 * kind of window it is (a fixed day holds a part of them, a log of the day all).
 */
export function dayMayBeSpent(acceptedAt: readonly number[], sentAt: number, ctx: { quota: PlanQuota; windows: { day: number } }): boolean {
  const from = sentAt - windowMs(ctx.windows, 'day');
  return acceptedAt.filter((at) => at > from).length >= ctx.quota.perDay;
}

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
 * the harness began to know them all (the run's start); `acceptedAt`, when given, when each of the
 * key's accepted requests was answered (the run's own count of the day). Undefined when the 429
 * did not come within the quota, or that cannot be told: not placed in the minute
 * (placedInMinute), or the day may be spent by the run's own count (dayMayBeSpent).
 */
export function refusedWithinQuota(
  counted: readonly number[],
  refusal: { sentAt: number; answer: RateAnswer },
  ctx: { quota: PlanQuota; windows: { minute: number; day: number }; knownSince: number; acceptedAt?: readonly number[] | undefined },
): WithinQuota | undefined {
  const { answer } = refusal;
  if (!placedInMinute(ctx, answer)) return undefined;
  if (ctx.acceptedAt && dayMayBeSpent(ctx.acceptedAt, refusal.sentAt, ctx)) return undefined;
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
