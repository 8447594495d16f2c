// Paced load (the `load` suite): a client that holds a constant rate within its plan's quota gets
// every request it paid for, X-RateLimit-Remaining counts what it sent, the rate was held, and the
// thresholds a target config sets hold. Pure: each check judges one key's paced run, or all of them.
import { arrivalSlackMs, first429, type LoadThresholds, overallFigures, type PacedLoadKey, type PacedRequest, type PacedRun, pacedFigures, rateError, sentWithin } from '../result/paced-load.ts';
import { type TimelinePoint } from '../result/rate-limits.ts';
import { classifyRefusal, windowDescribed, readRateAnswer, windowMs } from '../rate-limit/vocabulary.ts';
import { defineCheck } from './define.ts';
import { fail, type Finding, pass, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const clause = 'Limits / Request rate by plan';
const headersClause = 'Limits / Rate limit headers';
const suite = 'load';

const acceptedPoint = (p: TimelinePoint | undefined): p is TimelinePoint => p !== undefined && isAccepted(p);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percent = (f: number) => `${Math.round(f * 1000) / 10}%`;

/** "10.8 req/s (90% of free's 60 per 5 s)" */
function rateText(run: PacedRun): string {
  return `${Math.round(run.askedRate * 100) / 100} req/s (${percent(run.fraction)} of ${run.plan}'s ${run.quota.perMinute} per ${run.windows.minute} s)`;
}

/** Why a 429 may be legal although the paced client kept within its minute quota: the day's, or a ban (the vocabulary's one reading of a 429). */
function blockedBeyondMinute(run: PacedRun, p: TimelinePoint): string | undefined {
  const kind = classifyRefusal({ quota: run.quota, windows: run.windows }, p);
  if (kind === 'minute') return undefined;
  const why =
    windowDescribed(run.quota, p) === 'day' && kind === 'day'
      ? `its X-RateLimit-Limit is the day's quota (${p.limit}) with nothing left`
      : p.retryAfter !== undefined
        ? `its Retry-After (${p.retryAfter}) lies beyond one ${kind === 'ban' ? 'day' : 'minute'} window`
        : `its X-RateLimit-Reset (${p.reset}) lies beyond one ${kind === 'ban' ? 'day' : 'minute'} window`;
  return `${why}: ${kind === 'day' ? "the key's day is spent" : 'the key is banned'}`;
}

export function judgePacedNo429(run: PacedRun): Finding {
  if (run.unavailable) return skip(run.unavailable);
  if (run.requests.length === 0) return skip(`${run.label}: no paced request was sent${run.stopped ? ` (${run.stopped})` : ''}`);
  const first = first429(run);
  const answered = run.requests.filter((r) => r.point).length;
  if (!first) return pass(`${run.label}: ${run.requests.length} requests at ${rateText(run)} over ${seconds(run.durationMs)}, ${answered} answered: no 429`);
  const r = run.requests[first.request - 1]!;
  const p = r.point!;
  const beyond = blockedBeyondMinute(run, p);
  if (beyond) return skip(`${run.label}: a 429 at paced request ${first.request} is not judged: ${beyond}, which the paced run cannot tell from requests before it (rate-limit.daily-quota judges the day)`);
  // What the client sent in the minute before it, with room for requests reaching the server sooner than sent.
  const inWindow = sentWithin(run, r.sentAt, windowMs(run.windows) + arrivalSlackMs(run));
  if (inWindow > run.quota.perMinute) return skip(`${run.label}: a 429 at paced request ${first.request} is not judged: the harness itself sent ${inWindow} requests with the key within a minute window of it, more than the quota of ${run.quota.perMinute}`);
  const headers = [`Retry-After ${p.retryAfter ?? '(none)'}`, p.remaining !== undefined ? `Remaining ${p.remaining}` : undefined, p.limit !== undefined ? `Limit ${p.limit}` : undefined].filter(Boolean).join(', ');
  return fail(
      '429-within-quota',
      `${run.label}: 429 at paced request ${first.request} of ${run.requests.length}, ${seconds(first.atMs)} in, while sending at ${first.rate} req/s (asked ${rateText(run)}): only ${first.sentInWindow} requests of the key within the ${run.windows.minute} s before it, the quota being ${run.quota.perMinute}`,
      `no 429 while the client stays within its quota (${run.quota.perMinute} per ${run.windows.minute} s)`,
      `429 (${headers}) after ${first.sentInWindow} requests in ${run.windows.minute} s`,
  );
}

/** Accepted answers in time order, the look before the run first: what Remaining is judged on. */
interface Answer {
  /** Its place among the paced requests, from 1 (0: the look before the run). */
  n: number;
  sentAt: number;
  point: TimelinePoint;
}

function answers(run: PacedRun): Answer[] {
  const paced = run.requests.flatMap((r: PacedRequest, i) => (acceptedPoint(r.point) && r.point.remaining !== undefined ? [{ n: i + 1, sentAt: r.sentAt, point: r.point }] : []));
  const start = run.start;
  const look = start && isAccepted(start) ? readRateAnswer(start) : undefined;
  return [...(look?.remaining !== undefined ? [{ n: 0, sentAt: look.t, point: look }] : []), ...paced];
}

/**
 * Fixed windows, told from the answers: Reset holds still for a stretch, then moves a whole window
 * at once (within two seconds of rounding noise), and no positive Remaining is given twice within
 * a stretch. Each answer's window, by index; undefined when the answers do not show fixed windows
 * (a token bucket's or a sliding log's Reset moves a little at a time). A held Reset alone is not
 * enough: a weighted sliding-window counter holds Reset at its sub-window's end while, under a
 * steady pace, its Remaining stays level (the previous window's weight falls as fast as the
 * current one's count grows). So a Remaining that does not fall under paced load is left to
 * rate-limit.remaining, which sees it fall to 0 at the quota, or not.
 */
export function fixedWindowsOf(points: readonly TimelinePoint[], windowSeconds: number): number[] | undefined {
  const resets = [...new Set(points.map((p) => p.reset).filter((r): r is number => r !== undefined))].sort((a, b) => a - b);
  if (resets.length === 0 || points.some((p) => p.reset === undefined)) return undefined;
  const starts: number[] = [];
  for (const r of resets) if (starts.length === 0 || r - starts.at(-1)! > 2) starts.push(r);
  if (starts.some((s, i) => i > 0 && s - starts[i - 1]! < windowSeconds - 1)) return undefined;
  const windowOf = points.map((p) => starts.findLastIndex((s) => p.reset! >= s));
  for (let w = 0; w < starts.length; w++) {
    const positive = points.filter((p, i) => windowOf[i] === w && p.remaining! > 0).map((p) => p.remaining);
    if (new Set(positive).size !== positive.length) return undefined;
  }
  return windowOf;
}

export function judgePacedRemaining(run: PacedRun): Finding {
  if (run.unavailable) return skip(run.unavailable);
  const all = answers(run);
  if (all.every((a) => a.n === 0)) return skip(`${run.label}: no accepted paced response carried an integer X-RateLimit-Remaining (headers.rate-limit-present judges the header)`);
  const limits = all.map((a) => a.point.limit).filter((l): l is number => l !== undefined);
  if (limits.length === 0) return skip(`${run.label}: no X-RateLimit-Limit to count Remaining against (headers.rate-limit-present judges the header)`);
  // Each answer's headers describe the minute window, or the day's when Limit names the day quota
  // ("the applicable request limit": a server may show whichever binds); the day's count holds
  // requests from before the run, so only its fall is judged.
  const isDay = (p: TimelinePoint) => windowDescribed(run.quota, p) === 'day';
  const slack = arrivalSlackMs(run);
  const windowsOf = (day: boolean): Map<Answer, number> => {
    const group = all.filter((a) => isDay(a.point) === day);
    const seconds = day ? run.windows.day : run.windows.minute;
    const points = group.map((a) => a.point);
    const of = fixedWindowsOf(points, seconds);
    return new Map(of ? group.map((a, i) => [a, of[i]!]) : []);
  };
  const fixed = new Map([...windowsOf(false), ...windowsOf(true)]);
  for (const a of all) {
    if (a.n === 0) continue;
    const { remaining: r, limit: l = limits[0]! } = a.point;
    const which = `paced request ${a.n}`;
    if (r! < 0) return fail('negative', `${run.label}: X-RateLimit-Remaining ${r} at ${which}`, 'never below 0', `${r}`);
    // Remaining may or may not count the request it answers (Limit on the first is one reading of
    // "requests remaining": the rate-limit suite's Remaining check allows it too); more never.
    if (r! > l) return fail('above-limit', `${run.label}: X-RateLimit-Remaining ${r} on the accepted ${which}, more than its Limit ${l}`, `at most ${l}`, `${r}`);
    if (!isDay(a.point)) {
      // The other requests the window holds against the key cannot be more than were sent in it.
      const counted = l - 1 - r!;
      const sent = sentWithin(run, a.sentAt, windowMs(run.windows) + slack) - 1;
      const tolerance = Math.max(2, Math.ceil(l * 0.05));
      if (counted > sent + tolerance) {
        return fail(
          'counts-more-than-sent',
          `${run.label}: X-RateLimit-Remaining ${r} at ${which} counts ${counted} other requests in the window, but only ${sent} were sent with the key in the ${run.windows.minute} s before it`,
          `Remaining at least ${Math.max(0, l - 1 - sent - tolerance)} (Limit ${l} less what was sent)`,
          `${r}`,
        );
      }
    }
    const window = fixed.get(a);
    if (window !== undefined) {
      // In a fixed window, every request answered before this one was sent had been counted already.
      const before = all.filter((b) => b !== a && fixed.get(b) === window && isDay(b.point) === isDay(a.point) && b.point.t < a.sentAt).length;
      if (r! > l - before) {
        return fail('not-counting-answered', `${run.label}: X-RateLimit-Remaining ${r} at ${which}, though ${before} requests of its window had been answered before it was sent`, `at most ${l - before}`, `${r}`);
      }
    }
  }
  const lowest = Math.min(...all.map((a) => a.point.remaining!));
  const described = [...new Set(all.map((a) => (isDay(a.point) ? 'day' : 'minute')))].join(' and the ');
  return pass(`${run.label}: Remaining consistent over ${all.filter((a) => a.n > 0).length} accepted paced requests (the headers describe the ${described} window; ${fixed.size > 0 ? 'fixed windows' : 'a refilling limiter'}; lowest ${lowest})`);
}

/** What the paced run did: asked against achieved rate, gaps, answers, latency (recorded, never failed). */
export function describePacing(run: PacedRun): Finding {
  if (run.unavailable) return skip(run.unavailable);
  const f = pacedFigures(run);
  if (f.sent === 0) return skip(`${run.label}: no paced request was sent${run.stopped ? ` (${run.stopped})` : ''}`);
  if (f.sent === 1) return pass(`${run.label}: a single paced request (${f.accepted ? '2xx' : f.rejected ? '429' : 'no 2xx'}): no rate to measure; latency ${f.latency.max} ms`);
  const off = rateError(run);
  const held = off <= 0.02 ? `${percent(off)} off` : `${percent(off)} off: the rate was not held${f.dropped > 0 ? ` (${f.dropped} arrivals dropped at the cap of requests in flight)` : ''}${run.stopped ? ` (${run.stopped})` : ''}`;
  const seconds = f.perSecond;
  const trend = seconds.length >= 2 ? `; p99 ${seconds[0]!.p99} ms in the first second, ${seconds.at(-1)!.p99} ms in the last` : '';
  return pass(
    `${run.label}: asked ${rateText(run)}, achieved ${f.achievedRate} req/s (${held}) over ${(f.durationMs / 1000).toFixed(1)} s; gaps p50 ${f.gaps.p50} ms, p99 ${f.gaps.p99} ms; ` +
      `${f.sent} sent: ${f.accepted} 2xx, ${f.rejected} × 429, ${f.other} other, ${f.noResponse} without response, ${f.dropped} dropped; ` +
      `latency p50 ${f.latency.p50} ms, p95 ${f.latency.p95} ms, p99 ${f.latency.p99} ms, max ${f.latency.max} ms${trend}`,
  );
}

const THRESHOLD_NAMES: Record<keyof LoadThresholds, string> = { p50Ms: 'p50', p95Ms: 'p95', p99Ms: 'p99', errorRate: 'error rate' };

/** The thresholds of the target config (load.thresholds) against every key's paced run together. */
export function judgeThresholds(input: { keys: readonly PacedLoadKey[]; thresholds?: LoadThresholds }): Finding {
  const set = Object.entries(input.thresholds ?? {}).filter(([, v]) => v !== undefined) as [keyof LoadThresholds, number][];
  if (set.length === 0) return skip('no thresholds set (load.thresholds in the target config: p50Ms, p95Ms, p99Ms, errorRate)');
  const o = overallFigures(input.keys);
  if (o.sent === 0) return skip('no paced request was sent: nothing to measure');
  const measured: Record<keyof LoadThresholds, number> = { p50Ms: o.latency.p50, p95Ms: o.latency.p95, p99Ms: o.latency.p99, errorRate: o.errorRate };
  const show = (name: keyof LoadThresholds, v: number) => (name === 'errorRate' ? `${v === 0 ? '0' : v.toPrecision(2)} (${o.errors} of ${o.sent})` : `${v} ms`);
  const breached = set.filter(([name, limit]) => measured[name] > limit);
  const figures = set.map(([name, limit]) => `${THRESHOLD_NAMES[name]} ${show(name, measured[name])} (threshold ${name} ${limit})`).join(', ');
  if (breached.length === 0) return pass(`over ${o.sent} paced requests: ${figures}`);
  return fail(
    'threshold-breached',
    `over ${o.sent} paced requests: ${breached.map(([name, limit]) => `${THRESHOLD_NAMES[name]} ${show(name, measured[name])} is above the threshold ${name} ${limit}`).join('; ')}`,
    breached.map(([name, limit]) => `${name} ≤ ${limit}`).join(', '),
    breached.map(([name]) => `${THRESHOLD_NAMES[name]} ${show(name, measured[name])}`).join(', '),
  );
}

export const pacedNo429 = defineCheck({ id: 'load.paced-no-429', clause, suite, title: 'A client pacing itself within its plan\'s quota gets no 429', severity: 'must', judge: judgePacedNo429 });
export const pacedRemaining = defineCheck({ id: 'load.paced-remaining', explainedBy: ['headers.rate-limit-present', 'load.paced-no-429'], clause: headersClause, suite, title: 'Under paced load, X-RateLimit-Remaining counts the requests sent in its window', severity: 'must', judge: judgePacedRemaining });
export const pacing = defineCheck({ id: 'load.pacing', clause, suite, title: 'Paced load at the plan\'s rate: asked against achieved rate, gaps between sends, latency, recorded', severity: 'info', judge: describePacing });
export const thresholds = defineCheck({ id: 'load.thresholds', clause, suite, title: 'The latency and error thresholds of the target config (load.thresholds) hold under paced load', severity: 'must', judge: judgeThresholds });

/** The checks judged for each paced key; `thresholds` is judged once, over all of them. */
export const PACED_KEY_CHECKS = [pacedNo429, pacedRemaining, pacing] as const;
