// The rate-limit suite's work, in this process, on a virtual clock: the reference server (with the
// faults and variations asked for) answers through a simulated wire, the driver drives every key,
// and every rate-limit check judges what it recorded, as the suite would. Milliseconds of real time.
import { RATE_LIMIT_CHECKS } from '../../lib/checks/rate-limit.ts';
import { RUN_CHECKS } from '../../lib/checks/run-level.ts';
import type { Finding } from '../../lib/checks/types.ts';
import { validateTarget } from '../../lib/config/load-target.ts';
import type { Target } from '../../lib/config/schema.ts';
import { type DriveContext, driveContext } from '../../lib/drive/drive-context.ts';
import { dayOfTarget } from '../../lib/suite-kit/ledger.ts';
import { driveKeys, segmentSlots } from '../../lib/drive/drive-keys.ts';
import { mergeKeyRuns } from '../../lib/result/merge-segments.ts';
import type { KeyRun } from '../../lib/result/rate-limits.ts';
import type { ServerConfigInput } from '../../targets/reference/config.ts';
import { inProcessReference, type InProcessServer } from '../../targets/reference/in-process.ts';
import { type Sim, simWire } from './sim-wire.ts';
import { VirtualClock } from './virtual-clock.ts';

/** Monday 6 January 2025, 12:00:00 UTC: a whole minute and a whole day (of any length that divides it) start here. */
export const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);

export interface ClockRunOptions {
  keys: { key: string; plan: string; disposable?: boolean }[];
  plans?: Record<string, { perMinute: number; perDay: number }>;
  windows: { minute: number; day: number };
  faults?: ServerConfigInput['faults'];
  variations?: ServerConfigInput['variations'];
  /** Epoch ms the clock starts at (default T0). */
  start?: number;
  /** Network time each way (default 1 ms). */
  latencyMs?: number;
  soak?: boolean;
  /**
   * Requests of other suites before the rate-limit suite: per key label, this many looks sent one
   * after another on the clock, recorded in the run's log and ledger like any other request.
   */
  earlier?: Record<string, number>;
  /**
   * Requests of the auth suite before everything else: this many `GET /v1/pets` without a key,
   * one after another on the clock, recorded in the run's log (suite `auth`) like any other request.
   */
  unauthorized?: number;
}

export interface ClockRun {
  runs: Map<string, KeyRun>;
  sim: Sim;
  server: InProcessServer;
  clock: VirtualClock;
  target: Target;
  startedAt: number;
  /** Every rate-limit check's finding for a key, by check id, and every run-level check's over the whole run. */
  findings(label: string): Map<string, Finding>;
  /** The ids of the checks that failed for a key, and the run-level ones that failed. */
  failed(label: string): string[];
}

/** The clock, the reference server in this process, and the target the harness reads, for one run. */
function setUp(o: ClockRunOptions) {
  const startedAt = o.start ?? T0;
  const clock = new VirtualClock(startedAt);
  const server = inProcessReference({ keys: o.keys.map(({ key, plan }) => ({ key, plan })), plans: o.plans ?? {}, windows: o.windows, faults: o.faults ?? [], variations: o.variations ?? [] }, clock);
  const target = validateTarget({ name: 'clock', baseUrl: 'http://127.0.0.1/v1', keys: o.keys, plans: o.plans ?? {}, windows: o.windows, allow: { load: true } }, 'clock.yaml', {});
  /** A wire of its own (connections, log, ledger) and a context to drive keys with it. */
  const runner = (segment?: DriveContext['segment']) => {
    const sim = simWire(server, clock, o.latencyMs === undefined ? {} : { latencyMs: o.latencyMs }, dayOfTarget(target));
    const ctx = driveContext({ clock, wire: sim.wire, target, soak: o.soak ?? false, deadline: startedAt + 7 * 86_400_000, knownSince: startedAt, progress: () => {}, ledger: sim.ledger, ...(segment ? { segment } : {}) });
    return { sim, ctx };
  };
  return { startedAt, clock, server, target, runner };
}

export async function driveOnClock(o: ClockRunOptions): Promise<ClockRun> {
  const { startedAt, clock, server, target, runner } = setUp(o);
  const { sim, ctx } = runner();
  const runs = new Map<string, KeyRun>();
  await clock.run(async () => {
    for (let i = 0; i < (o.unauthorized ?? 0); i++) {
      const startedAt = clock.now();
      await clock.sleep(o.latencyMs ?? 1);
      const res = await server.request({ method: 'GET', path: '/v1/pets', headers: {}, connection: -1 - i });
      await clock.sleep(o.latencyMs ?? 1);
      const e = sim.wire.recorder.record({ method: 'GET', url: 'http://127.0.0.1/v1/pets', auth: { kind: 'none' }, requestHeaders: {}, status: res.status, responseHeaders: res.headers, responseBody: res.body, startedAt: new Date(startedAt).toISOString(), durationMs: clock.now() - startedAt });
      e.suite = 'auth';
    }
    for (const [label, n] of Object.entries(o.earlier ?? {})) {
      const key = target.keys.find((k) => k.label === label)!;
      for (let i = 0; i < n; i++) await sim.wire.look(key);
    }
    await driveKeys(ctx, runs);
  });
  const findings = (label: string) => {
    const run = runs.get(label);
    const judged = new Map<string, Finding>(run ? RATE_LIMIT_CHECKS.map((c) => [c.id, c.judge(run)] as const) : []);
    for (const c of RUN_CHECKS) judged.set(c.id, c.judge(sim.exchanges));
    return judged;
  };
  const failed = (label: string) => [...findings(label)].filter(([, f]) => f.outcome === 'fail').map(([id]) => id);
  return { runs, sim, server, clock, target, startedAt, findings, failed };
}

/**
 * The same, split over `count` load segments (runners 1..N, --load-segment I/N) that start together
 * at `leadMs` after the clock's start: each its own wire (connections, log, ledger), one server,
 * one clock. Their key runs merged as `merge` merges them, and judged once.
 */
export async function driveSegmentsOnClock(o: ClockRunOptions, count: number, leadMs = 1_000): Promise<{ runs: Map<string, KeyRun>; server: InProcessServer; failed(label: string): string[]; findings(label: string): Map<string, Finding> }> {
  const { startedAt, clock, server, target, runner } = setUp(o);
  const startAt = startedAt + leadMs;
  const slots = segmentSlots({ target }, startAt);
  const segments = Array.from({ length: count }, (_, i) => ({ index: i + 1, ctx: runner({ index: i + 1, count, startAt, slots }).ctx, runs: new Map<string, KeyRun>() }));
  await clock.run(() => Promise.all(segments.map((s) => driveKeys(s.ctx, s.runs))));
  const runs = new Map<string, KeyRun>();
  for (const key of target.keys) {
    const parts = segments.flatMap((s) => (s.runs.has(key.label) ? [{ index: s.index, run: s.runs.get(key.label)! }] : []));
    if (parts.length > 0) runs.set(key.label, mergeKeyRuns(parts));
  }
  const findings = (label: string) => new Map<string, Finding>(runs.has(label) ? RATE_LIMIT_CHECKS.map((c) => [c.id, c.judge(runs.get(label)!)] as const) : []);
  return { runs, server, findings, failed: (label) => [...findings(label)].filter(([, f]) => f.outcome === 'fail').map(([id]) => id) };
}
