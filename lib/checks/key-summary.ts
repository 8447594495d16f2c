// What report.json keeps of one key's run (RateLimitKey, lib/result/rate-limits.ts): its timeline,
// the load's figures, the day, and what the limiter looked like (limiter.ts). Pure.
import { type KeyRun, pointsOf, type RateLimitKey } from '../result/rate-limits.ts';
import { limiterKind, type LimiterKind, loadFigures, quotaWindow, refillPerSecond, resetJitter } from './limiter.ts';

const BEHAVIOUR: Record<LimiterKind, string> = {
  fixed: 'fixed window',
  refilling: 'refilling (sliding window or token bucket)',
  unknown: 'not determined (too few accepted requests to tell a fixed window from a refilling limiter)',
};

/** From a key's run to what report.json keeps of it. */
export function summariseKey(run: KeyRun): RateLimitKey {
  const b = run.burst;
  const window = quotaWindow(run);
  const kind = limiterKind(window.points, refillPerSecond(run));
  const jitter = kind === 'fixed' ? resetJitter(window.points) : 0;
  const turned = window.turned ? ` (the window turned during the burst: Reset ${window.turned.from} then ${window.turned.to})` : '';
  const behaviour = !b ? 'not observed' : b.ended !== 'first-429' ? 'no 429 seen' : `${BEHAVIOUR[kind]}${jitter ? ` (Reset rounded with noise: up to ${jitter} s apart)` : ''}${turned}`;
  return {
    label: run.label,
    plan: run.plan,
    quota: run.quota,
    windows: run.windows,
    behaviour,
    timeline: pointsOf(run),
    ...(b ? { load: loadFigures(b) } : {}),
    ...(run.day && run.day.bursts.length > 0 ? { dayBursts: run.day.bursts } : {}),
    ...(run.day
      ? {
          day: {
            requests: run.day.requests ?? 0,
            accepted: run.day.accepted,
            ended: run.day.ended,
            elapsedMs: run.day.elapsedMs,
            ...(run.day.block ? { block: run.day.block } : {}),
            followUps: run.day.followUps ?? [],
          },
        }
      : {}),
  };
}
