// Load segments: runner I of N (a CI job matrix, as k6's execution segments) takes its share of
// each burst, and every runner drives the same key at the same agreed moment, so that their loads
// meet in the same window of the server. No runner talks to another: the agreed start time, the
// target config and the segment numbers are all they share. Pure: no clock, no sockets.
import { UsageError } from '../errors.ts';
import type { TargetKey } from '../config/schema.ts';

export interface Segment {
  /** 1-based. */
  index: number;
  count: number;
  /** Epoch ms every runner agreed on (--start-at). */
  startAt: number;
}

/** The most runners one load may be split over. */
export const MAX_SEGMENTS = 64;

/** `--load-segment I/N`. */
export function parseSegment(value: string): { index: number; count: number } {
  const m = /^\s*([0-9]+)\s*\/\s*([0-9]+)\s*$/.exec(value);
  if (!m) throw new UsageError(`--load-segment takes I/N (this runner's number and how many runners share the load, e.g. 2/4), not "${value}"`);
  const [index, count] = [Number(m[1]), Number(m[2])];
  if (count < 1 || count > MAX_SEGMENTS) throw new UsageError(`--load-segment ${value}: N must be between 1 and ${MAX_SEGMENTS}`);
  if (index < 1 || index > count) throw new UsageError(`--load-segment ${value}: I must be between 1 and N (${count})`);
  return { index, count };
}

/** An ISO 8601 time with its zone (Z or ±hh:mm): runners on machines in other zones read it alike. */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** How far ahead --start-at may be: a CI matrix starts its jobs within minutes, not days. */
const MAX_LEAD_MS = 24 * 3600 * 1000;

/** `--start-at`: the moment every runner starts its load. In the past, or more than a day away, is a usage error. */
export function parseStartAt(value: string, now: number): number {
  const at = ISO_WITH_ZONE.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (Number.isNaN(at)) throw new UsageError(`--start-at takes an ISO 8601 time with its zone, e.g. 2026-11-24T18:30:00Z, not "${value}"`);
  if (at < now - 1000) {
    throw new UsageError(`--start-at ${value} is ${Math.round((now - at) / 1000)} s in the past: the runners would not line up; give every runner the same time far enough ahead for all of them to start`);
  }
  if (at - now > MAX_LEAD_MS) throw new UsageError(`--start-at ${value} is more than a day away`);
  return at;
}

/** How long after --start-at the first keys are driven: room for the first look at every key. */
export const FIRST_SLOT_AFTER_MS = 2_000;

/**
 * A key's slot: long enough to wait for a fresh window (at most one), burst through it (at most
 * one) and a little more. Recoveries and the ban probe go on after the slot, beside the next key.
 */
export function slotMs(windowSeconds: number): number {
  return (2 * windowSeconds + 2) * 1000;
}

/**
 * When each key is driven: the plans' groups share the lanes as the suite runs them (group g in
 * lane g mod lanes), and within a lane the keys follow each other, one slot each. Every runner
 * computes the same table from the same config and start time.
 */
export function keySlots(groups: readonly (readonly TargetKey[])[], lanes: number, startAt: number, windowSeconds: number): Map<string, number> {
  const slots = new Map<string, number>();
  const next = Array.from({ length: Math.max(1, lanes) }, () => 0);
  groups.forEach((group, g) => {
    const lane = g % next.length;
    for (const key of group) slots.set(key.label, startAt + FIRST_SLOT_AFTER_MS + next[lane]!++ * slotMs(windowSeconds));
  });
  return slots;
}

/** How late past its slot a runner may still drive a key (a quarter of a window, at least a second): later, the runners' loads would not meet. */
export function lateByMs(windowSeconds: number): number {
  return Math.max(1_000, (windowSeconds * 1000) / 4);
}

/** The suites a runner runs: the first all it was asked for, the others only the rate-limit suite. */
export function segmentSuites(suites: readonly string[], segment: Pick<Segment, 'index' | 'count'>): string[] {
  if (!suites.includes('rate-limit')) throw new UsageError(`--load-segment splits the rate-limit suite, which is not among the suites asked for (${suites.join(', ')})`);
  return segment.index === 1 ? [...suites] : ['rate-limit'];
}
