// lib/checks/run-level.ts: every Retry-After the harness waited out, judged over the run's
// exchanges. Each exchange is built by hand on a fixed clock: no server, no sleep.
import { describe, expect, it } from 'vitest';
import { judgeObeyedRetryAfters, retryAfterObeyed } from '../../../lib/checks/run-level.ts';
import type { Finding } from '../../../lib/checks/types.ts';
import type { AuthUsed, Exchange } from '../../../lib/result/exchange.ts';
import { expectFinding } from './_seen.ts';

/** Monday 6 January 2025, 12:00:00 UTC: the run's clock starts here. */
const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const DURATION_MS = 20;

const keyAuth = (label: string): AuthUsed => ({ kind: 'key', label, env: `${label.toUpperCase().replace(/\W/g, '_')}_KEY`, header: `Bearer $${label.toUpperCase().replace(/\W/g, '_')}_KEY` });
const FREE = keyAuth('free#1');
const PRO = keyAuth('pro#1');

interface Sent {
  seq: number;
  /** Milliseconds after T0 the request went out; the answer came DURATION_MS later. */
  at: number;
  status: number | undefined;
  retryAfter?: string;
  auth?: AuthUsed;
  /** The 429 it follows, and the ms after T0 that 429 named. */
  follows?: { seq: number; until: number };
}

/** One exchange as the client records it. `status` undefined: no response (a transport error). */
function exchange({ seq, at, status, retryAfter, auth = FREE, follows }: Sent): Exchange {
  const base: Exchange = {
    seq,
    suite: 'rate-limit',
    method: 'GET',
    url: 'http://127.0.0.1:8080/v1/pets?limit=1',
    auth,
    requestHeaders: { accept: 'application/json' },
    responseHeaders: status === undefined ? {} : { 'content-type': 'application/json', ...(retryAfter !== undefined ? { 'retry-after': retryAfter } : {}) },
    startedAt: new Date(T0 + at).toISOString(),
    durationMs: DURATION_MS,
    ...(follows ? { followsRetryAfter: { seq: follows.seq, until: new Date(T0 + follows.until).toISOString() } } : {}),
  };
  return status === undefined ? { ...base, transportError: 'ECONNRESET' } : { ...base, status, responseBody: status === 429 ? '{"code":"rate_limited","message":"slow down","status":429}' : '[]' };
}

/** A 429 at `at` ms with Retry-After `seconds`, and the request sent when it named (its answer `status`). */
function obeyed(seq: number, at: number, seconds: number, status: number | undefined, o: { auth?: AuthUsed; nextRetryAfter?: string } = {}): [Exchange, Exchange] {
  const until = at + DURATION_MS + seconds * 1000;
  return [
    exchange({ seq, at, status: 429, retryAfter: String(seconds), ...(o.auth ? { auth: o.auth } : {}) }),
    exchange({ seq: seq + 1, at: until, status, follows: { seq, until }, ...(o.auth ? { auth: o.auth } : {}), ...(o.nextRetryAfter !== undefined ? { retryAfter: o.nextRetryAfter } : {}) }),
  ];
}

const evidence = (f: Finding): Exchange[] => (f.outcome === 'fail' ? (f.exchanges ?? []) : []);

describe('rate-limit.retry-after-obeyed', () => {
  it('is a must, judged once over every exchange of the run', () => {
    expect(retryAfterObeyed.id).toBe('rate-limit.retry-after-obeyed');
    expect(retryAfterObeyed.severity).toBe('must');
    expect(retryAfterObeyed.suite).toBe('run');
  });
});

describe('judgeObeyedRetryAfters', () => {
  it('passes when the request sent after each Retry-After was let through, counting them', () => {
    const run = [exchange({ seq: 0, at: 0, status: 200 }), ...obeyed(1, 100, 1, 200), ...obeyed(3, 5_000, 30, 201), ...obeyed(5, 60_000, 2, 200, { auth: PRO })];
    const finding = judgeObeyedRetryAfters(run);
    expectFinding(finding, 'pass', ['3 Retry-Afters waited out', 'each time the next request was let through']);
    expect(evidence(finding)).toEqual([]);
  });

  it('says "Retry-After" in the singular for one', () => {
    expectFinding(judgeObeyedRetryAfters(obeyed(0, 0, 1, 200)), 'pass', ['1 Retry-After waited out;']);
  });

  it('fails when a request sent at the time a 429 named is refused again, with the pair as evidence', () => {
    const [refusal, next] = obeyed(7, 1_000, 44, 429, { nextRetryAfter: '3600' });
    const run = [exchange({ seq: 6, at: 0, status: 200 }), refusal, next, ...obeyed(9, 200_000, 1, 200)];
    const finding = judgeObeyedRetryAfters(run);
    expectFinding(finding, 'fail', ['1 of 2 Retry-Afters waited out', 'free#1', 'request #7', '429 (Retry-After 44)', '#8', '429 (Retry-After 3600)', '44.0 s later']);
    expect(finding).toMatchObject({ code: 'refused-at-named-time' });
    expect(finding.outcome === 'fail' && finding.expected).toBe('the request sent at the time a 429 names is let through ("the client retries only after the indicated time")');
    expect(finding.outcome === 'fail' && finding.actual).toBe(`free#1: request #7 got 429 (Retry-After 44), until ${new Date(T0 + 1_000 + DURATION_MS + 44_000).toISOString()}; #8, sent 44.0 s later, got 429 (Retry-After 3600)`);
    expect(evidence(finding)).toEqual([refusal, next]);
  });

  it('names a follow-up refused without a Retry-After as such', () => {
    const finding = judgeObeyedRetryAfters(obeyed(0, 0, 2, 429));
    expectFinding(finding, 'fail', ['#1', 'got 429 (no Retry-After)']);
    expect(finding).toMatchObject({ code: 'refused-at-named-time' });
  });

  it('keeps every broken pair in `actual` and the evidence, up to three', () => {
    const run = [...obeyed(0, 0, 1, 429), ...obeyed(2, 10_000, 1, 429), ...obeyed(4, 20_000, 1, 429), ...obeyed(6, 30_000, 1, 429)];
    const finding = judgeObeyedRetryAfters(run);
    expectFinding(finding, 'fail', ['4 of 4 Retry-Afters']);
    expect(finding).toMatchObject({ code: 'refused-at-named-time' });
    expect(evidence(finding).map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(finding.outcome === 'fail' && finding.actual?.split('\n')).toHaveLength(3);
  });

  it('does not judge a follow-up when another request of the key went between the 429 and it', () => {
    const [refusal, next] = obeyed(0, 0, 10, 429);
    const between = exchange({ seq: 2, at: 5_000, status: 200 });
    // Only one Retry-After was waited out, and not quietly: nothing to judge.
    expectFinding(judgeObeyedRetryAfters([refusal, between, next]), 'skip');
    // With another, quiet, one the run is judged on that one alone.
    expectFinding(judgeObeyedRetryAfters([refusal, between, next, ...obeyed(3, 60_000, 1, 200)]), 'pass', ['1 Retry-After waited out']);
  });

  it('counts a request between that got no response too (it may have reached the server)', () => {
    const [refusal, next] = obeyed(0, 0, 10, 429);
    expectFinding(judgeObeyedRetryAfters([refusal, exchange({ seq: 2, at: 5_000, status: undefined }), next]), 'skip');
  });

  it('does not judge a follow-up that got no response', () => {
    expectFinding(judgeObeyedRetryAfters(obeyed(0, 0, 1, undefined)), 'skip');
    expectFinding(judgeObeyedRetryAfters([...obeyed(0, 0, 1, undefined), ...obeyed(2, 10_000, 1, 200)]), 'pass', ['1 Retry-After waited out']);
  });

  it("is not disturbed by other keys' requests and 429s in between", () => {
    const [refusal, next] = obeyed(0, 0, 10, 200);
    const others = [exchange({ seq: 2, at: 2_000, status: 429, retryAfter: '5', auth: PRO }), exchange({ seq: 3, at: 3_000, status: 200, auth: PRO }), exchange({ seq: 4, at: 4_000, status: 401, auth: { kind: 'literal', header: 'Bearer nope', where: 'header' } })];
    expectFinding(judgeObeyedRetryAfters([refusal, ...others, next]), 'pass', ['1 Retry-After waited out']);
  });

  it("is not failed by another key's 429 that is not a follow-up", () => {
    const run = [...obeyed(0, 0, 1, 200), exchange({ seq: 2, at: 1_100, status: 429, retryAfter: '60', auth: PRO }), exchange({ seq: 3, at: 1_200, status: 429, retryAfter: '60', auth: PRO })];
    expectFinding(judgeObeyedRetryAfters(run), 'pass');
  });

  it('ignores requests of the same key sent before the 429 was answered or after the follow-up', () => {
    const [refusal, next] = obeyed(1, 1_000, 10, 429);
    const run = [exchange({ seq: 0, at: 1_000, status: 200 }), refusal, next, exchange({ seq: 3, at: 12_000, status: 200 })];
    expectFinding(judgeObeyedRetryAfters(run), 'fail', ['request #1', '#2']);
    expect(judgeObeyedRetryAfters(run)).toMatchObject({ code: 'refused-at-named-time' });
  });

  it('skips when no exchange follows a Retry-After', () => {
    expectFinding(judgeObeyedRetryAfters([]), 'skip');
    expectFinding(judgeObeyedRetryAfters([exchange({ seq: 0, at: 0, status: 200 }), exchange({ seq: 1, at: 100, status: 429, retryAfter: '1' }), exchange({ seq: 2, at: 2_000, status: 200 })]), 'skip', ['no Retry-After was waited out']);
  });

  it('skips a follow-up whose 429 is not among the exchanges', () => {
    expectFinding(judgeObeyedRetryAfters([exchange({ seq: 5, at: 0, status: 429, follows: { seq: 4, until: 0 } })]), 'skip');
  });
});
