// What driving keys through their limits works with: the clock, the wire (the looks, the parts of
// a burst, the exchange log and the request budget), the target, what each key was told to wait
// for, and the run's ledger of each key's requests. The harness's wire is the API client and its
// transport (clientWire); tests give a virtual clock and a wire to a reference server in the same
// process, so that every piece of the driver runs in milliseconds.
import type { ApiClient } from '../client/client.ts';
import type { Budget } from '../client/budget.ts';
import type { Target, TargetKey } from '../config/schema.ts';
import { type Phases } from '../load/approach.ts';
import { careful } from '../load/careful.ts';
import { type Clock, systemClock } from '../load/clock.ts';
import { fast, transportConnect } from '../load/fast.ts';
import type { Segment } from '../load/segment.ts';
import type { Exchange } from '../result/exchange.ts';
import { headersOf, type Look, type TimelinePoint } from '../result/rate-limits.ts';
import type { AcceptedSpan } from '../rate-limit/day-count.ts';

/** A request sent after waiting out the Retry-After of the 429 answered to request `seq` (epoch ms `until`). */
export interface FollowsRetryAfter {
  seq: number;
  until: number;
}

/** Takes an exchange sent by other means than the client (a load's), numbers it and logs it. */
export interface Recorder {
  record(exchange: Omit<Exchange, 'seq' | 'suite'>): Exchange;
}

/** A request of the driver other than a look: any operation, relative to the base URL. */
export interface WireRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. "/pets?limit=1". */
  path: string;
  body?: string;
  /** Sent before the key's last Retry-After has passed, on purpose: why. */
  earlyOnPurpose?: string;
}

export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  seq: number;
  /** Epoch ms: sent, and answered. */
  sentAt: number;
  t: number;
}

/** Where the driver's requests go, and where they are recorded. */
export interface Wire {
  /**
   * One GET /pets?limit=1 with the key, never retried, recorded as an exchange; its answer and the
   * exchange's seq. `earlyOnPurpose`: sent before the key's last Retry-After had passed, on purpose: why.
   */
  look(key: TargetKey, follows?: FollowsRetryAfter, earlyOnPurpose?: string): Promise<{ status: number; headers: Record<string, string>; seq: number }>;
  /** One request of an operation with the key, never retried, recorded as an exchange; its answer, the exchange's seq and when it was sent. */
  send(key: TargetKey, request: WireRequest): Promise<WireAnswer>;
  /** The two parts of a burst. */
  phases: Phases;
  recorder: Recorder;
  budget: Pick<Budget, 'reserve' | 'refund'>;
}

/** What the run knows of each key's requests, whichever suite sent them. */
export interface RunLedger {
  /** The key's accepted requests, as spans of the server's seconds, widened by dateSkew (the day is counted from them). */
  of(label: string): AcceptedSpan[];
  /** Whole seconds by which the service's Dates disagree between answers. */
  dateSkew(): number;
  /** Our epoch ms of every request sent with the key: when its answer arrived, or when it was sent if none came (room.ts). */
  sent(label: string): number[];
  /** Our epoch ms of each of the key's accepted requests: when its answer arrived (within-quota.ts: a day the run may have spent). */
  acceptedAt(label: string): number[];
}

export interface DriveContext {
  clock: Clock;
  wire: Wire;
  target: Target;
  soak: boolean;
  /** Epoch ms: the whole-run time limit. */
  deadline: number;
  /** Epoch ms from which every request with the keys is the run's (its start): what came before is not known. */
  knownSince: number;
  progress(line: string): void;
  /** Per key label: epoch ms before which no request may be sent (the last Retry-After given; a 429 without a usable one, its X-RateLimit-Reset). */
  notBefore: Map<string, number>;
  /** Per key label: the first 429 it got in this run. */
  refusals: Map<string, Look>;
  /**
   * Per key label: the 429 whose Retry-After the key is waiting out. The next request sent with
   * the key after that moment is its evidence.
   */
  obeying: Map<string, FollowsRetryAfter>;
  /** Every key's requests in the whole run, every suite's (lib/suite-kit/ledger.ts). */
  ledger: RunLedger;
  /** A load segment (runner I of N): its share, and when each key is driven (epoch ms, the same for every runner). */
  segment?: Segment & { slots: ReadonlyMap<string, number> };
}

/** The harness's wire: the API client for looks and the log, its transport for both parts of a burst. */
export function clientWire(client: ApiClient): Wire {
  return {
    async look(key, follows, earlyOnPurpose) {
      const res = await client.send({ method: 'GET', path: '/pets', query: { limit: 1 }, auth: { key }, retry: false, ...(follows ? { followsRetryAfter: follows } : {}), ...(earlyOnPurpose !== undefined ? { earlyOnPurpose } : {}) });
      return { status: res.status, headers: res.headers, seq: res.exchange.seq };
    },
    async send(key, { method, path, body, earlyOnPurpose }) {
      const sentAt = systemClock.now();
      const [pathname, search] = path.split('?') as [string, string | undefined];
      const query = search === undefined ? undefined : Object.fromEntries(new URLSearchParams(search));
      const res = await client.send({ method, path: pathname, ...(query ? { query } : {}), ...(body !== undefined ? { body } : {}), ...(earlyOnPurpose !== undefined ? { earlyOnPurpose } : {}), auth: { key }, retry: false });
      return { status: res.status, headers: res.headers, seq: res.exchange.seq, sentAt, t: systemClock.now() };
    },
    phases: (() => {
      const io = { clock: systemClock, connect: transportConnect(client.transport) };
      return { fast: (o) => fast(o, io), careful: (o) => careful(o, io) };
    })(),
    recorder: client,
    budget: client.budget,
  };
}

/** A fresh context for driving keys: nothing waited for yet. */
export function driveContext(base: Omit<DriveContext, 'notBefore' | 'refusals' | 'obeying'>): DriveContext {
  return { ...base, notBefore: new Map(), refusals: new Map(), obeying: new Map() };
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
export function loadRecorder(recorder: Recorder, target: Target, key: TargetKey) {
  const base = {
    method: 'GET',
    url: loadUrl(target),
    auth: { kind: 'key' as const, label: key.label, env: key.env, header: `Bearer $${key.env}` },
    requestHeaders: { authorization: `Bearer [REDACTED:${key.label}]` },
  };
  return {
    answered(p: TimelinePoint, sent: { at: number; durationMs: number } = { at: p.sentAt ?? p.t, durationMs: p.t - (p.sentAt ?? p.t) }): Exchange {
      const body = p.body !== undefined ? { responseBody: p.body } : { responseBody: '', responseBodyTruncated: true };
      return recorder.record({ ...base, status: p.status, responseHeaders: headersOf(p), ...body, ...(p.afterStop ? { inFlightAtStop: true } : {}), startedAt: new Date(sent.at).toISOString(), durationMs: Math.round(sent.durationMs) });
    },
    unanswered(transportError: string, at: number, inFlightAtStop = false): void {
      recorder.record({ ...base, responseHeaders: {}, transportError, ...(inFlightAtStop ? { inFlightAtStop: true } : {}), startedAt: new Date(at).toISOString(), durationMs: 0 });
    },
  };
}
