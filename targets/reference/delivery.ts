// How a finished reply reaches the client: after what delay (variations slow-responses, far-away,
// answers-reordered and several-instances, fault latency-grows-with-load), with which Date (clock-ahead, clock-behind,
// several-instances, instances-clock-skew), whether the connection stays open (keep-alive-1s), and
// in which form on the wire (interim answers, framing, codings, slow-body's held heads and bodies in two pieces). The request has been decided and counted before; only
// the write waits, on a timer. Without these variations a reply is written at once and node:http
// writes the Date from the real clock.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as timer } from 'node:timers/promises';
import { type Reply, type WireForm, writeReply } from './http.ts';
import { seededFraction } from './seeded.ts';

/** slow-responses: a key's first requests wait `firstMs` (cold caches), every other one minMs..maxMs. */
export const SLOW = { firstRequests: 5, firstMs: 300, minMs: 20, maxMs: 100 } as const;

/**
 * Variation slow-day: a key that has spent this share of its day's quota is answered this much
 * after its request was counted (a server that de-prioritises its heaviest users): its answers are
 * dated after the second they were counted in, and its day's spending spans day windows.
 */
export const SLOW_DAY = { share: 0.5, delayMs: 1_200 } as const;

/** Variation far-away: every reply is held this long after its request was decided. */
export const FAR_AWAY_MS = 120;

/**
 * Variation answers-reordered: each reply is held 0 to `maxMs` ms (pseudo-random per request and
 * connection), so that answers on different connections arrive in another order than the limiter
 * counted them, often within the same millisecond as another's sending.
 */
export const REORDERED = { maxMs: 6 } as const;

const REORDER_SALT = 0x5e0d;

/** The answers-reordered hold of the server's `n`-th request, on connection `connection`. */
export function reorderDelayMs(n: number, connection: number): number {
  return Math.floor(seededFraction(REORDER_SALT ^ Math.imul(connection, 0x27d4eb2f), n) * (REORDERED.maxMs + 1));
}

/**
 * Variation slow-body (a socket server only): the head of every `every`-th response is held `headMs`
 * (a slow first byte), and its body is written in two pieces `gapMs` apart (a slow body); the
 * others go at once, so a run meets a few hundred slow answers without waiting minutes for them.
 */
export const SLOW_BODY = { every: 5, headMs: 30, gapMs: 20 } as const;

/** Fault latency-grows-with-load: each reply waits this long for every request decided in the second before it. */
export const LOAD_LATENCY_MS_PER_REQUEST = 5;

/** several-instances: each instance's Date offset and added latency; requests go round-robin. */
export const INSTANCES = [
  { dateOffsetMs: -1000, latencyMs: 0 },
  { dateOffsetMs: 0, latencyMs: 5 },
  { dateOffsetMs: 1000, latencyMs: 10 },
] as const;

/** instances-clock-skew: the Date offset of every other connection (the even-numbered ones, each served by the instance whose clock is behind). */
export const SKEWED_CONNECTION_DATE_MS = -1000;

const SLOW_SALT = 0x510e;

/** The slow-responses delay of the server's `n`-th request (from 0), the key's `nOfKey`-th. */
export function slowDelayMs(n: number, nOfKey: number): number {
  if (nOfKey < SLOW.firstRequests) return SLOW.firstMs;
  return SLOW.minMs + Math.floor(seededFraction(SLOW_SALT, n) * (SLOW.maxMs - SLOW.minMs + 1));
}

export interface DeliveryOptions {
  /** The server's clock, epoch ms (skewed by clock-ahead and clock-behind). Default Date.now. */
  now?: () => number;
  /** Waits on the server's clock (a delivery's delay). Default a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Write the Date header from `now` rather than leaving it to node:http. */
  ownDate?: boolean;
  slow?: boolean;
  /** Variation far-away. */
  farAway?: boolean;
  /** Variation answers-reordered. */
  reordered?: boolean;
  instances?: boolean;
  /** Variation instances-clock-skew: every other connection's Date is SKEWED_CONNECTION_DATE_MS off. */
  skewedConnections?: boolean;
  /** keep-alive-1s: idle keep-alive timeout, and the age from which a response closes its connection. */
  connectionMs?: number;
  /** Fault latency-grows-with-load. */
  latencyGrowsWithLoad?: boolean;
  /** Interim answers, framing and codings (a socket server only). */
  wire?: WireForm;
  /** Variation slow-body: every SLOW_BODY.every-th head held, bodies in two pieces (a socket server only). */
  slowBody?: boolean;
}

/** How one reply is delivered; fixed when its request is decided, in arrival order. */
export interface DeliveryPlan {
  delayMs: number;
  dateOffsetMs: number;
}

const AT_ONCE: DeliveryPlan = { delayMs: 0, dateOffsetMs: 0 };

export class Delivery {
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private requests = 0;
  /** Variation slow-body: responses written so far. */
  private responses = 0;
  private connectionsSeen = 0;
  private readonly requestsByKey = new Map<string, number>();
  /** latency-grows-with-load: when the requests of the last second were decided, oldest first. */
  private readonly lastSecond: number[] = [];
  private readonly openedAt = new WeakMap<Socket, number>();
  private readonly idle = new WeakMap<Socket, { inFlight: number; timer?: NodeJS.Timeout }>();
  /** instances-clock-skew: each connection's number, in the order they were first seen. */
  private readonly connections = new WeakMap<object, number>();

  private readonly wire: WireForm | undefined;
  /** Variation slow-body: the wire's form for a slow answer, its body in two pieces. */
  private readonly slowWire: WireForm | undefined;

  constructor(private readonly options: DeliveryOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => timer(ms));
    this.wire = options.wire;
    this.slowWire = options.slowBody ? { ...options.wire, bodyGapMs: SLOW_BODY.gapMs } : undefined;
  }

  /** keep-alive-1s: advertises the keep-alive timeout, closes idle connections then, and notes when each opens. */
  attach(server: Server): void {
    const limit = this.options.connectionMs;
    if (limit === undefined) return;
    server.keepAliveTimeout = limit;
    server.on('connection', (socket: Socket) => this.openedAt.set(socket, this.now()));
    // node:http itself closes an idle connection a second after the timeout it advertises (Node 20.20).
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      const state = this.idle.get(socket) ?? { inFlight: 0 };
      this.idle.set(socket, state);
      clearTimeout(state.timer);
      state.inFlight++;
      res.once('close', () => {
        if (--state.inFlight === 0) state.timer = setTimeout(() => socket.destroy(), limit).unref();
      });
    });
  }

  /** The delivery of the reply to the request just decided, of `keyLabel`, on `socket`, held `extraMs` more (variation slow-day). */
  plan(keyLabel: string, extraMs = 0, socket?: object | null): DeliveryPlan {
    const { slow, instances } = this.options;
    const n = this.requests++;
    let delayMs = extraMs + (this.options.farAway ? FAR_AWAY_MS : 0);
    if (slow) {
      const nOfKey = this.requestsByKey.get(keyLabel) ?? 0;
      this.requestsByKey.set(keyLabel, nOfKey + 1);
      delayMs += slowDelayMs(n, nOfKey);
    }
    if (this.options.latencyGrowsWithLoad) {
      const at = this.now();
      while (this.lastSecond.length > 0 && this.lastSecond[0]! <= at - 1000) this.lastSecond.shift();
      delayMs += this.lastSecond.length * LOAD_LATENCY_MS_PER_REQUEST;
      this.lastSecond.push(at);
    }
    if (this.options.reordered) delayMs += reorderDelayMs(n, socket ? this.connectionOf(socket) : 0);
    const instance = instances ? INSTANCES[n % INSTANCES.length]! : undefined;
    const skewed = this.options.skewedConnections && socket ? this.connectionOf(socket) % 2 === 0 : false;
    return { delayMs: delayMs + (instance?.latencyMs ?? 0), dateOffsetMs: (instance?.dateOffsetMs ?? 0) + (skewed ? SKEWED_CONNECTION_DATE_MS : 0) };
  }

  private connectionOf(socket: object): number {
    let n = this.connections.get(socket);
    if (n === undefined) this.connections.set(socket, (n = this.connectionsSeen++ + 1));
    return n;
  }

  /** The Date header of a reply written now under `plan`; undefined when node:http writes it. */
  date(plan: DeliveryPlan = AT_ONCE): string | undefined {
    return this.options.ownDate ? new Date(this.now() + plan.dateOffsetMs).toUTCString() : undefined;
  }

  /**
   * Writes `reply` once its delay has passed, with its Date, and Connection: close on an old
   * connection. Without a delay it is written at once, and nothing is returned; a failure to write
   * is thrown, or, after a delay, rejects the promise returned.
   */
  write(res: ServerResponse, reply: Reply, plan: DeliveryPlan = AT_ONCE): Promise<void> | undefined {
    const { delayMs, wire } = this.hold(plan);
    if (delayMs > 0) return this.sleep(delayMs).then(() => this.writeNow(res, reply, plan, wire));
    return this.writeNow(res, reply, plan, wire);
  }

  /**
   * How long the next response waits before it is written, and in which form: the plan's delay;
   * with variation slow-body, every SLOW_BODY.every-th response's head waits a little more and its
   * body comes in two pieces. Counts the response.
   */
  hold(plan: DeliveryPlan = AT_ONCE): { delayMs: number; wire: WireForm | undefined } {
    const slow = this.slowWire !== undefined && ++this.responses % SLOW_BODY.every === 0;
    return { delayMs: plan.delayMs + (slow ? SLOW_BODY.headMs : 0), wire: slow ? this.slowWire : this.wire };
  }

  private writeNow(res: ServerResponse, reply: Reply, plan: DeliveryPlan, wire: WireForm | undefined): Promise<void> | undefined {
    const date = this.date(plan);
    const old = this.isOld(res.socket);
    if (date === undefined && !old) return writeReply(res, reply, wire, this.sleep);
    const headers = { ...reply.headers };
    if (date !== undefined) headers.Date = date;
    if (old) headers.Connection = 'close';
    return writeReply(res, { ...reply, headers }, wire, this.sleep);
  }

  private isOld(socket: Socket | null): boolean {
    const limit = this.options.connectionMs;
    if (limit === undefined || socket === null) return false;
    const opened = this.openedAt.get(socket);
    return opened !== undefined && this.now() - opened >= limit;
  }
}
