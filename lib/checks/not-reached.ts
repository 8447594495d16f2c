// Not judged is not failed: what a burst's time allows any limiter of the plan to let through, and
// how close the harness came to spending a minute's quota within one window. A check that needs
// the server to reach a limit fails only when more was let through than any limiter of the plan
// allows over the time the requests took (a minute's quota for each minute window they may have
// spanned, plus what a refilling limiter gives back); otherwise it says what it sent in one window
// against the quota, and skips. Pure.
import { type KeyRun, sentAtOfPoint, type TimelinePoint } from '../result/rate-limits.ts';
import { CLOCK_SLACK_S, readRetryAfter, serverSecond, windowDescribed } from '../rate-limit/vocabulary.ts';
import { isAccepted } from '../status.ts';



/**
 * What a refilling limiter of the plan gives back over `durationMs`: its rate, and one for
 * rounding. The minute's, or with `window` 'day' the day's (quota / length: on short test windows
 * it may be the faster).
 */
export function refillOver(run: Pick<KeyRun, 'quota' | 'windows'>, durationMs: number, window: 'minute' | 'day' = 'minute'): number {
  const quota = window === 'day' ? run.quota.perDay : run.quota.perMinute;
  return Math.floor(((durationMs / 1000) * quota) / run.windows[window]) + 1;
}

/** The most requests sent within any stretch one minute window long, by our clock. */
export function mostInOneWindow(points: readonly TimelinePoint[], windowSeconds: number): number {
  const times = points.map(sentAtOfPoint).sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while (times[hi]! - times[lo]! >= windowSeconds * 1000) lo += 1;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/**
 * How many turns of the minute window the accepted answers of a burst may hold, from `fromMs` (our
 * clock: the burst's start) to the last of them. Headers of the minute whose Resets all name one
 * moment (within the clock slack) show that the window held: none. Otherwise the headers do not
 * show the minute's turns (they describe the day, or Reset moves): a 429 of the minute names, in
 * its Retry-After, when the window that refused ends, so answers sent a window before that lie in
 * an earlier one; without it, one turn for each minute window's length the answers took (by our
 * clock or by their Dates, the longer), at least one when they took any time at all.
 */
export function minuteTurns(run: Pick<KeyRun, 'quota' | 'windows'>, points: readonly TimelinePoint[], fromMs: number, refusal?: TimelinePoint): number {
  const ok = points.filter(isAccepted);
  if (ok.length === 0) return 0;
  const W = run.windows.minute;
  const minute = ok.filter((p) => p.reset !== undefined && windowDescribed(run.quota, p) === 'minute');
  if (minute.length === ok.length) {
    const resets = minute.map((p) => p.reset!);
    if (Math.max(...resets) - Math.min(...resets) <= CLOCK_SLACK_S) return 0;
  }
  const first = Math.min(fromMs, ...ok.map(sentAtOfPoint));
  const last = Math.max(...ok.map((p) => p.t));
  const named = refusal && readRetryAfter(refusal.retryAfter, refusal.t, refusal.date)?.untilMs;
  if (named !== undefined && named - refusal!.t <= (W + CLOCK_SLACK_S) * 1000) {
    // The refusing window began a window before the moment its 429 named, at the latest (a
    // delta-seconds Retry-After is rounded up, by a second at most).
    const began = named - (W - 1) * 1000;
    return first >= began ? 0 : Math.ceil((began - first) / (W * 1000));
  }
  const ours = (last - first) / 1000;
  const dated = serverSecond(ok.at(-1)!.t, ok.at(-1)!.date) - serverSecond(ok[0]!.t, ok[0]!.date) + 1;
  const seconds = Math.max(ours, dated);
  return seconds <= 0 ? 0 : Math.max(1, Math.ceil(seconds / W));
}

/**
 * "not reached: sent 412 in the window, the quota being 1000": the words of a limit the harness
 * did not reach. As many as the quota or more within one window's length, without the limit
 * reached, were spread across a turn of the window (`turned`) or met a limiter that gave back.
 */
export function notReached(sent: number, quota: number, window = 'the window', turned = false): string {
  const why = sent < quota ? '' : turned ? ' (within a window\'s length, but across a turn of the window: no one window got its quota)' : ' (with what a refilling limiter gave back meanwhile)';
  return `not reached: sent ${sent} in ${window}, the quota being ${quota}${why}`;
}
