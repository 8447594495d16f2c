// Limits / Rate limit headers, over one key's run: X-RateLimit-Limit is the plan's quota,
// X-RateLimit-Reset a Unix time within one window, X-RateLimit-Remaining counts down, the window
// the headers describe (recorded), and the limit that binds shown. (rate-limit.headers-one-window,
// the headers counting one window, is headers-one-window.ts.) Pure: each check judges what one
// key's run recorded.
import { type KeyRun, pointsOf, type TimelinePoint } from '../result/rate-limits.ts';
import { CLOCK_SLACK_S, classifyRefusal, describedSeconds, refusalSeconds, resetShape, readRateAnswer, windowDescribed } from '../rate-limit/vocabulary.ts';
import { placedInMinute } from '../rate-limit/within-quota.ts';
import { defineCheck } from './define.ts';
import { answersOf } from './headers-one-window.ts';
import { beforeStop, datesDisagree, describes, firstRefusal, isBan, isDayRefusal, limiterKind, quotaWindow, refillAllowance, refillPerSecond, resetJitter, sentAt, stated } from './limiter.ts';
import { driven, fail, type Finding, pass, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const headersClause = 'Limits / Rate limit headers';
const suite = 'rate-limit';

export function judgeLimitHeader(run: KeyRun): Finding {
  const allowed = [run.quota.perMinute, run.quota.perDay];
  const wrong = pointsOf(run).filter((p) => p.limit !== undefined && !allowed.includes(p.limit));
  const seen = [...new Set(pointsOf(run).map((p) => p.limit).filter((l) => l !== undefined))];
  if (seen.length === 0) return skip('no X-RateLimit-Limit seen (headers.rate-limit-present judges that)');
  if (wrong.length === 0) return pass(`X-RateLimit-Limit: ${seen.join(', ')}`);
  return fail('not-the-plan-quota', `${run.label}: X-RateLimit-Limit is ${wrong[0]!.limit} on ${wrong.length} responses`, `${run.quota.perMinute} (per minute) or ${run.quota.perDay} (per day) for plan ${run.plan}`, `${wrong[0]!.limit}`);
}

/**
 * Why X-RateLimit-Remaining states no quota to count against, if it does not: the look before the
 * burst said Remaining above its own Limit (the headers count two windows at once,
 * rate-limit.headers-one-window's failure), or Remaining did not count down as requests were
 * accepted (rate-limit.remaining's). Then the plan's quota is counted instead.
 */
export function remainingStatesNoQuota(run: KeyRun): string | undefined {
  const look = run.start && readRateAnswer(run.start);
  if (look?.remaining !== undefined && look.limit !== undefined && look.remaining > look.limit) {
    return `X-RateLimit-Remaining ${look.remaining} is above X-RateLimit-Limit ${look.limit} (rate-limit.headers-one-window judges that), so it states no one window's quota`;
  }
  // Remaining that does not fall as requests are accepted says nothing of how many are left.
  const counted = judgeRemaining(run);
  if (counted.outcome === 'fail' && counted.code === 'not-counting-down') return `X-RateLimit-Remaining does not count down (rate-limit.remaining judges that), so it states no quota`;
  return undefined;
}

/** The window a response's Reset names the end of: the day's for the day's 429, else the one its headers describe. */
function windowOf(run: KeyRun, p: TimelinePoint): number {
  return p.status === 429 && isDayRefusal(run, p) ? run.windows.day : describedSeconds(run.quota, run.windows, p);
}

/**
 * One cause in the shape of the headers, one failure: a Reset that is no Unix time in seconds (a
 * count of seconds, or milliseconds) is headers.rate-limit-present's, over every answer of the run.
 * A check that would compare it with a moment cannot judge, and says why, quoting it.
 */
export function resetNotUnixSkip(points: readonly Pick<TimelinePoint, 'reset'>[]): Finding | undefined {
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
  const skew = datesDisagree(points);
  // A Reset rounded with noise (reset-jitter: the burst's Resets of one window go back and forth)
  // may lie as much further past the window's end.
  const jitter = resetJitter(beforeStop(run));
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
    // A slow answer (slow-day: 1.2 s) is dated after the request was counted, and its Reset named
    // then: its Date less the whole seconds from its sending to its arrival (the fraction, as for
    // every answer, within the slack).
    // (A Reset that counts seconds or milliseconds was named above: resetNotUnixSkip.)
    const counted = p.sentAt === undefined ? now : now - Math.max(0, Math.floor((p.t - p.sentAt) / 1000));
    if (p.reset < counted - CLOCK_SLACK_S) {
      const slow = counted < now ? ` (answered ${((p.t - p.sentAt!) / 1000).toFixed(1)} s after its sending: counted in ${counted} at the earliest)` : '';
      return fail('reset-before-date', `${run.label}: X-RateLimit-Reset ${p.reset} is before the response's Date (${now})${slow}`, `a Unix time in seconds from ${counted} to ${now + window}`, `${p.reset}`);
    }
    // A Date written by a clock behind the limiter's (instances whose clocks differ, variation
    // instances-clock-skew) puts Reset as much further ahead of it as the Dates disagree.
    if (p.reset > now + window + 2 + skew + jitter) {
      const allowing = [...(skew > 0 ? [`${skew} s by which the run's Dates disagree`] : []), ...(jitter > 0 ? [`${jitter} s its Resets' rounding noise adds`] : [])];
      return fail('reset-beyond-window', `${run.label}: X-RateLimit-Reset ${p.reset} is more than one window (${window} s) after the Date (${now})${allowing.length > 0 ? ` (allowing ${allowing.join(' and ')})` : ''}`, `a Unix time in seconds from ${now} to ${now + window}`, `${p.reset}`);
    }
  }
  return pass(bans.length > 0 ? `${bans.length} ban refusal(s) with Reset up to ${Math.max(...bans.map((p) => p.reset! - sentAt(p)))} s ahead not judged (a ban's length is not shown; rate-limit.ban-probe records it)` : undefined);
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
  // A Remaining of the day (headers of the day) refills at the day's rate, which on short windows
  // may be the faster (sliding-window with headers-day-window: 1000 in 40 s against 60 in 4 s);
  // never less than the minute's, as before.
  const startLook = run.start && readRateAnswer(run.start);
  const ofDay = startLook !== undefined && describes(run, startLook) === 'day';
  const allowance = fixed ? 0 : Math.max(refillAllowance(run), ofDay ? refillAllowance(run, 'day') : 0);
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

/**
 * On a 429, X-RateLimit-Remaining is 0 for the limit that refused ("Requests remaining in the
 * current window": a refused key has none). Judged over every 429 of the key's run that states
 * Remaining (the burst's, the recovery's, the isolation looks', the mix's, the day's and what
 * followed it), each as classifyRefusal reads it:
 *
 * - the headers describe the window that refused (a minute's 429 under the minute's Limit, a day's
 *   under the day's): Remaining 0, else `remaining-left-on-429`;
 * - a day's 429 whose headers describe the minute (Limit the minute's quota): Remaining 0 too, else
 *   `day-429-minute-remaining`. The minute's Remaining above 0 tells the client that requests
 *   remain in the window the headers name, yet the spent day lets none through in it, nor in any
 *   minute before the day turns: no request of that window remains;
 * - a minute's 429 whose headers describe the day (Limit the day's quota, variation
 *   headers-day-window): the day's Remaining stays legal. Those requests do remain in the window
 *   the headers name, and are let through in it once the minute turns (Retry-After says when).
 *   That the headers then do not show the limit that binds is rate-limit.binding-headers' (a should).
 *
 * A ban is not judged (its length is not shown, nor what its headers describe). A new check rather
 * than a code of rate-limit.remaining: that one reads the accepted answers of the burst counting
 * down (restsOn 'accepted', and skips without them), this one every 429 of the key, whichever part
 * of the run met it; and rate-limit.binding-headers, which reads only the burst's first 429, is a
 * should, where a refusal that says requests remain contradicts the header's sentence.
 */
export function judgeRemainingZeroOn429(run: KeyRun): Finding {
  const mix = run.mix ? [...run.mix.points, ...(run.mix.other ? [run.mix.other] : [])] : [];
  const refusals = [...answersOf(run), ...mix].filter((p) => p.status === 429 && p.remaining !== undefined);
  if (refusals.length === 0) return skip(`${run.label}: no 429 carried an integer X-RateLimit-Remaining (headers.rate-limit-present judges the headers)`);
  const judged = refusals.map((p) => ({ p, kind: classifyRefusal(run, p), described: windowDescribed(run.quota, p) })).filter((r) => r.kind !== 'ban');
  if (judged.length === 0) return skip(`${run.label}'s only 429s were bans (kept out beyond the day window), whose headers are not judged`);
  const legal = judged.filter((r) => r.kind === 'minute' && r.described === 'day');
  const left = judged.filter((r) => !legal.includes(r) && r.p.remaining! > 0);
  const first = left[0];
  if (first) {
    const { p, kind, described } = first;
    const waits = refusalSeconds(p);
    const until = p.retryAfter !== undefined ? ` (Retry-After ${p.retryAfter})` : waits !== undefined ? ` (no Retry-After; Reset ${waits} s away)` : '';
    const quota = described === 'day' ? run.quota.perDay : run.quota.perMinute;
    const more = left.length > 1 ? `; ${left.length} of ${judged.length} such 429s` : '';
    if (kind === 'day' && described === 'minute') {
      return fail(
        'day-429-minute-remaining',
        `${run.label}: a 429 of the spent day${until} says X-RateLimit-Remaining ${p.remaining} under Limit ${p.limit ?? quota} (the minute's quota): it tells the client ${p.remaining} requests remain in the minute, yet the day lets none through before it turns${more}`,
        "Remaining 0 on the day's 429, whichever window the headers describe",
        `Limit ${p.limit ?? 'none'}, Remaining ${p.remaining}, Reset ${p.reset ?? 'none'}, Retry-After ${p.retryAfter ?? 'none'}`,
      );
    }
    return fail(
      'remaining-left-on-429',
      `${run.label}: a 429 of the ${kind}${until} says X-RateLimit-Remaining ${p.remaining} under Limit ${p.limit ?? quota} (the ${described}'s quota), the window that refused: a refused key has no request remaining in it${more}`,
      'Remaining 0 on a 429 of the window the headers describe',
      `Limit ${p.limit ?? 'none'}, Remaining ${p.remaining}, Reset ${p.reset ?? 'none'}, Retry-After ${p.retryAfter ?? 'none'}`,
    );
  }
  const minute = legal.length > 0 ? `; ${legal.length} minute refusals under headers of the day, whose Remaining counts the day, not judged` : '';
  return pass(`${run.label}: Remaining 0 on ${judged.length - legal.length} 429s of the window that refused${minute}`);
}

/**
 * A request sent at the moment X-RateLimit-Reset names is let through ("Unix timestamp at which
 * the limit resets": not only after Retry-After). After the burst's 429, where its Retry-After
 * names no moment after that Reset (else the client may not send then, and no request is sent:
 * lib/drive/recover.ts says why, and this skips with it), the driver sends one request a second
 * after the second Reset names on the server's clock (read from the 429's Date), plus the noise the
 * burst's Resets showed: Reset is whole seconds, rounded as the limiter rounds. Where Retry-After
 * names that moment too, it is the request after Retry-After (no request more). It must not be
 * refused for the window that refused before: a 429 the same kind of refusal (the minute's, the
 * day's) fails; a refusal by another window (the day spent meanwhile), a ban, or another status is
 * not judged, and says so. Every window the interface allows passes: a fixed window has turned, a
 * sliding log's oldest request has left (or the log emptied), a token bucket is full.
 */
export function judgeServedAtReset(run: KeyRun): Finding {
  if (run.atResetSkipped) return skip(run.atResetSkipped);
  const at = run.atReset;
  if (!at) return skip(run.ban ? `${run.label} is disposable: after its 429 it was probed for a ban (rate-limit.ban-probe), not sent a request at Reset` : `${run.label} met no 429 in its burst: no X-RateLimit-Reset to send at`);
  const next = readRateAnswer(at.next);
  const after = ((at.sentAt - (at.aimedAt - at.slackMs)) / 1000).toFixed(1);
  const sent = `a request sent ${after} s after the X-RateLimit-Reset ${at.reset} its 429 named (the server's clock, read from its Date)${at.sameAsRetry ? ', also the request after Retry-After,' : ''}`;
  if (isAccepted(next.status)) return pass(`${run.label}: ${sent} got ${next.status}`);
  if (next.status !== 429) return skip(`${run.label}: ${sent} got ${next.status}, neither let through nor refused by the limiter: not judged`);
  const before = classifyRefusal(run, at.refusal);
  const now = classifyRefusal(run, next);
  const said = `429 (Retry-After ${next.retryAfter ?? 'none'}, X-RateLimit-Reset ${next.reset ?? 'none'}, Remaining ${next.remaining ?? 'none'})`;
  if (now !== before) return skip(`${run.label}: ${sent} got ${said}, a refusal of ${now === 'ban' ? 'a ban' : `the ${now}`}, not of the ${before} that refused before: not judged`);
  // A minute's 429 by its Reset alone (no usable Retry-After, headers that do not show the day
  // with room) may be the spent day's under headers of the minute: refused again at the minute's
  // Reset, the day may still be spent (issue 43: the day's wait in Retry-After-day only).
  const unplaced = before === 'minute' ? [at.refusal, next].find((p) => !placedInMinute(run, p)) : undefined;
  if (unplaced) {
    const which = unplaced === next ? 'it' : 'the 429 before it';
    return skip(`${run.label}: ${sent} got ${said}, but ${which} carries no usable Retry-After under headers that do not show the day with requests left: it may be a refusal of the spent day, which the minute's Reset says nothing of, so whether the minute window reset then is not judged (rate-limit.retry-after-present judges a 429 without Retry-After)`);
  }
  return fail(
    'refused-at-reset',
    `${run.label}: ${sent} got ${said}: the ${before} window had not reset at the moment Reset named`,
    `2xx from ${at.reset} on (allowing ${at.slackMs / 1000} s for Reset's rounding)`,
    `${said}, ${after} s after Reset`,
  );
}

export const limitHeader = defineCheck({ id: 'rate-limit.limit-header', explainedBy: ['headers.rate-limit-present'], clause: headersClause, suite, title: "X-RateLimit-Limit is the plan's per-minute quota (or per-day when that is tighter)", severity: 'must', judge: driven(judgeLimitHeader) });
export const resetHeader = defineCheck({ id: 'rate-limit.reset-header', explainedBy: ['headers.rate-limit-present'], clause: headersClause, suite, title: 'X-RateLimit-Reset is a Unix time in seconds, after the Date and at most one window ahead', severity: 'must', judge: driven(judgeResetHeader) });
export const remainingHeader = defineCheck({ id: 'rate-limit.remaining', explainedBy: ['headers.rate-limit-present', 'rate-limit.per-connection'], restsOn: 'accepted', clause: headersClause, suite, title: 'X-RateLimit-Remaining falls by one per accepted request', severity: 'must', judge: driven(judgeRemaining) });
export const headersWindow = defineCheck({ id: 'rate-limit.headers-window', clause: headersClause, suite, title: 'Which window X-RateLimit-* describe, the minute or the day (either reads "the applicable request limit"), recorded', severity: 'info', judge: driven(describeHeadersWindow) });
export const servedAtReset = defineCheck({ id: 'rate-limit.served-at-reset', explainedBy: ['headers.rate-limit-present', 'rate-limit.retry-after-honoured'], clause: headersClause, suite, title: 'A request sent at the moment X-RateLimit-Reset names (after a 429 whose Retry-After names no later one) is let through', severity: 'must', judge: driven(judgeServedAtReset) });
export const remainingZeroOn429 = defineCheck({ id: 'rate-limit.remaining-zero-on-429', explainedBy: ['headers.rate-limit-present', 'rate-limit.headers-one-window'], clause: headersClause, suite, title: 'On a 429, X-RateLimit-Remaining is 0 for the limit that refused (a minute refusal under headers of the day may count the day)', severity: 'must', judge: driven(judgeRemainingZeroOn429) });
export const bindingHeaders = defineCheck({ id: 'rate-limit.binding-headers', explainedBy: ['headers.rate-limit-present', 'rate-limit.headers-one-window', 'rate-limit.remaining-zero-on-429'], clause: headersClause, suite, title: 'X-RateLimit-* show the limit that binds: Remaining is not left over when a 429 comes', severity: 'should', standard: 'draft-ietf-httpapi-ratelimit-headers §5: the fields describe the quota policy closest to being exhausted (the interface\'s "applicable request limit")', judge: driven(judgeBindingHeaders) });
