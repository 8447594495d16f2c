// The reference server's fault catalogue against the suites: each fault must fail the run through
// the check meant for it, each legal variation must pass, and the plain reference passes
// everything. Faults whose checks belong to suites not written yet are listed apart, so the gap is
// visible and a new fault cannot be forgotten. The seed is pinned: a fault caught today is caught
// on every run.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckId } from '../../lib/checks/registry.ts';
import { FAULT_IDS, type FaultId } from '../../targets/reference/faults.ts';
import { listSuites } from '../../lib/runner/suites.ts';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { VARIATION_IDS, type VariationId } from '../../targets/reference/variations.ts';
import type { Report } from '../../lib/result/model.ts';
import { readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const KEYS = [
  { key: 'sk-fault-free-1-7f3a9c', plan: 'free' },
  { key: 'sk-fault-free-2-5e6f7a', plan: 'free' },
  { key: 'sk-fault-pro-1-2b8d4e', plan: 'pro' },
  { key: 'sk-fault-daily-1-8b9c0d', plan: 'daily' },
];
/** A plan whose day can be spent within the short day window. */
const PLANS = { daily: { perMinute: 40, perDay: 100 } };
// Short enough for quick runs, long enough for a busy CI machine to spend a Pro quota in one window.
const WINDOWS = { minute: 4, day: 40 };
const SEED = '1';
/** Latency the reference and every legal variation meet under paced load, and latency-grows-with-load does not. */
const LOAD_THRESHOLDS = { p95Ms: 200 };

interface Caught {
  fault: FaultId;
  /** The check that must fail. */
  check: CheckId;
  /** Suites to run (fewer is quicker). */
  suites: string[];
  /** Animals in the store beforehand. */
  preload?: number;
  /** The check is a `should`: only --strict makes it fail the run. */
  strict?: boolean;
  /** Fields added to the target file (load thresholds, say). */
  target?: Record<string, unknown>;
}

const CAUGHT: Caught[] = [
  { fault: 'auth-disabled', check: 'auth.missing-key', suites: ['auth'] },
  { fault: 'auth-wrong-status', check: 'auth.invalid-key', suites: ['auth'] },
  { fault: 'auth-no-error-body', check: 'auth.missing-key', suites: ['auth'] },
  { fault: 'auth-scheme-case-sensitive', check: 'auth.scheme-case-insensitive', suites: ['auth'], strict: true },
  { fault: 'auth-after-validation', check: 'auth.before-validation', suites: ['auth'] },
  { fault: 'auth-query-key-accepted', check: 'auth.key-in-query', suites: ['auth'] },
  { fault: 'auth-empty-bearer-accepted', check: 'auth.empty-token', suites: ['auth'] },
  { fault: 'auth-key-prefix-accepted', check: 'auth.near-miss-key', suites: ['auth'] },
  { fault: 'auth-key-case-insensitive', check: 'auth.near-miss-key', suites: ['auth'] },
  { fault: 'error-status-mismatch', check: 'auth.wrong-scheme', suites: ['auth'] },
  { fault: 'error-plain-text', check: 'errors.error-body', suites: ['auth'] },
  { fault: 'error-missing-code', check: 'errors.error-body', suites: ['auth'] },
  { fault: 'error-no-content-type', check: 'errors.error-body', suites: ['get-pet'] },
  { fault: 'list-ignores-limit', check: 'list-pets.limit', suites: ['list-pets'], preload: 30 },
  { fault: 'list-default-limit-50', check: 'list-pets.default-limit', suites: ['list-pets'], preload: 60 },
  { fault: 'list-wrong-status-filter', check: 'list-pets.status-filter', suites: ['list-pets'], preload: 60 },
  { fault: 'list-filter-wrong-status', check: 'list-pets.status-filter', suites: ['list-pets'], preload: 60 },
  { fault: 'list-pet-missing-id', check: 'list-pets.pet-shape', suites: ['list-pets'], preload: 5 },
  { fault: 'list-one-invalid-pet', check: 'list-pets.pet-shape', suites: ['list-pets'], preload: 30 },
  { fault: 'list-limit-off-by-one', check: 'list-pets.limit', suites: ['list-pets'], preload: 120 },
  { fault: 'list-duplicates', check: 'list-pets.no-duplicates', suites: ['list-pets'], preload: 30 },
  { fault: 'list-rejects-limit-100', check: 'list-pets.limit', suites: ['list-pets'] },
  // Only the model-based sequences combine limit and status: these need no other suite to be caught.
  { fault: 'list-limit-ignored-with-status', check: 'stateful.store-model', suites: ['stateful'], preload: 30 },
  { fault: 'list-filter-ignored-with-limit', check: 'stateful.store-model', suites: ['stateful'], preload: 30 },
  { fault: 'list-filter-misses-new', check: 'stateful.store-model', suites: ['stateful'] },
  { fault: 'list-status-case-insensitive', check: 'list-pets.status-filter-invalid', suites: ['list-pets'], preload: 60 },
  // Every 5xx is a must failure (responses.no-5xx), so no --strict is needed for it.
  { fault: 'list-500-on-bad-limit', check: 'responses.no-5xx', suites: ['list-pets'] },
  { fault: 'list-accepts-limit-over-100', check: 'list-pets.limit-out-of-range', suites: ['list-pets'], preload: 150 },
  { fault: 'create-500-on-bad-input', check: 'create-pet.invalid-rejected', suites: ['create-pet'] },
  { fault: 'create-accepts-missing-name', check: 'create-pet.invalid-rejected', suites: ['create-pet'] },
  { fault: 'create-accepts-fraction', check: 'create-pet.invalid-rejected', suites: ['create-pet'] },
  { fault: 'create-accepts-string-category', check: 'create-pet.invalid-rejected', suites: ['create-pet'] },
  { fault: 'create-truncates-int64', check: 'create-pet.echo', suites: ['create-pet'] },
  { fault: 'create-trims-name', check: 'create-pet.echo', suites: ['create-pet'] },
  { fault: 'create-mangles-unicode', check: 'create-pet.echo', suites: ['create-pet'] },
  { fault: 'create-drops-status', check: 'create-pet.echo', suites: ['create-pet'] },
  { fault: 'create-returns-200', check: 'create-pet.created', suites: ['create-pet'] },
  { fault: 'create-201-without-id', check: 'create-pet.created', suites: ['create-pet'] },
  { fault: 'create-uses-body-id', check: 'create-pet.body-id-ignored', suites: ['create-pet'] },
  { fault: 'create-not-persisted', check: 'create-pet.persisted', suites: ['create-pet'] },
  { fault: 'create-accepts-many-invalid', check: 'create-pet.invalid-rejected', suites: ['create-pet'] },
  { fault: 'create-rejects-category-zero', check: 'create-pet.created', suites: ['create-pet'] },
  { fault: 'create-id-race', check: 'concurrency.parallel-creates', suites: ['concurrency'] },
  { fault: 'create-dedupes-identical', check: 'concurrency.parallel-creates', suites: ['concurrency'] },
  { fault: 'create-500-on-long-name', check: 'create-pet.boundaries', suites: ['create-pet'] },
  { fault: 'get-200-for-missing', check: 'get-pet.not-found', suites: ['get-pet'] },
  { fault: 'get-wrong-pet', check: 'get-pet.found', suites: ['get-pet'], preload: 10 },
  { fault: 'get-500-for-non-numeric', check: 'get-pet.non-numeric-no-5xx', suites: ['get-pet'], strict: true },
  { fault: 'get-500-on-huge-id', check: 'responses.no-5xx', suites: ['get-pet'] },
  { fault: 'headers-missing-on-errors', check: 'headers.rate-limit-present', suites: ['auth'] },
  { fault: 'headers-missing', check: 'headers.rate-limit-present', suites: ['list-pets'] },
  { fault: 'content-type-text', check: 'responses.json-media-type', suites: ['list-pets'] },
  { fault: 'rate-remaining-constant', check: 'rate-limit.remaining', suites: ['rate-limit'] },
  { fault: 'rate-remaining-negative', check: 'rate-limit.remaining', suites: ['rate-limit'] },
  { fault: 'rate-reset-milliseconds', check: 'rate-limit.reset-header', suites: ['rate-limit'] },
  { fault: 'rate-reset-relative', check: 'rate-limit.reset-header', suites: ['rate-limit'] },
  // With 2-second windows the start is at most a second behind the Date; comparing with Retry-After catches it.
  { fault: 'rate-reset-window-start', check: 'rate-limit.retry-after-consistent', suites: ['rate-limit'], strict: true },
  { fault: 'rate-limit-wrong-plan', check: 'rate-limit.limit-header', suites: ['rate-limit'] },
  { fault: 'rate-one-too-many', check: 'rate-limit.quota', suites: ['rate-limit'] },
  { fault: 'rate-never-429', check: 'rate-limit.quota', suites: ['rate-limit'] },
  { fault: 'rate-no-retry-after', check: 'rate-limit.retry-after-present', suites: ['rate-limit'] },
  { fault: 'rate-retry-after-milliseconds', check: 'rate-limit.retry-after-consistent', suites: ['rate-limit'], strict: true },
  { fault: 'rate-retry-after-fraction', check: 'rate-limit.retry-after-format', suites: ['rate-limit'], strict: true },
  { fault: 'rate-retry-after-too-short', check: 'rate-limit.retry-after-honoured', suites: ['rate-limit'] },
  { fault: 'rate-shared-bucket', check: 'rate-limit.isolation', suites: ['rate-limit'] },
  { fault: 'rate-check-then-count', check: 'rate-limit.boundary-race', suites: ['rate-limit'] },
  { fault: 'rate-per-connection', check: 'rate-limit.per-connection', suites: ['rate-limit'] },
  { fault: 'rate-daily-not-enforced', check: 'rate-limit.daily-quota', suites: ['rate-limit'] },
  { fault: 'rate-no-reset', check: 'headers.rate-limit-present', suites: ['rate-limit'] },
  { fault: 'rate-no-remaining', check: 'headers.rate-limit-present', suites: ['rate-limit'] },
  { fault: 'rate-day-reset-negative', check: 'rate-limit.daily-quota', suites: ['rate-limit'] },
  { fault: 'rate-draft-headers', check: 'headers.rate-limit-present', suites: ['rate-limit'] },
  // Counted over the day window from every accepted request of the key, the main burst's included.
  { fault: 'rate-day-one-too-many', check: 'rate-limit.daily-quota', suites: ['rate-limit'] },
  // The spent day's 429 says the minute's Retry-After: the request sent then is refused again.
  { fault: 'rate-day-retry-after-minute', check: 'rate-limit.retry-after-obeyed', suites: ['rate-limit'] },
  // Bursts cannot see a bucket that holds the quota but refills slowly: a client pacing itself at 90% of its quota does.
  { fault: 'rate-slow-refill', check: 'load.paced-no-429', suites: ['load'] },
  // No rule of the interface: caught by the target's own thresholds (the reference meets the same, in the variations below).
  { fault: 'latency-grows-with-load', check: 'load.thresholds', suites: ['load'], target: { load: { thresholds: LOAD_THRESHOLDS } } },
];

/** Faults whose checks are not written yet (none today). */
const AWAITING_SUITES: FaultId[] = [];

const dir = tempDir('faults');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runAgainst(name: string, server: { baseUrl: string }, args: string[] = [], extra: Record<string, unknown> = {}) {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  const reports = path.join(dir, safe);
  const target = { name: safe, baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true }, ...extra };
  const run = await runCli(['--target', writeTarget(dir, target, `${safe}.yaml`), '--report-dir', reports, '--seed', SEED, '--quiet', ...args]);
  return { run, report: readReport(reports) };
}

describe('fault catalogue', () => {
  it('lists every fault of the reference server exactly once, as caught or as awaiting its suite', () => {
    const listed = [...CAUGHT.map((c) => c.fault), ...AWAITING_SUITES];
    expect([...listed].sort()).toEqual([...FAULT_IDS].sort());
  });

  it.concurrent.each(CAUGHT)('$fault fails the run through $check', async ({ fault, check, suites, preload, strict, target }) => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: [fault], preload: preload ?? 0 });
    try {
      const { run, report } = await runAgainst(fault, server, [...suites.flatMap((s) => ['--suite', s]), ...(strict ? ['--strict'] : [])], target);
      const failed = report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);
      expect(failed).toContain(check);
      expect(run.code).toBe(1);
    } finally {
      await server.close();
    }
  });
});

/** What a fault's report says beyond the failing check: no empty pass, every kind of failure, one cause once. */
describe('what the report says about a fault', () => {
  async function reportOf(fault: FaultId, suites: string[], preload = 0) {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: [fault], preload });
    try {
      return (await runAgainst(`${fault}-report`, server, suites.flatMap((s) => ['--suite', s]))).report;
    } finally {
      await server.close();
    }
  }
  const outcomes = (report: Report, id: string) => report.checks.filter((c) => c.id === id);

  it('rate-no-reset: the Reset check skips naming the missing header, never passes', async () => {
    const report = await reportOf('rate-no-reset', ['rate-limit']);
    const reset = outcomes(report, 'rate-limit.reset-header');
    expect(reset.length).toBeGreaterThan(0);
    for (const c of reset) expect({ outcome: c.outcome, message: c.message }).toEqual({ outcome: 'skip', message: expect.stringContaining('carried an integer X-RateLimit-Reset') });
  });

  it('rate-no-remaining: the quota check skips naming the missing Remaining, not "no burst ran"', async () => {
    const report = await reportOf('rate-no-remaining', ['rate-limit']);
    const quota = outcomes(report, 'rate-limit.quota');
    expect(quota.length).toBeGreaterThan(0);
    for (const c of quota) expect({ outcome: c.outcome, message: c.message }).toEqual({ outcome: 'skip', message: expect.stringContaining('no integer X-RateLimit-Remaining') });
  });

  it('rate-day-reset-negative: the day block with a negative Reset fails', async () => {
    const report = await reportOf('rate-day-reset-negative', ['rate-limit']);
    expect(outcomes(report, 'rate-limit.daily-quota').find((c) => c.subject === 'daily#1')).toMatchObject({ outcome: 'fail', message: expect.stringContaining('-1, not after its Date') });
  });

  it('headers-day-window: the window named in info, the quota judged against the minute, the mismatch a should failure with the figures', async () => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations: ['headers-day-window'] });
    try {
      const { run, report } = await runAgainst('headers-day-window-report', server, ['--suite', 'rate-limit']);
      expect(run.code).toBe(0);
      const free = (id: string) => report.checks.find((c) => c.id === id && c.subject === 'free#1');
      expect(free('rate-limit.headers-window')).toMatchObject({ severity: 'info', outcome: 'pass', message: expect.stringContaining('the day window (Limit 1000) on all') });
      expect(free('rate-limit.quota')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('the headers describe the day window') });
      expect(free('rate-limit.binding-headers')).toMatchObject({ severity: 'should', outcome: 'fail', message: expect.stringMatching(/describe the day window \(Remaining said \d+\), but the minute's quota refused after \d+ accepted/) });
      expect(report.checks.filter((c) => c.severity === 'must' && c.outcome === 'fail')).toEqual([]);
      expect(server.stats().bans).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('rate-draft-headers: the failure says the IETF draft headers came instead', async () => {
    const report = await reportOf('rate-draft-headers', ['rate-limit']);
    expect(outcomes(report, 'headers.rate-limit-present')[0]?.message).toContain("the IETF draft's RateLimit-* headers");
  });

  it('create-accepts-many-invalid: each kind of accepted invalid NewPet is reported, each with its own counterexample', async () => {
    const report = await reportOf('create-accepts-many-invalid', ['create-pet']);
    const [invalid] = outcomes(report, 'create-pet.invalid-rejected');
    expect(invalid?.outcome).toBe('fail');
    const failures = invalid?.evidence?.failures ?? [];
    expect(failures.length).toBeGreaterThanOrEqual(5);
    expect(new Set(failures.map((f) => f.kind)).size).toBe(failures.length);
    for (const f of failures) expect(f.counterexample).toContain(f.kind);
  });

  it('list-one-invalid-pet: one root failure, the Pet shape; the list checks only mention it', async () => {
    const report = await reportOf('list-one-invalid-pet', ['list-pets'], 30);
    expect(report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual(['list-pets.pet-shape']);
    expect(outcomes(report, 'list-pets.smoke')[0]?.message).toContain('see list-pets.pet-shape');
  });

  it('list-limit-ignored-with-status: the stateful run reports its shortest sequence and seed, and the same seed fails the same way', async () => {
    const failure = async () => {
      const report = await reportOf('list-limit-ignored-with-status', ['stateful'], 30);
      const [model] = outcomes(report, 'stateful.store-model');
      expect(model?.outcome).toBe('fail');
      return model!;
    };
    const first = await failure();
    expect(first.message).toMatch(/more than limit \d+/);
    expect(first.evidence?.counterexample).toMatch(/^(Create\(.*\),)*List\(limit=\d+, status=\w+\)/);
    expect(first.evidence?.seed).toEqual(expect.any(Number));
    expect(first.evidence?.reproduce.at(-1)).toContain(`--seed ${SEED}`);
    const again = await failure();
    expect({ counterexample: again.evidence?.counterexample, seed: again.evidence?.seed, message: again.message }).toEqual({ counterexample: first.evidence?.counterexample, seed: first.evidence?.seed, message: first.message });
  });

  it('on GitHub Actions: the job summary names the failing checks, and at most ten ::error lines are printed', async () => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: ['auth-disabled'] });
    const summary = path.join(dir, 'step-summary.md');
    try {
      const safe = 'github-summary';
      const target = { name: safe, baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true } };
      const run = await runCli(['--target', writeTarget(dir, target, `${safe}.yaml`), '--report-dir', path.join(dir, safe), '--seed', SEED, '--suite', 'auth'], { GITHUB_STEP_SUMMARY: summary });
      expect(run.code).toBe(1);
      const md = readFileSync(summary, 'utf8');
      expect(md).toContain('## ❌ Not conformant: github-summary');
      expect(md).toContain('| `auth.missing-key [listPets GET /pets]` | must | Authentication |');
      const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error '));
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.length).toBeLessThanOrEqual(10);
      expect(errors[0]).toMatch(/^::error title=auth\.missing-key \[.*\] \(must\)::/);
    } finally {
      await server.close();
    }
  });

  it('auth-no-error-body: every 401 without an Error body fails, all under one root, errors.error-body', async () => {
    const report = await reportOf('auth-no-error-body', ['auth']);
    const failed = report.checks.filter((c) => c.outcome === 'fail');
    expect(failed.length).toBeGreaterThan(10);
    expect(failed.filter((c) => !c.causedBy).map((c) => c.id)).toEqual(['errors.error-body']);
    for (const c of failed.filter((c) => c.causedBy)) expect(c.causedBy).toEqual({ id: 'errors.error-body', subject: 'every response of the run' });
  });
});

describe('a key banned before the run', () => {
  it('first-key-banned: the banned key is recorded and not driven, and the next key of its plan takes its place', async () => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations: ['first-key-banned'] });
    try {
      const { run, report } = await runAgainst('first-key-banned-report', server, ['--suite', 'rate-limit']);
      expect(run.code).toBe(0);
      const of = (label: string) => report.checks.filter((c) => c.subject === label);
      const banned = of('free#1');
      expect(banned.find((c) => c.id === 'rate-limit.ban-probe')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('looks banned') });
      for (const c of banned.filter((c) => c.id !== 'rate-limit.ban-probe')) expect({ id: c.id, outcome: c.outcome, message: c.message }).toEqual({ id: c.id, outcome: 'skip', message: expect.stringContaining('free#1 was refused before') });
      // free#2 is driven in its place: its quota judged, its day spent.
      expect(of('free#2').find((c) => c.id === 'rate-limit.quota')?.outcome).toBe('pass');
      expect(of('free#2').find((c) => c.id === 'rate-limit.daily-quota')?.message).not.toContain('spent on one key per plan');
      expect(server.stats().bans).toBe(0);
    } finally {
      await server.close();
    }
  });
});

const VARIATIONS: { variation: VariationId; preload?: number }[] = VARIATION_IDS.map((variation) => ({
  variation,
  ...(variation === 'shuffled-order' || variation === 'limit-clamp' ? { preload: 150 } : {}),
}));

/**
 * Variations that take a reading the harness reports as a `should` failure: they pass without
 * --strict, and fail only these checks (with --strict they would not pass, as they should not).
 */
const SHOULD_FAILURES: Partial<Record<VariationId, string[]>> = {
  // The headers describe the day while the minute refuses first: both readings of "the applicable request limit".
  'headers-day-window': ['rate-limit.binding-headers', 'rate-limit.retry-after-consistent'],
};

/** How the report must describe the limiter of every key driven to a 429, where a variation could mislead it. */
const BEHAVIOUR: Partial<Record<VariationId, RegExp>> = { 'reset-jitter': /^fixed window/ };

/** Every suite, the paced load (named, as it runs only then) among them: a legal server passes them all, one after another. */
const EVERY_SUITE = ['--suite', listSuites().join(',')];
/** Variations of what responses look like: the paced load meets nothing new in them, so it is left out (it takes two windows). */
const SHAPE_ONLY: readonly VariationId[] = ['ids-beyond-2^53', 'status-default-available', 'limit-clamp', 'charset-utf8', 'shuffled-order', 'non-numeric-id-404', 'extra-fields-rejected', 'deprecation-date-form'];

describe('legal variations pass every check', () => {
  it.concurrent.each(VARIATIONS)('$variation', async ({ variation, preload }) => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations: [variation], preload: preload ?? 0 });
    try {
      const paced = !SHAPE_ONLY.includes(variation);
      const shouldFail = SHOULD_FAILURES[variation];
      const { run, report } = await runAgainst(variation, server, [...(shouldFail ? [] : ['--strict']), ...(paced ? EVERY_SUITE : [])], { load: { thresholds: LOAD_THRESHOLDS } });
      if (paced) expect(report.checks.filter((c) => c.id === 'load.paced-no-429' && c.outcome === 'pass').length).toBeGreaterThan(0);
      const failed = report.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
      expect(failed.filter((c) => !(shouldFail?.includes(c.id) && c.severity === 'should' && c.outcome === 'fail')).map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      if (shouldFail) expect(failed.some((c) => c.id === shouldFail[0])).toBe(true);
      expect(run.code).toBe(0);
      // No key here is disposable, so none may be banned, whatever the server bans for.
      expect(server.stats().bans).toBe(0);
      const behaviour = BEHAVIOUR[variation] ?? /./;
      for (const k of report.rateLimits ?? []) if (k.load?.sentAfterFirst429 !== undefined) expect({ key: k.label, behaviour: k.behaviour }).toEqual({ key: k.label, behaviour: expect.stringMatching(behaviour) });
    } finally {
      await server.close();
    }
  });

  it('a store preloaded with 500 animals', async () => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, preload: 500 });
    try {
      const { run, report } = await runAgainst('preload-500', server, ['--strict']);
      expect(report.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(run.code).toBe(0);
    } finally {
      await server.close();
    }
  });
});
