// Limits / Request rate by plan, the day: the per-day quota enforced, counted per day window from
// every accepted request of the key in the run (every suite's), and the day's 429 naming the day's
// end. Pure: the check judges what one key's run recorded.
import { DAY_FOLLOW_UPS, type DayData, type KeyRun, pointsOf, type TimelinePoint } from '../result/rate-limits.ts';
import { type AcceptedSpan, beyondAnyDay, busiestStretch, spansMeeting, spansWithin } from '../rate-limit/day-count.ts';
import { CLOCK_SLACK_S, refusalSeconds, retryAfterMoments, retryAfterNamedSecond, resetShape } from '../rate-limit/vocabulary.ts';
import { defineCheck } from './define.ts';
import { datesDisagree, describes, isBan, sentAt } from './limiter.ts';
import { notReached } from './not-reached.ts';
import { driven, fail, type Finding, pass, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const clause = 'Limits / Request rate by plan';
const suite = 'rate-limit';

/**
 * When a 429's Retry-After lets the key back in, in the server's milliseconds: `lo` counted from
 * the start of its Date's second, `hi` from its end (one clock per comparison,
 * retryAfterMoments); undefined without a usable one.
 */
function namedMs(p: TimelinePoint): { lo: number; hi: number } | undefined {
  const named = retryAfterMoments(p);
  return named === undefined ? undefined : { lo: named.lo * 1000, hi: named.hi * 1000 };
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
 * Resets, in the order their answers came, that name the ends of fixed windows: each within
 * CLOCK_SLACK_S (rounding) of every other one of its window, or whole windows after them. A
 * refilling limiter's Reset moves by less, step by step (a token bucket's full-again time drifts on
 * with every request: each step within the slack, the drift beyond it), or goes back (its 429 names
 * the next request's worth).
 */
function fixedWindowEnds(resets: readonly number[], windowSeconds: number): boolean {
  let lo = resets[0];
  let hi = resets[0];
  for (const r of resets.slice(1)) {
    if (Math.max(hi!, r) - Math.min(lo!, r) <= CLOCK_SLACK_S) {
      lo = Math.min(lo!, r);
      hi = Math.max(hi!, r);
      continue;
    }
    const step = r - hi!;
    const off = step % windowSeconds;
    if (!(step >= windowSeconds - CLOCK_SLACK_S && (off <= CLOCK_SLACK_S || windowSeconds - off <= CLOCK_SLACK_S))) return false;
    lo = r;
    hi = r;
  }
  return true;
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
function countDayWindow(run: KeyRun, spans: readonly AcceptedSpan[], reset: number, slack = 0, latest = reset): { count: number; refill: number; seconds: number; uncertain: number } {
  const inWindow = spansWithin(spans, latest - run.windows.day + slack, reset - slack);
  const seconds = inWindow.length === 0 ? 0 : Math.max(...inWindow.map((s) => s.to)) - Math.min(...inWindow.map((s) => s.from)) + 1;
  const refill = dayKind(run) === 'fixed' ? 0 : Math.ceil((seconds / run.windows.day) * run.quota.perDay);
  const uncertain = spansMeeting(spans, reset - run.windows.day - slack, latest + slack).length - inWindow.length;
  return { count: inWindow.length, refill, seconds, uncertain };
}

/**
 * The ends one fixed day window's Resets name: a server that rounds its Reset with noise
 * (reset-jitter) names one window's end a second either way, so Resets within CLOCK_SLACK_S of
 * the earliest of a group name one window, whose end lies between the earliest and the latest of
 * them. Counted for certain is then what lies in every window they name: from the latest end's
 * start to the earliest end (countDayWindow's `reset` and `latest`). Without noise, one Reset each.
 */
function namedDayEnds(resets: readonly number[]): { earliest: number; latest: number }[] {
  const ends: { earliest: number; latest: number }[] = [];
  for (const r of [...new Set(resets)].sort((a, b) => a - b)) {
    const last = ends.at(-1);
    if (last && r - last.earliest <= CLOCK_SLACK_S) last.latest = r;
    else ends.push({ earliest: r, latest: r });
  }
  return ends;
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
    for (const { earliest, latest } of namedDayEnds(shown)) {
      const counted = countDayWindow(run, spans, earliest, 0, latest);
      if (counted.count > perDay) {
        const named = latest > earliest ? `X-RateLimit-Reset ${earliest} to ${latest} (as headers of the day said, rounded with noise; counted in every window they name)` : `X-RateLimit-Reset ${earliest} (as headers of the day said)`;
        return fail('over-day-quota-shown-window', `${run.label}: ${counted.count} requests accepted in the day window that ends at ${named}, more than the ${perDay} a day (${stopped})`, `at most ${perDay}`, `${counted.count}`);
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
    const block = day.block;
    const unnamed = block !== undefined && retryAfterMoments(block) === undefined;
    const over = overDay(run, day, `the day test stopped: the key was refused again after waiting out each 429's ${unnamed ? 'X-RateLimit-Reset (it carried no usable Retry-After)' : 'Retry-After'}`);
    if (over) return over;
    // No Retry-After, and headers of the minute (a legal reading): the 429 names nothing of the
    // day, its Reset being the minute's end. Whether it names the day's end is not judged: the
    // missing Retry-After is rate-limit.retry-after-present's failure (issue 43: Retry-After-day).
    if (block && unnamed && describes(run, block) !== 'day') {
      const carried = block.retryAfter === undefined ? 'no Retry-After' : `a Retry-After ("${block.retryAfter}") that names no moment`;
      return skip(
        `${run.label}: after ${day.accepted} requests accepted, the key was refused again each time it waited out a 429's X-RateLimit-Reset; its 429s carry ${carried}, and their X-RateLimit-* describe the minute (Limit ${block.limit ?? 'absent'}, Reset ${block.reset ?? 'absent'}), so nothing they carry names a time in the day: whether the spent day's 429 names its end is not judged (rate-limit.retry-after-present judges a 429 without Retry-After), and no day window is shown to have let more than ${run.quota.perDay} through`,
      );
    }
    const said = block?.retryAfter !== undefined ? ` (the last said Retry-After ${block.retryAfter})` : '';
    return fail(
      'still-refused',
      `${run.label}: after ${day.accepted} requests accepted, the key was refused again each time it waited out a 429's ${unnamed ? 'X-RateLimit-Reset (it carried no usable Retry-After)' : 'Retry-After'}${said}: the day is spent, but its 429s name times inside it`,
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
  // The day's Reset names the day's end, after the Date of its 429. A Reset of the minute's (headers
  // of the minute, Limit the minute's quota) names the minute window's end, which a slow answer may
  // be dated after, and a noisy rounding put a second before: the slack rate-limit.reset-header
  // gives it (CLOCK_SLACK_S); whether the 429 then names the day's end is judged below. A day's Reset
  // may name a moment within the Date's own second (a token bucket's next token, a window ending
  // now), rounded down or with noise: the Date's second passes, an earlier one does not. A Date of
  // an instance whose clock is ahead of the limiter's (several-instances) is as many seconds later.
  const skew = datesDisagree(pointsOf(run));
  if (namesDay ? block.reset < now - skew : block.reset < now - CLOCK_SLACK_S) {
    return fail('day-reset-not-after-date', `${run.label}: the day's 429 says X-RateLimit-Reset ${block.reset}, not after its Date (${now})${namesDay && skew > 0 ? ` less the ${skew} s by which the run's Dates disagree` : ''}`, `a Unix time after ${now + run.windows.minute}, at most ${now + run.windows.day}`, `${block.reset}`);
  }
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
    const moments = namedMs(p);
    // Sooner than the day's end only when even its latest moment is.
    if (moments === undefined || moments.hi >= (dayEnd - 2) * 1000) continue;
    const named = moments.lo;
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
  // A Retry-After counted from a Date names the day's end to a second either way; Resets of the day
  // rounded with noise name it between the earliest and the latest of them (namedDayEnds).
  const ends = namesDay ? namedDayEnds([...(day.dayResets ?? []), dayEnd]).find((g) => g.earliest <= dayEnd && dayEnd <= g.latest) : undefined;
  const counted = countDayWindow(run, daySpans(day), ends?.earliest ?? dayEnd, minuteHeaders ? 1 : 0, ends?.latest ?? dayEnd);
  if (counted.count > run.quota.perDay + counted.refill) {
    return fail(
      'over-day-quota',
      `${run.label}: ${counted.count} requests accepted in the day window that ends at ${endNamed}, more than the ${run.quota.perDay} a day${counted.refill ? ` (plus ${counted.refill} a refilling day gives back over their ${counted.seconds} s)` : ''}`,
      `at most ${run.quota.perDay + counted.refill}`,
      `${counted.count}`,
    );
  }
  const inWindow = counted;
  const after = day.ended === 'reopened' ? `; let through again at ${Math.round((followUps.at(-1)!.t - block.t) / 1000)} s, when its Retry-After said` : followUps.length > 0 ? `; ${followUps.length} request(s) after its Retry-After, refused while the day lasted` : block.retryAfter === undefined
        ? "; its X-RateLimit-Reset names the day's end (it carries no Retry-After: rate-limit.retry-after-present judges that)"
        : "; its Retry-After names the day's end";
  return pass(`day quota enforced: ${inWindow.count} accepted in the day window ending at ${minuteHeaders ? endNamed : `Reset ${dayEnd}`} (every suite's requests counted)${notToldApart(run, day, inWindow)}${after}; Reset ${block.reset - now} s ahead`);
}

export const dailyQuota = defineCheck({ id: 'rate-limit.daily-quota', explainedBy: ['rate-limit.retry-after-obeyed', 'rate-limit.quota', 'rate-limit.one-quota', 'rate-limit.reset-header', 'headers.rate-limit-present', 'rate-limit.headers-one-window'], clause, suite, title: 'The per-day quota is enforced, and Reset then points at the end of the day window', severity: 'must', judge: driven(judgeDailyQuota) });
