// What a key may still send before a window of its plan can refuse it. The answers' headers
// describe one window ("the applicable request limit": the minute's or the day's), and their
// Remaining is that window's room; the other window's is not shown. But the harness knows every
// request it sent with the key in the run, and when: a window of length L and quota Q has counted
// at most the requests that reached the server within the last L, so at least Q less those are
// left, whatever its kind (a fixed window at any offset, a sliding log, a token bucket that
// refills Q over L), as long as the key is the harness's alone during the run. The room is the
// least of the windows': a burst crosses carefully whichever window refuses first. Pure: the
// moment is a parameter, never a clock.
import type { PlanQuota } from '../plans.ts';
import type { TimelinePoint } from '../result/rate-limits.ts';
import { countedAgainstQuota, type WindowName, type Windows, windowDescribed, windowMs, quotaOf } from '../rate-limit/vocabulary.ts';

/** What the harness knows of a key's room without its headers: its plan, and its own requests. */
export interface OwnCount {
  quota: PlanQuota;
  /** Window lengths in seconds. */
  windows: Windows;
  /**
   * Our epoch ms of every request sent with the key in the run, whatever its answer (a refused
   * one may count too): when its answer arrived, or when it was sent if none came. A request
   * counted in a window that began at W reached the server after W, so its answer came after W.
   */
  sent: readonly number[];
  /** Load segments: the runners that share the key, each sending its share as this one does (default 1). */
  runners?: number;
}

/** A key's own count that grows as a burst sends (countSent): a copy, the caller's left as it was. */
export type GrowingCount = OwnCount & { sent: number[] };

export function growing(own: OwnCount): GrowingCount {
  return { ...own, sent: [...own.sent] };
}

/** Requests of a burst's part added to the count: the answered at their answer's arrival, the others (no answer) at `now`. */
export function countSent(own: GrowingCount, answered: readonly TimelinePoint[], sent: number, now: number): void {
  own.sent.push(...answered.map((p) => p.t), ...Array.from({ length: sent - answered.length }, () => now));
}

/** The least window `window` of the key's plan has left at `now`: its quota less every request sent within its length. */
export function countedRoom(own: OwnCount, window: WindowName, now: number): number {
  const since = now - windowMs(own.windows, window);
  let sent = 0;
  for (const t of own.sent) if (t > since) sent += 1;
  return quotaOf(own.quota, window) - (own.runners ?? 1) * sent;
}

/**
 * What the key may still send at `now`: for each window of its plan, the lowest Remaining of the
 * answers (counted by the quota) whose headers describe it (answers may arrive out of order), else
 * what the harness's own count leaves; the least of the two windows.
 */
export function roomLeft(own: OwnCount, answers: readonly TimelinePoint[], now: number): number {
  const figure = (window: WindowName): number => {
    let stated: number | undefined;
    for (const p of answers) {
      if (p.remaining === undefined || !countedAgainstQuota(p.status, true) || windowDescribed(own.quota, p) !== window) continue;
      stated = Math.min(stated ?? p.remaining, p.remaining);
    }
    return stated ?? countedRoom(own, window, now);
  };
  return Math.min(figure('minute'), figure('day'));
}
