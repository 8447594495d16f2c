// The harness's politeness counted from its exchange log: every 429 period of a key, on our clock,
// and the key's requests inside it by why (in flight, on purpose, unexplained).
import { describe, expect, it } from 'vitest';
import type { AuthUsed, Exchange } from '../../../lib/result/exchange.ts';
import { keyRequests, periodsOf, politenessLapse, politenessOf } from '../../../lib/result/politeness.ts';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const KEY: AuthUsed = { kind: 'key', label: 'free#1', env: 'FREE_KEY', header: 'Bearer $FREE_KEY' };
const OTHER: AuthUsed = { kind: 'key', label: 'free#2', env: 'FREE_KEY_2', header: 'Bearer $FREE_KEY_2' };
const httpDate = (ms: number) => new Date(ms).toUTCString();

interface Ex {
  /** Sent and answered, ms after T0 (`at` undefined: no answer, recorded with durationMs 0). */
  sent: number;
  at?: number;
  status?: number;
  headers?: Record<string, string>;
  auth?: AuthUsed;
  inFlightAtStop?: true;
  earlyOnPurpose?: string;
}

/** The log, in the order given (seq = position). */
function log(...xs: Ex[]): Exchange[] {
  return xs.map((x, seq) => ({
    seq,
    suite: 'rate-limit',
    method: 'GET',
    url: 'http://127.0.0.1/v1/pets?limit=1',
    auth: x.auth ?? KEY,
    requestHeaders: {},
    ...(x.at !== undefined ? { status: x.status ?? 200 } : { transportError: 'NO_RESPONSE_AFTER_STOP' }),
    responseHeaders: x.headers ?? {},
    ...(x.inFlightAtStop ? { inFlightAtStop: true } : {}),
    ...(x.earlyOnPurpose !== undefined ? { earlyOnPurpose: x.earlyOnPurpose } : {}),
    startedAt: new Date(T0 + x.sent).toISOString(),
    durationMs: x.at === undefined ? 0 : x.at - x.sent,
  }));
}

/** A 429 answered `at` ms after T0 with that Retry-After (null: none), and the Date of that second. */
const refused = (sent: number, at: number, retryAfter: string | null = '2', more: Partial<Ex> = {}): Ex => ({
  sent,
  at,
  status: 429,
  headers: { ...(retryAfter !== null ? { 'retry-after': retryAfter } : {}), date: httpDate(T0 + at) },
  ...more,
});
const ok = (sent: number, at: number, more: Partial<Ex> = {}): Ex => ({ sent, at, status: 200, ...more });

const figures = (exchanges: Exchange[], label = 'free#1') => politenessOf(exchanges).find((k) => k.label === label);
const inside = (exchanges: Exchange[]) => figures(exchanges)?.inside;

describe('politenessOf: a 429 period and the requests inside it', () => {
  it("a burst's four connections: the 429 on one, three on the wire when it came back (two answered after it, one never), all in flight", () => {
    const exchanges = log(
      ok(0, 5),
      refused(96, 100),
      ok(97, 101, { inFlightAtStop: true }),
      refused(98, 102, '2', { inFlightAtStop: true }),
      { sent: 100, inFlightAtStop: true }, // recorded without a response, as sent by the first 429
      ok(2_110, 2_111), // the retry, after the last 429's Retry-After
    );
    expect(figures(exchanges)).toEqual({
      label: 'free#1',
      refusals: 2,
      periods: 1,
      withoutPeriod: 0,
      inside: { inFlight: 3, onPurpose: 0, unexplained: 0 },
      worstPeriod: { seq: 1, from: new Date(T0 + 100).toISOString(), until: new Date(T0 + 2_102).toISOString(), requests: 3 },
      examples: [2, 3, 4],
    });
  });

  it("the mix's one request of another operation sent at once into the 429's period is on purpose", () => {
    const exchanges = log(ok(0, 3), refused(3, 6), ok(6, 8, { status: 429, headers: { 'retry-after': '2' }, earlyOnPurpose: 'another operation' }), ok(2_010, 2_012));
    expect(inside(exchanges)).toEqual({ inFlight: 0, onPurpose: 1, unexplained: 0 });
    expect(figures(exchanges)?.examples).toEqual([2]);
  });

  it('a request sent exactly when Retry-After ends is not inside; one a millisecond earlier is unexplained', () => {
    expect(inside(log(refused(0, 10), ok(2_010, 2_011)))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 0 });
    const early = log(refused(0, 10), ok(2_009, 2_011));
    expect(inside(early)).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 1 });
    expect(figures(early)?.examples).toEqual([1]);
    expect(politenessLapse(politenessOf(early))).toBe('The harness sent 1 request inside a key\'s 429 period for no reason it has (free#1: 1): a bug of the harness, not of the server; see "The harness\'s politeness" in report.html');
  });

  it("another key's request inside the period is not counted, nor a key's that got no 429 listed", () => {
    const exchanges = log(refused(0, 10), ok(500, 501, { auth: OTHER }), ok(600, 601, { auth: { kind: 'none' } }));
    expect(inside(exchanges)).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 0 });
    expect(politenessOf(exchanges).map((k) => k.label)).toEqual(['free#1']);
  });

  it('reads an HTTP-date Retry-After against the Date, as the client does', () => {
    const at = 1_000;
    const date = { 'retry-after': httpDate(T0 + at + 3_000), date: httpDate(T0 + at) };
    expect(inside(log({ ...refused(990, at), headers: date }, ok(at + 2_999, at + 3_001)))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 1 });
    expect(inside(log({ ...refused(990, at), headers: date }, ok(at + 3_000, at + 3_001)))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 0 });
  });

  it('without a Retry-After, the period lasts until X-RateLimit-Reset; with neither, there is no period, and it says so', () => {
    const reset = { 'x-ratelimit-reset': String((T0 + 4_000) / 1000), 'x-ratelimit-remaining': '0', date: httpDate(T0 + 1_000) };
    expect(inside(log({ ...refused(990, 1_000, null), headers: reset }, ok(3_999, 4_001)))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 1 });
    expect(inside(log({ ...refused(990, 1_000, null), headers: reset }, ok(4_000, 4_001)))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 0 });
    const neither = log(refused(990, 1_000, null), refused(1_001, 1_002, 'soon'), ok(1_003, 1_004));
    expect(figures(neither)).toEqual({ label: 'free#1', refusals: 2, periods: 0, withoutPeriod: 2, inside: { inFlight: 0, onPurpose: 0, unexplained: 0 }, examples: [] });
  });

  it('requests with no answer: on the wire at the 429 when a burst stopped, in flight; one sent into the period without an answer, unexplained', () => {
    expect(inside(log(refused(5, 10), { sent: 10, inFlightAtStop: true }, { sent: 9, inFlightAtStop: true }))).toEqual({ inFlight: 2, onPurpose: 0, unexplained: 0 });
    // A request that failed before the 429 came back was not on the wire; one sent during the period was sent.
    expect(inside(log({ sent: 1, at: undefined }, refused(5, 10), { sent: 500 }))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 1 });
  });

  it("a load's rounded times: a request marked on the wire at the stop, recorded a millisecond after the 429's answer, is in flight", () => {
    // The 429's recorded answer reads 99; the stop's unanswered request 100; an answer after the stop 98.
    expect(inside(log(ok(97, 98, { inFlightAtStop: true }), refused(90, 99), { sent: 100, inFlightAtStop: true }))).toEqual({ inFlight: 2, onPurpose: 0, unexplained: 0 });
    // Unmarked, the answer recorded before the 429's was not on the wire.
    expect(inside(log(ok(97, 98), refused(90, 99)))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 0 });
  });

  it('a 429 arriving during a period extends it to its own end; one arriving at its end or later starts the next', () => {
    // 429 at 10 (until 2,010); an in-flight 429 at 15 with Retry-After 3 (until 3,015): one period to 3,015.
    const extended = log(refused(5, 10), refused(8, 15, '3', { inFlightAtStop: true }), ok(2_500, 2_501), ok(3_015, 3_016));
    expect(figures(extended)).toMatchObject({ refusals: 2, periods: 1, inside: { inFlight: 1, onPurpose: 0, unexplained: 1 }, worstPeriod: { seq: 0, until: new Date(T0 + 3_015).toISOString(), requests: 2 } });
    // The retry at 2,010 is refused again (Retry-After 1): a second period, from its answer.
    const next = log(refused(5, 10), refused(2_010, 2_012, '1'), ok(2_500, 2_501), ok(3_012, 3_013));
    expect(figures(next)).toMatchObject({ refusals: 2, periods: 2, inside: { inFlight: 0, onPurpose: 0, unexplained: 1 }, examples: [2] });
    expect(periodsOf(next).periods.map((p) => [p.first.seq, p.from - T0, p.until - T0])).toEqual([
      [0, 10, 2_010],
      [1, 2_012, 3_012],
    ]);
  });

  it('requests answered in the 429’s millisecond: the pair sent with it is in flight when recorded after it; a request sent after it in that millisecond is not', () => {
    // The pair: both sent at 50, the 429 answered at once, the other recorded after it.
    expect(inside(log(refused(50, 50), ok(50, 50)))).toEqual({ inFlight: 1, onPurpose: 0, unexplained: 0 });
    // One at a time: the answer before the 429 (recorded first) was not on the wire.
    expect(inside(log(ok(49, 50), refused(50, 50)))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 0 });
    // Sent in the millisecond the 429 (which took 5 ms) came back: after it.
    expect(inside(log(refused(45, 50), ok(50, 52)))).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 1 });
  });

  it("near misses and other carriers are the key's requests unless refused 401 (a server that did not know them for the key counted nothing)", () => {
    const nearMiss: AuthUsed = { ...KEY, header: 'Bearer ${FREE_KEY%?}' };
    const carrier: AuthUsed = { kind: 'key-carrier', label: 'free#1', env: 'FREE_KEY', carriers: ['X-API-Key header'] };
    const exchanges = log(refused(0, 10), ok(100, 101, { auth: nearMiss, status: 401 }), ok(200, 201, { auth: carrier, status: 401 }), ok(300, 301, { auth: carrier }), ok(400, 401, { auth: { kind: 'key-in-query', label: 'free#1', env: 'FREE_KEY', param: 'api_key' }, status: 429, headers: { 'retry-after': '1' } }));
    expect(keyRequests(exchanges).get('free#1')?.map((e) => e.seq)).toEqual([0, 3, 4]);
    expect(inside(exchanges)).toEqual({ inFlight: 0, onPurpose: 0, unexplained: 2 });
  });

  it('lists the unexplained first, then those on purpose, then those in flight, ten at most; the worst period is the one with most inside', () => {
    const exchanges = log(
      refused(0, 10),
      ok(5, 12, { inFlightAtStop: true }),
      ok(20, 21, { status: 429, headers: { 'retry-after': '1' }, earlyOnPurpose: 'probe' }),
      ok(30, 31),
      ...Array.from({ length: 12 }, (_, i) => ok(5_000 + i, 5_020, { inFlightAtStop: true })),
      refused(5_000, 5_010),
    );
    const k = figures(exchanges)!;
    expect(k.inside).toEqual({ inFlight: 13, onPurpose: 1, unexplained: 1 });
    expect(k.examples).toEqual([3, 2, 1, 4, 5, 6, 7, 8, 9, 10]);
    expect(k.worstPeriod).toMatchObject({ seq: 16, requests: 12 });
  });

  it('has nothing for a run without a 429', () => {
    expect(politenessOf(log(ok(0, 5), ok(5, 9, { auth: OTHER })))).toEqual([]);
    expect(politenessLapse(undefined)).toBeUndefined();
    expect(politenessLapse(politenessOf(log(refused(0, 10), ok(10, 11, { inFlightAtStop: true }))))).toBeUndefined();
  });
});
