// Driving one key through the rate-limit checks: probe, align to a fresh window, burst to the first
// 429, then wait exactly what Retry-After says and try once more. Everything it sees is recorded
// (KeyRun for the checks, exchanges for the log and the evidence).
import type { ApiClient } from '../client/client.ts';
import { RunTimeLimitError } from '../errors.ts';
import { headerInt } from '../models.ts';
import type { Target, TargetKey } from '../config/schema.ts';
import type { Exchange } from '../result/model.ts';
import { type BurstData, DAY_FOLLOW_UPS, type DayData, headersOf, type KeyRun, type Observation, type TimelinePoint, timelinePoint } from '../result/rate-limits.ts';
import { classifyRefusal, resetAtMs, retryAfterWaitMs, windowDescribed } from '../rate-limit/vocabulary.ts';
import { approach } from './approach.ts';
import { lateByMs, type Segment } from './segment.ts';

export interface DriveContext {
  client: ApiClient;
  target: Target;
  soak: boolean;
  /** Epoch ms: the whole-run time limit. */
  deadline: number;
  progress(line: string): void;
  /** Per key label: epoch ms before which no request may be sent (the last Retry-After given). */
  notBefore: Map<string, number>;
  /** Per key label: the first 429 it got in this run. */
  refusals: Map<string, Observation>;
  /**
   * Per key label: the 429 whose Retry-After the key is waiting out (its request's seq, and the
   * moment it named). The next request sent with the key after that moment is its evidence.
   */
  obeying: Map<string, { seq: number; until: number }>;
  /** The server seconds of the key's accepted requests in the whole run, every suite's (the day is counted from them). */
  accepted: (label: string) => number[];
  /** A load segment (runner I of N): its share, and when each key is driven (epoch ms, the same for every runner). */
  segment?: Segment & { slots: ReadonlyMap<string, number> };
}

/** Runner I of N got to a key's slot too late for the runners' loads to meet. */
export class SegmentLate extends Error {}

/** Parallel connections of one burst, within the target's cap on concurrent requests. */
export function burstConnections(target: Target): number {
  return Math.min(CONNECTIONS, target.http.maxConcurrency);
}

/** Parallel connections of a burst: enough for the rate, few enough that little is in flight at the stop. */
const CONNECTIONS = 4;
/** Bursts ask for this multiple of the plan's rate. */
const RATE_FACTOR = 4;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

export class WaitTooLong extends Error {}

/** The longest wait the suite sits out for one key: two minute windows and a little. */
function waitCapMs(ctx: DriveContext): number {
  return 2 * ctx.target.windows.minute * 1000 + 5_000;
}

/** How long after the first 429 a request already in flight may still have been answered. */
function inFlightMargin(b: Pick<BurstData, 'latency'>): number {
  return Math.min(2_000, b.latency.max + 50);
}

/**
 * One request with the key, never retried: its status and headers are the observation. It waits
 * for the key's last Retry-After first, unless `early` (the ban probe sends early on purpose).
 */
export async function observe(ctx: DriveContext, key: TargetKey, early = false): Promise<Observation> {
  const notBefore = ctx.notBefore.get(key.label);
  if (!early && notBefore !== undefined) {
    if (notBefore - Date.now() > waitCapMs(ctx)) throw new WaitTooLong(`${key.label} was told to wait ${Math.round((notBefore - Date.now()) / 1000)} s more, longer than two minute windows: not used again`);
    await waitUntil(ctx, notBefore, `${key.label}: the Retry-After it was given`);
  }
  // At most one request is the evidence of a 429's Retry-After: the first sent after it, unless sent early.
  const obeyed = ctx.obeying.get(key.label);
  ctx.obeying.delete(key.label);
  const follows = !early && obeyed && Date.now() >= obeyed.until ? { followsRetryAfter: obeyed } : {};
  const res = await ctx.client.send({ method: 'GET', path: '/pets', query: { limit: 1 }, auth: { key }, retry: false, ...follows });
  const obs = { t: Date.now(), status: res.status, headers: res.headers };
  if (obs.status === 429) {
    noteRetryAfter(ctx, key, obs.t, obs.headers, res.exchange.seq);
    if (!ctx.refusals.has(key.label)) ctx.refusals.set(key.label, obs);
  }
  return obs;
}

/** Remembers until when a 429 (answered to request `seq`) told the key to wait. */
function noteRetryAfter(ctx: DriveContext, key: TargetKey, t: number, headers: Readonly<Record<string, string | undefined>>, seq: number | undefined): void {
  const delay = retryAfterWaitMs(headers['retry-after'], t, headers.date);
  if (delay === undefined) return;
  const until = t + delay;
  if (until < (ctx.notBefore.get(key.label) ?? 0)) return;
  ctx.notBefore.set(key.label, until);
  if (seq !== undefined) ctx.obeying.set(key.label, { seq, until });
}

/**
 * Whether `after` was answered in the same fixed window as `before`: the same Reset and less
 * Remaining. A window that has turned shows a later Reset or more Remaining.
 */
function sameWindow(before: Observation, after: Observation): boolean {
  const reset = headerInt(after.headers['x-ratelimit-reset']);
  const remaining = headerInt(after.headers['x-ratelimit-remaining']);
  const earlier = headerInt(before.headers['x-ratelimit-remaining']);
  return after.status !== 429 && reset !== undefined && reset === headerInt(before.headers['x-ratelimit-reset']) && remaining !== undefined && earlier !== undefined && remaining < earlier;
}

/** Waits until an epoch time, telling what for and, every few seconds, how long is left. */
export async function waitUntil(ctx: DriveContext, at: number, what: string): Promise<void> {
  if (at > ctx.deadline) throw new RunTimeLimitError(`${what}: the wait would end after the run time limit (budget.maxSeconds)`);
  let left = at - Date.now();
  if (left <= 0) return;
  ctx.progress(`waiting ${(left / 1000).toFixed(1)} s for ${what}`);
  while (left > 5_000) {
    await sleep(5_000);
    left = at - Date.now();
    ctx.progress(`  ${Math.ceil(left / 1000)} s left: ${what}`);
  }
  await sleep(left);
}

/**
 * Waits out a 429 as a well-behaved client must: Retry-After, else the window's reset. `marginMs`
 * covers 429s we never saw: requests in flight when a burst stopped drew 429s a little later, with
 * Retry-Afters that end a little later, and their connections were closed before the answers came.
 */
async function waitOut(ctx: DriveContext, p: TimelinePoint | Observation, label: string, marginMs = 0, laterOfReset = false): Promise<number> {
  const headers: Readonly<Record<string, string | undefined>> = 'headers' in p ? p.headers : headersOf(p);
  const delay = retryAfterWaitMs(headers['retry-after'], p.t, headers.date);
  const reset = headerInt(headers['x-ratelimit-reset']);
  const resetAt = reset !== undefined ? resetAtMs(reset, p.t, headers.date) + 100 : undefined;
  // A Retry-After already found wrong once is not trusted alone: the later of it and Reset.
  const named = delay !== undefined ? p.t + delay : undefined;
  const until = marginMs + (named !== undefined && resetAt !== undefined && laterOfReset ? Math.max(named, resetAt) : (named ?? resetAt ?? p.t + ctx.target.windows.minute * 1000 + 100));
  // Waits are bounded: a longer one is not waited out, and the key is not used again.
  if (until - p.t > waitCapMs(ctx)) throw new WaitTooLong(`${label}: asked to wait ${Math.round((until - p.t) / 1000)} s (Retry-After "${headers['retry-after'] ?? ''}"), more than two minute windows`);
  await waitUntil(ctx, until, `${label}: ${delay !== undefined ? `Retry-After ${headers['retry-after']}` : 'the window to reset (no usable Retry-After)'}`);
  return until - p.t;
}

async function runBurst(ctx: DriveContext, key: TargetKey, expected: number, segment?: Segment): Promise<BurstData> {
  const { client, target } = ctx;
  const of = segment?.count ?? 1;
  const windowMs = target.windows.minute * 1000;
  // Headers that describe the day (Limit the day's quota) state the day's Remaining: the minute
  // binds first, from a count they do not show, at most the plan's per-minute quota.
  const dayLimit = key.quota.perDay !== key.quota.perMinute ? key.quota.perDay : undefined;
  expected = Math.min(expected, key.quota.perMinute);
  // Room for a limiter that lets a whole plan's quota through, bounded either way.
  const cap = Math.max(expected, key.quota.perMinute) + key.quota.perMinute + CONNECTIONS;
  client.budget.reserve(cap);
  const askedRate = Math.max(2, (RATE_FACTOR * key.quota.perMinute) / target.windows.minute) / of;
  const result = await approach({
    url: loadUrl(target),
    headers: { ...target.http.headers, authorization: `Bearer ${key.key}` },
    rate: askedRate,
    connections: burstConnections(target),
    remaining: expected,
    maxRequests: cap,
    maxDurationMs: Math.max(1, Math.min(windowMs, ctx.deadline - Date.now())),
    timeoutS: Math.ceil(target.http.timeoutMs / 1000),
    ...(segment ? { share: { of, crosses: segment.index === 1 } } : {}),
    ...(dayLimit !== undefined ? { dayLimit } : {}),
  });
  client.budget.refund(cap - result.sent);
  const seqs = recordBurst(ctx, key, result.points, result.sent);
  const { points, sent, startedAt, durationMs, ended, latency, histogram, inFlightAtFirst429, pair } = result;
  const last429 = points.filter((p) => p.status === 429).at(-1);
  if (last429) noteRetryAfter(ctx, key, last429.t, headersOf(last429), seqs.get(last429));
  return { points, sent, startedAt, durationMs, askedRate, ended, latency, latencyHistogram: histogram, ...(ended === 'first-429' ? { inFlightAtFirst429 } : {}), ...(pair ? { boundaryPair: pair } : {}) };
}

/** The URL every load request (bursts, paced load) asks for: the smallest page. */
export function loadUrl(target: Target): string {
  return `${target.baseUrl}/pets?limit=1`;
}

/**
 * Records the requests of a load (bursts, paced load) in the run's exchange log, as the client
 * records its own: each response as an exchange (2xx bodies, not kept, are marked as cut so that
 * no check judges a body it never saw), a request without one with the reason.
 */
export function loadRecorder(ctx: Pick<DriveContext, 'client' | 'target'>, key: TargetKey) {
  const base = {
    method: 'GET',
    url: loadUrl(ctx.target),
    auth: { kind: 'key' as const, label: key.label, env: key.env, header: `Bearer $${key.env}` },
    requestHeaders: { authorization: `Bearer [REDACTED:${key.label}]` },
  };
  return {
    answered(p: TimelinePoint, sent: { at: number; durationMs: number } = { at: p.t, durationMs: 0 }): Exchange {
      const body = p.body !== undefined ? { responseBody: p.body } : { responseBody: '', responseBodyTruncated: true };
      return ctx.client.record({ ...base, status: p.status, responseHeaders: headersOf(p), ...body, ...(p.afterStop ? { inFlightAtStop: true } : {}), startedAt: new Date(sent.at).toISOString(), durationMs: Math.round(sent.durationMs) });
    },
    unanswered(transportError: string, at: number, inFlightAtStop = false): void {
      ctx.client.record({ ...base, responseHeaders: {}, transportError, ...(inFlightAtStop ? { inFlightAtStop: true } : {}), startedAt: new Date(at).toISOString(), durationMs: 0 });
    },
  };
}

/**
 * Each response becomes an exchange (its seq returned by point); requests still in flight at the
 * stop are recorded without one, as sent by the first 429 at the latest.
 */
function recordBurst(ctx: DriveContext, key: TargetKey, points: TimelinePoint[], sent: number): Map<TimelinePoint, number> {
  const record = loadRecorder(ctx, key);
  const seqs = new Map(points.map((p) => [p, record.answered(p).seq] as const));
  const stoppedAt = points.find((p) => p.status === 429)?.t ?? points.at(-1)?.t ?? Date.now();
  for (let i = points.length; i < sent; i++) record.unanswered('NO_RESPONSE_AFTER_STOP', stoppedAt, true);
  return seqs;
}

/**
 * Probe, then burst from a fresh window. `first` is the probe taken right after another key of the
 * same plan was exhausted (the isolation check reads it).
 */
export async function driveKey(ctx: DriveContext, key: TargetKey): Promise<{ run: KeyRun; first: Observation }> {
  const run: KeyRun = { label: key.label, plan: key.plan, quota: key.quota, windows: ctx.target.windows };
  // A load segment drives the key in its slot, when every other runner does.
  const slot = ctx.segment?.slots.get(key.label);
  if (slot !== undefined) {
    await waitUntil(ctx, slot, `${key.label}: its slot (segment ${ctx.segment!.index} of ${ctx.segment!.count}, every runner drives it then)`);
    const late = Date.now() - slot;
    if (late > lateByMs(ctx.target.windows.minute)) throw new SegmentLate(`segment ${ctx.segment!.index} of ${ctx.segment!.count} reached ${key.label}'s slot ${(late / 1000).toFixed(1)} s late, so its load would not meet the other runners' in one window: give --start-at more lead (segment 1 runs the other suites first)`);
  }
  const refusal = ctx.refusals.get(key.label);
  let first: Observation;
  try {
    first = await observe(ctx, key);
    if (first.status === 429) await waitOut(ctx, first, `${key.label} (rate-limited before the burst)`);
  } catch (err) {
    if (!(err instanceof WaitTooLong) || !refusal) throw err;
    // Banned, by an earlier run or otherwise: the key is left alone (another key of the plan
    // takes its place), and its checks say why they did not run.
    run.unavailable = { reason: `${key.label} was refused before the harness sent it anything more: ${err.message}; not driven (a ban's length is not shown)`, refusal };
    ctx.progress(`${key.label}: refused for longer than the harness waits (banned?); not driven`);
    return { run, first: refusal };
  }
  // A ban may be answered 403 (its status is not given), and a key the server does not know gets
  // 401: either way there is no quota to drive (the auth suite judges a configured key refused).
  if (first.status === 401 || first.status === 403) {
    const why = first.status === 403 ? 'banned, or not allowed this operation' : 'the server does not accept it: check its value';
    run.unavailable = { reason: `${key.label} got ${first.status} to its first request (${why}); not driven`, refusal: first };
    ctx.progress(`${key.label}: ${first.status} to its first request; not driven`);
    return { run, first };
  }
  let obs = first.status === 429 ? await observe(ctx, key) : first;
  const reset = headerInt(obs.headers['x-ratelimit-reset']);
  const windowMs = ctx.target.windows.minute * 1000;
  // A burst must fit in one window: when less than half of it is left, start at the next one, and
  // never before the key's last Retry-After (Reset is whole seconds; Retry-After may end later).
  if (reset !== undefined) {
    // Runners of a load segment decide against their agreed slot, not their own clock's now: the
    // same window start whichever side of a window's end their first looks fell.
    if (resetAtMs(reset, obs.t, obs.headers.date) - (slot ?? Date.now()) < windowMs / 2) {
      const before = obs;
      const resetAt = resetAtMs(reset, obs.t, obs.headers.date, true);
      await waitUntil(ctx, Math.max(resetAt + 150, ctx.notBefore.get(key.label) ?? 0), `${key.label}: the minute window to reset before the burst`);
      obs = await observe(ctx, key);
      // The clocks compare to the second at best (a server within two seconds of ours is read as
      // on time): until the window has turned, a burst would straddle two windows.
      for (let tries = 0; tries < 8 && sameWindow(before, obs); tries++) {
        await sleep(250);
        obs = await observe(ctx, key);
      }
    }
  }
  run.start = obs;
  const remaining = headerInt(obs.headers['x-ratelimit-remaining']) ?? key.quota.perMinute;
  ctx.progress(`${key.label}: bursting above ${key.plan}'s rate from Remaining ${remaining}`);
  run.burst = await runBurst(ctx, key, remaining, ctx.segment);
  return { run, first };
}

/**
 * After the first 429: wait what Retry-After says (from the last moment an in-flight request could
 * have been answered), then one request must succeed.
 */
export async function recover(ctx: DriveContext, key: TargetKey, run: KeyRun): Promise<void> {
  // The last 429 seen: answers to requests in flight at the stop carry later Retry-Afters.
  const p = run.burst?.points.filter((x) => x.status === 429).at(-1);
  if (!p) return;
  let waitedMs: number;
  try {
    waitedMs = await waitOut(ctx, p, `${key.label}`, inFlightMargin(run.burst!));
  } catch (err) {
    if (!(err instanceof WaitTooLong)) throw err;
    run.retrySkipped = err.message;
    return;
  }
  if (retryAfterWaitMs(p.retryAfter, p.t, p.date) === undefined) return;
  run.retry = { waitedMs, next: await observe(ctx, key) };
}

/** A look at the key that shows its whole minute quota left: Limit the plan's per-minute quota, all but this request Remaining. */
function showsWholeQuota(key: TargetKey, o: Observation): boolean {
  const limit = headerInt(o.headers['x-ratelimit-limit']);
  const remaining = headerInt(o.headers['x-ratelimit-remaining']);
  return o.status >= 200 && o.status < 300 && limit === key.quota.perMinute && remaining !== undefined && remaining >= limit - 1;
}

/**
 * Waits until the key's limiter holds nothing sent before against it, for a load that must stay
 * within the quota from its first request (the paced load), and returns the look that shows it.
 * A look at the key; unless it shows the whole minute quota left, a wait for its Reset (within a
 * window) and another look; failing that (no usable Reset, headers of the day window, a quota
 * still not whole), a whole minute window without a request, after which any limiter that honours
 * the plan holds nothing of what came before. A key refused for longer than the harness waits, or
 * answered 401 or 403, is not used: the reason says why.
 */
export async function wholeQuota(ctx: DriveContext, key: TargetKey, what: string): Promise<{ look: Observation } | { unavailable: string }> {
  let look: Observation;
  try {
    look = await observe(ctx, key);
    if (look.status === 429) {
      await waitOut(ctx, look, `${key.label} (rate-limited before ${what})`);
      look = await observe(ctx, key);
    }
  } catch (err) {
    if (!(err instanceof WaitTooLong)) throw err;
    return { unavailable: `${err.message}; not used for ${what}` };
  }
  if (showsWholeQuota(key, look)) return { look };
  if (look.status === 401 || look.status === 403) return { unavailable: `${key.label} got ${look.status} (banned, not allowed, or not accepted); not used for ${what}` };
  const windowMs = ctx.target.windows.minute * 1000;
  const reset = headerInt(look.headers['x-ratelimit-reset']);
  const resetAt = reset === undefined ? undefined : resetAtMs(reset, look.t, look.headers.date, true);
  if (resetAt !== undefined && resetAt > Date.now() && resetAt - look.t <= windowMs + 2_000) {
    await waitUntil(ctx, Math.max(resetAt + 150, ctx.notBefore.get(key.label) ?? 0), `${key.label}: its window to reset before ${what}`);
    look = await observe(ctx, key);
    if (showsWholeQuota(key, look)) return { look };
  }
  await waitUntil(ctx, Date.now() + windowMs, `${key.label}: a whole ${ctx.target.windows.minute} s window without requests before ${what} (its headers did not show the whole quota left)`);
  look = await observe(ctx, key);
  if (look.status < 200 || look.status >= 300) return { unavailable: `${key.label} got ${look.status} after a whole window without requests; not used for ${what}` };
  return { look };
}

/** A disposable key keeps sending after its 429 (a bounded handful), then waits and tries once more. */
export async function probeBan(ctx: DriveContext, key: TargetKey, run: KeyRun): Promise<void> {
  const statuses: number[] = [];
  let last: Observation | undefined;
  for (let i = 0; i < 5; i++) {
    last = await observe(ctx, key, true);
    statuses.push(last.status);
  }
  try {
    if (last) await waitOut(ctx, last, `${key.label} after the ban probe`);
  } catch (err) {
    if (!(err instanceof WaitTooLong)) throw err;
    run.ban = { statuses, after: last! };
    return;
  }
  run.ban = { statuses, after: await observe(ctx, key) };
}

/**
 * Spends the day's quota, minute window after minute window, until the day's 429; then keeps the
 * key as a polite client would: one request after each Retry-After (at most DAY_FOLLOW_UPS), each
 * the evidence of the 429 before it. A Retry-After beyond what the harness waits ends it (its
 * value is judged). The accepted requests of the key over the whole run, every suite's, are what
 * the day is counted from.
 */
export async function driveDay(ctx: DriveContext, key: TargetKey, run: KeyRun): Promise<void> {
  const { windows } = ctx.target;
  const minuteWindows = Math.ceil(key.quota.perDay / key.quota.perMinute) + 1;
  const needed = minuteWindows * windows.minute;
  if (!ctx.soak && windows.day > 600) {
    run.daySkipped = `the day window is ${windows.day} s; --soak spends the day's quota (about ${Math.ceil(needed / 60)} min for plan ${key.plan})`;
    return;
  }
  if (needed > windows.day * 0.9) {
    run.daySkipped = `plan ${key.plan} needs about ${needed} s of ${windows.minute}-second windows to spend its ${key.quota.perDay} a day, more than the ${windows.day}-second day window`;
    return;
  }
  const started = Date.now();
  const deadline = started + (windows.day + windows.minute) * 1000;
  const day: DayData = { accepted: 0, acceptedAt: [], bursts: [], ended: 'time', elapsedMs: 0, requests: 0, followUps: [], dayResets: [] };
  ctx.progress(`${key.label}: spending the day's quota of ${key.quota.perDay} (about ${needed} s)`);
  try {
    await spendDay(ctx, key, day, started, deadline);
  } catch (err) {
    if (!(err instanceof WaitTooLong)) throw err;
    run.daySkipped = err.message;
    return;
  }
  day.elapsedMs = Date.now() - started;
  // Every accepted request of the key in the run counts in its day window, not the day test's alone.
  day.acceptedAt = ctx.accepted(key.label);
  run.day = day;
}

const isAccepted = (status: number) => status >= 200 && status < 300;

async function spendDay(ctx: DriveContext, key: TargetKey, day: DayData, started: number, deadline: number): Promise<void> {
  const { windows } = ctx.target;
  /** Looks refused in a row, each sent after waiting out the 429 before it. */
  let refusedInARow = 0;
  /** The last 429 waited out. */
  let waitedOut: TimelinePoint | undefined;
  while (Date.now() < deadline) {
    // Each burst starts from what the server says is left (the day's remainder may be the
    // smaller), so that it crosses the limit carefully.
    const obs = await observe(ctx, key);
    day.requests! += 1;
    const look = timelinePoint(obs.t, obs.status, (name) => obs.headers[name]);
    if (day.block) {
      // The day is spent: its key kept as a polite client keeps it.
      day.followUps!.push(look);
      if (isAccepted(obs.status)) {
        day.accepted += 1;
        day.ended = 'reopened';
        return;
      }
      // Refused again at the time the last 429 named: the later of the new Retry-After and Reset, or stop.
      if (day.followUps!.length >= DAY_FOLLOW_UPS || !(await waitOutSpentDay(ctx, key, look, 0, true))) return;
      continue;
    }
    let data: BurstData | undefined;
    if (isAccepted(obs.status)) {
      refusedInARow = 0;
      day.accepted += 1;
      data = await runBurst(ctx, key, headerInt(obs.headers['x-ratelimit-remaining']) ?? key.quota.perMinute);
      day.requests! += data.sent;
      const accepted = data.points.filter((p) => !p.afterStop && isAccepted(p.status));
      day.accepted += accepted.length;
      day.bursts.push({ sent: data.sent, accepted: accepted.length, ...(data.inFlightAtFirst429 !== undefined ? { sentAfterFirst429: data.inFlightAtFirst429 } : {}) });
      for (const p of [look, ...accepted]) if (windowDescribed(key.quota, p) === 'day' && p.reset !== undefined) day.dayResets!.push(p.reset);
    } else if (obs.status === 429) refusedInARow += 1;
    const block = obs.status === 429 ? look : data?.points.filter((p) => p.status === 429).at(-1);
    // Whatever its Retry-After said, did its headers name the day's end?
    if (obs.status === 429 && waitedOut && classifyRefusal({ quota: key.quota, windows }, { ...waitedOut, retryAfter: undefined }) === 'day') {
      // Refused at the time a 429 named, though its headers name the day's end: the day is spent
      // and that 429 its first; this look follows it.
      day.block = waitedOut;
      day.ended = 'day-block';
      day.followUps = [look];
      if (day.followUps.length >= DAY_FOLLOW_UPS || !(await waitOutSpentDay(ctx, key, look, 0, true))) return;
      continue;
    }
    if (block && classifyRefusal({ quota: key.quota, windows }, block) === 'day') {
      day.block = block;
      day.ended = 'day-block';
      if (!(await waitOutSpentDay(ctx, key, block, data ? inFlightMargin(data) : 0))) return;
      continue;
    }
    // Refused again after waiting out a 429, and again after the later of the next Retry-After and
    // Reset (or not waited, that being too far): the key is closed, whatever the headers say.
    if (block && refusedInARow > 0 && (refusedInARow >= DAY_FOLLOW_UPS || !(await waitOutSpentDay(ctx, key, block, 0, true)))) {
      day.block = block;
      day.ended = 'still-refused';
      return;
    }
    if (block && refusedInARow > 0) continue;
    // The test may straddle a day boundary (twice the quota), and a refilling day adds its rate.
    const refill = ((Date.now() - started) / 1000 / windows.day) * key.quota.perDay;
    if (day.accepted > 2 * key.quota.perDay + refill) {
      day.ended = 'over-quota';
      break;
    }
    if (!block) continue;
    await waitOut(ctx, block, `${key.label}: the minute window (spending the day's quota)`, data ? inFlightMargin(data) : 0);
    waitedOut = block;
  }
}

/** Waits out a spent day's 429; false when it asks for longer than the harness waits (its value is judged, not waited out). */
async function waitOutSpentDay(ctx: DriveContext, key: TargetKey, p: TimelinePoint, marginMs = 0, laterOfReset = false): Promise<boolean> {
  try {
    await waitOut(ctx, p, `${key.label}: the spent day's Retry-After (one request after each, as a polite client)`, marginMs, laterOfReset);
    return true;
  } catch (err) {
    if (err instanceof WaitTooLong) return false;
    throw err;
  }
}
