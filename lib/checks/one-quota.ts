// One quota per key: every authenticated request of a key counts against its plan, whatever the
// operation and whatever the answer (400 and 404 included). Judged from the window one key spent
// on a mix of operations (lib/drive/drive-mix.ts). Pure: the key's run in, a finding out.
import { type KeyRun, type MixData, type MixOperation, type MixPoint } from '../result/rate-limits.ts';
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

/**
 * What any limiter of the plan may let through over the mix: the Remaining it started from, what
 * a refilling limiter gives back meanwhile (a token bucket's refill, or what a sliding log had
 * spent before), and a whole minute more once the window the start look named has turned.
 */
export function mixAllowance(run: Pick<KeyRun, 'quota' | 'windows'>, mix: MixData): { most: number; turned: boolean; turns: number } {
  const { perMinute } = run.quota;
  const refill = refillOver(run, mix.durationMs);
  const last = mix.points.at(-1);
  const start = readRateAnswer(mix.start);
  // Only headers of the minute name its window's end: headers of the day name the day's, while the
  // minute turns underneath them.
  const ofMinute = windowDescribed(run.quota, start) === 'minute';
  // A Reset that is no Unix time in seconds names no end (headers.rate-limit-present's failure).
  const named = start.reset !== undefined && start.reset >= 0 && resetShape(start.reset) === undefined;
  const resetAt = ofMinute && named ? resetAtMs(start.reset!, mix.start.t, mix.start.headers.date) : undefined;
  // Without a Reset that names the window's end, any turn is possible: so assumed, one for each
  // window's length the mix took; with it, one at that end and one for each window's length after.
  const W = windowMs(run.windows);
  const from = resetAt === undefined ? mix.start.t : resetAt - CLOCK_SLACK_S * 1000;
  const turns = last === undefined || (resetAt !== undefined && last.t < from) ? 0 : Math.max(1, Math.ceil((last.t - from) / W));
  return { most: mix.expected + Math.max(refill, perMinute - mix.expected) + turns * perMinute, turned: turns > 0, turns };
}

/**
 * The request of another operation sent right after the first 429, let through in the window that
 * refused: judged only when nothing legal explains it. Its answer names the same window (the same
 * Reset, give or take a second), it was answered within one token's time of the refusal (no bucket
 * refilled meanwhile), and the 429 had named a moment more than a second after it was sent.
 */
export function acceptedElsewhere(run: Pick<KeyRun, 'quota' | 'windows'>, refused: MixPoint, other: MixPoint | undefined): boolean {
  // A 4xx is refusedOtherwise's: another answer than 429, not an acceptance.
  if (other === undefined || !isAccepted(other.status)) return false;
  if (refused.reset === undefined || other.reset === undefined || Math.abs(other.reset - refused.reset) > 1) return false;
  return withinRefusal(run, refused, other);
}

/** Sent within one token's time of the refusal (no bucket refilled meanwhile), before a moment more than a second ahead that its Retry-After named. */
function withinRefusal(run: Pick<KeyRun, 'quota' | 'windows'>, refused: MixPoint, other: MixPoint): boolean {
  const tokenMs = windowMs(run.windows) / run.quota.perMinute;
  if (other.t - (refused.sentAt ?? refused.t) >= tokenMs) return false;
  const until = readRetryAfter(refused.retryAfter, refused.t, refused.date)?.untilMs;
  return until !== undefined && until > (other.sentAt ?? other.t) + 1000;
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

export function judgeOneQuota(run: KeyRun): Finding {
  if (run.mixSkipped) return skip(run.mixSkipped);
  const mix = run.mix;
  if (!mix) return skip(`a mix of operations is sent with one key of the run (the key of the smallest minute quota that is not disposable, preferring one that does not spend its plan's day), not ${run.label}`);
  const first = mix.points.findIndex((p) => p.status === 429);
  const before = first === -1 ? mix.points : mix.points.slice(0, first);
  const through = before.filter(counted);
  const { most, turned, turns } = mixAllowance(run, mix);
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
      text: `${run.label}: refused on ${NAMES[refused.op]} (429, Retry-After ${refused.retryAfter}), accepted on ${NAMES[other.op]} ${((other.t - refused.t) / 1000).toFixed(1)} s later (${other.status}${other.remaining !== undefined ? `, X-RateLimit-Remaining ${other.remaining}` : ''})`,
    });
  }
  if (refused && mix.other && refusedOtherwise(run, refused, mix.other)) {
    const other = mix.other;
    problems.push({
      code: 'not-429-over-limit',
      text: `${run.label}: refused on ${NAMES[refused.op]} (429, Retry-After ${refused.retryAfter}), then ${NAMES[other.op]}${other.op === 'createPet' ? ' with a NewPet without name' : ''}, sent ${((other.t - refused.t) / 1000).toFixed(1)} s later, got ${other.status}, not 429: a request over the limit receives 429, whatever it asks (answered before the limiter refused it)`,
    });
  }
  if (problems.length > 0) {
    const failed = fail(
      problems[0]!.code,
      problems.map((p) => p.text).join('; '),
      `one quota for every operation: at most ${most} let through from Remaining ${mix.expected}, and once refused, refused on every operation until Retry-After has passed`,
      `${byOperation(before)}${refused ? `; then 429 on ${NAMES[refused.op]}` : ''}${mix.other ? `; then ${NAMES[mix.other.op]}: ${mix.other.status}` : ''}`,
    );
    // The key's own burst of listPets got no 429 either: the limit is not enforced at all, which is
    // rate-limit.quota's failure, not one of counting operations apart.
    return !refused && run.burst !== undefined && run.burst.ended !== 'first-429' ? explainedBy(failed, 'rate-limit.quota') : failed;
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
