// The accepted requests of every key over the whole run (every request its quota counted, 400s and
// 404s included), whichever suite sent them: when each was let through, as the span of the
// server's seconds from its sending to its answer's Date. The day's quota is counted from it, so
// requests of the functional suites, the paced load and the rate-limit suite's own bursts all
// count in the day window they fell in. And every request sent with each key, whatever its answer,
// as the moment its answer came: what is left of a window the headers do not describe is counted
// from it (lib/rate-limit/room.ts). Numbers only: a run's worth is small.
import type { PlanQuota } from '../plans.ts';
import { type AcceptedSpan, acceptedSpan, withinDayWindow } from '../rate-limit/day-count.ts';
import { countedAgainstQuota, rateAnswerOf } from '../rate-limit/vocabulary.ts';
import type { Exchange } from '../result/model.ts';

/** A key's plan and the day window's length: an answer whose headers describe the day names the day window it was counted in. */
export type DayOf = (label: string) => { quota: PlanQuota; daySeconds: number } | undefined;

/** The target's keys' plans and its day window, by key label. */
export function dayOfTarget(target: { keys: readonly { label: string; quota: PlanQuota }[]; windows: { day: number } }): DayOf {
  const quotas = new Map(target.keys.map((k) => [k.label, k.quota]));
  return (label) => {
    const quota = quotas.get(label);
    return quota && { quota, daySeconds: target.windows.day };
  };
}

export class AcceptedLedger {
  private readonly spans = new Map<string, AcceptedSpan[]>();
  private readonly sentAt = new Map<string, number[]>();

  constructor(private readonly dayOf: DayOf = () => undefined) {}

  /** Takes every exchange of the run; keeps the ones sent with a configured key that its quota counted (countedAgainstQuota). */
  readonly add = (e: Exchange): void => {
    const label = e.auth.kind === 'key' || e.auth.kind === 'key-in-query' ? e.auth.label : undefined;
    if (label === undefined) return;
    const sentAt = Date.parse(e.startedAt);
    push(this.sentAt, label, sentAt + e.durationMs);
    if (e.status === undefined) return;
    const { reset, limit, remaining } = rateAnswerOf(sentAt + e.durationMs, e.status, e.responseHeaders);
    if (!countedAgainstQuota(e.status, limit !== undefined || remaining !== undefined)) return;
    const day = this.dayOf(label);
    const answered = acceptedSpan(sentAt, sentAt + e.durationMs, e.responseHeaders.date);
    const span = day && reset !== undefined && limit !== undefined ? withinDayWindow(answered, day.quota, day.daySeconds, { limit, reset }) : answered;
    push(this.spans, label, span);
  };

  /** The key's accepted requests so far, in the order they came. */
  of(label: string): AcceptedSpan[] {
    return [...(this.spans.get(label) ?? [])];
  }

  /** Our epoch ms of every request sent with the key so far, answered or not: when its answer came (when it was sent, if none did). */
  sent(label: string): number[] {
    return [...(this.sentAt.get(label) ?? [])];
  }
}

function push<T>(lists: Map<string, T[]>, label: string, item: T): void {
  const list = lists.get(label);
  if (list) list.push(item);
  else lists.set(label, [item]);
}
