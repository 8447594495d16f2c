// One quota per key: every authenticated request of a key counts against its plan, whatever the
// operation and whatever the answer (400 and 404 included). Judged from the window one key spent
// on a mix of operations (lib/drive/drive-mix.ts). Pure: the key's run in, a finding out.
import { type KeyRun, type MixData, type MixOperation, type MixPoint, sentAtOfPoint } from '../result/rate-limits.ts';
import { CLOCK_SLACK_S, countedAgainstQuota, readRetryAfter, resetAtMs, resetShape, windowDescribed, readRateAnswer, windowMs } from '../rate-limit/vocabulary.ts';
import { mostInOneWindow, notReached, refillOver } from './not-reached.ts';
import { defineCheck } from './define.ts';
import { driven, explainedBy, fail, type Finding, pass, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const NAMES: Record<MixOperation, string> = { listPets: 'listPets', getPet: 'getPet', createPet: 'createPet', listOrders: 'GET /store/orders' };

/** A request of the mix its quota counted (the ledger's reading, countedAgainstQuota): a 2xx, or a 4xx the limiter saw. */
const counted = (p: MixPoint) => countedAgainstQuota(p.status, p.limit !== undefined || p.remaining !== undefined);

/** "listPets 31 (200), getPet 10 (404)": what each operation had let through. */
function byOperation(points: readonly MixPoint[]): string {
  const counts = new Map<MixOperation, { n: number; statuses: Set<number> }>();
  for (const p of points) {
    const c = counts.get(p.op) ?? { n: 0, statuses: new Set<number>() };
    c.n += 1;
    c.statuses.add(p.status);
    counts.set(p.op, c);
  }
  return [...counts].map(([op, c]) => `${NAMES[op]} ${c.n} (${[...c.statuses].join(', ')})`).join(', ');
}

/** What the mix may let through, and how much of it rests on a turn of the window. */
export interface MixAllowance {
  /** At most this many let through before the first 429. */
  most: number;
  /** What may be let through without a turn: the Remaining it started from and what a refilling limiter gives back. */
  unturned: number;
  turned: boolean;
  turns: number;
  /**
   * Set when whether the window turned within the mix cannot be told (no X-RateLimit-Reset of the
   * minute and no Retry-After): what was missing. `most` then allows every turn the mix's length
   * allows, and a count between `unturned` and `most` is not judged.
   */
  untold?: string;
}

/**
 * What any limiter of the plan may let through over the mix: the Remaining it started from, what
 * a refilling limiter gives back meanwhile (a token bucket's refill, or what a sliding log had
 * spent before), and a whole minute more for each turn of the window within the mix. When the
 * window turned is read from the start's Reset (the window's end: one turn there and one for
 * each window's length after), else from the first 429's Retry-After (the window that refused
 * ends then, so began a window's length before: a turn within the mix only if it began after the
 * mix did); with neither, the configured window and the answers' times allow one turn for each
 * window's length the mix took (one at least), and whether it turned cannot be told.
 */
export function mixAllowance(run: Pick<KeyRun, 'quota' | 'windows'>, mix: MixData): MixAllowance {
  const { perMinute } = run.quota;
  const refill = refillOver(run, mix.durationMs);
  const unturned = mix.expected + Math.max(refill, perMinute - mix.expected);
  const allow = (turns: number, untold?: string): MixAllowance => ({ most: unturned + turns * perMinute, unturned, turned: turns > 0, turns, ...(untold !== undefined ? { untold } : {}) });
  const last = mix.points.at(-1);
  if (last === undefined) return allow(0);
  const start = readRateAnswer(mix.start);
  // Only headers of the minute name its window's end: headers of the day name the day's, while the
  // minute turns underneath them.
  const ofMinute = windowDescribed(run.quota, start) === 'minute';
  // A Reset that is no Unix time in seconds names no end (headers.rate-limit-present's failure).
  const named = start.reset !== undefined && start.reset >= 0 && resetShape(start.reset) === undefined;
  const resetAt = ofMinute && named ? resetAtMs(start.reset!, mix.start.t, mix.start.headers.date) : undefined;
  const W = windowMs(run.windows);
  const slack = CLOCK_SLACK_S * 1000;
  const anyTurn = Math.max(1, Math.ceil((last.t - mix.start.t) / W));
  if (resetAt !== undefined) {
    const from = resetAt - slack;
    return allow(last.t < from ? 0 : Math.max(1, Math.ceil((last.t - from) / W)));
  }
  // The 429's Retry-After names no earlier moment than the refusing window's end (a refilling
  // limiter's next token names a sooner one, and its refill is allowed for anyway).
  const refused = mix.points.find((p) => p.status === 429);
  const until = refused ? readRetryAfter(refused.retryAfter, refused.t, refused.date)?.untilMs : undefined;
  if (until !== undefined) return allow(until - W < mix.start.t - slack ? 0 : anyTurn);
  const missing = [
    ofMinute ? (start.reset === undefined ? 'no X-RateLimit-Reset' : named ? undefined : `X-RateLimit-Reset ${start.reset}, no Unix time in seconds`) : `X-RateLimit-Reset of the day (Limit ${start.limit}), not of the minute`,
    refused ? 'no Retry-After on the 429' : 'no 429',
  ].filter((m) => m !== undefined);
  return allow(anyTurn, `${missing.join(' and ')}: when the window turned cannot be told`);
}

/** The other operation was answered within this long of the 429's arrival: within the same quarter second no window turns for one operation and not another. */
export const SAME_MOMENT_MS = 250;

/**
 * The request of another operation sent right after the first 429, let through in the window that
 * refused: judged only when nothing legal explains it. Its answer names the same window (the same
 * Reset, give or take a second, where both carry one), it was answered within one token's time of
 * the refusal (no bucket refilled meanwhile), and the 429 had named a moment more than a second
 * after it was sent; without a Retry-After that names one, it was answered within a quarter
 * second of the 429's arrival (SAME_MOMENT_MS).
 */
export function acceptedElsewhere(run: Pick<KeyRun, 'quota' | 'windows'>, refused: MixPoint, other: MixPoint | undefined): boolean {
  // A 4xx is refusedOtherwise's: another answer than 429, not an acceptance.
  if (other === undefined || !isAccepted(other.status)) return false;
  if (refused.reset !== undefined && other.reset !== undefined && Math.abs(other.reset - refused.reset) > 1) return false;
  // With a Reset on the 429 but none on the answer, nothing says it is the same window but the times.
  if (refused.reset !== undefined && other.reset === undefined && readRetryAfter(refused.retryAfter, refused.t, refused.date)?.untilMs !== undefined) return false;
  return withinRefusal(run, refused, other);
}

/**
 * Sent within one token's time of the refusal (no bucket refilled meanwhile), before a moment more
 * than a second ahead that its Retry-After named; without a Retry-After that names a moment,
 * answered within a quarter second of the 429's arrival.
 */
function withinRefusal(run: Pick<KeyRun, 'quota' | 'windows'>, refused: MixPoint, other: MixPoint): boolean {
  const tokenMs = windowMs(run.windows) / run.quota.perMinute;
  if (other.t - sentAtOfPoint(refused) >= tokenMs) return false;
  const until = readRetryAfter(refused.retryAfter, refused.t, refused.date)?.untilMs;
  if (until === undefined) return other.t - refused.t < SAME_MOMENT_MS;
  return until > sentAtOfPoint(other) + 1000;
}

/**
 * The request sent right after the first 429 (an invalid one where there is one: drive-mix.ts)
 * answered with another 4xx than 429 within the refusal's period: "A request over the limit
 * receives 429", invalid or not; a server that validates (or looks up) before it counts answers
 * 400 or 404. 401 and 403 aside (the key refused otherwise).
 */
export function refusedOtherwise(run: Pick<KeyRun, 'quota' | 'windows'>, refused: MixPoint, other: MixPoint | undefined): boolean {
  if (other === undefined || other.status < 400 || other.status >= 500 || [401, 403, 429].includes(other.status)) return false;
  // Another Reset than the refusal's: the window turned meanwhile. Without one (answered before the limiter), the times alone.
  if (refused.reset !== undefined && other.reset !== undefined && Math.abs(other.reset - refused.reset) > 1) return false;
  return withinRefusal(run, refused, other);
}

/** The 429's Retry-After in words; without one, that no moment was named (the times alone judged). */
const retryAfterText = (refused: MixPoint) => (refused.retryAfter !== undefined ? `Retry-After ${refused.retryAfter}` : 'no Retry-After');

/**
 * How long after the 429 the other operation's answer came; where no Retry-After named a moment,
 * the quarter second that proves it (SAME_MOMENT_MS).
 */
function later(refused: MixPoint, other: MixPoint): string {
  const ms = other.t - refused.t;
  if (readRetryAfter(refused.retryAfter, refused.t, refused.date)?.untilMs !== undefined) return `${(ms / 1000).toFixed(1)} s later`;
  return `${(ms / 1000).toFixed(3)} s later (within the same quarter second, and no window turns for one operation and not another)`;
}

export function judgeOneQuota(run: KeyRun): Finding {
  if (run.mixSkipped) return skip(run.mixSkipped);
  const mix = run.mix;
  if (!mix) return skip(`a mix of operations is sent with one key of the run (the key of the smallest minute quota that is not disposable, preferring one that does not spend its plan's day), not ${run.label}`);
  const first = mix.points.findIndex((p) => p.status === 429);
  const before = first === -1 ? mix.points : mix.points.slice(0, first);
  const through = before.filter(counted);
  const { most, turned, turns, untold, unturned } = mixAllowance(run, mix);
  const seconds = (mix.durationMs / 1000).toFixed(1);
  const problems: { code: string; text: string }[] = [];
  if (through.length > most) {
    problems.push({
      code: 'mix-over-quota',
      text: `${run.label}: a mix of operations let ${through.length} requests through ${first === -1 ? 'without a 429' : 'before the first 429'} in ${seconds} s, more than Remaining ${mix.expected}${turned ? ` and ${turns === 1 ? 'a whole window' : `${turns} whole windows`} more` : ''} allow (at most ${most} with what a refilling limiter gives back meanwhile): ${byOperation(before)}`,
    });
  }
  const refused = first === -1 ? undefined : mix.points[first]!;
  if (refused && mix.other && acceptedElsewhere(run, refused, mix.other)) {
    const other = mix.other;
    problems.push({
      code: 'other-operation-accepted',
      text: `${run.label}: refused on ${NAMES[refused.op]} (429, ${retryAfterText(refused)}), accepted on ${NAMES[other.op]} ${later(refused, other)} (${other.status}${other.remaining !== undefined ? `, X-RateLimit-Remaining ${other.remaining}` : ''})`,
    });
  }
  if (refused && mix.other && refusedOtherwise(run, refused, mix.other)) {
    const other = mix.other;
    problems.push({
      code: 'not-429-over-limit',
      text: `${run.label}: refused on ${NAMES[refused.op]} (429, ${retryAfterText(refused)}), then ${NAMES[other.op]}${other.op === 'createPet' ? ' with a NewPet without name' : ''}, sent ${later(refused, other)}, got ${other.status}, not 429: a request over the limit receives 429, whatever it asks (answered before the limiter refused it)`,
    });
  }
  if (problems.length > 0) {
    const failed = fail(
      problems[0]!.code,
      // The count a turn could explain, where nothing says when the window turned: said, not judged.
      `${problems.map((p) => p.text).join('; ')}${untold !== undefined && through.length > unturned && through.length <= most ? `; the count (${through.length} let through from Remaining ${mix.expected}) is not judged: ${untold}` : ''}`,
      `one quota for every operation: at most ${most} let through from Remaining ${mix.expected}, and once refused, refused on every operation until Retry-After has passed`,
      `${byOperation(before)}${refused ? `; then 429 on ${NAMES[refused.op]}` : ''}${mix.other ? `; then ${NAMES[mix.other.op]}: ${mix.other.status}` : ''}`,
    );
    // The key's own burst of listPets got no 429 either: the limit is not enforced at all, which is
    // rate-limit.quota's failure, not one of counting operations apart.
    return !refused && run.burst !== undefined && run.burst.ended !== 'first-429' ? explainedBy(failed, 'rate-limit.quota') : failed;
  }
  // More than the Remaining it started from and a refill, within what a turn would allow, where
  // nothing tells whether the window turned: not judged, rather than a turn assumed.
  if (untold !== undefined && through.length > unturned) {
    return skip(`${run.label}: ${untold}: a mix of operations let ${through.length} requests through ${refused ? 'before the first 429' : 'without a 429'} in ${seconds} s, more than Remaining ${mix.expected} allows (${unturned} with what a refilling limiter gives back) unless the window turned meanwhile (then at most ${most}): ${byOperation(before)}${mix.other ? `; then ${NAMES[mix.other.op]}, ${((mix.other.t - refused!.t) / 1000).toFixed(2)} s after the 429, got ${mix.other.status}` : ''}: not judged`);
  }
  if (!refused) {
    return skip(`${run.label}: ${notReached(mostInOneWindow(mix.points, run.windows.minute), mix.expected, 'the window', turned)}: ${through.length} let through in ${seconds} s without a 429, within the ${most} that Remaining ${mix.expected} and a refilling or turning window allow: not judged`);
  }
  const afterwards = mix.other ? `; ${NAMES[mix.other.op]}, sent at once, got ${mix.other.status}${counted(mix.other) ? ' (a refill or a new window explains it)' : ''}` : '';
  return pass(`${through.length} let through across operations (${byOperation(before)}) from Remaining ${mix.expected}, then 429 on ${NAMES[refused.op]}${afterwards}`);
}

export const oneQuota = defineCheck({
  id: 'rate-limit.one-quota',
  explainedBy: ['headers.rate-limit-present'],
  clause: 'Limits / Request rate by plan',
  suite: 'rate-limit',
  title: "Every request of a key counts against its plan, whatever the operation and the answer (400 and 404 included): a mix never gets more than the quota, and a key refused on one operation is refused on the others",
  severity: 'must',
  judge: driven(judgeOneQuota),
});
