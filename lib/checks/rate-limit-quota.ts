// Limits / Request rate by plan, over one key's run: the requests accepted before the first 429
// against the stated quota (and no 429 within the plan's), at most one of two requests sent
// together at Remaining 1, one quota over all of a key's connections, keys of one plan apart, and
// the load's figures (recorded). (The day's quota is rate-limit-day.ts; one quota over every
// operation, one-quota.ts.) Pure: each check judges what one key's run recorded.
import { type KeyRun, sentAtOfPoint, type TimelinePoint } from '../result/rate-limits.ts';
import { classifyRefusal, resetShape, readRateAnswer } from '../rate-limit/vocabulary.ts';
import { describeWithinQuota, placedInMinute } from '../rate-limit/within-quota.ts';
import { defineCheck } from './define.ts';
import { beforeStop, describes, firstRefusal, isDayRefusal, limiterKind, loadFigures, quotaAllowance, quotaWindow, refillAllowance, refillPerSecond, resetJitter, said, stated } from './limiter.ts';
import { minuteTurns, mostInOneWindow, notReached } from './not-reached.ts';
import { remainingStatesNoQuota } from './rate-limit-headers.ts';
import { driven, explainedBy, fail, type Finding, pass, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const clause = 'Limits / Request rate by plan';
const suite = 'rate-limit';

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

/**
 * The burst's first 429, when it came before the stated Remaining was spent and names nothing of
 * the day (placedInMinute): no usable Retry-After, under headers that do not show the day with
 * requests left. It may be the day's, spent before the run or by its other requests (a limiter
 * that names the day's wait only in a header of its own, Retry-After-day: issue 43), which
 * headers of the minute do not count: the minute's quota is not judged by it. Why, in words.
 */
function notPlacedInMinute(run: KeyRun, refusal: TimelinePoint, accepted: number, start: number): Finding | undefined {
  if (accepted >= start || classifyRefusal(run, refusal) !== 'minute' || placedInMinute(run, refusal)) return undefined;
  const named = refusal.retryAfter === undefined ? 'carries no Retry-After' : `carries a Retry-After ("${refusal.retryAfter}") that names no moment`;
  const headers = refusal.limit === undefined ? 'no X-RateLimit-Limit' : `X-RateLimit-Limit ${refusal.limit}, Remaining ${refusal.remaining ?? 'absent'}`;
  return skip(
    `${run.label}: the burst's first 429 came after ${accepted} accepted, before Remaining ${start} was spent, but it ${named} and its headers (${headers}) do not show the day with requests left: it may be a refusal of the spent day (spent before the run, or by the run's other requests), which headers of the minute do not count, so it tells nothing of the minute's quota: not judged (rate-limit.retry-after-present judges a 429 without Retry-After)`,
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
    const unplaced = first && notPlacedInMinute(run, first.refusal, total, start);
    if (unplaced) return unplaced;
    const failed = fail('not-the-stated-quota', `${run.label}: ${total} requests accepted in the window before the first 429, but ${said(window)}`, `${start}`, `${total}`);
    // One too many is what two requests let through together at Remaining 1 make of a limiter that checks, then counts.
    return total === start + 1 ? explainedBy(failed, 'rate-limit.boundary-race') : failed;
  }
  const allowance = quotaAllowance(run, start);
  const unplaced = first && notPlacedInMinute(run, first.refusal, ok.length, start);
  if (unplaced) return unplaced;
  // A 2xx sent no later than the first 429 may have been counted before it and arrive just after it
  // (answers on several connections in another order than counted): it was within the quota too.
  const refusedAt = run.burst.points.findIndex((p) => p.status === 429);
  const sentBy = sentAtOfPoint(run.burst.points[refusedAt]!);
  const late = run.burst.points.slice(refusedAt + 1).filter((p) => isAccepted(p) && sentAtOfPoint(p) <= sentBy).length;
  if (ok.length + late < start) return fail('refused-before-quota', `${run.label}: a 429 after ${ok.length} accepted requests${late > 0 ? ` (and ${late} sent with it, answered after it)` : ''}, but ${said(window)}`, `at least ${start}`, `${ok.length + late}`);
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
  return pass(`${what}: ${ok.length} accepted from Remaining ${start}${late > 0 ? ` (and ${late} sent with the first 429, answered after it)` : ''}, refill allowance ${allowance}`);
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

export function describeLoad(run: KeyRun): Finding {
  if (!run.burst) return skip('no load ran');
  const f = loadFigures(run.burst);
  return pass(
    `${run.label}: ${f.sent} sent, ${f.accepted} accepted, ${f.rejected} × 429, ${f.other} other, ${f.inFlightAtStop} in flight at the stop; ` +
      `${f.achievedRate} req/s achieved of ${f.askedRate.toFixed(0)} asked; latency p50 ${f.latency.p50} ms, p90 ${f.latency.p90} ms, p99 ${f.latency.p99} ms`,
  );
}

export const quota = defineCheck({ id: 'rate-limit.quota', explainedBy: ['rate-limit.per-connection', 'rate-limit.remaining', 'rate-limit.isolation', 'headers.rate-limit-present', 'rate-limit.reset-header', 'rate-limit.headers-one-window'], restsOn: 'accepted', clause, suite, title: 'The requests accepted before the first 429 are the Remaining seen at the start (never more than the plan allows)', severity: 'must', judge: driven(judgeQuota) });
export const boundaryRace = defineCheck({ id: 'rate-limit.boundary-race', clause, suite, title: 'Two requests sent together on two connections at Remaining 1: at most one is accepted', severity: 'must', judge: driven(judgeBoundaryRace) });
export const perConnection = defineCheck({ id: 'rate-limit.per-connection', clause, suite, title: "A key's requests spread over several connections share one quota (no limiter per connection or per instance)", severity: 'must', judge: driven(judgePerConnection) });
export const isolation = defineCheck({ id: 'rate-limit.isolation', clause, suite, title: 'Exhausting one key leaves another key of the same plan untouched', severity: 'must', judge: driven(judgeIsolation) });
export const load = defineCheck({ id: 'rate-limit.load', clause, suite, title: 'Load above the plan rate: accepted, 429 and other responses, latency, achieved against asked rate, recorded', severity: 'info', judge: driven(describeLoad) });
