// What a key may still send (lib/load/room.ts): the Remaining of the window the headers
// describe, the plan's quota less the harness's own count for the other. A table of answers and
// requests first; then the driver on the virtual clock against servers whose headers describe one
// window only, where nothing counts down towards the window that refuses: at most one request of
// any key reaches the server inside any 429 period.
import { describe, expect, it } from 'vitest';
import { countedRoom, type OwnCount, roomLeft } from '../../lib/load/room.ts';
import type { TimelinePoint } from '../../lib/result/rate-limits.ts';
import type { VariationId } from '../../targets/reference/variations.ts';
import { driveOnClock, T0 } from '../support/drive-on-clock.ts';

const QUOTA = { perMinute: 60, perDay: 1_000 };
const WINDOWS = { minute: 60, day: 86_400 };
/** The key's own requests, answered `secondsAgo` before T0. */
const own = (secondsAgo: number[], runners?: number): OwnCount => ({ quota: QUOTA, windows: WINDOWS, sent: secondsAgo.map((s) => T0 - s * 1000), ...(runners ? { runners } : {}) });
const answer = (status: number, limit: number | undefined, remaining: number | undefined): TimelinePoint => ({ t: T0, status, ...(limit !== undefined ? { limit } : {}), ...(remaining !== undefined ? { remaining } : {}) });
const times = (n: number, secondsAgo: number) => Array<number>(n).fill(secondsAgo);

describe('countedRoom: the quota less every request sent within the window\'s length', () => {
  it.each([
    { title: 'nothing sent', sent: [], window: 'minute' as const, room: 60 },
    { title: 'requests within the last minute count against the minute', sent: [1, 30, 59], window: 'minute' as const, room: 57 },
    { title: 'an answer a whole minute old or older no longer does', sent: [60, 61, 3_600], window: 'minute' as const, room: 60 },
    { title: 'the day counts every request of the last day', sent: [1, 60, 3_600, 86_399], window: 'day' as const, room: 996 },
    { title: 'more sent than the quota: below zero, nothing known to be left', sent: times(70, 10), window: 'minute' as const, room: -10 },
  ])('$title', ({ sent, window, room }) => {
    expect(countedRoom(own(sent), window, T0)).toBe(room);
  });

  it('a load segment counts its own requests for every runner (each sends its share)', () => {
    expect(countedRoom(own(times(10, 5), 3), 'minute', T0)).toBe(30);
  });
});

describe('roomLeft: the least over the windows, each by its headers or by the count', () => {
  it.each([
    { title: 'headers of the minute: their Remaining, the day far from spent by the count', answers: [answer(200, 60, 42)], sent: times(5, 1), room: 42 },
    { title: 'headers of the minute: the day by the count, when that is less', answers: [answer(200, 60, 42)], sent: times(990, 3_000), room: 10 },
    { title: "headers of the day: the minute by the count, not the day's Remaining", answers: [answer(200, 1_000, 800)], sent: times(20, 30), room: 40 },
    { title: 'headers of the day: their Remaining when it is the less', answers: [answer(200, 1_000, 7)], sent: times(20, 30), room: 7 },
    { title: 'the lowest Remaining of the answers that describe a window (answers arrive out of order)', answers: [answer(200, 60, 30), answer(200, 60, 28), answer(200, 60, 29)], sent: [], room: 28 },
    { title: 'a 4xx the quota counted states the room as a 2xx does', answers: [answer(404, 60, 12)], sent: [], room: 12 },
    { title: "a 429's Remaining is not the room (nor a 401's)", answers: [answer(429, 60, 0), answer(401, 60, 59)], sent: times(3, 1), room: 57 },
    { title: 'answers without Remaining: both windows by the count', answers: [answer(200, undefined, undefined)], sent: times(45, 2), room: 15 },
    { title: 'answers without Limit are read as the minute\'s', answers: [answer(200, undefined, 9)], sent: [], room: 9 },
  ])('$title', ({ answers, sent, room }) => {
    expect(roomLeft(own(sent), answers, T0)).toBe(room);
  });
});

/**
 * The local target's keys but its disposable one (the ban probe sends early on purpose): free, pro,
 * business and daily plans, on the catalogue's short windows.
 */
const KEYS = [
  { key: 'sk-room-free-1-1a2b3c', plan: 'free' },
  { key: 'sk-room-free-2-4d5e6f', plan: 'free' },
  { key: 'sk-room-pro-1-7a8b9c', plan: 'pro' },
  { key: 'sk-room-business-1-0d1e2f', plan: 'business' },
  { key: 'sk-room-daily-1-3a4b5c', plan: 'daily' },
];
const PLANS = { daily: { perMinute: 40, perDay: 100 } };
const LABELS = ['free#1', 'free#2', 'pro#1', 'business#1', 'daily#1'];
/** Requests of other suites with each key in the same window, before the rate-limit suite (what made the business key overrun). */
const EARLIER: Record<string, number> = { 'free#1': 30, 'pro#1': 100, 'business#1': 300, 'daily#1': 20 };

describe('headers of one window only: at most one request inside any 429 period, for every key', () => {
  // 40 ms each way: the fast part has requests in flight when the day refuses (only the keys whose
  // day binds: Pro and Business would not reach their minute's quota in a 4-second window).
  it.each<{ variation: VariationId; earlier: Record<string, number>; latencyMs: number; labels: string[] }>([
    { variation: 'headers-day-window', earlier: {}, latencyMs: 1, labels: LABELS },
    { variation: 'headers-day-window', earlier: EARLIER, latencyMs: 1, labels: LABELS },
    { variation: 'headers-minute-window', earlier: EARLIER, latencyMs: 1, labels: LABELS },
    { variation: 'headers-minute-window', earlier: { 'daily#1': 20 }, latencyMs: 40, labels: ['free#1', 'free#2', 'daily#1'] },
  ])('$variation, earlier traffic $earlier, $latencyMs ms each way', async ({ variation, earlier, latencyMs, labels }) => {
    const keys = KEYS.filter((_, i) => labels.includes(LABELS[i]!));
    const r = await driveOnClock({ keys, plans: PLANS, windows: { minute: 4, day: 40 }, variations: [variation], earlier, latencyMs });
    const stats = r.server.stats().byKey;
    const onPurpose = r.sim.exchanges.filter((e) => e.earlyOnPurpose !== undefined);
    expect(onPurpose).toHaveLength(1);
    for (const label of labels) {
      // The server's count of the key's requests that arrived inside each of its 429 periods.
      const periods = stats[label]!.earlyByEpisode;
      expect({ label, crowded: periods.filter((n) => n > 1) }).toEqual({ label, crowded: [] });
      // The mix's one request into its 429 is the only one of its key: nothing else in its period, nor in any other.
      const mine = onPurpose.filter((e) => e.auth.kind === 'key' && e.auth.label === label).length;
      expect({ label, early: periods.reduce((a, b) => a + b, 0) }).toEqual({ label, early: mine });
      const burst = r.runs.get(label)!.burst!;
      if (burst.ended === 'first-429') expect({ label, inFlight: burst.inFlightAtFirst429 }).toEqual({ label, inFlight: expect.toBeOneOf([0, 1]) });
      // Driven carefully, still judged: nothing fails but the headers' reading (a should).
      expect({ label, failed: r.failed(label).filter((id) => id !== 'rate-limit.binding-headers' && id !== 'rate-limit.retry-after-consistent') }).toEqual({ label, failed: [] });
    }
    expect(r.findings('daily#1').get('rate-limit.daily-quota')?.outcome).toBe('pass');
  });
});
