// `diff BASE HEAD` as a pure comparison of hand-built reports: new, fixed, still failing and newly
// skipped checks (by root cause), subjects that moved, severities, the rate-limit picture, the paced
// load's figures, what --fail-on gates on, and reports that cannot be compared.
import { describe, expect, it } from 'vitest';
import { anythingChanged, diffReports, gateFails, incompatibility, limiterOf, percentChange, verdictText } from '../../../lib/report/diff-model.ts';
import type { CheckResult } from '../../../lib/result/model.ts';
import { overallFigures, type PacedLoadSection, type PacedRequest, pacedFigures } from '../../../lib/result/paced-load.ts';
import { check, rateLimitKey, report } from './fixture.ts';

const ids = (checks: readonly { id: string; subject?: string }[]) => checks.map((c) => (c.subject ? `${c.id} [${c.subject}]` : c.id));
const roots = (groups: readonly { root: { id: string; subject?: string } }[]) => ids(groups.map((g) => g.root));

describe('diffReports: the checks', () => {
  const base = report([
    check({ id: 'a.newly-fails', subject: 'GET /pets' }),
    check({ id: 'b.fixed', outcome: 'fail', code: 'not-401' }),
    check({ id: 'c.still', outcome: 'fail', code: 'one' }),
    check({ id: 'd.now-skipped' }),
    check({ id: 'e.was-skipped', outcome: 'skip' }),
    check({ id: 'g.removed', outcome: 'fail' }),
    check({ id: 'h.severity', severity: 'should' }),
    check({ id: 'i.error-now', outcome: 'error' }),
  ]);
  const head = report([
    check({ id: 'a.newly-fails', subject: 'GET /pets', outcome: 'fail', code: 'not-401', message: 'got 403, not 401' }),
    check({ id: 'b.fixed' }),
    check({ id: 'c.still', outcome: 'fail', code: 'two' }),
    check({ id: 'd.now-skipped', outcome: 'skip', message: 'needs --allow-load' }),
    check({ id: 'e.was-skipped', outcome: 'fail' }),
    check({ id: 'f.added', outcome: 'fail' }),
    check({ id: 'h.severity', severity: 'must' }),
    check({ id: 'i.error-now', outcome: 'fail' }),
  ]);
  const d = diffReports(base, head);

  it('classifies each check: newly failing (from pass, skip or absent), fixed, still failing, newly skipped, added, removed', () => {
    expect(roots(d.newFailures)).toEqual(['a.newly-fails [GET /pets]', 'e.was-skipped', 'f.added']);
    expect(roots(d.fixed)).toEqual(['b.fixed']);
    expect(roots(d.stillFailing)).toEqual(['c.still', 'i.error-now']);
    expect(ids(d.newlySkipped)).toEqual(['d.now-skipped']);
    expect(ids(d.added)).toEqual(['f.added']);
    expect(ids(d.removed)).toEqual(['g.removed']);
    expect(d.severityChanged.map((c) => [c.id, c.base?.severity, c.head?.severity])).toEqual([['h.severity', 'should', 'must']]);
  });

  it('keeps what each run said: outcome, code and message on both sides', () => {
    const a = d.newFailures[0]!.root;
    expect(a.base).toMatchObject({ outcome: 'pass' });
    expect(a.head).toMatchObject({ outcome: 'fail', code: 'not-401', message: 'got 403, not 401' });
    expect(d.stillFailing[0]!.root).toMatchObject({ base: { code: 'one' }, head: { code: 'two' } });
    expect(d.fixed[0]!.root).toMatchObject({ base: { outcome: 'fail', code: 'not-401' }, head: { outcome: 'pass' } });
  });

  it('the verdict line counts roots: new, fixed, still failing', () => {
    expect(verdictText(d)).toBe('3 new failures, 1 fixed, 2 still failing');
  });

  it('the same report twice: nothing new, nothing fixed, nothing changed', () => {
    const same = diffReports(base, base);
    expect(verdictText(same)).toBe('0 new failures, 0 fixed, 4 still failing');
    expect([same.newlySkipped, same.added, same.removed, same.severityChanged]).toEqual([[], [], [], []]);
    expect(anythingChanged(same)).toBe(false);
    expect(gateFails(same, 'changed')).toBe(false);
  });
});

describe('diffReports: root causes', () => {
  const root = (overrides: Partial<CheckResult> = {}) => check({ id: 'auth.missing-key', subject: 'listPets GET /pets', outcome: 'fail', ...overrides });
  const under = (id: string, subject: string) => check({ id, subject, outcome: 'fail', causedBy: { id: 'auth.missing-key', subject: 'listPets GET /pets' } });

  it('lists a new failure explained by a new root under that root, and counts only the root', () => {
    const base = report([root({ outcome: 'pass' }), check({ id: 'auth.invalid-key', subject: 'listPets GET /pets' }), check({ id: 'auth.invalid-key', subject: 'getPet GET /pets/{petId}' })]);
    const head = report([root(), under('auth.invalid-key', 'listPets GET /pets'), under('auth.invalid-key', 'getPet GET /pets/{petId}')]);
    const d = diffReports(base, head);
    expect(roots(d.newFailures)).toEqual(['auth.missing-key [listPets GET /pets]']);
    expect(ids(d.newFailures[0]!.explained)).toEqual(['auth.invalid-key [listPets GET /pets]', 'auth.invalid-key [getPet GET /pets/{petId}]']);
    expect(verdictText(d)).toBe('1 new failure (+2 it explains), 0 fixed, 0 still failing');
    // The other way round: one root fixed, with what it explained.
    const back = diffReports(head, base);
    expect(roots(back.fixed)).toEqual(['auth.missing-key [listPets GET /pets]']);
    expect(back.fixed[0]!.explained).toHaveLength(2);
    expect(verdictText(back)).toBe('0 new failures, 1 fixed (+2 it explains), 0 still failing');
  });

  it('a newly failing check whose root failed already is not new: it is listed under that root, still failing', () => {
    const base = report([root(), check({ id: 'auth.invalid-key', subject: 'listPets GET /pets' })]);
    const head = report([root(), under('auth.invalid-key', 'listPets GET /pets')]);
    const d = diffReports(base, head);
    expect(d.newFailures).toEqual([]);
    expect(roots(d.stillFailing)).toEqual(['auth.missing-key [listPets GET /pets]']);
    expect(d.stillFailing[0]!.explained[0]).toMatchObject({ id: 'auth.invalid-key', base: { outcome: 'pass' }, head: { outcome: 'fail' } });
    expect(gateFails(d, 'new-any')).toBe(false);
    expect(gateFails(d, 'changed')).toBe(true);
  });
});

describe('diffReports: a check that moved between a key\'s results and the run\'s', () => {
  const perKey = report([
    check({ id: 'rate-limit.retry-after-present', subject: 'free#1', outcome: 'fail', code: 'absent' }),
    check({ id: 'rate-limit.retry-after-present', subject: 'pro#1', outcome: 'fail', code: 'absent' }),
  ]);
  const overRun = (outcome: CheckResult['outcome']) => report([check({ id: 'rate-limit.retry-after-present', subject: 'every response of the run', outcome, ...(outcome === 'fail' ? { code: 'absent' } : {}) })]);

  it('is matched by id: fixed once, neither added nor removed, its old subjects named', () => {
    const d = diffReports(perKey, overRun('pass'));
    expect(roots(d.fixed)).toEqual(['rate-limit.retry-after-present [every response of the run]']);
    expect(d.fixed[0]!.root.movedFrom).toEqual(['free#1', 'pro#1']);
    expect([d.added, d.removed, d.newFailures]).toEqual([[], [], []]);
  });

  it('is still failing when it fails on both sides, and newly failing from passes on every key', () => {
    expect(roots(diffReports(perKey, overRun('fail')).stillFailing)).toEqual(['rate-limit.retry-after-present [every response of the run]']);
    const passing = report(perKey.checks.map((c) => ({ ...c, outcome: 'pass' as const, evidence: null })));
    const d = diffReports(passing, overRun('fail'));
    expect(roots(d.newFailures)).toEqual(['rate-limit.retry-after-present [every response of the run]']);
    expect(d.newFailures[0]!.root.movedFrom).toEqual(['free#1', 'pro#1']);
  });

  it('a key added is matched key by key: its results are added, the others compared', () => {
    const base = report([check({ id: 'rate-limit.quota', subject: 'free#1' })]);
    const head = report([check({ id: 'rate-limit.quota', subject: 'free#1' }), check({ id: 'rate-limit.quota', subject: 'pro#1', outcome: 'fail' })]);
    const d = diffReports(base, head);
    expect(ids(d.added)).toEqual(['rate-limit.quota [pro#1]']);
    expect(roots(d.newFailures)).toEqual(['rate-limit.quota [pro#1]']);
    expect(d.newFailures[0]!.root.base).toBeUndefined();
  });
});

describe('--fail-on', () => {
  const pass = (id: string, overrides: Partial<CheckResult> = {}) => check({ id, ...overrides });
  const fail = (id: string, overrides: Partial<CheckResult> = {}) => check({ id, outcome: 'fail', ...overrides });

  it('new-must: a new root failure that blocks HEAD\'s verdict; a should only with --strict; never an expected failure', () => {
    const should = diffReports(report([pass('x', { severity: 'should' })]), report([fail('x', { severity: 'should' })]));
    expect([gateFails(should, 'new-must'), gateFails(should, 'new-should'), gateFails(should, 'new-any')]).toEqual([false, true, true]);
    const strict = diffReports(report([pass('x', { severity: 'should' })]), report([fail('x', { severity: 'should' })], { options: { ...report([]).options, strict: true } }));
    expect(gateFails(strict, 'new-must')).toBe(true);
    const expected = diffReports(report([pass('x')]), report([fail('x', { expectedFailure: { reason: 'TICKET-1' } })]));
    expect([gateFails(expected, 'new-must'), gateFails(expected, 'new-should'), gateFails(expected, 'new-any')]).toEqual([false, false, true]);
    expect(expected.newFailures[0]!.root.head?.expected).toBe('TICKET-1');
    const info = diffReports(report([pass('x', { severity: 'info' })]), report([fail('x', { severity: 'info' })]));
    expect([gateFails(info, 'new-should'), gateFails(info, 'new-any')]).toEqual([false, true]);
    const must = diffReports(report([pass('x')]), report([check({ id: 'x', outcome: 'error' })]));
    expect(gateFails(must, 'new-must')).toBe(true);
  });

  it('a should root explaining a new must failure blocks: the group counts by its worst', () => {
    const base = report([pass('r', { severity: 'should' }), pass('m')]);
    const head = report([fail('r', { severity: 'should' }), fail('m', { causedBy: { id: 'r' } })]);
    const d = diffReports(base, head);
    expect(d.newFailures).toHaveLength(1);
    expect(gateFails(d, 'new-must')).toBe(true);
  });

  it('changed: a fix, a newly skipped check, a severity, a check added, a rate-limit fact; not latency alone', () => {
    const fixed = diffReports(report([fail('x')]), report([pass('x')]));
    expect([gateFails(fixed, 'new-any'), gateFails(fixed, 'changed')]).toEqual([false, true]);
    expect(gateFails(diffReports(report([pass('x')]), report([check({ id: 'x', outcome: 'skip' })])), 'changed')).toBe(true);
    expect(gateFails(diffReports(report([pass('x', { severity: 'should' })]), report([pass('x')])), 'changed')).toBe(true);
    expect(gateFails(diffReports(report([]), report([pass('x')])), 'changed')).toBe(true);
    expect(gateFails(diffReports(report([fail('x', { code: 'a' })]), report([fail('x', { code: 'b' })])), 'changed')).toBe(true);
    const limiter = diffReports(report([], { rateLimits: [rateLimitKey()] }), report([], { rateLimits: [rateLimitKey({ behaviour: 'refilling (sliding window or token bucket)' })] }));
    expect(gateFails(limiter, 'changed')).toBe(true);
    const slower = diffReports(report([], { pacedLoad: paced(1) }), report([], { pacedLoad: paced(5) }));
    expect(gateFails(slower, 'changed')).toBe(false);
  });
});

describe('diffReports: the rate-limit picture', () => {
  const honoured = (outcome: CheckResult['outcome']) => check({ id: 'rate-limit.retry-after-honoured', subject: 'free#1', suite: 'rate-limit', outcome });

  it('the same limiter seen twice is unchanged, whatever the run\'s own notes and Retry-After values say', () => {
    const base = report([honoured('pass')], { rateLimits: [rateLimitKey({}, { accepted: 60 })] });
    const noisy = rateLimitKey({ behaviour: 'fixed window (Reset rounded with noise: up to 1 s apart) (the window turned during the burst: Reset 1893456060 then 1893456120)' }, { accepted: 60, resetAfterS: 30 });
    const d = diffReports(base, report([honoured('pass')], { rateLimits: [noisy] }));
    expect(d.rateLimits).toEqual([expect.objectContaining({ label: 'free#1', changed: [] })]);
    expect(d.rateLimits[0]!.head).toMatchObject({ limiter: 'fixed window', first429: { position: 61, accepted: 60, beyondRemaining: 0, retryAfter: '30' }, retryAfterHonoured: 'pass' });
  });

  it('names what changed: the limiter, the first 429 (beyond the Remaining stated), Retry-After honoured, the day', () => {
    const day = (ended: string) => ({ requests: 120, accepted: 100, ended, elapsedMs: 40_000, followUps: [] });
    const base = report([honoured('pass')], { rateLimits: [rateLimitKey({ day: day('day-block') }, { accepted: 60 })] });
    const head = report([honoured('fail')], { rateLimits: [rateLimitKey({ behaviour: 'refilling (sliding window or token bucket)', day: day('over-quota') }, { accepted: 61 })] });
    const d = diffReports(base, head);
    expect(d.rateLimits[0]!.changed).toEqual(['limiter', 'first 429', 'Retry-After honoured', 'day']);
    expect(d.rateLimits[0]!.head?.first429).toMatchObject({ accepted: 61, beyondRemaining: 1 });
    expect(d.rateLimits[0]!.head?.retryAfterHonoured).toBe('fail');
  });

  it('a key that stopped getting 429s, and keys added or removed', () => {
    const base = report([], { rateLimits: [rateLimitKey()] });
    const head = report([], { rateLimits: [rateLimitKey({ behaviour: 'no 429 seen' }, { rejected: 0 }), rateLimitKey({ label: 'pro#1', plan: 'pro' })] });
    const d = diffReports(base, head);
    expect(d.rateLimits.map((k) => [k.label, k.changed])).toEqual([['free#1', ['limiter', 'first 429']], ['pro#1', ['key added']]]);
    expect(d.rateLimits[0]!.head?.first429).toBeUndefined();
    expect(diffReports(head, base).rateLimits.map((k) => [k.label, k.changed])).toEqual([['free#1', ['limiter', 'first 429']], ['pro#1', ['key removed']]]);
  });

  it('limiterOf drops only the run\'s own notes', () => {
    expect(limiterOf('refilling (sliding window or token bucket)')).toBe('refilling (sliding window or token bucket)');
    expect(limiterOf('fixed window (Reset rounded with noise: up to 2 s apart)')).toBe('fixed window');
    expect(limiterOf('not observed')).toBe('not observed');
  });
});

const T0 = Date.UTC(2030, 0, 1, 0, 0, 10);

/** A paced load of one key: 30 requests at 10/s, each taking `ms` (the last five 3 × as long). */
function paced(ms: number, label = 'free#1'): PacedLoadSection {
  const requests: PacedRequest[] = Array.from({ length: 30 }, (_, i) => {
    const sentAt = T0 + i * 100;
    const latencyMs = i >= 25 ? 3 * ms : ms;
    return { sentAt, latencyMs, point: { t: sentAt + latencyMs, status: 200, limit: 60, remaining: 59 - i } };
  });
  const keys = [pacedFigures({ label, plan: 'free', quota: { perMinute: 60, perDay: 1000 }, windows: { minute: 5, day: 60 }, fraction: 0.9, askedRate: 10, planned: 30, requests, dropped: 0, startedAt: T0, durationMs: 2900 })];
  return { fraction: 0.9, windows: 2, keys, overall: overallFigures(keys) };
}

describe('diffReports: the paced load', () => {
  it('latency percentiles and throughput, with their change in percent', () => {
    const d = diffReports(report([], { pacedLoad: paced(4) }), report([], { pacedLoad: paced(5) }));
    const k = d.pacedLoad!.keys[0]!;
    expect(k.label).toBe('free#1');
    expect(k.latency.p50).toEqual({ base: 4, head: 5, changePct: 25 });
    expect(k.latency.p99).toEqual({ base: 12, head: 15, changePct: 25 });
    expect(k.achievedRate).toEqual({ base: 10, head: 10, changePct: 0 });
    expect(d.pacedLoad!.overall.latency.max).toEqual({ base: 12, head: 15, changePct: 25 });
    expect(d.pacedLoad!.overall.errorRate).toEqual({ base: 0, head: 0, changePct: 0 });
  });

  it('a side without a paced load, or a key paced on one side only, has no percent', () => {
    const d = diffReports(report([]), report([], { pacedLoad: paced(4) }));
    expect(d.pacedLoad!.keys[0]!.latency.p50).toEqual({ head: 4 });
    expect(diffReports(report([]), report([])).pacedLoad).toBeUndefined();
  });

  it('percentChange: one decimal; from 0 there is none (0 to 0 is 0)', () => {
    expect(percentChange(3, 4)).toBe(33.3);
    expect(percentChange(4, 3)).toBe(-25);
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(0, 2)).toBeUndefined();
    expect(percentChange(undefined, 2)).toBeUndefined();
  });
});

describe('incompatibility', () => {
  it('reports of one major schema version compare; otherwise both versions are named', () => {
    expect(incompatibility('1.0.0', '1.0.0')).toBeUndefined();
    expect(incompatibility('1.0.0', '1.2.0')).toBeUndefined();
    expect(incompatibility('1.0.0', '2.0.0')).toBe("the reports' schema versions are incompatible: BASE 1.0.0, HEAD 2.0.0 (a diff compares reports of one major schema version)");
    expect(incompatibility('2.0.0', '2.1.0', '1.0.0')).toMatch(/BASE 2\.0\.0, HEAD 2\.1\.0.*reads 1\.x/);
  });
});

describe('notes', () => {
  it('says when the runs differ beyond the server: target, seed, suites, --strict', () => {
    const base = report([]);
    const head = report([], { seed: 7, target: { ...base.target, name: 'staging' }, options: { ...base.options, suites: ['auth'], strict: true } });
    expect(diffReports(base, head).notes).toEqual([
      'different targets: BASE local, HEAD staging',
      'different seeds (BASE 42, HEAD 7): property checks tried other cases',
      'different suites: BASE all, HEAD auth: checks of a suite one run left out show as added or removed',
      '--strict in HEAD only',
    ]);
  });
});
