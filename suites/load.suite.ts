// Paced load, for every configured key at once: a constant arrival rate at a fraction of the
// plan's per-minute quota (--load-rate, default 0.9) for a number of minute windows
// (--load-windows, default 2), from a moment the key's limiter holds nothing against it. A client
// that keeps within its quota must get every request it paid for, X-RateLimit-Remaining must
// count what it sent, and the target's load.thresholds must hold. Runs only when named
// (--suite load), and only where the target allows load.
import { describe } from 'vitest';
import * as load from '../lib/checks/load.ts';
import { skip } from '../lib/checks/types.ts';
import { systemClock } from '../lib/load/clock.ts';
import { type PaceTally, paceKey, planPacedLoad } from '../lib/drive/drive-paced.ts';
import { LoadEvidence } from '../lib/load/evidence.ts';
import { clientWire, driveContext } from '../lib/drive/drive-context.ts';
import { overallFigures, type PacedLoadKey, type PacedRun, pacedFigures } from '../lib/result/paced-load.ts';
import { check, prepare } from '../lib/suite-kit/vitest-adapter.ts';
import { runStart } from '../lib/config/run-context.ts';
import { session } from '../lib/suite-kit/session.ts';

const runs = new Map<string, PacedRun>();
const figures: PacedLoadKey[] = [];
const evidence = new LoadEvidence();
let failure: string | undefined;

describe('Paced load', () => {
  const { run } = session();

  prepare(async (ctx) => {
    if (!ctx.run.allowLoad) return;
    const { target, pace } = ctx.run;
    const stop = ctx.client.subscribe(evidence.add);
    const drive = driveContext({ clock: systemClock, wire: clientWire(ctx.client), target, soak: ctx.run.soak, deadline: ctx.run.deadline, knownSince: runStart(ctx.run), progress: ctx.progress, ledger: session().accepted });
    const plans = planPacedLoad(target, pace, ctx.client.budget.remaining);
    const paced = plans.filter((p) => !p.skip);
    const total = paced.reduce((n, p) => n + p.count, 0);
    const seconds = pace.windows * target.windows.minute;
    ctx.progress(
      `pacing ${paced.length} of ${plans.length} keys at ${Math.round(pace.fraction * 100)}% of their plans' per-minute quotas for ${pace.windows} windows of ${target.windows.minute} s: ` +
        `${total} requests over about ${seconds} s, once each key's limiter holds nothing against it (up to one window's wait)`,
    );
    for (const p of plans) if (p.skip) ctx.progress(`not paced: ${p.skip}`);
    const tally: PaceTally = { answered: 0, rejected: 0 };
    const every = Math.min(10_000, Math.max(2_000, (seconds * 1000) / 5));
    const ticker = setInterval(() => ctx.progress(`paced load: ${tally.answered} of ${total} requests answered, ${tally.rejected} × 429`), every);
    try {
      const inFlight = { now: 0, max: target.http.maxConcurrency };
      const done = await Promise.all(plans.map((p) => paceKey(drive, ctx.client, p, pace, { inFlight, tally })));
      for (const r of done) {
        runs.set(r.label, r);
        figures.push(pacedFigures(r));
      }
      ctx.progress(`paced load done: ${tally.answered} requests answered, ${tally.rejected} × 429`);
      ctx.emit({ kind: 'paced-load', load: { fraction: pace.fraction, windows: pace.windows, keys: figures, overall: overallFigures(figures), ...(thresholdsSet(target.load.thresholds) ? { thresholds: target.load.thresholds } : {}) } });
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    } finally {
      clearInterval(ticker);
      stop();
    }
  });

  for (const key of run.target.keys) {
    for (const def of load.PACED_KEY_CHECKS) {
      check(def, { subject: key.label, requires: 'load' }, async () => {
        if (failure) throw new Error(`the paced load could not finish: ${failure}`);
        const paced = runs.get(key.label);
        if (!paced) return skip(`${key.label} was not paced`);
        const finding = def.judge(paced);
        return finding.outcome === 'fail' ? { ...finding, exchanges: evidence.of(key.label) } : finding;
      });
    }
  }

  check(load.thresholds, { subject: 'every paced key', requires: 'load' }, async () => {
    if (failure) throw new Error(`the paced load could not finish: ${failure}`);
    return load.thresholds.judge({ keys: figures, thresholds: run.target.load.thresholds });
  });
});

function thresholdsSet(t: Record<string, number | undefined>): boolean {
  return Object.values(t).some((v) => v !== undefined);
}
