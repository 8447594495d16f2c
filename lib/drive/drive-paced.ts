// The paced load of the `load` suite: every key held at a constant rate, a fraction of its plan's
// per-minute quota, for a number of minute windows, from a moment its limiter holds nothing
// against it. What it will send is planned first (pure, so the suite can say it before it starts),
// within the day's quota and the request budget.
import type { Target, TargetKey } from '../config/schema.ts';
import type { PacedRequest, PacedRun } from '../result/paced-load.ts';
import type { PaceSettings } from '../config/run-context.ts';
import type { ApiClient } from '../client/client.ts';
import { type DriveContext, loadRecorder, loadUrl } from './drive-context.ts';
import { wholeQuota } from './whole-quota.ts';
import { type InFlight, pace } from '../load/pace.ts';

/** A paced run may spend at most this share of a plan's day: the other suites, and other runs that day, need the rest. */
const DAY_SHARE = 0.25;

export interface KeyPlan {
  key: TargetKey;
  /** The fraction actually asked for: a small quota leaves room for the look before the run. */
  fraction: number;
  /** Requests per second. */
  rate: number;
  count: number;
  /** Why the key is not paced. */
  skip?: string;
}

/**
 * What each key's paced run will send. Any minute window of it holds at most the rate's share of
 * the window, one more at an edge, and the look before it: so the share is kept two below the
 * quota. Keys whose run would spend more than a quarter of their plan's day, or not fit in what
 * is left of the request budget (a look and the paced requests), are not paced, saying why.
 */
export function planPacedLoad(target: Pick<Target, 'keys' | 'windows'>, settings: PaceSettings, budgetLeft: number): KeyPlan[] {
  let left = budgetLeft;
  return target.keys.map((key) => {
    const quota = key.quota.perMinute;
    const perWindow = Math.min(settings.fraction * quota, quota - 2);
    const base = { key, fraction: Math.max(0, perWindow / quota), rate: Math.max(0, perWindow / target.windows.minute), count: Math.round(Math.max(0, perWindow) * settings.windows) };
    if (perWindow < 1) return { ...base, skip: `${key.label}: plan ${key.plan}'s quota of ${quota} per ${target.windows.minute} s is too small to pace below it` };
    if (base.count + 1 > key.quota.perDay * DAY_SHARE) {
      return { ...base, skip: `${key.label}: ${base.count} paced requests would spend more than a quarter of plan ${key.plan}'s ${key.quota.perDay} a day (the other suites and other runs need the rest): lower --load-rate or --load-windows` };
    }
    // A look, perhaps two more while waiting for a whole quota, and the paced requests.
    const needs = base.count + 3;
    if (needs > left) return { ...base, skip: `${key.label}: the request budget has ${left} requests left, and ${key.label}'s paced run needs ${needs}` };
    left -= needs;
    return base;
  });
}

/** Requests answered so far over every key, and how many of them 429, for the progress lines. */
export interface PaceTally {
  answered: number;
  rejected: number;
}

/** One key's paced run: a whole quota first, then the constant rate; its requests recorded as exchanges. */
export async function paceKey(ctx: DriveContext, client: ApiClient, plan: KeyPlan, settings: PaceSettings, shared: { inFlight: InFlight; tally: PaceTally }): Promise<PacedRun> {
  const { key } = plan;
  const run: PacedRun = {
    label: key.label,
    plan: key.plan,
    quota: key.quota,
    windows: ctx.target.windows,
    fraction: plan.fraction,
    askedRate: plan.rate,
    planned: plan.count,
    requests: [],
    dropped: 0,
    startedAt: Date.now(),
    durationMs: 0,
  };
  if (plan.skip) return { ...run, unavailable: plan.skip };
  const whole = await wholeQuota(ctx, key, 'the paced load');
  if ('unavailable' in whole) return { ...run, unavailable: whole.unavailable };
  ctx.progress(`${key.label}: pacing ${plan.count} requests at ${plan.rate.toFixed(2)} req/s (${Math.round(plan.fraction * 100)}% of ${key.plan}'s ${key.quota.perMinute} per ${ctx.target.windows.minute} s), about ${Math.round(plan.count / plan.rate)} s`);
  client.budget.reserve(plan.count);
  let refused: string | undefined;
  const result = await pace({
    url: loadUrl(ctx.target),
    headers: { ...ctx.target.http.headers, authorization: `Bearer ${key.key}` },
    rate: plan.rate,
    count: plan.count,
    transport: client.transport,
    inFlight: shared.inFlight,
    // A client that goes on at its rate after a 429 sends into the period it was told to wait out:
    // the key's pacing ends at its first 429 (load.paced-no-429 judges that one; the requests
    // already on the wire are answered and kept).
    stop: () => (Date.now() >= ctx.deadline ? 'the run time limit (budget.maxSeconds) was reached' : refused),
    onAnswer: (r: PacedRequest) => {
      shared.tally.answered += 1;
      if (r.point?.status !== 429) return;
      shared.tally.rejected += 1;
      refused ??= `stopped at its first 429${r.point.retryAfter !== undefined ? ` (Retry-After ${r.point.retryAfter})` : ''}: a client does not go on sending after a 429`;
    },
  });
  client.budget.refund(plan.count - result.requests.length);
  const record = loadRecorder(client, ctx.target, key);
  for (const r of result.requests) {
    if (r.point) record.answered(r.point, { at: r.sentAt, durationMs: r.latencyMs ?? 0 });
    else record.unanswered(r.error ?? 'NO_RESPONSE', r.sentAt);
  }
  return { ...run, start: whole.look, requests: result.requests, dropped: result.dropped, startedAt: result.startedAt, durationMs: result.durationMs, ...(result.stopped ? { stopped: result.stopped } : {}) };
}
