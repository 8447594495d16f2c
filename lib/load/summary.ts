// From a key's run to what report.json keeps of it: the timeline and the load figures. Pure.
import { isFixedWindow, type KeyRun, loadFigures, pointsOf } from '../checks/rate-limit.ts';
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
    ...(b ? { load: loadFigures(b) } : {}),
  };
}
