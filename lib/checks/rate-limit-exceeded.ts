// Limits / Exceeding the limit, over one key's run: a 429's Retry-After and X-RateLimit-Reset
// name one moment, the request sent after waiting out Retry-After is let through, and what the
// server does to a key that keeps sending after a 429 (recorded). Pure: each check judges what
// one key's run recorded.
import { type KeyRun, pointsOf } from '../result/rate-limits.ts';
import { classifyRefusal, momentsText, readRetryAfter, refusalSeconds, retryAfterMillisecondsHint, retryAfterMoments, secondsApart, serverSecond, readRateAnswer } from '../rate-limit/vocabulary.ts';
import { defineCheck } from './define.ts';
import { beforeStop, firstBurst429, isBan, limiterKind, refillPerSecond, resetJitter, sentAt } from './limiter.ts';
import { resetNotUnixSkip } from './rate-limit-headers.ts';
import { driven, fail, type Finding, pass, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const exceeding = 'Limits / Exceeding the limit';
const suite = 'rate-limit';

export function judgeRetryAfterConsistent(run: KeyRun): Finding {
  const p = firstBurst429(run);
  if (!p) return skip(`${run.label} got no 429 to compare Retry-After and X-RateLimit-Reset on`);
  if (p.retryAfter === undefined) return skip(`${run.label}'s 429 had no Retry-After (rate-limit.retry-after-present judges that)`);
  if (p.reset === undefined) return skip(`${run.label}'s 429 had no integer X-RateLimit-Reset (headers.rate-limit-present judges that)`);
  const shaped = resetNotUnixSkip([p]);
  if (shaped) return shaped;
  const sent = sentAt(p);
  const reading = readRetryAfter(p.retryAfter, p.t, p.date)!;
  // One clock per comparison: the moment Retry-After names, to the resolution of its sources (the
  // Date's whole second, the delta's own digits, our clock's ms without a Date), is compared with
  // Reset's whole second within the check's second; they differ only when no moment of the
  // interval lies within it.
  const named = retryAfterMoments(p);
  if (named === undefined) return fail('names-no-moment', `${run.label}: Retry-After "${p.retryAfter}" names no moment`, `X-RateLimit-Reset ${p.reset}`, p.retryAfter);
  const hint = retryAfterMillisecondsHint(reading, p.reset - sent);
  const points = `Retry-After "${p.retryAfter}"${p.date !== undefined && named.hi > named.lo ? ` from Date "${p.date}"` : ''} points at ${momentsText(named)}`;
  if (limiterKind(beforeStop(run), refillPerSecond(run)) !== 'fixed') {
    // A refilling limiter may name the next token in Retry-After and the full bucket in Reset.
    return named.hi >= sent - 1 && named.lo <= p.reset + 1
      ? pass(`refilling limiter: Retry-After ${p.retryAfter} within X-RateLimit-Reset ${p.reset}`)
      : fail('beyond-reset', `${run.label}: ${points}, beyond X-RateLimit-Reset ${p.reset}${hint}`, `no later than ${p.reset}`, `${Math.round(named.lo - p.reset)} s after`);
  }
  // A Reset rounded with noise (resetJitter) may be that much off the window's true end.
  const apart = secondsApart(named, p.reset);
  const gap = Math.round(apart * 1000) / 1000;
  return apart <= 1 + resetJitter(beforeStop(run))
    ? pass()
    : fail('not-the-reset-moment', `${run.label}: ${points}, X-RateLimit-Reset at ${p.reset}, ${gap} s apart${hint}`, 'the same moment within 1 s', `${gap} s apart`);
}

export function judgeRetryAfterHonoured(run: KeyRun): Finding {
  if (run.retrySkipped) return skip(run.retrySkipped);
  if (!run.retry) return skip('no 429 with a usable Retry-After was seen');
  const { next, waitedMs } = run.retry;
  return isAccepted(next)
    ? pass(`waited ${waitedMs} ms, then ${next.status}`)
    : fail('refused-after-waiting', `${run.label}: after waiting ${waitedMs} ms, what Retry-After asked for${run.atReset?.sameAsRetry ? ' and on to the moment X-RateLimit-Reset named' : ''}, the next request got ${next.status}`, '2xx', `${next.status}`);
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

export const retryAfterConsistent = defineCheck({ id: 'rate-limit.retry-after-consistent', explainedBy: ['rate-limit.binding-headers', 'rate-limit.reset-header', 'rate-limit.retry-after-format', 'rate-limit.headers-one-window'], clause: exceeding, suite, title: 'Retry-After and X-RateLimit-Reset name the same moment (within 1 s)', severity: 'should', standard: 'RFC 9110 §10.2.3 with the interface\'s X-RateLimit-Reset: two headers that say when the client may retry say the same moment', judge: driven(judgeRetryAfterConsistent) });
export const retryAfterHonoured = defineCheck({ id: 'rate-limit.retry-after-honoured', explainedBy: ['rate-limit.retry-after-obeyed'], clause: exceeding, suite, title: 'After waiting exactly what Retry-After says, the next request succeeds', severity: 'must', judge: driven(judgeRetryAfterHonoured) });
export const banProbe = defineCheck({ id: 'rate-limit.ban-probe', clause: exceeding, suite, title: 'What the server does to a key that keeps sending after a 429 (disposable keys only), recorded', severity: 'info', judge: describeBan });
