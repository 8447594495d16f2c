// The harness's politeness, counted from its own exchange log: per key, every 429 period (from the
// moment the harness received the 429, for as long as its Retry-After said, on our clock) and the
// key's requests that reached into it, each with why. A polite client sends none into a period but
// those already on the wire when the 429 came back, and the few the rate-limit suite sends early on
// purpose (marked earlyOnPurpose); anything else is a bug of the harness. Pure: the log in, figures out.
import { z } from 'zod';
import { readRateAnswer, readRetryAfter, resetAtMs } from '../rate-limit/vocabulary.ts';
import { keyLabelOf } from './exchange.ts';
import type { Exchange } from './exchange.ts';

export const KeyPoliteness = z.object({
  label: z.string(),
  segment: z.number().int().optional().describe("A merged report's: the load segment whose runner sent these requests, by its own clock (seqs are of that segment's exchanges.jsonl)"),
  refusals: z.number().int().describe("429s answered to the key's requests"),
  periods: z
    .number()
    .int()
    .describe('429 periods: from the arrival of a 429, for what its Retry-After names (read as the client reads it), else until its X-RateLimit-Reset; a 429 that arrives during a period extends it'),
  withoutPeriod: z.number().int().describe('429s that named no later moment (no readable Retry-After nor X-RateLimit-Reset, or one already past): they start no period'),
  inside: z
    .object({
      inFlight: z.number().int().describe('On the wire when the 429 that started the period came back (sent before it, answered after it or never): the server may have had them after it refused the key. For a burst, its sentAfterFirst429'),
      onPurpose: z.number().int().describe('Sent during the period on purpose (earlyOnPurpose): the one request of another operation of rate-limit.one-quota, the ban probe of a disposable key'),
      unexplained: z.number().int().describe('Sent during the period for no reason the harness has: a bug of the harness, to be 0'),
    })
    .describe("The key's requests inside its 429 periods, by why"),
  worstPeriod: z
    .object({
      seq: z.number().int().describe('The 429 that started it'),
      from: z.string().describe('ISO 8601: when that 429 arrived'),
      until: z.string().describe('ISO 8601: when the period ended'),
      requests: z.number().int().describe('Requests inside it, whatever why'),
    })
    .optional()
    .describe('The period with the most requests inside; absent without a period'),
  examples: z.array(z.number().int()).describe('Seqs of requests inside, the unexplained first, then those on purpose, then those in flight: at most 10'),
});
export type KeyPoliteness = z.infer<typeof KeyPoliteness>;

export type Reason = 'in-flight' | 'on-purpose' | 'unexplained';

/** One 429 period of a key, on our clock, with the requests inside it. */
export interface Period {
  /** The 429 that started it. */
  first: Exchange;
  from: number;
  until: number;
  inside: { exchange: Exchange; why: Reason }[];
}

const EXAMPLES = 10;

/** A request with the epoch ms (our clock) it went out, and when its answer (or its failure) came. */
interface Timed {
  e: Exchange;
  sent: number;
  end: number;
}

const timed = (e: Exchange): Timed => {
  const sent = Date.parse(e.startedAt);
  return { e, sent, end: sent + e.durationMs };
};

/**
 * The requests that count as a key's, by label: those carrying the key, in any carrier and as any
 * near miss, unless answered 401. A server that took a near miss or another carrier for the key
 * counted it against the key's quota, and may count it as sent early; one that answered 401 did
 * not know it for the key and counts nothing against it.
 */
export function keyRequests(exchanges: readonly Exchange[]): Map<string, Exchange[]> {
  const byKey = new Map<string, Exchange[]>();
  for (const e of exchanges) {
    const label = keyLabelOf(e.auth);
    if (label === undefined || e.status === 401) continue;
    const list = byKey.get(label);
    if (list) list.push(e);
    else byKey.set(label, [e]);
  }
  return byKey;
}

/**
 * Until when a 429 keeps its key out, on our clock, as the harness waits it out: the moment its
 * Retry-After names, measured from the answer's arrival (lib/rate-limit/vocabulary.ts, as the
 * client reads it); without a readable one, its X-RateLimit-Reset read in the server's time.
 * Undefined when it names neither.
 */
function refusedUntil({ e, end }: Timed): number | undefined {
  const a = readRateAnswer(end, 429, e.responseHeaders);
  return readRetryAfter(a.retryAfter, a.t, a.date)?.untilMs ?? (a.reset !== undefined ? resetAtMs(a.reset, a.t, a.date) : undefined);
}

/**
 * Why a request reaches into a period, or undefined when it does not. Either it was on the wire
 * when the 429 that started the period came back (sent before it, or with or before the request
 * that drew it; answered after it, or never), or it was sent while the period ran. Times are
 * whole milliseconds: a tie on the answer is broken by the log's order, in which a burst's answers
 * are recorded as they came (as its sentAfterFirst429 counts them).
 */
function reasonIn({ e, sent, end }: Timed, p: { first: Timed; from: number; until: number }): Reason | undefined {
  if (e.seq === p.first.e.seq) return undefined;
  // A load's requests on the wire when it stopped at its first 429 say so (inFlightAtStop); its
  // recorded times are rounded to the millisecond, so theirs may read a millisecond off the 429's.
  const atStop = e.inFlightAtStop === true && end >= p.from - 1 && sent <= p.from + 1;
  if (sent < p.from || sent <= p.first.sent) {
    const onTheWire = atStop || end > p.from || (end === p.from && e.seq > p.first.e.seq);
    if (!onTheWire) return undefined;
    return e.earlyOnPurpose !== undefined ? 'on-purpose' : 'in-flight';
  }
  if (sent >= p.until) return undefined;
  if (e.earlyOnPurpose !== undefined) return 'on-purpose';
  return atStop ? 'in-flight' : 'unexplained';
}

/**
 * A key's 429 periods, in order, each with the requests inside it. A 429 that arrives while a
 * period runs extends it to the later end (the key was already told to wait; a polite client
 * waits for the later moment) rather than starting another; one arriving at its end or later
 * starts the next. Each request is counted in one period at most, the first it reaches into.
 */
export function periodsOf(requests: readonly Exchange[]): { periods: Period[]; refusals: number; withoutPeriod: number } {
  const all = requests.map(timed);
  const refused = all.filter((t) => t.e.status === 429).sort((a, b) => a.end - b.end || a.e.seq - b.e.seq);
  const found: { first: Timed; from: number; until: number }[] = [];
  let withoutPeriod = 0;
  for (const t of refused) {
    const from = t.end;
    const until = refusedUntil(t);
    if (until === undefined || until <= from) {
      withoutPeriod += 1;
      continue;
    }
    const current = found.at(-1);
    if (current && from < current.until) current.until = Math.max(current.until, until);
    else found.push({ first: t, from, until });
  }
  const counted = new Set<number>();
  const periods = found.map((p): Period => {
    const inside: Period['inside'] = [];
    for (const t of all) {
      if (counted.has(t.e.seq)) continue;
      const why = reasonIn(t, p);
      if (why === undefined) continue;
      counted.add(t.e.seq);
      inside.push({ exchange: t.e, why });
    }
    return { first: p.first.e, from: p.from, until: p.until, inside };
  });
  return { periods, refusals: refused.length, withoutPeriod };
}

const ORDER: readonly Reason[] = ['unexplained', 'on-purpose', 'in-flight'];

/** Every key that got a 429 in the run, with its periods and the requests inside them by why. */
export function politenessOf(exchanges: readonly Exchange[]): KeyPoliteness[] {
  const out: KeyPoliteness[] = [];
  for (const [label, requests] of keyRequests(exchanges)) {
    const { periods, refusals, withoutPeriod } = periodsOf(requests);
    if (refusals === 0) continue;
    const inside = periods.flatMap((p) => p.inside);
    const count = (why: Reason) => inside.filter((x) => x.why === why).length;
    const worst = periods.reduce<Period | undefined>((w, p) => (w === undefined || p.inside.length > w.inside.length ? p : w), undefined);
    const examples = ORDER.flatMap((why) => inside.filter((x) => x.why === why).map((x) => x.exchange.seq)).slice(0, EXAMPLES);
    out.push({
      label,
      refusals,
      periods: periods.length,
      withoutPeriod,
      inside: { inFlight: count('in-flight'), onPurpose: count('on-purpose'), unexplained: count('unexplained') },
      ...(worst ? { worstPeriod: { seq: worst.first.seq, from: new Date(worst.from).toISOString(), until: new Date(worst.until).toISOString(), requests: worst.inside.length } } : {}),
      examples,
    });
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * One line for the console and the job summary when the harness sent requests into a key's 429
 * period for no reason it has (a bug of the harness, not of the server); undefined otherwise.
 */
export function politenessLapse(politeness: readonly KeyPoliteness[] | undefined): string | undefined {
  const keys = (politeness ?? []).filter((k) => k.inside.unexplained > 0);
  if (keys.length === 0) return undefined;
  const n = keys.reduce((sum, k) => sum + k.inside.unexplained, 0);
  const where = keys.map((k) => `${k.label}${k.segment !== undefined ? ` (segment ${k.segment})` : ''}: ${k.inside.unexplained}`).join(', ');
  return `The harness sent ${n} request${n === 1 ? '' : 's'} inside a key's 429 period for no reason it has (${where}): a bug of the harness, not of the server; see "The harness's politeness" in report.html`;
}
