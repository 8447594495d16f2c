// The accepted requests of every key over the whole run (every request its quota counted, 400s and
// 404s included), whichever suite sent them: when each was let through, as the span of the
// server's seconds from its sending to its answer's Date. The day's quota is counted from it, so
// requests of the functional suites, the paced load and the rate-limit suite's own bursts all
// count in the day window they fell in, however far apart the service's Dates (its instances'
// clocks) are shown to be. And every request that carried each key, in any carrier or as a near
// miss, whatever its answer, as the moment its answer came (the latest a limiter may have counted
// it): what is left of a window the headers do not describe is counted from it
// (lib/load/room.ts), and a 429 within the plan's quota told apart (within-quota.ts), the
// client adding the requests still in flight; the accepted ones also as the moment their answer
// came, so that a day the run itself may have spent is told apart there. Numbers only: a run's
// worth is small.
import type { PlanQuota } from '../plans.ts';
import { type AcceptedSpan, acceptedSpan, widened, withinDayWindow } from '../rate-limit/day-count.ts';
import { countedAgainstQuota, type DateOffsets, dateSkewSeconds, meetDateOffsets, readRateAnswer } from '../rate-limit/vocabulary.ts';
import { keyLabelOf } from '../result/exchange.ts';
import type { Exchange } from '../result/exchange.ts';

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

/** An accepted request as its answer showed it: the span from its sending to its Date, and the day window headers of the day named. */
interface Accepted {
  span: AcceptedSpan;
  day?: { quota: PlanQuota; daySeconds: number; limit: number; reset: number };
}

export class AcceptedLedger {
  private readonly accepted = new Map<string, Accepted[]>();
  private readonly sentAt = new Map<string, number[]>();
  /** Our epoch ms each accepted request's answer came, by key (a spent day told from the run's own count: within-quota.ts). */
  private readonly answeredAt = new Map<string, number[]>();
  /** What every answer's Date said of the service's clocks against ours. */
  private offsets: DateOffsets | undefined;

  constructor(private readonly dayOf: DayOf = () => undefined) {}

  /** Takes every exchange of the run; keeps the ones sent with a configured key that its quota counted (countedAgainstQuota), and what every answer's Date says of the service's clocks. */
  readonly add = (e: Exchange): void => {
    const sentAt = Date.parse(e.startedAt);
    // Every answer of the service tells of its clocks, whatever key it was sent with.
    if (e.status !== undefined) this.offsets = meetDateOffsets(this.offsets, sentAt, sentAt + e.durationMs, e.responseHeaders.date);
    const carried = keyLabelOf(e.auth);
    if (carried !== undefined) push(this.sentAt, carried, sentAt + e.durationMs);
    const label = e.auth.kind === 'key' || e.auth.kind === 'key-in-query' ? e.auth.label : undefined;
    if (label === undefined || e.status === undefined) return;
    const { reset, limit, remaining } = readRateAnswer(sentAt + e.durationMs, e.status, e.responseHeaders);
    if (!countedAgainstQuota(e.status, limit !== undefined || remaining !== undefined)) return;
    const day = this.dayOf(label);
    const span = acceptedSpan(sentAt, sentAt + e.durationMs, e.responseHeaders.date);
    push(this.answeredAt, label, sentAt + e.durationMs);
    push(this.accepted, label, day && reset !== undefined && limit !== undefined ? { span, day: { ...day, limit, reset } } : { span });
  };

  /**
   * The key's accepted requests so far, in the order they came: each span widened by the skew the
   * service's Dates show so far (dateSkew), then narrowed to the day window headers of the day named.
   */
  of(label: string): AcceptedSpan[] {
    const skew = this.dateSkew();
    return (this.accepted.get(label) ?? []).map(({ span, day }) => (day ? withinDayWindow(widened(span, skew), day.quota, day.daySeconds, day) : widened(span, skew)));
  }

  /** Whole seconds by which the Dates of the service's answers so far disagree (0 when one clock agrees with them all). */
  dateSkew(): number {
    return dateSkewSeconds(this.offsets);
  }

  /** Our epoch ms of every request that carried the key so far, answered or not: when its answer came (when it was sent, if none did). */
  sent(label: string): number[] {
    return [...(this.sentAt.get(label) ?? [])];
  }

  /** Our epoch ms of each of the key's accepted requests so far (those `of` holds): when its answer came. */
  acceptedAt(label: string): number[] {
    return [...(this.answeredAt.get(label) ?? [])];
  }
}

function push<T>(lists: Map<string, T[]>, label: string, item: T): void {
  const list = lists.get(label);
  if (list) list.push(item);
  else lists.set(label, [item]);
}
