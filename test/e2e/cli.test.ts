// The CLI end to end against the reference server: the contracts of DESIGN.md (exit statuses,
// reports, target files) as a user meets them.
import { existsSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import { validate } from 'ctrf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config/load-target.ts';
import { freePort } from '../../lib/runner/start-target.ts';
import { type RunningServer, startReferenceServer } from '../../targets/reference/server.ts';
import { filesUnder, readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

// Distinctive keys, so that finding one anywhere in the output is unambiguous.
const KEYS = [
  { key: 'sk-e2e-FREE-a1b2c3d4e5f6', plan: 'free' },
  { key: 'sk-e2e-FREE-f6e5d4c3b2a1', plan: 'free' },
  { key: 'sk-e2e-PRO-0123456789ab', plan: 'pro' },
  { key: 'sk-e2e-BUSINESS-ba9876543210', plan: 'business' },
  { key: 'sk-e2e-ENTERPRISE-55aa55aa55aa', plan: 'enterprise' },
];
const PLANS = { enterprise: { perMinute: 5000, perDay: 200000 }, free: { perMinute: 90, perDay: 1200 } };
const WINDOWS = { minute: 2, day: 30 };

function targetFor(server: RunningServer, extra: Record<string, unknown> = {}) {
  return { name: 'e2e', baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: false }, ...extra };
}

function expectNoKeys(texts: readonly string[]): void {
  for (const text of texts) for (const { key } of KEYS) expect(text).not.toContain(key);
}

describe.concurrent('a conforming server someone else started (five keys over four plans, plans overrides, short windows, no start:)', () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS });
    dir = tempDir('conforming');
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0, passes every check and writes report.json, report.html and junit.xml to --report-dir', async () => {
    const reports = path.join(dir, 'out');
    const run = await runCli(['--target', writeTarget(dir, targetFor(server)), '--report-dir', reports]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/CONFORMANT e2e/);
    const report = readReport(reports);
    expect(report.verdict).toBe('pass');
    expect(report.target.keys.map((k) => k.label)).toEqual(['free#1', 'free#2', 'pro#1', 'business#1', 'enterprise#1']);
    expect(report.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error')).toEqual([]);
    // Load is not allowed on this target, so the rate-limit suite's checks skip; and a conforming
    // server under a light run never says 429, so the checks of 429 bodies, of their Retry-After
    // and of obeyed Retry-Afters have nothing to judge; the reference sets no cookie, so none is
    // sent back alone.
    const skipped = report.checks.filter((c) => c.outcome === 'skip');
    expect(skipped.filter((c) => c.suite !== 'rate-limit').map((c) => c.id)).toEqual(['auth.cookie-not-credential', 'errors.429-error-body', 'rate-limit.retry-after-present', 'rate-limit.retry-after-format', 'rate-limit.retry-after-obeyed']);
    expect(skipped.find((c) => c.id === 'rate-limit.retry-after-present')?.message).toBe('no 429 in the run');
    expect(skipped.filter((c) => c.suite === 'rate-limit').every((c) => c.message.includes('--allow-load'))).toBe(true);
    expect(report.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['auth.missing-key', 'auth.invalid-key', 'auth.wrong-scheme', 'list-pets.smoke', 'create-pet.echo', 'get-pet.not-found', 'errors.error-body', 'headers.rate-limit-present']),
    );
    // Requests counted by the harness are the requests the server saw.
    expect(report.requests.total).toBe(server.stats().requests);
    expect(readFileSync(path.join(reports, 'junit.xml'), 'utf8')).toContain(`tests="${report.checks.length}"`);
    expect(readFileSync(path.join(reports, 'report.html'), 'utf8')).toContain('data-verdict="pass"');
    expectNoKeys([run.stdout, run.stderr, ...filesUnder(reports).map((f) => f.text)]);
  });
});

describe.concurrent('a server with a fault', () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: ['auth-disabled'] });
    dir = tempDir('fault');
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // One server, its keys' quotas shared: these two run one after the other.
  it.sequential('exits 1 and names the failing check ids, with redacted evidence and a reproduction command', async () => {
    const reports = path.join(dir, 'out');
    // The authentication suite alone: every check the fault fails is in it.
    const run = await runCli(['--target', writeTarget(dir, targetFor(server)), '--report-dir', reports, '--suite', 'auth']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/NOT CONFORMANT/);
    expect(run.stdout).toContain('auth.missing-key');
    const report = readReport(reports);
    expect(report.verdict).toBe('fail');
    const failed = report.checks.filter((c) => c.outcome === 'fail');
    expect(failed.map((c) => c.id)).toEqual(expect.arrayContaining(['auth.missing-key', 'auth.invalid-key', 'auth.wrong-scheme', 'auth.empty-token', 'auth.key-in-query']));
    expect(failed.every((c) => c.clause === 'Authentication')).toBe(true);
    const missing = failed.find((c) => c.id === 'auth.missing-key' && c.subject?.startsWith('listPets'));
    expect(missing?.evidence?.exchanges[0]?.status).toBe(200);
    expect(missing?.evidence?.reproduce[0]).toMatch(/^curl .* 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets'|^curl .*http:\/\/127\.0\.0\.1:\d+\/v1\/pets/);
    const scheme = failed.find((c) => c.id === 'auth.wrong-scheme');
    // Functional checks use the key with the most headroom: here the enterprise key (5000/min).
    expect(scheme?.evidence?.reproduce[0]).toContain('"Authorization: Basic $ANIMAL_STORE_ENTERPRISE_KEY_1"');
    expect(scheme?.evidence?.exchanges[0]?.requestHeaders.authorization).toBe('Basic [REDACTED:enterprise#1]');
    const query = failed.find((c) => c.id === 'auth.key-in-query');
    expect(query?.evidence?.reproduce[0]).toMatch(/"http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?api_key=\$\{ANIMAL_STORE_ENTERPRISE_KEY_1\}"/);
    expect(readFileSync(path.join(reports, 'junit.xml'), 'utf8')).toContain('auth.missing-key');
    expectNoKeys([run.stdout, run.stderr, ...filesUnder(reports).map((f) => f.text)]);
  });

  it.sequential('with --quiet prints only the verdict line', async () => {
    const run = await runCli(['--target', writeTarget(dir, targetFor(server)), '--report-dir', path.join(dir, 'quiet'), '--quiet', '--suite', 'auth']);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toMatch(/^NOT CONFORMANT e2e: \d+ checks/);
  });
});

describe.concurrent('usage and config errors exit 2 with a message naming the culprit, and no stack trace', () => {
  const dir = tempDir('config');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const base = { name: 'bad', baseUrl: 'http://127.0.0.1:9/v1', keys: [{ key: KEYS[0]!.key, plan: 'free' }] };

  it.each([
    ['an unknown field', { ...base, budgett: { maxRequests: 5 } }, {}, /budgett: unknown field \(did you mean "budget"\?\)/],
    ['an unknown nested field', { ...base, windows: { minute: 2, dayy: 30 } }, {}, /windows\.dayy: unknown field/],
    ['an unset variable', { ...base, baseUrl: '${E2E_UNSET_URL}' }, {}, /E2E_UNSET_URL \(for baseUrl\)/],
    ['an invalid value', { ...base, allow: { writes: 'yes' } }, {}, /allow\.writes: .*expected boolean/],
  ])('%s', async (what, target, env, message) => {
    // A target file each: the cases run side by side.
    const run = await runCli(['--target', writeTarget(dir, target, `${what.replace(/\W+/g, '-')}.yaml`), '--report-dir', path.join(dir, 'never')], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expectNoKeys([run.stdout, run.stderr]);
    expect(existsSync(path.join(dir, 'never'))).toBe(false);
  });

  it('an unknown target name suggests the near one', async () => {
    const run = await runCli(['--target', 'stagin']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown target "stagin" \(did you mean "staging"\?\)/);
  });

  it('an unknown option suggests the near one', async () => {
    const run = await runCli(['--seeed', '4']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown option --seeed \(did you mean "--seed"\?\)/);
  });

  it('--help exits 0 and explains every option of the contract', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const option of ['--target', '--report-dir', '--suite', '--seed', '--runs', '--allow-writes', '--allow-load', '--max-requests', '--strict', '--soak', '--quiet', '--list-checks', '--json', '--help']) {
      expect(run.stdout).toContain(option);
    }
  });
});

describe.concurrent('a closed port', () => {
  const dir = tempDir('closed');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 3 and still writes a report saying the target was unreachable', async () => {
    const port = await freePort();
    const reports = path.join(dir, 'out');
    const target = { name: 'closed', baseUrl: `http://127.0.0.1:${port}/v1`, keys: KEYS.slice(0, 1) };
    const run = await runCli(['--target', writeTarget(dir, target), '--report-dir', reports]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/UNREACHABLE closed/);
    const report = readReport(reports);
    expect(report.exitCode).toBe(3);
    const probe = report.checks.find((c) => c.id === 'target.reachable');
    expect(probe?.outcome).toBe('error');
    expect(probe?.message).toContain('CONNECTION_REFUSED');
  });
});

describe.concurrent('the default local target', () => {
  it('starts the bundled reference server, checks it, exits 0 and writes reports/local/<timestamp>/ with a latest link', async () => {
    const run = await runCli([]);
    expect(run.stdout.split('\n').filter((l) => /^\s+[✗!] /.test(l))).toEqual([]);
    expect(run.code).toBe(0);
    const reportLine = /Reports: (\S+)\/report\.json/.exec(run.stdout);
    expect(reportLine).not.toBeNull();
    const dir = path.resolve(PROJECT_ROOT, reportLine![1]!);
    try {
      expect(path.relative(path.join(PROJECT_ROOT, 'reports', 'local'), dir)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(-\d+)?$/);
      for (const f of ['report.json', 'report.html', 'junit.xml', 'ctrf.json']) expect(existsSync(path.join(dir, f))).toBe(true);
      // ctrf.json of a whole run passes the format's own validator, one test per check.
      const ctrf: unknown = JSON.parse(readFileSync(path.join(dir, 'ctrf.json'), 'utf8'));
      expect(validate(ctrf).valid).toBe(true);
      expect(readlinkSync(path.join(PROJECT_ROOT, 'reports', 'local', 'latest'))).toBe(path.basename(dir));
      const report = readReport(dir);
      expect(report.verdict).toBe('pass');
      expect((ctrf as { results: { tests: unknown[] } }).results.tests).toHaveLength(report.checks.length);
      expect(run.stdout).toMatch(/Target stopped \(pid \d+\)/);
      // The progress lines count each suite's requests from the same events as the report.
      const shown = Object.fromEntries([...run.stdout.matchAll(/^ {2}([a-z-]+): \d+ checks \(.*\), (\d+) requests, /gm)].map((m) => [m[1], Number(m[2])]));
      expect(Object.keys(shown)).toEqual(report.options.suites);
      for (const suite of report.options.suites) expect(shown[suite], suite).toBe(report.requests.bySuite[suite]);
      // Every check of the report is listed by --list-checks, once, with its clause and severity.
      const listing = await runCli(['--list-checks', '--json']);
      expect(listing.code).toBe(0);
      const listed = JSON.parse(listing.stdout) as { id: string; clause: string; severity: string; suite: string; title: string }[];
      expect(new Set(listed.map((c) => c.id)).size).toBe(listed.length);
      for (const c of report.checks) {
        const entry = listed.find((l) => l.id === c.id);
        expect(entry, c.id).toBeDefined();
        expect(entry).toMatchObject({ clause: c.clause, severity: c.severity, title: c.title });
      }
      const localKeys = ['local-free-key-1', 'local-free-key-2', 'local-pro-key-1', 'local-business-key-1', 'local-daily-key-1', 'local-spare-key-1'];
      for (const { text } of filesUnder(dir)) for (const k of localKeys) expect(text).not.toContain(k);
      for (const k of localKeys) expect(run.stdout + run.stderr).not.toContain(k);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.concurrent('reproducibility', () => {
  const dir = tempDir('seed');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * The requests of a run, in order: method, path and query, body (the port differs between
   * servers). The concurrency suite sends requests together, which the log holds in the order they
   * were answered: its requests are compared as a set.
   */
  async function requestsOf(seed: string, name: string, only?: string): Promise<string[]> {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, preload: 40 });
    try {
      const reports = path.join(dir, name);
      const run = await runCli(['--target', writeTarget(dir, targetFor(server), `${name}.yaml`), '--report-dir', reports, '--seed', seed, '--quiet', ...(only ? ['--suite', only] : [])]);
      expect(run.code).toBe(0);
      return readFileSync(path.join(reports, 'exchanges.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { suite: string; method: string; url: string; requestBody?: string })
        .filter((e) => only === undefined || e.suite === only)
        .map((e) => ({ suite: e.suite, line: `${e.method} ${new URL(e.url).pathname}${new URL(e.url).search} ${e.requestBody ?? ''}` }))
        .flatMap((e, i, all) => {
          if (e.suite !== 'concurrency') return [e.line];
          // The whole concurrency block once, sorted, at its first request.
          return all.findIndex((x) => x.suite === 'concurrency') === i ? all.filter((x) => x.suite === 'concurrency').map((x) => x.line).sort() : [];
        });
    } finally {
      await server.close();
    }
  }

  it('two runs with the same seed against the same server state send the same requests, another seed does not', async () => {
    // Each run against a server of its own: two at a time.
    const [first, second] = await Promise.all([requestsOf('12345', 'a'), requestsOf('12345', 'b')]);
    expect(first.length).toBeGreaterThan(100);
    expect(second).toEqual(first);
    // Another seed, shown on one suite of generated cases: the same suite of the same seed, alone, sends the same requests.
    const [createPet, other] = await Promise.all([requestsOf('12345', 'c', 'create-pet'), requestsOf('54321', 'd', 'create-pet')]);
    expect(createPet.length).toBeGreaterThan(50);
    expect(other).not.toEqual(createPet);
  });
});
