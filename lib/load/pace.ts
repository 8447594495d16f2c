// Paced load: requests at a constant arrival rate, as k6's constant-arrival-rate executor sends
// them. Request i leaves at start + i / rate whether or not the ones before it have been answered,
// so the rate is the one asked for over any stretch, not each second's share sent at the start of
// the second (autocannon's overallRate, which bench/pacing.ts compares). A timer that fires late
// sends what is due at once, so the average holds; an arrival that finds the cap on requests in
// flight reached is dropped and counted (k6's dropped iterations), never queued into a burst.
import { performance } from 'node:perf_hooks';
import type { Sender } from '../http/transport.ts';
import type { PacedRequest } from '../result/paced-load.ts';
import { burstPoint } from '../result/rate-limits.ts';
import { loadBodyKept, transportCode } from './fast.ts';

/** Requests in flight at once, shared by every key paced at the same time. */
export interface InFlight {
  now: number;
  readonly max: number;
}

export interface PaceOptions {
  /** The whole URL of each request. */
  url: string;
  headers: Record<string, string>;
  /** Requests per second. */
  rate: number;
  /** Requests to send. */
  count: number;
  /** The client's transport: its timeouts end a request that gets no answer. */
  transport: Sender;
  inFlight: InFlight;
  /** Asked before each send: a reason to stop sending (the run's time limit), or undefined. */
  stop?: () => string | undefined;
  /** Told of every request once it has its answer (or its lack of one). */
  onAnswer?: (r: PacedRequest) => void;
  /** Epoch ms, fractional. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface PaceResult {
  /** In the order they were sent. */
  requests: PacedRequest[];
  dropped: number;
  startedAt: number;
  durationMs: number;
  stopped?: string;
}

/** Requests in a row without a response after which no more are sent: the target stopped answering. */
const GIVE_UP_AFTER = 5;

const preciseNow = () => performance.timeOrigin + performance.now();
const timer = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function pace(options: PaceOptions): Promise<PaceResult> {
  const now = options.now ?? preciseNow;
  const sleep = options.sleep ?? timer;
  const gapMs = 1000 / options.rate;
  const requests: PacedRequest[] = [];
  const answers: Promise<void>[] = [];
  let dropped = 0;
  let silentInARow = 0;
  let stopped: string | undefined;
  const startedAt = now();

  const send = async (r: PacedRequest): Promise<void> => {
    options.inFlight.now += 1;
    try {
      const res = await options.transport.send({ method: 'GET', url: options.url, headers: options.headers }, { keep: loadBodyKept });
      const t = now();
      r.point = burstPoint(t, res.status, (name) => res.headers[name], res.text);
      r.latencyMs = t - r.sentAt;
      silentInARow = 0;
    } catch (err) {
      r.error = transportCode(err);
      silentInARow += 1;
    } finally {
      options.inFlight.now -= 1;
      options.onAnswer?.(r);
    }
  };

  for (let i = 0; i < options.count; ) {
    const due = startedAt + i * gapMs;
    const t = now();
    if (due > t + 0.5) {
      await sleep(due - t);
      continue;
    }
    stopped = options.stop?.() ?? (silentInARow >= GIVE_UP_AFTER ? `the target stopped answering: ${GIVE_UP_AFTER} requests in a row got no response` : undefined);
    if (stopped) break;
    i += 1;
    if (options.inFlight.now >= options.inFlight.max) {
      dropped += 1;
      continue;
    }
    const r: PacedRequest = { sentAt: t };
    requests.push(r);
    answers.push(send(r));
  }
  await Promise.all(answers);
  const last = requests.at(-1);
  return { requests, dropped, startedAt, durationMs: last ? last.sentAt - startedAt : 0, ...(stopped ? { stopped } : {}) };
}
