// From a key's run to what report.json keeps of it: the timeline and the load figures. Pure.
import { isFixedWindow, type KeyRun, pointsOf } from '../checks/rate-limit.ts';
import type { RateLimitKey } from '../result/model.ts';

export function summariseKey(run: KeyRun): RateLimitKey {
  const b = run.burst;
  const accepted = (s: number) => s >= 200 && s < 300;
  const before = b ? b.points.filter((p) => !p.afterStop) : [];
  const behaviour = !b ? 'not observed' : b.ended !== 'first-429' ? 'no 429 seen' : isFixedWindow(before.filter((p) => accepted(p.status))) ? 'fixed window' : 'refilling (sliding window or token bucket)';
  return {
    label: run.label,
    plan: run.plan,
    quota: run.quota,
    windows: run.windows,
    behaviour,
    timeline: pointsOf(run),
    ...(b
      ? {
          load: {
            sent: b.sent,
            accepted: b.points.filter((p) => accepted(p.status)).length,
            rejected: b.points.filter((p) => p.status === 429).length,
            other: b.points.filter((p) => !accepted(p.status) && p.status !== 429).length,
            inFlightAtStop: b.sent - b.points.length,
            durationMs: b.durationMs,
            askedRate: b.askedRate,
            achievedRate: b.durationMs > 0 ? Math.round((b.points.length / b.durationMs) * 1000) : 0,
            latency: b.latency,
          },
        }
      : {}),
  };
}
