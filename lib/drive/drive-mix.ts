// One quota per key: "every authenticated request of a key counts against its plan", whatever the
// operation and whatever the answer. From a look early in a minute window, a mix of requests (listPets, getPet of a missing animal: 404, createPet with a NewPet missing its
// name: 400, or where writes are not allowed listPets with limit 0, and GET /store/orders) is sent
// until the first 429: a few at a time while plenty is left, one at a time near the limit, so that
// nothing more than one request is in flight when it comes. Then one request of another operation
// at once: it must be refused too. Nothing else is sent into the 429's period; the key then waits
// for its Retry-After like any other.
import type { TargetKey } from '../config/schema.ts';
import { stringifyJson } from '../json.ts';
import { MISSING_PET_ID } from '../models.ts';
import { type KeyRun, type Look, type MixData, type MixOperation, type MixPoint, type TimelinePoint } from '../result/rate-limits.ts';
import { readRateAnswer, windowMs } from '../rate-limit/vocabulary.ts';
import type { DriveContext, WireRequest } from './drive-context.ts';
import { alignToWindow, burstConnections, ownCount } from './drive-key.ts';
import { roomLeft } from '../load/room.ts';
import { look, noteRetryAfter } from './look.ts';
import { waitOut } from './wait.ts';

/** The order the operations come in: listPets half the time, so that a limiter per operation lets the others through after listPets is refused. */
const PATTERN: readonly MixOperation[] = ['listPets', 'getPet', 'listPets', 'createPet', 'listPets', 'listOrders'];

/** What each operation sends: only requests that change nothing, valid or not. */
export function mixRequest(op: MixOperation, writes: boolean): WireRequest {
  switch (op) {
    case 'listPets':
      return { method: 'GET', path: '/pets?limit=1' };
    case 'getPet':
      return { method: 'GET', path: `/pets/${MISSING_PET_ID}` };
    case 'createPet':
      // Without a name, nothing is created (400); where writes are not allowed, an invalid listPets instead.
      return writes ? { method: 'POST', path: '/pets', body: stringifyJson({ categoryId: 1 }) } : { method: 'GET', path: '/pets?limit=0' };
    case 'listOrders':
      return { method: 'GET', path: '/store/orders' };
  }
}

/** What is invalid in the mix's request of an operation, for those whose request is invalid (mixRequest). */
export const INVALID: Partial<Record<MixOperation, string>> = { createPet: 'an invalid request (a NewPet without name; where writes are not allowed, limit=0)' };

/** The operation of the one request sent right after the mix's first 429: another than the refused one, an invalid request first. */
export function otherOperation(refused: MixOperation, writes: boolean): MixOperation {
  const order: MixOperation[] = ['createPet', 'getPet', 'listOrders', 'listPets'];
  return order.find((op) => mixOperation(op, writes) !== refused)!;
}

/** The operation `op` would be sent as (where writes are not allowed, createPet's place is taken by listPets). */
export function mixOperation(op: MixOperation, writes: boolean): MixOperation {
  return op === 'createPet' && !writes ? 'listPets' : op;
}

/**
 * Which key of the run spends a window on the mix: of the keys that are not disposable, the one of
 * the smallest minute quota, preferring a key that does not spend its plan's day (the first of its
 * plan), so that the day test need not wait out the mix's 429 first.
 */
export function mixKey(keys: readonly TargetKey[]): TargetKey | undefined {
  const kept = keys.filter((k) => !k.disposable);
  const dayKeys = new Set(kept.filter((k, i) => kept.findIndex((o) => o.plan === k.plan) === i));
  const smallest = (candidates: TargetKey[]) => candidates.reduce<TargetKey | undefined>((best, k) => (best === undefined || k.quota.perMinute < best.quota.perMinute ? k : best), undefined);
  return smallest(kept.filter((k) => !dayKeys.has(k))) ?? smallest(kept);
}

/** A look at the key early in a minute window (the burst's alignment), or why the key is not used. */
async function startOfWindow(ctx: DriveContext, key: TargetKey): Promise<{ look: Look } | { unavailable: string }> {
  const what = 'a mix of operations';
  let looked = await look(ctx, key);
  if ('look' in looked && looked.look.status === 429) {
    const waited = await waitOut(ctx, looked.look, `${key.label} (rate-limited before ${what})`);
    looked = waited.waited ? await look(ctx, key) : { tooLong: waited.tooLong };
  }
  if ('tooLong' in looked) return { unavailable: `${looked.tooLong}; not used for ${what}` };
  if (looked.look.status === 401 || looked.look.status === 403) return { unavailable: `${key.label} got ${looked.look.status} (banned, not allowed, or not accepted); not used for ${what}` };
  const aligned = await alignToWindow(ctx, key, looked.look, undefined);
  return 'look' in aligned ? aligned : { unavailable: `${aligned.tooLong}; not used for ${what}` };
}

export async function driveMix(ctx: DriveContext, key: TargetKey, run: KeyRun): Promise<void> {
  const started = await startOfWindow(ctx, key);
  if ('unavailable' in started) {
    run.mixSkipped = started.unavailable;
    return;
  }
  const start = started.look;
  const writes = ctx.target.allow.writes;
  const expected = Math.min(readRateAnswer(start).remaining ?? key.quota.perMinute, key.quota.perMinute - 1);
  const cap = expected + key.quota.perMinute + burstConnections(ctx.target);
  const minuteMs = windowMs(ctx.target.windows);
  const startedAt = ctx.clock.now();
  const endBy = Math.min(startedAt + 2 * minuteMs, ctx.deadline);
  ctx.wire.budget.reserve(cap + 1);
  ctx.progress(`${key.label}: one window of requests of every operation, valid and not, from Remaining ${expected}`);
  const points: MixPoint[] = [];
  let n = 0;
  let ended: MixData['ended'] | undefined;
  const send = async (op: MixOperation, earlyOnPurpose?: string): Promise<MixPoint> => {
    const answer = await ctx.wire.send(key, { ...mixRequest(op, writes), ...(earlyOnPurpose !== undefined ? { earlyOnPurpose } : {}) });
    const point: MixPoint = { ...readRateAnswer(answer), sentAt: answer.sentAt, op: mixOperation(op, writes) };
    if (answer.status === 429) noteRetryAfter(ctx, key, answer.t, answer.headers, answer.seq);
    return point;
  };
  let answers: TimelinePoint[] = [readRateAnswer(start)];
  while (ended === undefined) {
    // Near the limit, one at a time: by the last wave's Remaining of the window the headers
    // describe, and by the harness's own count of every request of the key for the other.
    const left = roomLeft(ownCount(ctx, key), answers, ctx.clock.now());
    const size = left > burstConnections(ctx.target) ? burstConnections(ctx.target) : 1;
    const ops = Array.from({ length: size }, () => PATTERN[n++ % PATTERN.length]!);
    const wave = await Promise.all(ops.map((op) => send(op)));
    points.push(...wave);
    answers = wave;
    if (wave.some((p) => p.status === 429)) ended = 'first-429';
    else if (points.length >= cap) ended = 'over-quota';
    else if (ctx.clock.now() >= endBy) ended = 'time';
  }
  let other: MixPoint | undefined;
  const refused = points.find((p) => p.status === 429);
  if (refused) {
    // One request of another operation, at once, the only one sent into the 429's period: an
    // invalid one where there is one to send (a NewPet without name; where writes are not allowed,
    // limit=0), so that a server that validates before it counts shows it ("A request over the
    // limit receives 429", invalid or not).
    const next = otherOperation(refused.op, writes);
    other = await send(next, `another operation than the refused ${refused.op}, at once, ${INVALID[next] ?? 'valid'}: one quota refuses it too (rate-limit.one-quota)`);
  }
  ctx.wire.budget.refund(cap + 1 - points.length - (other ? 1 : 0));
  run.mix = { start, expected, points, ended, durationMs: ctx.clock.now() - startedAt, ...(other ? { other } : {}) };
}
