// rate-limit.one-quota, judged from made-up mixes: one quota for every operation and every answer.
import { describe, expect, it } from 'vitest';
import { acceptedElsewhere, refusedOtherwise, judgeOneQuota, oneQuota } from '../../../lib/checks/one-quota.ts';
import type { KeyRun, MixData, MixOperation, MixPoint } from '../../../lib/result/rate-limits.ts';

/** Monday 6 January 2025, 12:00:00 UTC: a minute window starts here. */
const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const T0_S = T0 / 1000;
const date = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toUTCString();
const ORDER: MixOperation[] = ['listPets', 'getPet', 'listPets', 'createPet', 'listPets', 'listOrders'];
const STATUS: Record<MixOperation, number> = { listPets: 200, getPet: 404, createPet: 400, listOrders: 200 };

function point(i: number, status: number, op: MixOperation, o: { remaining?: number; reset?: number; retryAfter?: string; at?: number } = {}): MixPoint {
  const t = o.at ?? T0 + 100 + i * 10;
  return { t, sentAt: t - 2, status, op, limit: 10, remaining: o.remaining ?? 0, reset: o.reset ?? T0_S + 60, date: date(t), ...(o.retryAfter !== undefined ? { retryAfter: o.retryAfter } : {}) };
}

/** A mix from Remaining `expected`: `through` let through (operations in turn), then a 429 on the next, then `other`. */
function mix(expected: number, through: number, other?: (refused: MixPoint) => MixPoint, o: Partial<MixData> = {}): MixData {
  const points = Array.from({ length: through }, (_, i) => point(i, STATUS[ORDER[i % ORDER.length]!], ORDER[i % ORDER.length]!, { remaining: Math.max(0, expected - i - 1) }));
  const refused = point(through, 429, 'listPets', { retryAfter: '50' });
  const start = { t: T0 + 90, status: 200, headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': String(expected), 'x-ratelimit-reset': String(T0_S + 60), date: date(T0) } };
  return { start, expected, points: [...points, refused], ended: 'first-429', durationMs: 20 + through * 10, ...(other ? { other: other(refused) } : {}), ...o };
}

function run(m: MixData | undefined, extra: Partial<KeyRun> = {}): KeyRun {
  return { label: 'free#1', plan: 'free', quota: { perMinute: 10, perDay: 1000 }, windows: { minute: 60, day: 86_400 }, ...(m ? { mix: m } : {}), ...extra };
}

const refusedToo = (r: MixPoint): MixPoint => ({ ...r, op: 'getPet', t: r.t + 3, sentAt: r.t + 1 });
const acceptedAfter = (ms: number, reset?: number) => (r: MixPoint): MixPoint => ({ ...r, op: 'getPet', status: 404, retryAfter: undefined, remaining: 7, reset: reset ?? r.reset, sentAt: r.t + 1, t: r.t + ms });

describe('rate-limit.one-quota', () => {
  it('passes a mix that spends the stated Remaining across operations, refused on another operation right after', () => {
    const finding = judgeOneQuota(run(mix(9, 9, refusedToo)));
    expect(finding).toMatchObject({ outcome: 'pass' });
    expect(finding.outcome === 'pass' && finding.message).toMatch(/^9 let through across operations \(listPets 5 \(200\), getPet 2 \(404\), createPet 1 \(400\), GET \/store\/orders 1 \(200\)\) from Remaining 9, then 429 on listPets; getPet, sent at once, got 429$/);
  });

  it('fails a mix that gets more than the quota through, counting each operation', () => {
    const finding = judgeOneQuota(run(mix(9, 25, refusedToo)));
    expect(finding).toMatchObject({ outcome: 'fail', code: 'mix-over-quota' });
    if (finding.outcome !== 'fail') return;
    expect(finding.message).toContain('a mix of operations let 25 requests through before the first 429');
    expect(finding.message).toContain('listPets 13 (200), getPet 4 (404), createPet 4 (400), GET /store/orders 4 (200)');
  });

  it('fails a key refused on one operation and answered otherwise than 429 on another in the same window, naming both', () => {
    const finding = judgeOneQuota(run(mix(9, 9, acceptedAfter(4))));
    expect(finding).toMatchObject({ outcome: 'fail', code: 'not-429-over-limit' });
    expect(finding.outcome === 'fail' && finding.message).toBe('free#1: refused on listPets (429, Retry-After 50), then getPet, sent 0.0 s later, got 404, not 429: a request over the limit receives 429, whatever it asks (answered before the limiter refused it)');
    // Answered before the limiter, without X-RateLimit-*: the times alone tell it was within the refusal.
    const bare = mix(9, 9, acceptedAfter(4));
    const other = bare.other!;
    bare.other = { t: other.t, sentAt: other.sentAt, status: 400, op: 'createPet' };
    expect(judgeOneQuota(run(bare))).toMatchObject({ outcome: 'fail', code: 'not-429-over-limit', message: expect.stringContaining('then createPet with a NewPet without name') });
  });

  it('fails a key refused on one operation and served on another in the same window', () => {
    const m = mix(9, 9, acceptedAfter(4));
    m.other = { ...m.other!, status: 200, op: 'listOrders' };
    expect(judgeOneQuota(run(m))).toMatchObject({ outcome: 'fail', code: 'other-operation-accepted', message: expect.stringContaining('accepted on GET /store/orders 0.0 s later (200, X-RateLimit-Remaining 7)') });
  });

  it('reports both relations when both are broken, the count first', () => {
    const finding = judgeOneQuota(run(mix(9, 30, acceptedAfter(4))));
    expect(finding).toMatchObject({ outcome: 'fail', code: 'mix-over-quota' });
    expect(finding.outcome === 'fail' && finding.message).toContain('then getPet, sent 0.0 s later, got 404, not 429');
  });

  it('counts what the quota counted, as the day ledger does: a 4xx without X-RateLimit-* (answered before the limiter) or a 5xx is not let through by the limiter', () => {
    const m = mix(9, 25, refusedToo);
    // Every answer past the ninth is a 404 the router gave before the limiter saw it, or a 500.
    m.points = m.points.map((p, i) => (i < 9 || p.status === 429 ? p : i % 2 === 0 ? { t: p.t, sentAt: p.sentAt, status: 404, op: p.op } : { ...p, status: 500 }));
    expect(judgeOneQuota(run(m))).toMatchObject({ outcome: 'pass' });
    expect(judgeOneQuota(run(mix(9, 25, refusedToo)))).toMatchObject({ outcome: 'fail', code: 'mix-over-quota' });
  });

  describe('legal readings it must not flag', () => {
    it('the other operation let through in a new window (another Reset)', () => {
      expect(judgeOneQuota(run(mix(9, 9, acceptedAfter(4, T0_S + 120))))).toMatchObject({ outcome: 'pass' });
    });
    it('the other operation let through a token later (a bucket refilled meanwhile: 6 s a token here)', () => {
      expect(judgeOneQuota(run(mix(9, 9, acceptedAfter(6_500))))).toMatchObject({ outcome: 'pass' });
    });
    it('the other operation let through when the 429 named less than a second more (a window about to turn)', () => {
      const m = mix(9, 9, acceptedAfter(4));
      m.points[m.points.length - 1]!.retryAfter = '1';
      expect(judgeOneQuota(run(m))).toMatchObject({ outcome: 'pass' });
    });
    it('a window that turned during the mix: a whole window more is allowed', () => {
      const m = mix(9, 15, refusedToo);
      m.start.headers['x-ratelimit-reset'] = String(T0_S + 1);
      expect(judgeOneQuota(run(m))).toMatchObject({ outcome: 'pass' });
    });
    it('what a refilling limiter gives back over a slow mix', () => {
      expect(judgeOneQuota(run(mix(9, 12, refusedToo, { durationMs: 18_000 })))).toMatchObject({ outcome: 'pass' });
    });
  });

  // Issue 37: a relation that needs to know when the window turned skips when it cannot know it,
  // rather than assume a turn; what it saw may still prove the fault without that knowledge.
  describe('when the window turned: from Reset, else Retry-After, else not told', () => {
    /** The mix without X-RateLimit-Reset anywhere, and its 429 with the Retry-After given (none by default). */
    const unreset = (m: MixData, retryAfter?: string): MixData => {
      delete m.start.headers['x-ratelimit-reset'];
      m.points = m.points.map(({ reset: _reset, retryAfter: _retryAfter, ...p }) => ({ ...p, ...(p.status === 429 && retryAfter !== undefined ? { retryAfter } : {}) }));
      if (m.other) {
        const { reset: _reset, retryAfter: _retryAfter, ...other } = m.other;
        m.other = { ...other, ...(other.status === 429 && retryAfter !== undefined ? { retryAfter } : {}) };
      }
      return m;
    };

    it('neither Reset nor Retry-After: more than Remaining but within a turn is not judged, naming what was missing', () => {
      const finding = judgeOneQuota(run(unreset(mix(9, 15, refusedToo))));
      expect(finding).toMatchObject({ outcome: 'skip', message: expect.stringContaining('no X-RateLimit-Reset and no Retry-After on the 429: when the window turned cannot be told: a mix of operations let 15 requests through before the first 429') });
      expect(finding.outcome === 'skip' && finding.message).toMatch(/more than Remaining 9 allows \(10 with what a refilling limiter gives back\) unless the window turned meanwhile \(then at most 20\).*: not judged$/);
    });

    it('neither: within Remaining passes; beyond what a turn allows fails', () => {
      expect(judgeOneQuota(run(unreset(mix(9, 9, refusedToo))))).toMatchObject({ outcome: 'pass' });
      expect(judgeOneQuota(run(unreset(mix(9, 25, refusedToo))))).toMatchObject({ outcome: 'fail', code: 'mix-over-quota', message: expect.stringContaining('more than Remaining 9 and a whole window more allow (at most 20') });
    });

    it('neither: another operation accepted within the same quarter second after the 429 proves it, whatever the headers', () => {
      const m = unreset(mix(9, 15, (r) => ({ ...r, op: 'listOrders', status: 200, remaining: 7, sentAt: r.t + 1, t: r.t + 4 })));
      const finding = judgeOneQuota(run(m));
      expect(finding).toMatchObject({ outcome: 'fail', code: 'other-operation-accepted' });
      expect(finding.outcome === 'fail' && finding.message).toBe('free#1: refused on listPets (429, no Retry-After), accepted on GET /store/orders 0.004 s later (within the same quarter second, and no window turns for one operation and not another) (200, X-RateLimit-Remaining 7); the count (15 let through from Remaining 9) is not judged: no X-RateLimit-Reset and no Retry-After on the 429: when the window turned cannot be told');
      // A quarter second or more later, a window may have turned: the count is not judged either.
      const slow = unreset(mix(9, 15, (r) => ({ ...r, op: 'listOrders', status: 200, remaining: 7, sentAt: r.t + 1, t: r.t + 250 })));
      expect(judgeOneQuota(run(slow))).toMatchObject({ outcome: 'skip', message: expect.stringContaining('then GET /store/orders, 0.25 s after the 429, got 200: not judged') });
    });

    it("no Reset, but the 429's Retry-After names the refusing window's end: begun before the mix, no turn within it", () => {
      // The 429 arrives at T0 + 0.25 s and names T0 + 50.25 s: that window began at T0 - 9.75 s.
      expect(judgeOneQuota(run(unreset(mix(9, 15, refusedToo), '50')))).toMatchObject({ outcome: 'fail', code: 'mix-over-quota', message: expect.stringContaining('more than Remaining 9 allow (at most 10') });
      // Named T0 + 59.25 s: began at T0 - 0.75 s, within the clocks' slack of the mix's start: a turn may have come.
      expect(judgeOneQuota(run(unreset(mix(9, 15, refusedToo), '59')))).toMatchObject({ outcome: 'pass' });
    });
  });

  describe('nothing to judge: skipped with the reason', () => {
    it('another key spent the mix', () => {
      expect(judgeOneQuota(run(undefined))).toMatchObject({ outcome: 'skip', message: expect.stringContaining('not free#1') });
    });
    it('the key could not be used (refused for longer than the harness waits, or 403)', () => {
      expect(judgeOneQuota(run(undefined, { mixSkipped: 'free#1 got 403' }))).toEqual({ outcome: 'skip', message: 'free#1 got 403' });
    });
    it('no 429 within what the limiter may allow', () => {
      const m = mix(9, 9);
      m.points.pop();
      m.ended = 'time';
      expect(judgeOneQuota(run(m))).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/not reached: sent \d+ in the window, the quota being 9\b/) });
    });
    it('a key banned before it was driven', () => {
      expect(oneQuota.judge(run(mix(9, 25), { unavailable: { reason: 'banned', refusal: { t: T0, status: 429, headers: {} } } }))).toEqual({ outcome: 'skip', message: 'banned' });
    });
  });

  it('judges the request after the 429 only where nothing legal explains it', () => {
    const r = run(undefined);
    const refused = point(0, 429, 'listPets', { retryAfter: '30' });
    const other = (o: Partial<MixPoint>): MixPoint => ({ ...refused, op: 'getPet', status: 404, retryAfter: undefined, sentAt: refused.t + 1, t: refused.t + 5, ...o });
    expect(acceptedElsewhere(r, refused, other({ status: 200 }))).toBe(true);
    expect(acceptedElsewhere(r, refused, other({}))).toBe(false);
    expect(acceptedElsewhere(r, refused, other({ status: 429 }))).toBe(false);
    expect(acceptedElsewhere(r, refused, other({ status: 200, reset: undefined }))).toBe(false);
    expect(acceptedElsewhere(r, refused, other({ status: 200, reset: refused.reset! + 1 }))).toBe(true);
    expect(acceptedElsewhere(r, refused, other({ status: 200, reset: refused.reset! + 2 }))).toBe(false);
    // Without a Retry-After that names a moment: within the same quarter second of the 429's arrival only.
    expect(acceptedElsewhere(r, { ...refused, retryAfter: undefined }, other({ status: 200 }))).toBe(true);
    expect(acceptedElsewhere(r, { ...refused, retryAfter: undefined }, other({ status: 200, t: refused.t + 249 }))).toBe(true);
    expect(acceptedElsewhere(r, { ...refused, retryAfter: undefined }, other({ status: 200, t: refused.t + 250 }))).toBe(false);
    expect(acceptedElsewhere(r, { ...refused, retryAfter: undefined, reset: undefined }, other({ status: 200, reset: undefined }))).toBe(true);
    expect(acceptedElsewhere(r, refused, undefined)).toBe(false);
    // Another 4xx than 429: refused otherwise, with or without X-RateLimit-*, unless the window turned.
    expect(refusedOtherwise(r, refused, other({}))).toBe(true);
    expect(refusedOtherwise(r, refused, other({ reset: undefined, limit: undefined, remaining: undefined }))).toBe(true);
    expect(refusedOtherwise(r, refused, other({ reset: refused.reset! + 2 }))).toBe(false);
    expect(refusedOtherwise(r, refused, other({ status: 401 }))).toBe(false);
    expect(refusedOtherwise(r, refused, other({ status: 429 }))).toBe(false);
    expect(refusedOtherwise(r, refused, other({ t: refused.t + 60_000 }))).toBe(false);
    expect(refusedOtherwise(r, { ...refused, retryAfter: undefined }, other({}))).toBe(true);
    expect(refusedOtherwise(r, { ...refused, retryAfter: undefined }, other({ t: refused.t + 250 }))).toBe(false);
  });
});
