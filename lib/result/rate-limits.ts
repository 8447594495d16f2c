// The rate-limit record: what one key's run saw (responses as timeline points, the burst, the
// recovery, the day), defined once. The load driver fills it, the checks judge it, and report.json
// keeps each key's summary (RateLimitKey, made by lib/checks/key-summary.ts). Pure: no clock, no sockets.
import { z } from 'zod';
import { readRateAnswer } from '../rate-limit/vocabulary.ts';
import { isAccepted } from '../status.ts';
import { PlanQuota } from '../plans.ts';
import { Latency, LatencyHistogram } from './latency.ts';

/** One response of a key's run: its status and the rate-limit headers it carried. */
export const TimelinePoint = z.object({
  t: z.number().describe('Epoch ms when the response arrived'),
  sentAt: z.number().optional().describe('Epoch ms when its request was sent (answers of a load)'),
  status: z.number().int(),
  limit: z.number().int().optional(),
  remaining: z.number().int().optional(),
  reset: z.number().int().optional(),
  retryAfter: z.string().optional(),
  date: z.string().optional(),
  afterStop: z.boolean().optional().describe('Was in flight when the load stopped at the first 429'),
  conn: z.number().int().optional().describe('Which connection of the burst carried it (1, 2, …; each part of a burst opens its own)'),
  /** Kept for responses other than 2xx only (a 429's body is judged; thousands of pages are not). */
  body: z.string().optional(),
  contentType: z.string().optional(),
  unread: z
    .record(z.string(), z.string())
    .optional()
    .describe('X-RateLimit-* headers as sent (lower-case names) that are not integers, so not in limit, remaining or reset: kept so that the checks quote the server\'s words'),
});
export type TimelinePoint = z.infer<typeof TimelinePoint>;

/** When an answer's request was sent: a load's answers say; a look's, sent alone, is taken as its arrival. */
export const sentAtOfPoint = (p: Pick<TimelinePoint, 'sentAt' | 't'>): number => p.sentAt ?? p.t;


/** One burst of the daily quota's spending. */
const DayBurst = z.object({
  sent: z.number().int(),
  accepted: z.number().int(),
  sentAfterFirst429: z.number().int().optional().describe('As load.sentAfterFirst429, for this burst; absent when it saw no 429'),
});

/** One request's answer, as a probe saw it. */
const Look = z.object({
  t: z.number(),
  status: z.number().int(),
  /** Lower-case names. */
  headers: z.record(z.string(), z.string()),
});
export type Look = z.infer<typeof Look>;

const BurstData = z.object({
  points: z.array(TimelinePoint),
  sent: z.number().int(),
  startedAt: z.number(),
  durationMs: z.number(),
  askedRate: z.number(),
  /** no-answer: a request got no answer that could be read (reset, timeout, framing), and the burst sent nothing more. */
  ended: z.enum(['first-429', 'max-requests', 'max-duration', 'no-answer']),
  latency: Latency,
  /** Every response time of the burst (the percentiles come from it). */
  latencyHistogram: LatencyHistogram.optional(),
  /** When it ended at a 429: requests sent but not answered when that 429 arrived. */
  inFlightAtFirst429: z.number().int().optional(),
  /** Two requests sent together on two connections when an accepted response said Remaining 1. */
  boundaryPair: z.object({ before: TimelinePoint, together: z.array(TimelinePoint) }).optional(),
});
export type BurstData = z.infer<typeof BurstData>;

/** Requests a polite client sends with a spent day's key: one after each Retry-After, this many. */
export const DAY_FOLLOW_UPS = 2;

const DayData = z.object({
  /** Accepted requests from the first burst of the day test to the day block. */
  accepted: z.number().int(),
  /** The server's second (its Date) of each accepted request of the key in the run, to count them per day window. */
  acceptedAt: z.array(z.number()),
  /** The server's second each of them was sent in (same order): a slow answer is dated after it was let through. */
  acceptedFrom: z.array(z.number()).optional(),
  /** Seconds by which the service's Dates disagreed between answers (instances' clocks): acceptedFrom and acceptedAt are widened by as much. */
  dateSkew: z.number().int().optional(),
  /** The 429 that blocked for the day, if one came. */
  block: TimelinePoint.optional(),
  /** Each burst of the loop (one per minute window). */
  bursts: z.array(DayBurst),
  /**
   * Why the loop ended: the day's 429 (followed as far as the harness waits), the key let through
   * again after it (a new or refilling day), refused again after waiting out each 429, more
   * accepted than two days allow, the time, or a wait longer than the harness sits out before
   * the day's 429 (KeyRun.daySkipped says which): the day is still counted from what was seen.
   */
  ended: z.enum(['day-block', 'reopened', 'still-refused', 'over-quota', 'time', 'too-long']),
  elapsedMs: z.number(),
  /** Requests the day test sent: its looks, bursts and follow-ups. */
  requests: z.number().int().optional(),
  /** After the day's 429: one request after each Retry-After, each the evidence of the 429 before it. */
  followUps: z.array(TimelinePoint).optional(),
  /** X-RateLimit-Reset of the accepted answers whose headers describe the day: one value (give or take rounding) for a fixed day. */
  dayResets: z.array(z.number().int()).optional(),
});
export type DayData = z.infer<typeof DayData>;

/** The operations a mix of requests draws on: the interface's three and `GET /store/orders`. */
export const MIX_OPERATIONS = ['listPets', 'getPet', 'createPet', 'listOrders'] as const;
export type MixOperation = (typeof MIX_OPERATIONS)[number];

/** One answer of the mix: a timeline point, and the operation its request named. */
export const MixPoint = TimelinePoint.extend({ op: z.enum(MIX_OPERATIONS) });
export type MixPoint = z.infer<typeof MixPoint>;

/**
 * One quota per key: from a look early in a minute window, requests of every
 * operation (valid and not: 200, 400, 404 and what the orders endpoint answers) until the first
 * 429, then one request of another operation at once.
 */
const MixData = z.object({
  start: Look,
  /** What the count starts from: the look's Remaining, at most the plan's per-minute quota. */
  expected: z.number().int(),
  points: z.array(MixPoint),
  ended: z.enum(['first-429', 'over-quota', 'time']),
  durationMs: z.number(),
  /** Sent right after the first 429, with another operation than the refused one. */
  other: MixPoint.optional(),
});
export type MixData = z.infer<typeof MixData>;

/** A 429 of the key within the plan's minute quota (lib/rate-limit/within-quota.ts), whichever suite met it. */
export const EarlyRefusal = z.object({
  seq: z.number().int().optional().describe('The 429\'s exchange'),
  suite: z.string(),
  at: z.number().describe('Epoch ms, when the 429 arrived'),
  sent: z.number().int().describe("The key's requests within one minute window's length before it, the refused one included"),
  quota: z.number().int(),
  seconds: z.number().int(),
});
export type EarlyRefusal = z.infer<typeof EarlyRefusal>;

/**
 * Everything one key's run saw, as the checks judge it. A load segment's report.json keeps it per
 * key (rateLimits[].raw), so that `merge` judges the segments' runs again as one.
 */
export const KeyRunRecord = z.object({
  start: Look.optional(),
  /** 429s within the plan's minute quota: the burst's first 429, and those the other suites met. */
  refusedWithinQuota: z.array(EarlyRefusal).optional(),
  burst: BurstData.optional(),
  retry: z.object({ waitedMs: z.number(), next: Look }).optional(),
  /** Why the recovery after the first 429 was not tried (a wait longer than the harness allows). */
  retrySkipped: z.string().optional(),
  atReset: z
    .object({
      refusal: TimelinePoint.describe("The burst's last 429, whose X-RateLimit-Reset the request was sent at"),
      reset: z.number().int().describe("That 429's X-RateLimit-Reset (the server's Unix seconds)"),
      slackMs: z.number().describe('How long after the moment Reset names (on the server\'s clock) the request was aimed: a second for its rounding, and the noise the burst\'s Resets showed'),
      aimedAt: z.number().describe('Epoch ms on our clock the request was aimed at: Reset read from the 429\'s Date at its latest, plus slackMs'),
      sentAt: z.number().describe('Epoch ms on our clock it was sent (later than aimedAt when a Retry-After still ran)'),
      next: Look,
      sameAsRetry: z.boolean().optional().describe('It was also the request after Retry-After (retry): Retry-After named no moment before Reset'),
    })
    .optional()
    .describe('After the first 429, one request sent at the moment its X-RateLimit-Reset named (rate-limit.served-at-reset)'),
  /** Why no request was sent at the first 429's Reset (a Retry-After naming a later moment, a ban, a Reset beyond what the harness waits). */
  atResetSkipped: z.string().optional(),
  isolation: z.object({ exhausted: z.string(), before: Look, after: Look }).optional(),
  day: DayData.optional(),
  daySkipped: z.string().optional(),
  mix: MixData.optional(),
  /** Why this key did not spend a window with a mix of operations. */
  mixSkipped: z.string().optional(),
  ban: z.object({ statuses: z.array(z.number().int()), last: Look.optional().describe('The last answer to the requests sent early'), after: Look }).optional(),
  /**
   * The key was refused for longer than the harness waits before anything was driven (banned, by
   * an earlier run or otherwise): why, and the refusal. Its checks skip with that reason.
   */
  unavailable: z.object({ reason: z.string(), refusal: Look }).optional(),
});
export type KeyRunRecord = z.infer<typeof KeyRunRecord>;

export interface KeyRun extends KeyRunRecord {
  label: string;
  plan: string;
  quota: PlanQuota;
  /** Window lengths in seconds. */
  windows: { minute: number; day: number };
}

/** A key's run as a segment's report keeps it (without what the target config says anyway). */
export function keyRunRecord(run: KeyRun): KeyRunRecord {
  const { label: _label, plan: _plan, quota: _quota, windows: _windows, ...record } = run;
  return record;
}

/** What report.json keeps of one key's run: the timeline (for charts) and the load figures. */
export const RateLimitKey = z.object({
  label: z.string(),
  plan: z.string(),
  quota: PlanQuota,
  windows: z.object({ minute: z.number().int(), day: z.number().int() }),
  behaviour: z.string().describe('What the limiter looked like: fixed window, refilling, or not observed'),
  timeline: z.array(TimelinePoint),
  load: z
    .object({
      sent: z.number().int(),
      accepted: z.number().int(),
      rejected: z.number().int(),
      other: z.number().int(),
      inFlightAtStop: z.number().int(),
      sentAfterFirst429: z
        .number()
        .int()
        .optional()
        .describe('Requests sent before the first 429 came back and not yet answered: they reach the server after its first 429'),
      durationMs: z.number(),
      askedRate: z.number(),
      achievedRate: z.number(),
      latency: Latency,
      latencyHistogram: LatencyHistogram.optional().describe('Every response time of the burst, [ms, count] pairs: what the percentiles came from'),
    })
    .optional(),
  dayBursts: z
    .array(DayBurst)
    .optional()
    .describe("Spending the daily quota: one burst per minute window, each with what reached the server after its first 429"),
  day: z
    .object({
      requests: z.number().int().describe('Requests the day test sent (its looks, bursts and the requests after the day\'s 429), apart from the rest of the suite'),
      accepted: z.number().int(),
      ended: z.string().describe("day-block (its 429 followed as far as the harness waits), reopened (let through again after it), still-refused, over-quota, time or too-long (a wait before the day's 429 longer than the harness sits out)"),
      elapsedMs: z.number(),
      block: TimelinePoint.optional().describe("The day's first 429"),
      followUps: z.array(TimelinePoint).describe("One request after each of the spent day's Retry-Afters"),
    })
    .optional()
    .describe('The day test of the key (the day quota spent and followed to its end), shown apart'),
  raw: KeyRunRecord.optional().describe('Load segments only (--load-segment): everything the key\'s run saw, for `merge` to judge the segments as one run'),
});
export type RateLimitKey = z.infer<typeof RateLimitKey>;

/** A response of a load burst: its point, with the body and Content-Type kept for anything but a 2xx. */
export function burstPoint(t: number, status: number, header: (name: string) => string | undefined, body: string): TimelinePoint {
  const point: TimelinePoint = readRateAnswer(t, status, header);
  // A header sent but not read as an integer (a fraction, a unit) is kept as sent: recorded as missing, it would misname the fault.
  const read = { 'x-ratelimit-limit': point.limit, 'x-ratelimit-remaining': point.remaining, 'x-ratelimit-reset': point.reset };
  for (const [name, value] of Object.entries(read)) {
    const sent = header(name);
    if (sent !== undefined && value === undefined) point.unread = { ...point.unread, [name]: sent };
  }
  if (!isAccepted(status)) {
    point.body = body.slice(0, 4096);
    const type = header('content-type');
    if (type !== undefined) point.contentType = type;
  }
  return point;
}

/** The headers a timeline point keeps, as a response would carry them (lower-case names). */
export function headersOf(p: TimelinePoint): Record<string, string> {
  const headers: Record<string, string> = {};
  if (p.limit !== undefined) headers['x-ratelimit-limit'] = String(p.limit);
  if (p.remaining !== undefined) headers['x-ratelimit-remaining'] = String(p.remaining);
  if (p.reset !== undefined) headers['x-ratelimit-reset'] = String(p.reset);
  if (p.retryAfter !== undefined) headers['retry-after'] = p.retryAfter;
  if (p.date !== undefined) headers.date = p.date;
  if (p.contentType !== undefined) headers['content-type'] = p.contentType;
  return { ...headers, ...p.unread };
}

/** Every response of the key's run as timeline points, probes included, in time order. */
export function pointsOf(run: KeyRun): TimelinePoint[] {
  const points = [...(run.start ? [readRateAnswer(run.start)] : []), ...(run.burst?.points ?? []), ...(run.retry ? [readRateAnswer(run.retry.next)] : [])];
  return points.sort((a, b) => a.t - b.t);
}
