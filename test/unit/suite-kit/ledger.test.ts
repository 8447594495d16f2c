// lib/suite-kit/ledger.ts: the accepted requests of every key over the whole run, each as the span of
// server seconds from its sending to its answer's Date; and every request sent with each key.
// Exchanges built by hand on a fixed clock: no client, no server.
import { describe, expect, it } from 'vitest';
import type { AuthUsed, Exchange } from '../../../lib/result/exchange.ts';
import { AcceptedLedger } from '../../../lib/suite-kit/ledger.ts';

/** Monday 6 January 2025, 12:00:00 UTC. */
const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const S0 = T0 / 1000;

const FREE: AuthUsed = { kind: 'key', label: 'free#1', env: 'FREE_KEY', header: 'Bearer $FREE_KEY' };
const PRO_IN_QUERY: AuthUsed = { kind: 'key-in-query', label: 'pro#1', env: 'PRO_KEY', param: 'api_key' };

let seq = 0;

/** One exchange sent `at` ms after T0 and answered `durationMs` later; `status` undefined: no response. */
function exchange(status: number | undefined, o: { auth?: AuthUsed; at?: number; durationMs?: number; date?: string; headers?: Record<string, string> } = {}): Exchange {
  const base: Exchange = {
    seq: seq++,
    suite: 'list-pets',
    method: 'GET',
    url: 'http://127.0.0.1:8080/v1/pets',
    auth: o.auth ?? FREE,
    requestHeaders: { accept: 'application/json' },
    responseHeaders: status === undefined ? {} : { 'content-type': 'application/json', ...(o.date !== undefined ? { date: o.date } : {}), ...o.headers },
    startedAt: new Date(T0 + (o.at ?? 0)).toISOString(),
    durationMs: o.durationMs ?? 10,
  };
  return status === undefined ? { ...base, transportError: 'ECONNRESET' } : { ...base, status, responseBody: '[]' };
}

/** A request let through somewhere from second `from` to second `to` (of S0). */
const span = (from: number, to = from) => ({ from: S0 + from, to: S0 + to });

const ledgerOf = (exchanges: Exchange[]): AcceptedLedger => {
  const ledger = new AcceptedLedger();
  for (const e of exchanges) ledger.add(e);
  return ledger;
};

describe('AcceptedLedger', () => {
  it('keeps the accepted (2xx) exchanges; without X-RateLimit-* no other answer shows the limiter counted it', () => {
    const ledger = ledgerOf([200, 201, 204, 299, 199, 300, 304, 400, 401, 404, 429, 500, 503, undefined].map((s, i) => exchange(s, { at: i * 1000 })));
    expect(ledger.of('free#1')).toEqual([span(0), span(1), span(2), span(3)]);
  });

  it('keeps the 4xx the limiter counted (every request counts against the plan), but not 401, 403, 429 nor a 5xx', () => {
    const headers = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '3' };
    const ledger = ledgerOf([200, 400, 401, 403, 404, 405, 413, 429, 500, 503].map((s, i) => exchange(s, { at: i * 1000, headers })));
    expect(ledger.of('free#1')).toEqual([span(0), span(1), span(4), span(5), span(6)]);
  });

  it('keys them by label, whether the key went in the header or the query string', () => {
    const ledger = ledgerOf([exchange(200, { at: 0 }), exchange(200, { auth: PRO_IN_QUERY, at: 5_000 }), exchange(200, { at: 7_000 }), exchange(200, { auth: { ...FREE, label: 'free#2' }, at: 9_000 })]);
    expect(ledger.of('free#1')).toEqual([span(0), span(7)]);
    expect(ledger.of('pro#1')).toEqual([span(5)]);
    expect(ledger.of('free#2')).toEqual([span(9)]);
  });

  it('ignores requests sent without a key, or with a credential the harness made up', () => {
    const ledger = ledgerOf([exchange(200, { auth: { kind: 'none' } }), exchange(200, { auth: { kind: 'literal', header: 'Bearer free#1', where: 'header' } }), exchange(200, { auth: { kind: 'literal', header: 'free#1', where: 'query' } })]);
    expect(ledger.of('free#1')).toEqual([]);
    expect(ledger.of('Bearer free#1')).toEqual([]);
    expect(ledger.of('none')).toEqual([]);
  });

  it("ends the span at the second of the server's Date, and starts it at the sending read on the server's clock", () => {
    // Our clock says 12:00:00.990 + 30 ms; the server says 11:59:58 (3 s behind: its clock, not ours, places the sending).
    const ledger = ledgerOf([exchange(200, { at: 990, durationMs: 30, date: new Date(T0 - 2_000).toUTCString() })]);
    expect(ledger.of('free#1')).toEqual([span(-3, -2)]);
  });

  it('a slow answer is dated after the second it was sent in: its span covers both', () => {
    const ledger = ledgerOf([exchange(200, { at: 900, durationMs: 1_300, date: new Date(T0 + 2_000).toUTCString() })]);
    expect(ledger.of('free#1')).toEqual([span(0, 2)]);
  });

  it('takes our own clock without a Date, or with one it cannot read', () => {
    const ledger = ledgerOf([exchange(200, { at: 990, durationMs: 30 }), exchange(200, { at: 990, durationMs: 5 }), exchange(200, { at: 1_500, durationMs: 600, date: 'not a date' })]);
    expect(ledger.of('free#1')).toEqual([span(0, 1), span(0), span(1, 2)]);
  });

  // A Date bounds the clock that wrote it only to a second: answers sent just before a second's
  // end and answered just after its start pin it to a few ms.
  /** An answer sent `at` ms after T0, 10 ms on the wire, dated by a clock `offset` ms off ours. */
  const dated = (at: number, offset: number, o: { auth?: AuthUsed; status?: number; headers?: Record<string, string> } = {}) =>
    exchange(o.status ?? 200, { at, durationMs: 10, date: new Date(T0 + at + 5 + offset).toUTCString(), ...(o.auth ? { auth: o.auth } : {}), ...(o.headers ? { headers: o.headers } : {}) });

  it("widens every span by the seconds the service's Dates disagree: two clocks a second apart", () => {
    // Answers of the instance on our clock, then of one a second behind, each sent at .990 and at .000.
    const ledger = ledgerOf([dated(990, 0), dated(3_000, 0), dated(5_990, -1_000), dated(8_000, -1_000)]);
    expect(ledger.dateSkew()).toBe(1);
    expect(ledger.of('free#1')).toEqual([span(-1, 1), span(2, 4), span(3, 5), span(6, 8)]);
  });

  it('keeps the spans as they were when one clock agrees with every Date, however far off ours, or within a few ms of rounding', () => {
    const offBy3s = ledgerOf([dated(990, -3_000), dated(3_000, -3_000), dated(5_990, -3_000)]);
    expect(offBy3s.dateSkew()).toBe(0);
    // A clock no more than 10 ms behind ours wrote the first; one at least 13 ms ahead, the second: 3 ms apart, rounding.
    const rounding = ledgerOf([dated(990, 0), dated(2_977, 20)]);
    expect(rounding.dateSkew()).toBe(0);
    expect(rounding.of('free#1')).toEqual([span(0), span(2, 3)]);
  });

  it('takes the skew from every answer of the service, whatever its key, and caps it at CLOCK_SLACK_S', () => {
    const ledger = ledgerOf([dated(990, 0), dated(3_000, 0), dated(5_990, -3_000, { auth: { kind: 'none' }, status: 401 }), dated(8_000, -3_000, { auth: { kind: 'none' }, status: 401 })]);
    expect(ledger.dateSkew()).toBe(2);
    expect(ledger.of('free#1')).toEqual([span(-2, 2), span(1, 5)]);
  });

  it('narrows a widened span to the day window that headers of the day named', () => {
    const dayOf = () => ({ quota: { perMinute: 40, perDay: 100 }, daySeconds: 40 });
    const ledger = new AcceptedLedger(dayOf);
    for (const e of [dated(990, 0), dated(3_000, 0), dated(5_990, -1_000), dated(8_000, -1_000)]) ledger.add({ ...e, auth: { kind: 'none' } });
    // Let through in the limiter's second 40, the first of its day window: dated 39 by the instance a second behind.
    ledger.add(dated(40_000, -1_000, { headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': String(S0 + 80) } }));
    ledger.add(dated(40_000, -1_000));
    expect(ledger.dateSkew()).toBe(1);
    expect(ledger.of('free#1')).toEqual([span(40), span(38, 40)]);
  });

  it('keeps the spans in the order the exchanges came, repeats included', () => {
    const ledger = ledgerOf([exchange(200, { at: 3_000 }), exchange(200, { at: 1_000 }), exchange(200, { at: 1_200 })]);
    expect(ledger.of('free#1')).toEqual([span(3), span(1), span(1)]);
  });

  it('is empty for a label it never saw', () => {
    expect(new AcceptedLedger().of('free#1')).toEqual([]);
    expect(new AcceptedLedger().sent('free#1')).toEqual([]);
  });

  it('keeps every request sent with a key, whatever its answer, as the moment its answer came (its sending without one)', () => {
    const ledger = ledgerOf([exchange(200, { at: 0, durationMs: 10 }), exchange(429, { at: 1_000, durationMs: 5 }), exchange(401, { at: 2_000 }), exchange(500, { at: 3_000 }), exchange(undefined, { at: 4_000, durationMs: 0 }), exchange(200, { auth: { kind: 'none' }, at: 5_000 }), exchange(404, { auth: PRO_IN_QUERY, at: 6_000, durationMs: 30 })]);
    expect(ledger.sent('free#1')).toEqual([T0 + 10, T0 + 1_005, T0 + 2_010, T0 + 3_010, T0 + 4_000]);
    expect(ledger.sent('pro#1')).toEqual([T0 + 6_030]);
  });

  it('keeps when each accepted request was answered (the run\'s own count of the day), not the refused or unanswered ones', () => {
    const ledger = ledgerOf([exchange(200, { at: 0, durationMs: 10 }), exchange(429, { at: 1_000, durationMs: 5 }), exchange(401, { at: 2_000 }), exchange(undefined, { at: 4_000, durationMs: 0 }), exchange(404, { auth: PRO_IN_QUERY, at: 6_000, durationMs: 30, headers: { 'x-ratelimit-remaining': '5' } })]);
    expect(ledger.acceptedAt('free#1')).toEqual([T0 + 10]);
    expect(ledger.acceptedAt('pro#1')).toEqual([T0 + 6_030]);
    expect(ledger.acceptedAt('daily#1')).toEqual([]);
  });

  it('hands out a copy: changing it changes nothing in the ledger', () => {
    const ledger = ledgerOf([exchange(200)]);
    const spans = ledger.of('free#1');
    spans.push(span(1), span(2));
    spans[0] = span(9);
    expect(ledger.of('free#1')).toEqual([span(0)]);
    const none = ledger.of('pro#1');
    none.push(span(5));
    expect(ledger.of('pro#1')).toEqual([]);
  });

  it('has an `add` that may be passed around unbound (as an exchange observer)', () => {
    const ledger = new AcceptedLedger();
    const { add } = ledger;
    [exchange(200), exchange(429)].forEach(add);
    expect(ledger.of('free#1')).toEqual([span(0)]);
  });
});
