// A burst that approaches a quota fast and crosses it carefully. Requests already on the wire when
// the first 429 comes back still reach the server, and a server that bans keys for requests sent
// during a 429 period counts them. So the load runs on several connections (fast.ts) only while
// plenty is left, then on one connection, one request at a time (careful.ts), so that nothing is
// in flight when the first 429 arrives: at most the fast part's last requests if the server
// refuses earlier than it said. What is left is the least over the plan's windows: the Remaining
// of the window the headers describe, and for the other the plan's quota less the harness's own
// count (room.ts), so the careful part is reached before any window can refuse. When there is room
// again (a refilling limiter, old requests out of a window's length), the fast part takes over.
import { type TimelinePoint } from '../result/rate-limits.ts';
import { type LatencyHistogram, mergeHistograms, percentilesOf } from '../result/latency.ts';
import { countSent, growing, type OwnCount, roomLeft } from './room.ts';
import type { BoundaryPair, CarefulOptions } from './careful.ts';
import type { Clock } from './clock.ts';
import type { BurstOptions, BurstResult, Unanswered } from './fast.ts';
import { isAccepted } from '../status.ts';

export interface ApproachOptions extends Omit<BurstOptions, 'connections' | 'maxRequests'> {
  /** Connections of the fast phase. */
  connections: number;
  /** What was left when the burst started (room.ts's roomLeft, or the plan's quota when nothing is known). */
  remaining: number;
  /** Hard cap on requests sent, all phases together. */
  maxRequests: number;
  /**
   * A load segment (runner I of N): this runner's part is 1/N of the rate (already divided) and of
   * what the server says is left; only the runner that `crosses` goes on to the limit, one request
   * at a time, so that no more requests are in flight at the crossing than one runner would have.
   */
  share?: { of: number; crosses: boolean };
  /**
   * The key's plan and the requests sent with it before the burst: what is left is then the least
   * over the plan's windows, the one the headers do not describe counted by the harness (every
   * request of the burst counts). Without it, the answers' Remaining, else a count down.
   */
  own?: OwnCount;
}

export interface ApproachResult extends BurstResult {
  /** Requests sent before the first 429 came back but not answered by then: in flight at the crossing. */
  inFlightAtFirst429: number;
  /** Phases run, e.g. ["fast 52", "careful 9"]. */
  phases: string[];
  /** The two requests sent together at Remaining 1, when the burst got that far. */
  pair?: BoundaryPair;
}

/** Requests left to the limit at which the load slows to one connection. */
export function carefulMargin(connections: number): number {
  return 2 * connections;
}


/**
 * Requests left after a phase at `now`: with the key's own count, the least over its plan's windows
 * (roomLeft); without it, the lowest Remaining an accepted response showed, else a count down.
 */
function leftAfter(points: readonly TimelinePoint[], before: number, own: OwnCount | undefined, now: number): number {
  if (own) return roomLeft(own, points, now);
  const remainings = points.filter(isAccepted).map((p) => p.remaining).filter((r): r is number => r !== undefined);
  return remainings.length > 0 ? Math.min(...remainings) : before - points.filter(isAccepted).length;
}

/** The two parts of a burst: fast over several connections, careful one request at a time. */
export interface Phases {
  fast(o: BurstOptions): Promise<BurstResult>;
  careful(o: CarefulOptions): Promise<BurstResult & { room: boolean; pair?: BoundaryPair }>;
}

export async function approach(options: ApproachOptions, phases: Phases, clock: Clock): Promise<ApproachResult> {
  const startedAt = clock.now();
  const margin = carefulMargin(options.connections);
  const points: TimelinePoint[] = [];
  const done: string[] = [];
  const histograms: LatencyHistogram[] = [];
  const of = Math.max(1, options.share?.of ?? 1);
  let sent = 0;
  const unanswered: Unanswered[] = [];
  // This runner's part of what is left. A segment that does not cross stops its fast parts a
  // margin earlier than the one that does, so that its last requests are answered before the
  // crossing one, going on alone, gets near the limit.
  let left = Math.floor(options.remaining / of);
  const holdsBack = options.share !== undefined && !options.share.crosses;
  let ended: BurstResult['ended'] = 'max-requests';
  let inFlightAtFirst429 = 0;
  let pair: BoundaryPair | undefined;
  let opened = 0;
  // Every request of the key, the burst's own as they are answered (or not).
  const own = options.own && growing(options.own);
  while (sent < options.maxRequests) {
    const timeLeft = options.maxDurationMs - (clock.now() - startedAt);
    if (timeLeft <= 0) {
      ended = 'max-duration';
      break;
    }
    // Hysteresis: a fast part costs a start-up pause that a refilling limiter fills again, so it
    // runs only with room to spare, and the careful part hands back only with more than that.
    const fast = left > (holdsBack ? 3 : 2) * margin;
    if (!fast && options.share && !options.share.crosses) {
      // The runner that crosses the limit takes it from here.
      ended = 'max-requests';
      break;
    }
    const common = { ...options, maxRequests: options.maxRequests - sent, maxDurationMs: timeLeft };
    const r: BurstResult & { pair?: BoundaryPair } = fast
      ? await phases.fast({ ...common, maxRequests: Math.min(common.maxRequests, left - (holdsBack ? 2 * margin : margin)) })
      : // The segment that crosses does so alone, one request at a time: at the whole rate.
        await phases.careful({ ...common, rate: options.rate * of, roomAbove: 4 * margin * of, pairAtLastOne: options.connections >= 2 && !pair, ...(own ? { own } : {}) });
    pair ??= r.pair;
    // Each part opens its own connections: numbered on from the parts before.
    const base = opened;
    for (const p of r.points) if (p.conn !== undefined) p.conn += base;
    opened = Math.max(opened, ...r.points.map((p) => p.conn ?? 0));
    done.push(`${fast ? 'fast' : 'careful'} ${r.sent}`);
    const first429 = r.points.findIndex((p) => p.status === 429);
    if (first429 !== -1) inFlightAtFirst429 = r.sent - (first429 + 1);
    points.push(...r.points);
    sent += r.sent;
    unanswered.push(...r.unanswered);
    histograms.push(r.histogram);
    const handedBack = 'room' in r && r.room;
    if (r.ended !== 'max-requests' || (!fast && !handedBack) || r.sent === 0) {
      ended = r.ended;
      break;
    }
    if (own) countSent(own, r.points, r.sent, clock.now());
    left = Math.floor(leftAfter(r.points, left * of, own, clock.now()) / of);
  }
  const histogram = mergeHistograms(histograms);
  return { points, sent, startedAt, durationMs: clock.now() - startedAt, latency: percentilesOf(histogram), histogram, unanswered, ended, inFlightAtFirst429, phases: done, ...(pair ? { pair } : {}) };
}
