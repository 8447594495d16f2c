// The careful part of a burst: one request at a time, so that nothing is in flight when the first
// 429 comes back. No start-up cost between requests, so a refilling limiter cannot refill faster
// than this part spends. It hands back to the fast part as soon as there is plenty of room again
// (approach.ts: the least over the plan's windows).
//
// At the last request of the quota (an accepted response says Remaining 1), two requests go out
// together on two connections already open: a limiter that checks, then counts, lets both through.
// That is the one moment two requests are in flight; at most one of them can get a 429.
//
// A request whose answer cannot be read (reset, timeout, a framing the transport cannot follow)
// ends the part at once (ended `no-answer`): near the limit that answer may have been the first
// 429, and the next request would then go into a 429 period, which is what this part is for to
// avoid. A passing fault costs the key's burst (its checks say why they were not judged), never a
// request sent after a refusal.
import { burstPoint, type TimelinePoint } from '../result/rate-limits.ts';
import { histogramOf, percentilesOf } from '../result/latency.ts';
import { countSent, growing, type OwnCount, roomLeft } from './room.ts';
import { windowDescribed } from '../rate-limit/vocabulary.ts';
import { isAccepted } from '../status.ts';
import type { Clock } from './clock.ts';
import { type BurstOptions, type BurstResult, transportCode, type Connect, type Connection, type Unanswered } from './fast.ts';

export interface CarefulOptions extends Omit<BurstOptions, 'connections'> {
  /** Stop (and let the fast part go on) once an accepted response says at least this much is left. */
  roomAbove: number;
  /** Send the two requests together at Remaining 1 (needs two connections). */
  pairAtLastOne?: boolean;
  /**
   * The key's plan and its requests so far (approach.ts): the hand-back follows the least room over
   * the plan's windows, and the pair goes out only at the minute's Remaining 1 with the day's room
   * not spent by the harness's own count. Without it, the answers' Remaining.
   */
  own?: OwnCount;
}

/** Two requests released together at Remaining 1, and the accepted response that said 1 was left. */
export interface BoundaryPair {
  before: TimelinePoint;
  together: TimelinePoint[];
}

export async function careful(options: CarefulOptions, io: { clock: Clock; connect: Connect }): Promise<BurstResult & { room: boolean; pair?: BoundaryPair }> {
  const { clock } = io;
  const url = new URL(options.url);
  const open = () => io.connect(url.origin);
  // Requests alternate between two connections, so that both are open when the pair goes out.
  const clients = options.pairAtLastOne ? [open(), open()] : [open()];
  let pair: BoundaryPair | undefined;
  const points: TimelinePoint[] = [];
  const latencies: number[] = [];
  const startedAt = clock.now();
  const gapMs = 1000 / Math.max(1, options.rate);
  const unanswered: Unanswered[] = [];
  let sent = 0;
  let ended: BurstResult['ended'] = 'max-requests';
  let room = false;
  const own = options.own && growing(options.own);
  /** What is left after an answer, at the moment it came. */
  const roomAfter = (p: TimelinePoint): number | undefined => (own ? roomLeft(own, [p], clock.now()) : p.remaining);
  try {
    while (sent < options.maxRequests) {
      if (clock.now() - startedAt >= options.maxDurationMs) {
        ended = 'max-duration';
        break;
      }
      await clock.sleep(startedAt + sent * gapMs - clock.now());
      const last = points.at(-1);
      // The pair at the minute's last request (the day's is not raced), unless the day may be spent.
      const atLastOne = last !== undefined && isAccepted(last) && last.remaining === 1 && (!own || windowDescribed(own.quota, last) === 'minute') && roomAfter(last) === 1;
      const together = options.pairAtLastOne && !pair && atLastOne && sent + 2 <= options.maxRequests;
      const batch = together ? clients : [clients[sent % clients.length]!];
      sent += batch.length;
      const answers = await Promise.all(batch.map((client) => send(client, clients.indexOf(client) + 1)));
      const got = answers.filter((a): a is TimelinePoint => a !== undefined).sort((a, b) => a.t - b.t);
      if (together) pair = { before: last, together: got };
      points.push(...got);
      if (own) countSent(own, got, answers.length, clock.now());
      if (got.some((p) => p.status === 429)) {
        ended = 'first-429';
        break;
      }
      if (got.length < answers.length) {
        ended = 'no-answer';
        break;
      }
      const point = got.at(-1);
      const left = point && roomAfter(point);
      if (point && left !== undefined && left > options.roomAbove && isAccepted(point)) {
        room = true;
        break;
      }
    }
  } finally {
    for (const c of clients) c.close();
  }
  const histogram = histogramOf(latencies);
  return {
    points,
    sent,
    startedAt,
    durationMs: clock.now() - startedAt,
    latency: percentilesOf(histogram),
    histogram,
    unanswered,
    ended,
    room,
    ...(pair ? { pair } : {}),
  };

  async function send(connection: Connection, conn: number): Promise<TimelinePoint | undefined> {
    const t0 = clock.now();
    try {
      const res = await connection.get(url.pathname + url.search, options.headers);
      const t = clock.now();
      latencies.push(t - t0);
      return { ...burstPoint(t, res.status, res.header, res.body), sentAt: t0, conn };
    } catch (err) {
      unanswered.push({ sentAt: t0, code: transportCode(err) });
      return undefined;
    }
  }
}
