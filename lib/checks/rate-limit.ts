// Limits: per-plan quotas, the X-RateLimit-* headers' meaning, 429 with Retry-After, recovery,
// isolation between keys, the daily quota. Pure: each check judges what one key's run recorded.
import { DAY_FOLLOW_UPS, type DayData, type KeyRun, pointsOf, type TimelinePoint } from '../result/rate-limits.ts';
import { type AcceptedSpan, beyondAnyDay, busiestStretch, spansMeeting, spansWithin } from '../rate-limit/day-count.ts';
import { CLOCK_SLACK_S, classifyRefusal, describedSeconds, readRetryAfter, refusalSeconds, retryAfterMillisecondsHint, retryAfterNamedSecond, serverSecond, windowDescribed, resetShape, readRateAnswer } from '../rate-limit/vocabulary.ts';
import { describeWithinQuota } from '../rate-limit/within-quota.ts';
import { defineCheck } from './define.ts';
import { limiterKind, loadFigures, type QuotaWindow, quotaWindow, refillPerSecond, resetJitter } from './limiter.ts';
import { oneQuota } from './one-quota.ts';
import { minuteTurns, mostInOneWindow, notReached, refillOver } from './not-reached.ts';
import { headersOneWindow } from './headers-one-window.ts';
import { driven, explainedBy, fail, type Finding, pass, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const clause = 'Limits / Request rate by plan';
const headersClause = 'Limits / Rate limit headers';
const exceeding = 'Limits / Exceeding the limit';
const suite = 'rate-limit';


export function judgeLimitHeader(run: KeyRun): Finding {
  const allowed = [run.quota.perMinute, run.quota.perDay];
  const wrong = pointsOf(run).filter((p) => p.limit !== undefined && !allowed.includes(p.limit));
  const seen = [...new Set(pointsOf(run).map((p) => p.limit).filter((l) => l !== undefined))];
  if (seen.length === 0) return skip('no X-RateLimit-Limit seen (headers.rate-limit-present judges that)');
  if (wrong.length === 0) return pass(`X-RateLimit-Limit: ${seen.join(', ')}`);
  return fail('not-the-plan-quota', `${run.label}: X-RateLimit-Limit is ${wrong[0]!.limit} on ${wrong.length} responses`, `${run.quota.perMinute} (per minute) or ${run.quota.perDay} (per day) for plan ${run.plan}`, `${wrong[0]!.limit}`);
}

/** The second a response was sent: its Date header, else when it arrived. */
const sentAt = (p: TimelinePoint): number => serverSecond(p.t, p.date);

const describes = (run: KeyRun, p: Pick<TimelinePoint, 'limit'>) => windowDescribed(run.quota, p);
/** A 429 of the day's (the driver never sends a polite key's requests early: a long 429 is the day's, not a ban). */
const isDayRefusal = (run: KeyRun, p: TimelinePoint) => classifyRefusal(run, p) === 'day';

/** The main burst's first 429, and what the headers said before it. */
function firstRefusal(run: KeyRun): { refusal: TimelinePoint; accepted: number; start: number; startWindow: 'minute' | 'day' } | undefined {
  const refusal = run.burst?.points.find((p) => p.status === 429);
  const look = run.start && readRateAnswer(run.start);
  const start = look?.remaining;
  if (!refusal || !look || start === undefined) return undefined;
  return { refusal, accepted: quotaWindow(run).points.filter(isAccepted).length, start, startWindow: describes(run, look) };
}

/**
 * Why X-RateLimit-Remaining states no quota to count against, if it does not: the look before the
 * burst said Remaining above its own Limit (the headers count two windows at once,
 * rate-limit.headers-one-window's failure), or Remaining did not count down as requests were
 * accepted (rate-limit.remaining's). Then the plan's quota is counted instead.
 */
function remainingStatesNoQuota(run: KeyRun): string | undefined {
  const look = run.start && readRateAnswer(run.start);
  if (look?.remaining !== undefined && look.limit !== undefined && look.remaining > look.limit) {
    return `X-RateLimit-Remaining ${look.remaining} is above X-RateLimit-Limit ${look.limit} (rate-limit.headers-one-window judges that), so it states no one window's quota`;
  }
  // Remaining that does not fall as requests are accepted says nothing of how many are left.
  const counted = judgeRemaining(run);
  if (counted.outcome === 'fail' && counted.code === 'not-counting-down') return `X-RateLimit-Remaining does not count down (rate-limit.remaining judges that), so it states no quota`;
  return undefined;
}

/** A 429 that is a ban (the interface allows one, its length not shown): its Reset may name the ban's end. */
const isBan = (run: KeyRun, p: TimelinePoint) => p.status === 429 && classifyRefusal(run, p) === 'ban';

/** The window a response's Reset names the end of: the day's for the day's 429, else the one its headers describe. */
function windowOf(run: KeyRun, p: TimelinePoint): number {
  return p.status === 429 && isDayRefusal(run, p) ? run.windows.day : describedSeconds(run.quota, run.windows, p);
}

/**
 * One cause in the shape of the headers, one failure: a Reset that is no Unix time in seconds (a
 * count of seconds, or milliseconds) is headers.rate-limit-present's, over every answer of the run.
 * A check that would compare it with a moment cannot judge, and says why, quoting it.
 */
function resetNotUnixSkip(points: readonly Pick<TimelinePoint, 'reset'>[]): Finding | undefined {
  const p = points.find((x) => resetShape(x.reset) !== undefined);
  return p ? skip(`not judged: X-RateLimit-Reset is "${p.reset}", not a Unix time in seconds (${resetShape(p.reset)}; headers.rate-limit-present names it)`) : undefined;
}

export function judgeResetHeader(run: KeyRun): Finding {
  const all = pointsOf(run);
  if (all.length === 0) return skip(`${run.label} was not driven: no response to judge`);
  if (all.every((p) => p.reset === undefined)) return skip(`no response of ${run.label} carried an integer X-RateLimit-Reset (headers.rate-limit-present judges the header)`);
  const shaped = resetNotUnixSkip(all);
  if (shaped) return shaped;
  const bans = all.filter((p) => p.reset !== undefined && isBan(run, p));
  const points = all.filter((p) => !bans.includes(p));
  if (points.every((p) => p.reset === undefined)) return skip(`${run.label}'s only X-RateLimit-Resets came with a ban (a 429 keeping the key out beyond the day window), whose length is not shown`);
  for (const p of points) {
    if (p.reset === undefined) continue;
    const now = sentAt(p);
    const window = windowOf(run, p);
    // Date is the send time rounded down to the second, and the reset moment is later than the
    // send time, so one server's Reset is never below its Date's second. But the replica that
    // writes Date may run a second or two ahead of the limiter's store (variation
    // several-instances), and a full bucket may name a moment just past: CLOCK_SLACK_S either way.
    // Reset rounds up to the next second, and a busy node:http server writes a Date cached up to a
    // second or more stale: two seconds of slack past one window.
    // (A Reset that counts seconds or milliseconds was named above: resetNotUnixSkip.)
    if (p.reset < now - CLOCK_SLACK_S) {
      return fail('reset-before-date', `${run.label}: X-RateLimit-Reset ${p.reset} is before the response's Date (${now})`, `a Unix time in seconds from ${now} to ${now + window}`, `${p.reset}`);
    }
    if (p.reset > now + window + 2) {
      return fail('reset-beyond-window', `${run.label}: X-RateLimit-Reset ${p.reset} is more than one window (${window} s) after the Date (${now})`, `a Unix time in seconds from ${now} to ${now + window}`, `${p.reset}`);
    }
  }
  return pass(bans.length > 0 ? `${bans.length} ban refusal(s) with Reset up to ${Math.max(...bans.map((p) => p.reset! - sentAt(p)))} s ahead not judged (a ban's length is not shown; rate-limit.ban-probe records it)` : undefined);
}

/** Requests a token bucket may add during the burst: the plan's rate times its duration. */
function refillAllowance(run: KeyRun): number {
  return refillOver(run, run.burst?.durationMs ?? 0);
}

/**
 * Requests any refilling limiter may add during the burst: a token bucket's refill, or for a
 * sliding log every request of the last window that ages out meanwhile, at most what was already
 * spent when the burst started. Never more than the plan allows in a window.
 */
function quotaAllowance(run: KeyRun, start: number): number {
  return Math.max(refillAllowance(run), run.quota.perMinute - start);
}

/**
 * What any limiter of the plan lets through in a burst that saw no 429: from the minute's
 * Remaining (stated by headers of the minute; a whole minute's quota when they describe the day),
 * the more of what a refilling limiter gives back and a minute's quota for each turn of the minute
 * window the answers may have spanned; never more than headers of the day said was left of it
 * (with the same allowance).
 */
function noRefusalAllowance(run: KeyRun, start: number, ok: readonly TimelinePoint[]): { most: number; minuteStart: number; turns: number } {
  const look = run.start && readRateAnswer(run.start);
  const dayHeaders = look !== undefined && describes(run, look) === 'day';
  const minuteStart = dayHeaders ? run.quota.perMinute : start;
  const turns = minuteTurns(run, ok, run.burst?.startedAt ?? ok[0]?.t ?? 0);
  const minuteMost = minuteStart + Math.max(quotaAllowance(run, minuteStart), turns * run.quota.perMinute);
  const most = dayHeaders ? Math.min(minuteMost, start + quotaAllowance(run, start)) : minuteMost;
  return { most, minuteStart, turns };
}

/** The burst's answers before its first 429, in the window that ended in it (see quotaWindow). */
function beforeStop(run: KeyRun): TimelinePoint[] {
  return quotaWindow(run).points;
}

/** What the count starts from, and how the window turned when it did. */
function stated(window: QuotaWindow): string {
  return window.turned
    ? `Remaining ${window.start} (the window turned during the burst, Reset ${window.turned.from} to ${window.turned.to}, after ${window.turned.acceptedBefore} accepted: the new window is counted, from one more than its highest Remaining)`
    : `Remaining ${window.start}`;
}

function said(window: QuotaWindow): string {
  return window.turned ? `the new window started at ${stated(window)}` : `Remaining said ${window.start}`;
}

/**
 * Remaining counts down by one per accepted request. A negative Remaining is no value of the
 * header's kind: headers.rate-limit-present judges it on every answer of the run, quoting it.
 */
export function judgeRemaining(run: KeyRun): Finding {
  const window = quotaWindow(run);
  const start = window.start;
  const ok = window.points.filter(isAccepted);
  if (start === undefined) return skip(`the response before ${run.label}'s burst carried no integer X-RateLimit-Remaining to count down from (headers.rate-limit-present judges the header)`);
  if (start < 0) return skip(`the response before ${run.label}'s burst said X-RateLimit-Remaining ${start} (headers.rate-limit-present judges a negative value): nothing to count down from`);
  if (ok.length === 0) return skip(`${run.label}'s burst had no accepted request before its first 429: nothing counted down`);
  const remainings = ok.map((p) => p.remaining).filter((r): r is number => r !== undefined);
  if (remainings.length === 0) return fail('absent', `${run.label}: no accepted response carried X-RateLimit-Remaining`, 'Remaining on every response', 'absent');
  const lowest = Math.min(...remainings);
  const fixed = limiterKind(ok, refillPerSecond(run)) === 'fixed';
  const allowance = fixed ? 0 : refillAllowance(run);
  // Whatever the limiter, the accepted response just before the first 429 says (about) none left.
  const reachedBottom = run.burst?.ended === 'first-429' && lowest <= 1;
  if (!reachedBottom && lowest > Math.max(0, start - ok.length + allowance)) {
    return fail(
      'not-counting-down',
      `${run.label}: after ${ok.length} accepted requests from ${stated(window)}, Remaining went no lower than ${lowest}`,
      `down to ${Math.max(0, start - ok.length)}${allowance ? ` (+${allowance} refill)` : ''}`,
      `values seen: ${[...new Set(remainings)].slice(0, 12).join(', ')}`,
    );
  }
  // A fixed window shows no positive Remaining twice (limiterKind); requests accepted at Remaining 0
  // are over the quota, which rate-limit.quota judges: Remaining cannot fall below 0, and saying 0
  // then is the truth.
  const atZero = remainings.filter((r) => r === 0).length - 1;
  if (fixed && atZero > 0) return pass(`counted down by one per accepted request to 0; ${atZero} more accepted at Remaining 0 (rate-limit.quota judges requests beyond the quota)`);
  return pass();
}

/**
 * The quota: the burst's count against what the headers stated (judgeBurstQuota), and any 429 of
 * the key within the plan's minute quota by the harness's own count, whichever suite met it: a
 * limiter that refuses below the plan's quota (one with no room for a burst) may state its own
 * small room honestly, and still refuse what the plan allows. Code: refused-within-quota.
 */
export function judgeQuota(run: KeyRun): Finding {
  const burst = judgeBurstQuota(run);
  const early = run.refusedWithinQuota?.[0];
  if (burst.outcome === 'fail' || !early) return burst;
  const during = early.suite === 'rate-limit' ? "the key's burst" : `a request of the ${early.suite} suite`;
  return fail(
    'refused-within-quota',
    `${run.label}: ${describeWithinQuota(run.label, run.plan, early)} (${during}): no limiter of the plan refuses a key sent no more than its quota within one window's length${run.refusedWithinQuota!.length > 1 ? `; ${run.refusedWithinQuota!.length - 1} more such 429s` : ''}`,
    `no 429 while at most ${early.quota} requests of the key fall within ${early.seconds} s`,
    `429 with ${early.sent} within ${early.seconds} s`,
  );
}

function judgeBurstQuota(run: KeyRun): Finding {
  if (!run.burst) return skip(`${run.label} was not driven: no burst ran`);
  const window = quotaWindow(run);
  const start = window.start;
  if (start === undefined) return skip(`the response before ${run.label}'s burst carried no integer X-RateLimit-Remaining, so there is no stated quota to count against (headers.rate-limit-present judges the header)`);
  const ok = window.points.filter(isAccepted);
  if (run.burst.ended !== 'first-429') {
    // No 429: more accepted than any limiter of the plan lets through over the burst's time fails
    // (what Remaining stated, a minute's quota for each minute window the answers may have spanned,
    // what a refilling limiter gives back); fewer proves nothing (answers too slow to spend the
    // quota within one window), whichever window the headers describe and whether Reset moves.
    const { most, minuteStart, turns } = noRefusalAllowance(run, start, ok);
    const stoppedAt = run.burst.ended === 'max-requests' ? 'its request cap' : run.burst.ended === 'no-answer' ? 'a request whose answer could not be read' : 'its time cap';
    if (ok.length <= most) {
      const achieved = run.burst.durationMs > 0 ? (run.burst.points.length * 1000) / run.burst.durationMs : 0;
      const sent = mostInOneWindow(run.burst.points, run.windows.minute);
      const spanned = turns > 0 ? `, spanning ${turns === 1 ? 'a turn' : `${turns} turns`} of the minute window` : '';
      return skip(
        `${run.label}: ${notReached(sent, minuteStart, 'the window', turns > 0)}: ${ok.length} accepted in ${(run.burst.durationMs / 1000).toFixed(1)} s without a 429 (${stoppedAt}${spanned}), within the ${most} that any limiter of plan ${run.plan} lets through meanwhile (${achieved.toFixed(0)} req/s achieved, ${(minuteStart / run.windows.minute).toFixed(0)} req/s needed): not judged`,
      );
    }
    return fail('no-429', `${run.label}: no 429 after ${ok.length} accepted requests (Remaining was ${start}; the load stopped at ${stoppedAt})`, `a 429 after ${minuteStart} accepted requests (at most ${most} with what a refilling limiter gives back over ${run.burst.durationMs} ms${turns > 0 ? ` and a minute's quota for each of ${turns} turn(s) of the minute window` : ''})`, `${ok.length} accepted, no 429`);
  }
  const first = firstRefusal(run);
  const mixed = remainingStatesNoQuota(run);
  if (first && (first.startWindow === 'day' || mixed) && !isDayRefusal(run, first.refusal)) {
    // The headers count the day; the minute refuses first, from a count they do not show, nor
    // when its window turns (Reset stays the day's end): its 429's Retry-After, or the time the
    // answers took, tells whether the minute window may have turned under the burst. The same
    // when Remaining is above Limit: it states no minute's quota, so the plan's is counted.
    const why = mixed ?? `the headers describe the day window (Remaining ${start} of ${run.quota.perDay})`;
    const turns = minuteTurns(run, ok, run.burst.startedAt, first.refusal);
    const most = run.quota.perMinute + Math.max(refillAllowance(run), turns * run.quota.perMinute);
    if (ok.length > most) return fail('more-than-minute-quota', `${run.label}: ${ok.length} accepted before the first 429, more than the ${run.quota.perMinute} a minute of plan ${run.plan} (plus ${most - run.quota.perMinute} a refilling limiter${turns > 0 ? ` or ${turns} turn(s) of the minute window` : ''} may give back meanwhile)`, `at most ${most}`, `${ok.length}`);
    if (ok.length > run.quota.perMinute + refillAllowance(run)) {
      return skip(
        `${run.label}: ${mixed ? `${mixed}, and` : 'the headers describe the day window, and'} the minute window may have turned during the burst (its answers took ${(run.burst.durationMs / 1000).toFixed(1)} s, and some were sent before the window that refused began, as its 429's Retry-After or the time they took shows): ${ok.length} accepted before the first 429 fall across two minute windows, within the ${most} they allow, so no one window's quota was counted: not judged`,
      );
    }
    return pass(`${why}; the minute's quota refused after ${ok.length} accepted, within the ${run.quota.perMinute} a minute${ok.length > run.quota.perMinute ? ` and the ${refillAllowance(run)} a refilling limiter gives back over the burst's ${(run.burst.durationMs / 1000).toFixed(1)} s` : ''}${mixed ? '' : ' (rate-limit.binding-headers judges what the headers show)'}`);
  }
  if (first && first.startWindow === 'minute' && isDayRefusal(run, first.refusal) && ok.length < start) {
    // The day's remainder was the smaller: it refused first, while the headers counted the minute.
    return pass(`the day's quota refused after ${ok.length} accepted, before the minute's Remaining ${start} was spent (rate-limit.binding-headers judges what the headers show; rate-limit.daily-quota the day)`);
  }
  // A Reset that is no Unix time in seconds (none, a fraction, seconds until the reset,
  // milliseconds: headers.rate-limit-present's failure) cannot show the window turning under the
  // burst. More accepted than Remaining said is then judged against the turns the burst's time, or
  // its 429's Retry-After, allows; within them it is not judged.
  if (ok.length > start && ok.some((p) => p.reset === undefined || resetShape(p.reset) !== undefined)) {
    const blind = ok.map(({ reset: _unread, ...p }) => p);
    const turns = minuteTurns(run, blind, run.burst.startedAt, first?.refusal);
    if (turns > 0) {
      const most = start + Math.max(quotaAllowance(run, start), turns * run.quota.perMinute);
      if (ok.length > most) {
        return fail('more-than-minute-quota', `${run.label}: ${ok.length} accepted before the first 429, more than Remaining ${start} and ${turns === 1 ? 'a whole window' : `${turns} whole windows`} more allow`, `at most ${most}`, `${ok.length}`);
      }
      return skip(
        `${run.label}: ${ok.length} accepted before the first 429, more than Remaining ${start}, but X-RateLimit-Reset is no Unix time in seconds (headers.rate-limit-present judges that), so a turn of the window under the burst cannot be seen; its ${(run.burst.durationMs / 1000).toFixed(1)} s allow ${turns === 1 ? 'a turn' : `${turns} turns`}, within which ${most} may be let through: not judged`,
      );
    }
  }
  const kind = limiterKind(ok, refillPerSecond(run));
  if (kind === 'fixed') {
    // With several connections a 2xx the server sent before its first 429 may arrive just after it.
    const windowReset = ok[0]?.reset;
    const jitter = resetJitter(ok);
    const sameWindow = (p: TimelinePoint) => p.reset === windowReset || (windowReset !== undefined && p.reset !== undefined && Math.abs(p.reset - windowReset) <= jitter);
    const late = run.burst.points.filter((p) => isAccepted(p) && sameWindow(p) && !ok.includes(p)).length;
    const total = ok.length + late;
    if (total === start) return pass(`fixed window: exactly ${start} accepted before the first 429, from ${stated(window)}`);
    const failed = fail('not-the-stated-quota', `${run.label}: ${total} requests accepted in the window before the first 429, but ${said(window)}`, `${start}`, `${total}`);
    // One too many is what two requests let through together at Remaining 1 make of a limiter that checks, then counts.
    return total === start + 1 ? explainedBy(failed, 'rate-limit.boundary-race') : failed;
  }
  const allowance = quotaAllowance(run, start);
  if (ok.length < start) return fail('refused-before-quota', `${run.label}: a 429 after ${ok.length} accepted requests, but ${said(window)}`, `at least ${start}`, `${ok.length}`);
  if (ok.length > start + allowance) {
    return fail(
      'more-than-refill-allows',
      `${run.label}: ${ok.length} accepted, more than ${stated(window)} plus what a refilling limiter can give back meanwhile (${allowance}: a token bucket's refill over ${run.burst.durationMs} ms, or what a sliding log had already spent)`,
      `at most ${start + allowance}`,
      `${ok.length}`,
    );
  }
  if (kind === 'unknown' && ok.length === start) {
    return pass(`exactly ${start} accepted before the first 429, as Remaining said (too few to tell a fixed window from a refilling limiter)`);
  }
  const what =
    kind === 'refilling'
      ? 'refilling limiter (sliding window or token bucket: Reset moved or Remaining came back during the burst)'
      : `limiter not told apart (${ok.length} accepted with one Reset: too few to tell a fixed window from a refilling one), judged as refilling`;
  return pass(`${what}: ${ok.length} accepted from Remaining ${start}, refill allowance ${allowance}`);
}

/**
 * At Remaining 1 the careful part sends two requests together on two connections: at most one may
 * be accepted. Both accepted in one fixed window means the limiter checked, then counted.
 */
export function judgeBoundaryRace(run: KeyRun): Finding {
  if (!run.burst) return skip(`${run.label} was not driven: no burst ran`);
  const pair = run.burst.boundaryPair;
  if (!pair) return skip(`${run.label}'s burst had no accepted response saying Remaining 1 before its first 429 (or the target allows one connection), so no two requests went out together at the limit`);
  const statuses = pair.together.map((p) => p.status).join(' and ');
  if (pair.together.length < 2) return skip(`of the two requests sent together at Remaining 1, only ${pair.together.length} was answered`);
  const ok = pair.together.filter(isAccepted);
  if (ok.length < 2) return pass(`two requests sent together at Remaining 1: ${statuses}`);
  // A limiter that refused nothing in the burst lets any two through: no race to see (rate-limit.quota judges it).
  if (run.burst.ended !== 'first-429') return skip(`${run.label}: two requests sent together at Remaining 1 were both accepted, but the burst got no 429 at all (rate-limit.quota judges that): no race between checking and counting can be told apart`);
  // The limiter as the requests before the pair showed it.
  const earlier = beforeStop(run).filter((p) => !pair.together.includes(p));
  const jitter = resetJitter(earlier);
  if (limiterKind(earlier, refillPerSecond(run)) !== 'fixed') {
    return skip(`${run.label}: two requests sent together at Remaining 1 were both accepted, but the limiter is not a fixed window (a token may have come back between them): not judged`);
  }
  const moved = ok.find((p) => p.reset === undefined || pair.before.reset === undefined || Math.abs(p.reset - pair.before.reset) > jitter);
  if (moved) return skip(`${run.label}: both requests sent together at Remaining 1 were accepted, but Reset moved from ${pair.before.reset ?? 'none'} to ${moved.reset ?? 'none'} (a new window): not judged`);
  return fail(
    'both-accepted',
    `${run.label}: two requests sent together on two connections when Remaining was 1 were both accepted, one more than Remaining allowed: a limiter that checks, then counts, lets both through (so does one that counts one request too many; rate-limit.quota gives the count)`,
    'one accepted and one 429',
    `${statuses}; Remaining then ${ok.map((p) => p.remaining ?? 'absent').join(' and ')}`,
  );
}

/**
 * A key's quota is shared by all its connections. A limiter kept per connection (or per process
 * behind a connection-sticky balancer) counts each connection down on its own: on every connection
 * Remaining falls by one from one response to its next, however many the other connections had
 * accepted in between, and together they accept more than the plan allows.
 */
export function judgePerConnection(run: KeyRun): Finding {
  if (!run.burst) return skip(`${run.label} was not driven: no burst ran`);
  const ok = beforeStop(run).filter((p) => isAccepted(p) && p.conn !== undefined && p.remaining !== undefined);
  const byConn = new Map<number, TimelinePoint[]>();
  for (const p of ok) byConn.set(p.conn!, [...(byConn.get(p.conn!) ?? []), p]);
  if (byConn.size < 2) return skip(`${run.label}'s burst had accepted responses on ${byConn.size} connection${byConn.size === 1 ? '' : 's'} only: nothing to compare`);
  // Steps from one response of a connection to its next, while others were accepted in between.
  let steps = 0;
  let ownCount = 0;
  for (const points of byConn.values()) {
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1]!, points[i]!];
      const between = ok.filter((p) => p.conn !== a.conn && p.t > a.t && p.t < b.t).length;
      if (between < 1) continue;
      steps += 1;
      if (a.remaining! - b.remaining! === 1) ownCount += 1;
    }
  }
  const allowance = refillAllowance(run);
  const over = ok.length > run.quota.perMinute + allowance;
  const counts = [...byConn].map(([conn, points]) => `connection ${conn}: ${points.length} accepted, Remaining ${points[0]!.remaining} to ${points.at(-1)!.remaining}`);
  if (steps === 0) return skip(`${run.label}: no connection had two responses with others accepted in between: nothing to compare`);
  if (over && ownCount / steps >= 0.8) {
    return fail(
      'quota-per-connection',
      `${run.label}: each connection counts its own quota: ${ok.length} accepted over ${byConn.size} connections, more than the plan's ${run.quota.perMinute} a minute; on each, Remaining fell by one per own request whatever the others had accepted in between`,
      `one quota for the key: at most ${run.quota.perMinute}${allowance > 1 ? ` (+${allowance} refill)` : ''} accepted over all connections`,
      counts.join('; '),
    );
  }
  return pass(`${ok.length} accepted over ${byConn.size} connections, Remaining falling across them together (one quota for the key)`);
}

function first429(run: KeyRun): TimelinePoint | undefined {
  return run.burst?.points.find((p) => p.status === 429);
}

export function judgeRetryAfterConsistent(run: KeyRun): Finding {
  const p = first429(run);
  if (!p) return skip(`${run.label} got no 429 to compare Retry-After and X-RateLimit-Reset on`);
  if (p.retryAfter === undefined) return skip(`${run.label}'s 429 had no Retry-After (rate-limit.retry-after-present judges that)`);
  if (p.reset === undefined) return skip(`${run.label}'s 429 had no integer X-RateLimit-Reset (headers.rate-limit-present judges that)`);
  const shaped = resetNotUnixSkip([p]);
  if (shaped) return shaped;
  const sent = sentAt(p);
  const reading = readRetryAfter(p.retryAfter, p.t, p.date)!;
  const until = retryAfterNamedSecond(p);
  if (until === undefined) return fail('names-no-moment', `${run.label}: Retry-After "${p.retryAfter}" names no moment`, `X-RateLimit-Reset ${p.reset}`, p.retryAfter);
  const hint = retryAfterMillisecondsHint(reading, p.reset - sent);
  if (limiterKind(beforeStop(run), refillPerSecond(run)) !== 'fixed') {
    // A refilling limiter may name the next token in Retry-After and the full bucket in Reset.
    return until >= sent - 1 && until <= p.reset + 1
      ? pass(`refilling limiter: Retry-After ${p.retryAfter} within X-RateLimit-Reset ${p.reset}`)
      : fail('beyond-reset', `${run.label}: Retry-After "${p.retryAfter}" points at ${Math.round(until)}, beyond X-RateLimit-Reset ${p.reset}${hint}`, `no later than ${p.reset}`, `${Math.round(until - p.reset)} s after`);
  }
  // A Reset rounded with noise (resetJitter) may be that much off the window's true end.
  return Math.abs(until - p.reset) <= 1 + resetJitter(beforeStop(run))
    ? pass()
    : fail('not-the-reset-moment', `${run.label}: Retry-After "${p.retryAfter}" points at ${Math.round(until)}, X-RateLimit-Reset at ${p.reset}${hint}`, 'the same moment within 1 s', `${Math.round(until - p.reset)} s apart`);
}

export function judgeRetryAfterHonoured(run: KeyRun): Finding {
  if (run.retrySkipped) return skip(run.retrySkipped);
  if (!run.retry) return skip('no 429 with a usable Retry-After was seen');
  const { next, waitedMs } = run.retry;
  return isAccepted(next)
    ? pass(`waited ${waitedMs} ms, then ${next.status}`)
    : fail('refused-after-waiting', `${run.label}: after waiting the ${waitedMs} ms Retry-After asked for, the next request got ${next.status}`, '2xx', `${next.status}`);
}

export function judgeIsolation(run: KeyRun): Finding {
  if (!run.isolation) return skip(`${run.label}: no other key of plan ${run.plan} was exhausted before it`);
  const { before, after, exhausted } = run.isolation;
  if (after.status === 429) return fail('refused-after-other-key', `${run.label} got 429 right after ${exhausted} (same plan) was exhausted`, '2xx: quotas are per key', '429');
  if (!isAccepted(after)) return fail('not-accepted-after-other-key', `${run.label} got ${after.status} right after ${exhausted} was exhausted`, '2xx', `${after.status}`);
  const [b, a] = [readRateAnswer(before), readRateAnswer(after)];
  const [r0, r1] = [b.remaining, a.remaining];
  const sameWindow = b.reset === a.reset;
  if (sameWindow && r0 !== undefined && r1 !== undefined && r1 < r0 - 1) {
    return fail('counted-other-key', `${run.label}: Remaining fell from ${r0} to ${r1} while only ${exhausted} was sending`, `${r0 - 1}`, `${r1}`);
  }
  return pass(`${run.label} untouched by ${exhausted}: ${after.status}, Remaining ${r1}`);
}

/** When a 429's Retry-After lets the key back in, in the server's milliseconds (from its Date); undefined without a usable one. */
function namedMs(p: TimelinePoint): number | undefined {
  const second = retryAfterNamedSecond(p);
  return second === undefined ? undefined : second * 1000;
}

/**
 * The day's limiter, from the accepted answers whose headers describe the day and the day's 429,
 * in the order they came: a fixed day holds one Reset per day window (within two seconds of
 * rounding noise), the next a whole window later when the spending ran across a window's end; a
 * refilling one moves it along. Too few to tell: the day's 429 tells.
 */
function dayKind(run: KeyRun): 'fixed' | 'refilling' {
  const block = run.day?.block;
  const resets = [...(run.day?.dayResets ?? []), ...(block && describes(run, block) === 'day' && block.reset !== undefined ? [block.reset] : [])];
  if (resets.length >= 2) return fixedWindowEnds(resets, run.windows.day) ? 'fixed' : 'refilling';
  // A refilling day gives a request back every day / perDay seconds: its 429 asks to wait about
  // that long. A fixed day (or a log of the day: any day-long span holds the quota at most) asks
  // for longer, up to the day's end.
  const wait = block ? refusalSeconds(block) : undefined;
  return wait !== undefined && wait <= (2 * run.windows.day) / run.quota.perDay + 2 ? 'refilling' : 'fixed';
}

/**
 * Resets, in the order their answers came, that name the ends of fixed windows: each the one
 * before it (within CLOCK_SLACK_S of rounding), or whole windows after it. A refilling limiter's
 * Reset moves by less, or goes back (its 429 names the next request's worth).
 */
function fixedWindowEnds(resets: readonly number[], windowSeconds: number): boolean {
  return resets.every((r, i) => {
    if (i === 0) return true;
    const step = r - resets[i - 1]!;
    if (Math.abs(step) <= CLOCK_SLACK_S) return true;
    const off = step % windowSeconds;
    return step > 0 && (off <= CLOCK_SLACK_S || windowSeconds - off <= CLOCK_SLACK_S);
  });
}

/** The key's accepted requests of the run, each as the span of server seconds it was let through in. */
function daySpans(day: DayData): AcceptedSpan[] {
  return day.acceptedAt.map((to, i) => ({ from: day.acceptedFrom?.[i] ?? to, to }));
}

/**
 * The requests let through for certain in the day window that ends at `reset`: its edges taken
 * from the server's Reset (`slack` seconds in from each edge when it is known only to the second
 * either way: a Retry-After counted from a Date), never over our own span (a slow server's drive
 * may straddle two day windows, a slow answer be dated after the window it was let through in,
 * and Dates of several instances disagree: the spans are widened by as much). A fixed day lets
 * exactly the quota through; a refilling one (a token bucket or a log of the day) also what it
 * gave back over the span counted. `uncertain`: the requests that may belong to it or to the
 * window beside it.
 */
function countDayWindow(run: KeyRun, spans: readonly AcceptedSpan[], reset: number, slack = 0): { count: number; refill: number; seconds: number; uncertain: number } {
  const inWindow = spansWithin(spans, reset - run.windows.day + slack, reset - slack);
  const seconds = inWindow.length === 0 ? 0 : Math.max(...inWindow.map((s) => s.to)) - Math.min(...inWindow.map((s) => s.from)) + 1;
  const refill = dayKind(run) === 'fixed' ? 0 : Math.ceil((seconds / run.windows.day) * run.quota.perDay);
  const uncertain = spansMeeting(spans, reset - run.windows.day - slack, reset + slack).length - inWindow.length;
  return { count: inWindow.length, refill, seconds, uncertain };
}

/**
 * What the day count could not tell apart, when it mattered: more than the day allows may have
 * been let through in the window counted, but not for certain (`counted` holds no more).
 */
function notToldApart(run: KeyRun, day: DayData, counted: ReturnType<typeof countDayWindow>): string {
  if (counted.count + counted.uncertain <= run.quota.perDay + counted.refill) return '';
  const skew = day.dateSkew ?? 0;
  const why = skew > 0 ? `within ${skew} s of the day window's turn could belong to either window: Dates of this service differ by ${skew} s between answers` : "answered across the day window's turn could belong to either window";
  return `; ${counted.uncertain} more requests ${why}, so more than the ${run.quota.perDay} is not certain`;
}

/**
 * More let through than any day limiter allows, counted from every accepted request of the key in
 * the run (every suite's, 4xx the quota counted included), however the day test ended: within a day
 * window's length, more than twice the quota (a fixed day window lets at most the quota through,
 * and such a stretch meets two of them; a sliding log or a token bucket no more); in a day window
 * whose edges headers of the day showed (a fixed day), more than the quota. `stopped` says how the
 * day test ended, when that was not the day's 429. Undefined when nothing shows it.
 */
function overDay(run: KeyRun, day: DayData, stopped: string): Finding | undefined {
  const spans = daySpans(day);
  const { perDay } = run.quota;
  const D = run.windows.day;
  const beyond = beyondAnyDay(spans, perDay, D);
  if (beyond) {
    return fail(
      'beyond-any-day',
      `${run.label}: ${beyond.count} requests accepted within ${D} s (the server's seconds ${beyond.from} to ${beyond.to}) without the day's quota stopping them, more than any day limiter lets through in a day window's length (${stopped})`,
      `a 429 for the day after at most ${perDay} in a day window (at most ${2 * perDay} across two)`,
      `${beyond.count} accepted within ${D} s`,
    );
  }
  if (dayKind(run) === 'fixed') {
    const block = day.block;
    const shown = [...(day.dayResets ?? []), ...(block && block.reset !== undefined && describes(run, block) === 'day' && !isBan(run, block) ? [block.reset] : [])];
    for (const reset of new Set(shown)) {
      const counted = countDayWindow(run, spans, reset);
      if (counted.count > perDay) {
        return fail('over-day-quota-shown-window', `${run.label}: ${counted.count} requests accepted in the day window that ends at X-RateLimit-Reset ${reset} (as headers of the day said), more than the ${perDay} a day (${stopped})`, `at most ${perDay}`, `${counted.count}`);
      }
    }
  }
  return undefined;
}

/** "not reached: sent 97 in the busiest 40 s …, the quota being 100": how close the key's accepted requests came to a day's quota within one day window. */
function dayNotReached(run: KeyRun, day: DayData): string {
  const busiest = busiestStretch(daySpans(day), run.windows.day);
  return notReached(busiest.count, run.quota.perDay, `the busiest ${run.windows.day} s (a day window's length: the requests of the key the server accepted, every suite's)`, true);
}

/**
 * No 429 for the day came. More let through than any day limiter allows fails (overDay); anything
 * else proves nothing: the harness did not spend a day's quota within one day window (answers too
 * slow, or the run's time ran out), and says so.
 */
function judgeDayWithoutBlock(run: KeyRun, day: DayData): Finding {
  const why = day.ended === 'over-quota' ? 'it stopped' : day.ended === 'still-refused' ? 'the key was refused' : `${Math.round(day.elapsedMs / 1000)} s passed`;
  const over = overDay(run, day, `no 429 for the day came before ${why}`);
  if (over) return over;
  return skip(
    `${run.label}: ${dayNotReached(run, day)}: no 429 for the day came before ${why}, and no day window is shown to have let more than ${run.quota.perDay} through. The harness could not spend a day's quota within one day window (answers too slow for it, or the run's time ran out): not judged`,
  );
}

export function judgeDailyQuota(run: KeyRun): Finding {
  const day = run.day;
  if (!day) return skip(run.daySkipped ?? 'the daily quota was not driven');
  const followUps = day.followUps ?? [];
  if (day.ended === 'too-long') {
    // Stopped before the day's 429 by a wait longer than the harness sits out: what was seen is
    // still counted.
    const why = run.daySkipped ?? 'a wait longer than the harness sits out';
    const over = overDay(run, day, `the day test stopped before the day's 429: ${why}`);
    if (over) return over;
    return skip(`${run.label}: ${dayNotReached(run, day)}, and no day window is shown to have let more than ${run.quota.perDay} through; the day test stopped before the day's 429 (${why}): not judged`);
  }
  if (day.ended === 'still-refused') {
    const over = overDay(run, day, "the day test stopped: the key was refused again after waiting out each 429's Retry-After");
    if (over) return over;
    const said = day.block?.retryAfter !== undefined ? ` (the last said Retry-After ${day.block.retryAfter})` : '';
    return fail(
      'still-refused',
      `${run.label}: after ${day.accepted} requests accepted, the key was refused again each time it waited out a 429's Retry-After${said}: the day is spent, but its 429s name times inside it`,
      "a 429 of a spent day names the day's end",
      `refused again after waiting out the Retry-After of ${DAY_FOLLOW_UPS} 429s in a row`,
    );
  }
  if ((day.ended !== 'day-block' && day.ended !== 'reopened') || !day.block) return judgeDayWithoutBlock(run, day);
  const block = day.block;
  const now = sentAt(block);
  // A fixed day window names its end; a refilling one may name its next token (but never beyond a day).
  const namesDay = describes(run, block) === 'day';
  // Reset absent, not an integer or no Unix time in seconds: one cause, headers.rate-limit-present's.
  // What was seen is still counted; the Reset is not judged.
  if (block.reset === undefined || resetShape(block.reset) !== undefined) {
    const why = block.reset === undefined ? 'it carries no integer X-RateLimit-Reset' : `X-RateLimit-Reset is "${block.reset}", not a Unix time in seconds (${resetShape(block.reset)})`;
    return overDay(run, day, "the day's 429 named no usable X-RateLimit-Reset") ?? skip(`the day's 429 came, but its Reset is not judged: ${why}; headers.rate-limit-present names it`);
  }
  if (block.reset <= now) return fail('day-reset-not-after-date', `${run.label}: the day's 429 says X-RateLimit-Reset ${block.reset}, not after its Date (${now})`, `a Unix time after ${now + run.windows.minute}, at most ${now + run.windows.day}`, `${block.reset}`);
  // Headers of the minute ("the applicable request limit") on the day's 429: Limit the minute's,
  // Reset within the minute window; the day's end is then the moment its Retry-After names.
  const named = retryAfterNamedSecond(block);
  const minuteHeaders = !namesDay && block.reset <= now + run.windows.minute + CLOCK_SLACK_S && named !== undefined && named > now + run.windows.minute;
  const dayEnd = minuteHeaders ? Math.round(named) : block.reset;
  const endNamed = minuteHeaders ? `${dayEnd}, the day's end its Retry-After ${block.retryAfter} names (its X-RateLimit-* describe the minute)` : `X-RateLimit-Reset ${dayEnd}`;
  if ((!namesDay && !minuteHeaders && block.reset <= now + run.windows.minute) || dayEnd > now + run.windows.day + 1) {
    return fail('day-reset-not-day-end', `${run.label}: the day's 429 says X-RateLimit-Reset ${block.reset}, not the end of the day window`, `after ${now + run.windows.minute}, at most ${now + run.windows.day}`, `${block.reset}`);
  }
  // Every 429 of the spent day names, in Retry-After, a time at or after the day's reset; a
  // refilling day may name a sooner one, if the request sent then is let through.
  const refusals = [block, ...followUps.filter((p) => p.status === 429)];
  for (const p of refusals) {
    const named = namedMs(p);
    if (named === undefined || named >= (dayEnd - 2) * 1000) continue;
    const next = followUps.find((f) => f.t > p.t);
    if (next && isAccepted(next)) continue;
    // Nothing sent then (too far to wait): a refilling day may name its next request's worth; a
    // fixed day names its end, or names a time at which the key is still refused.
    if (!next && dayKind(run) === 'refilling') continue;
    const early = Math.round(dayEnd - named / 1000);
    const what = next
      ? `the request sent then was refused again (${next.status}${next.retryAfter !== undefined ? `, Retry-After ${next.retryAfter}` : ''})`
      : `no request was sent then (the harness waits at most two minute windows, and sends at most ${DAY_FOLLOW_UPS} after the day's 429), so nothing showed the key let through before the day's reset`;
    return fail(
      'retry-after-before-day-end',
      `${run.label}: a 429 of the spent day says Retry-After ${p.retryAfter}, ${early} s before the day's reset at ${dayEnd}: ${what}`,
      `Retry-After naming ${dayEnd} (the day's reset) or later, or a time at which the key is let through`,
      `Retry-After ${p.retryAfter} (until ${Math.round(named / 1000)})`,
    );
  }
  // Counted per day window, its edges taken from the server's Reset (or, under headers of the
  // minute, its Retry-After), never over our own span (a slow server's drive may straddle two day
  // windows); every suite's accepted requests count. A fixed day lets exactly the quota through; a
  // refilling one (a token bucket or a log of the day) also what it gave back over the span counted.
  // A Retry-After counted from a Date names the day's end to a second either way.
  const counted = countDayWindow(run, daySpans(day), dayEnd, minuteHeaders ? 1 : 0);
  if (counted.count > run.quota.perDay + counted.refill) {
    return fail(
      'over-day-quota',
      `${run.label}: ${counted.count} requests accepted in the day window that ends at ${endNamed}, more than the ${run.quota.perDay} a day${counted.refill ? ` (plus ${counted.refill} a refilling day gives back over their ${counted.seconds} s)` : ''}`,
      `at most ${run.quota.perDay + counted.refill}`,
      `${counted.count}`,
    );
  }
  const inWindow = counted;
  const after = day.ended === 'reopened' ? `; let through again at ${Math.round((followUps.at(-1)!.t - block.t) / 1000)} s, when its Retry-After said` : followUps.length > 0 ? `; ${followUps.length} request(s) after its Retry-After, refused while the day lasted` : "; its Retry-After names the day's end";
  return pass(`day quota enforced: ${inWindow.count} accepted in the day window ending at ${minuteHeaders ? endNamed : `Reset ${dayEnd}`} (every suite's requests counted)${notToldApart(run, day, inWindow)}${after}; Reset ${block.reset - now} s ahead`);
}

/** Which window the X-RateLimit-* headers describe ("the applicable request limit": either is a reading), recorded. */
export function describeHeadersWindow(run: KeyRun): Finding {
  const points = pointsOf(run).filter((p) => p.limit !== undefined);
  if (points.length === 0) return skip(`no response of ${run.label} carried an integer X-RateLimit-Limit (headers.rate-limit-present judges the header)`);
  const day = points.filter((p) => describes(run, p) === 'day').length;
  const minute = points.length - day;
  if (day === 0) return pass(`${run.label}: the minute window (Limit ${run.quota.perMinute}) on all ${minute} responses`);
  if (minute === 0) return pass(`${run.label}: the day window (Limit ${run.quota.perDay}) on all ${day} responses`);
  return pass(`${run.label}: the minute window (Limit ${run.quota.perMinute}) on ${minute} responses, the day window (Limit ${run.quota.perDay}) on ${day} (the one that binds, say)`);
}

/**
 * When the headers describe one window and the other refuses first, a client counting down
 * Remaining is refused with requests left: a `should` failure with the figures (both windows are
 * readings of "the applicable request limit", so never a `must`).
 */
export function judgeBindingHeaders(run: KeyRun): Finding {
  const first = firstRefusal(run);
  if (!first) return skip(`${run.label}: no 429 came after a response stating Remaining: nothing to compare`);
  const { refusal, accepted: k, start, startWindow } = first;
  const refusedBy = isDayRefusal(run, refusal) ? 'day' : 'minute';
  const mixed = remainingStatesNoQuota(run);
  if (mixed) return skip(`${run.label}: ${mixed}: which limit binds cannot be read from it`);
  const leftover = refusal.remaining !== undefined && refusal.remaining > 0 ? `, and the 429 itself says Remaining ${refusal.remaining}` : '';
  if (startWindow !== refusedBy && k + 1 < start) {
    return fail(
      'other-limit-binds',
      `${run.label}: the headers do not show the limit that binds: they describe the ${startWindow} window (Remaining said ${start}), but the ${refusedBy}'s quota refused after ${k} accepted${leftover}`,
      `X-RateLimit-* of the limit that refuses first (Remaining ${k} at the start)`,
      `Remaining ${start}, refused after ${k}`,
    );
  }
  if (leftover) return fail('remaining-left-on-429', `${run.label}: a 429 says X-RateLimit-Remaining ${refusal.remaining}: the headers do not show the limit that refused`, 'Remaining 0 on a 429 of the limit described', `Remaining ${refusal.remaining}`);
  return startWindow === refusedBy
    ? pass(`${run.label}: the headers describe the ${startWindow} window, whose quota refused first (after ${k} accepted, Remaining said ${start})`)
    : pass(`${run.label}: the headers describe the ${startWindow} window and the ${refusedBy}'s quota refused, after ${k} accepted as Remaining ${start} said: nothing was left over`);
}

export function describeBan(run: KeyRun): Finding {
  if (run.unavailable) {
    const { refusal } = run.unavailable;
    const reset = readRateAnswer(refusal).reset;
    const resetAhead = reset !== undefined ? `, X-RateLimit-Reset ${reset - serverSecond(refusal.t, refusal.headers.date)} s ahead` : '';
    const what = refusal.status === 429 ? `429 with Retry-After ${refusal.headers['retry-after'] ?? '(none)'}${resetAhead}, beyond what the harness waits; it looks banned (e.g. by an earlier run)` : `${refusal.status}${refusal.status === 403 ? '; it looks banned (e.g. by an earlier run)' : ''}`;
    return pass(`${run.label} was refused from its first request: ${what}, so it was not driven and another key of plan ${run.plan} was used if there was one`);
  }
  const bans = pointsOf(run).filter((p) => isBan(run, p));
  if (!run.ban && bans.length > 0) return pass(`${run.label} got ${bans.length} 429(s) keeping the key out beyond the day window (Retry-After ${bans[0]!.retryAfter ?? 'none'}): a ban, whose length is not shown`);
  if (!run.ban) return skip('only keys marked disposable are probed');
  const { last, after } = run.ban;
  // The key provoked it: a 429 that keeps it out beyond a minute window is a ban.
  const lastPoint = last && last.status === 429 ? readRateAnswer(last) : undefined;
  const banned = lastPoint && classifyRefusal({ ...run, provoked: true }, lastPoint) === 'ban' ? `banned: the last 429 kept the key out ${refusalSeconds(lastPoint)} s (Retry-After ${lastPoint.retryAfter ?? 'none'}), beyond one minute window; ` : '';
  const still = after.status === 429 ? `still 429 after waiting Retry-After: the key looks banned (${after.headers['retry-after'] ?? 'no Retry-After'})` : banned ? `${after.status} after waiting it out, as it said` : `${after.status} after waiting Retry-After: no ban`;
  return pass(`kept sending after a 429: ${run.ban.statuses.join(', ')}; ${banned}${still}`);
}

export function describeLoad(run: KeyRun): Finding {
  if (!run.burst) return skip('no load ran');
  const f = loadFigures(run.burst);
  return pass(
    `${run.label}: ${f.sent} sent, ${f.accepted} accepted, ${f.rejected} × 429, ${f.other} other, ${f.inFlightAtStop} in flight at the stop; ` +
      `${f.achievedRate} req/s achieved of ${f.askedRate.toFixed(0)} asked; latency p50 ${f.latency.p50} ms, p90 ${f.latency.p90} ms, p99 ${f.latency.p99} ms`,
  );
}

/** A key refused from the start (banned) was not driven: its checks skip, saying so. */

export const limitHeader = defineCheck({ id: 'rate-limit.limit-header', explainedBy: ['headers.rate-limit-present'], clause: headersClause, suite, title: "X-RateLimit-Limit is the plan's per-minute quota (or per-day when that is tighter)", severity: 'must', judge: driven(judgeLimitHeader) });
export const resetHeader = defineCheck({ id: 'rate-limit.reset-header', explainedBy: ['headers.rate-limit-present'], clause: headersClause, suite, title: 'X-RateLimit-Reset is a Unix time in seconds, after the Date and at most one window ahead', severity: 'must', judge: driven(judgeResetHeader) });
export const remainingHeader = defineCheck({ id: 'rate-limit.remaining', explainedBy: ['headers.rate-limit-present', 'rate-limit.per-connection'], restsOn: 'accepted', clause: headersClause, suite, title: 'X-RateLimit-Remaining falls by one per accepted request', severity: 'must', judge: driven(judgeRemaining) });
export const quota = defineCheck({ id: 'rate-limit.quota', explainedBy: ['rate-limit.per-connection', 'rate-limit.remaining', 'rate-limit.isolation', 'headers.rate-limit-present', 'rate-limit.reset-header', 'rate-limit.headers-one-window'], restsOn: 'accepted', clause, suite, title: 'The requests accepted before the first 429 are the Remaining seen at the start (never more than the plan allows)', severity: 'must', judge: driven(judgeQuota) });
export const boundaryRace = defineCheck({ id: 'rate-limit.boundary-race', clause, suite, title: 'Two requests sent together on two connections at Remaining 1: at most one is accepted', severity: 'must', judge: driven(judgeBoundaryRace) });
export const perConnection = defineCheck({ id: 'rate-limit.per-connection', clause, suite, title: "A key's requests spread over several connections share one quota (no limiter per connection or per instance)", severity: 'must', judge: driven(judgePerConnection) });
export const retryAfterConsistent = defineCheck({ id: 'rate-limit.retry-after-consistent', explainedBy: ['rate-limit.binding-headers', 'rate-limit.reset-header', 'rate-limit.retry-after-format', 'rate-limit.headers-one-window'], clause: exceeding, suite, title: 'Retry-After and X-RateLimit-Reset name the same moment (within 1 s)', severity: 'should', judge: driven(judgeRetryAfterConsistent) });
export const retryAfterHonoured = defineCheck({ id: 'rate-limit.retry-after-honoured', explainedBy: ['rate-limit.retry-after-obeyed'], clause: exceeding, suite, title: 'After waiting exactly what Retry-After says, the next request succeeds', severity: 'must', judge: driven(judgeRetryAfterHonoured) });
export const isolation = defineCheck({ id: 'rate-limit.isolation', clause, suite, title: 'Exhausting one key leaves another key of the same plan untouched', severity: 'must', judge: driven(judgeIsolation) });
export const dailyQuota = defineCheck({ id: 'rate-limit.daily-quota', explainedBy: ['rate-limit.retry-after-obeyed', 'rate-limit.quota', 'rate-limit.one-quota', 'rate-limit.reset-header', 'headers.rate-limit-present', 'rate-limit.headers-one-window'], clause, suite, title: 'The per-day quota is enforced, and Reset then points at the end of the day window', severity: 'must', judge: driven(judgeDailyQuota) });
export const headersWindow = defineCheck({ id: 'rate-limit.headers-window', clause: headersClause, suite, title: 'Which window X-RateLimit-* describe, the minute or the day (either reads "the applicable request limit"), recorded', severity: 'info', judge: driven(describeHeadersWindow) });
export const bindingHeaders = defineCheck({ id: 'rate-limit.binding-headers', explainedBy: ['headers.rate-limit-present', 'rate-limit.headers-one-window'], clause: headersClause, suite, title: 'X-RateLimit-* show the limit that binds: Remaining is not left over when a 429 comes', severity: 'should', judge: driven(judgeBindingHeaders) });
export const banProbe = defineCheck({ id: 'rate-limit.ban-probe', clause: exceeding, suite, title: 'What the server does to a key that keeps sending after a 429 (disposable keys only), recorded', severity: 'info', judge: describeBan });
export const load = defineCheck({ id: 'rate-limit.load', clause, suite, title: 'Load above the plan rate: accepted, 429 and other responses, latency, achieved against asked rate, recorded', severity: 'info', judge: driven(describeLoad) });

/** Judged once per configured key, from what that key's run recorded. */
export const RATE_LIMIT_CHECKS = [limitHeader, resetHeader, remainingHeader, quota, boundaryRace, perConnection, retryAfterConsistent, retryAfterHonoured, isolation, oneQuota, dailyQuota, headersWindow, headersOneWindow, bindingHeaders, banProbe, load] as const;
