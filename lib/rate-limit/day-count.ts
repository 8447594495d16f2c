// Counting a key's accepted requests per day window, whatever the pace of the answers. Each
// accepted request is known only to have been let through somewhere between the second it was
// sent and the second its answer was dated (the server's clock): a slow answer dated after a day
// window turned may have been counted in the window before. A request counts in a window only when
// that whole span lies in it, so that requests of two day windows are never counted as one. Where
// the service's Dates disagree (several instances, a clock a second off), each span is widened by
// as much: a request is placed in a window only where it lies in it under any such skew. Pure.
import type { PlanQuota } from '../plans.ts';
import { serverOffsetMs, serverSecond, windowDescribed } from './vocabulary.ts';

/** When an accepted request was let through, in the server's whole seconds: from its sending to its answer's Date. */
export interface AcceptedSpan {
  from: number;
  to: number;
}

/**
 * The span of a request sent at `sentAt` and answered at `receivedAt` (our epoch ms) with the
 * Date `date`: its sending read on the server's clock (when that is off ours by more than the
 * slack), up to the answer's second.
 */
export function acceptedSpan(sentAt: number, receivedAt: number, date: string | undefined): AcceptedSpan {
  const to = serverSecond(receivedAt, date);
  const from = Math.floor((sentAt + serverOffsetMs(receivedAt, date, true)) / 1000);
  return { from: Math.min(from, to), to };
}

/**
 * An answer whose headers describe the day names, in its Reset, the end of the day window it was
 * counted in: its span narrowed to that window (left as it was when the two do not meet).
 */
export function withinDayWindow(span: AcceptedSpan, quota: PlanQuota, daySeconds: number, headers: { limit: number; reset: number }): AcceptedSpan {
  if (windowDescribed(quota, headers) !== 'day') return span;
  const narrowed = { from: Math.max(span.from, headers.reset - daySeconds), to: Math.min(span.to, headers.reset - 1) };
  return narrowed.from <= narrowed.to ? narrowed : span;
}

/** A span widened by `seconds` either way: where a request lies when its Date may be that far off the limiter's clock. */
export function widened(span: AcceptedSpan, seconds: number): AcceptedSpan {
  return seconds === 0 ? span : { from: span.from - seconds, to: span.to + seconds };
}

/** The requests that may have been let through within [start, end): their span meets it. */
export function spansMeeting(spans: readonly AcceptedSpan[], start: number, end: number): AcceptedSpan[] {
  return spans.filter((s) => s.to >= start && s.from < end);
}

/** The requests let through within [start, end) for certain: their whole span in it. */
export function spansWithin(spans: readonly AcceptedSpan[], start: number, end: number): AcceptedSpan[] {
  return spans.filter((s) => s.from >= start && s.to < end);
}

/** How many requests were let through within [start, end) for certain. */
export function countWithin(spans: readonly AcceptedSpan[], start: number, end: number): number {
  return spansWithin(spans, start, end).length;
}

/** The most requests let through for certain within any `seconds`-long stretch, and where. */
export function busiestStretch(spans: readonly AcceptedSpan[], seconds: number): { count: number; from: number; to: number } {
  const sorted = [...spans].sort((a, b) => a.from - b.from);
  const widest = sorted.reduce((w, s) => Math.max(w, s.to - s.from), 0);
  let best = { count: 0, from: sorted[0]?.from ?? 0, to: sorted[0]?.from ?? 0 };
  // Each request's sending starts a stretch; it holds those sent before its end, but for the few
  // (no wider than the widest span) whose answer came after it.
  let hi = 0;
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i]!.from;
    const end = start + seconds;
    while (hi < sorted.length && sorted[hi]!.from < end) hi += 1;
    let count = hi - i;
    let last = start;
    for (let j = hi - 1; j >= i && sorted[j]!.from >= end - widest; j--) if (sorted[j]!.to >= end) count -= 1;
    for (let j = hi - 1; j >= i; j--) {
      if (sorted[j]!.to < end) {
        last = sorted[j]!.to;
        break;
      }
    }
    if (count > best.count) best = { count, from: start, to: last };
  }
  return best;
}

/**
 * Requests let through within one day window's length beyond what any day limiter allows: a fixed
 * day window lets at most the quota through, and a stretch as long as a window meets two of them
 * (twice the quota); a sliding log lets the quota through in any such stretch; a token bucket of
 * the quota, refilled over the day, twice the quota at most. Undefined when within that.
 */
export function beyondAnyDay(spans: readonly AcceptedSpan[], perDay: number, daySeconds: number): { count: number; from: number; to: number } | undefined {
  const busiest = busiestStretch(spans, daySeconds);
  return busiest.count > 2 * perDay ? busiest : undefined;
}
