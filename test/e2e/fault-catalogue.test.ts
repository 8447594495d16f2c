// The reference server's fault catalogue against the command: each fault the rate-limit suite's
// driver does not catch in this process (test/clock/catalogue.test.ts) must fail the run
// through the check meant for it, the legal variations must pass every suite (several at once,
// since each is legal on its own), and the plain reference passes everything. The seed is pinned:
// a fault caught today is caught on every run.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_IDS, type FaultId } from '../../targets/reference/faults.ts';
import { listSuites } from '../../lib/runner/vitest-run.ts';
import { startReferenceServer } from '../../targets/reference/server.ts';
import { VARIATION_IDS, type VariationId } from '../../targets/reference/variations.ts';
import type { Report } from '../../lib/result/model.ts';
import { CAUGHT, failureSignatures, KEYS, LOAD_THRESHOLDS, PLANS, signatureOf, WINDOWS } from '../support/fault-catalogue.ts';
import { FAULT_SIGNATURES } from '../support/fault-signatures.ts';
import { type CliRun, readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const SEED = '1';
const BY_COMMAND = CAUGHT.flatMap((c) => (c.by === 'clock' ? [] : [{ ...c, suites: c.by, group: c.group ?? c.fault }]));

/** The groups of faults switched on together, each run once: the union of their suites, the most animals, --strict if one needs it. */
const GROUPS_OF_FAULTS = new Map<string, (typeof BY_COMMAND)[number][]>();
for (const c of BY_COMMAND) GROUPS_OF_FAULTS.set(c.group, [...(GROUPS_OF_FAULTS.get(c.group) ?? []), c]);

const dir = tempDir('faults');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runAgainst(name: string, server: { baseUrl: string }, args: string[] = [], extra: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  const reports = path.join(dir, safe);
  const target = { name: safe, baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true }, ...extra };
  // Quiet, but on GitHub Actions (a job summary asked for): the annotations are what is shown there.
  const quiet = env.GITHUB_STEP_SUMMARY ? [] : ['--quiet'];
  // The seed the arguments name, else the catalogue's.
  const seed = args.includes('--seed') ? [] : ['--seed', SEED];
  const run = await runCli(['--target', writeTarget(dir, target, `${safe}.yaml`), '--report-dir', reports, ...seed, ...quiet, ...args], env);
  return { run, report: readReport(reports) };
}

/** The job summary the run of the auth-disabled group writes (as on GitHub Actions). */
const SUMMARY = path.join(dir, 'step-summary.md');

/**
 * One command run per group of faults (and seed: the catalogue's runs are seed 1), whichever test
 * asks first: the catalogue's tests, the report's details and the seeds test share it.
 */
const groupRuns = new Map<string, Promise<{ run: CliRun; report: Report }>>();
function groupRun(group: string, seed = SEED): Promise<{ run: CliRun; report: Report }> {
  const name = seed === SEED ? group : `${group}-seed-${seed}`;
  let done = groupRuns.get(name);
  if (!done) {
    const members = GROUPS_OF_FAULTS.get(group)!;
    const suites = [...new Set(members.flatMap((m) => m.suites))];
    const preload = Math.max(0, ...members.map((m) => m.preload ?? 0));
    const strict = members.some((m) => m.strict);
    const target = Object.assign({}, ...members.map((m) => m.target ?? {})) as Record<string, unknown>;
    done = (async () => {
      const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: members.map((m) => m.fault), preload });
      try {
        return await runAgainst(name, server, [...suites.flatMap((s) => ['--suite', s]), ...(strict ? ['--strict'] : []), '--seed', seed], target, group === 'auth-disabled' ? { GITHUB_STEP_SUMMARY: SUMMARY } : {});
      } finally {
        await server.close();
      }
    })();
    groupRuns.set(name, done);
  }
  return done;
}

/**
 * The spellings a run sent, in order ("family: name, credential"), from its exchanges.jsonl; a
 * spelling sent again at once (one quota's confirmation, when the window turned between two
 * answers: a matter of timing, not of the seed) counted once.
 */
function spellingsSent(reports: string): string[] {
  const lines = readFileSync(path.join(reports, 'exchanges.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
  const all = lines.map((l) => JSON.parse(l) as { spelling?: { family: string; name: string }; auth: { kind: string } }).flatMap((e) => (e.spelling ? [`${e.spelling.family}: ${e.spelling.name}, ${e.auth.kind}`] : []));
  return all.filter((s, i) => s !== all[i - 1]);
}

const groupOf = (fault: FaultId) => BY_COMMAND.find((c) => c.fault === fault)!.group;


// Every describe here is concurrent: the runs of all of them share the file's two slots (maxConcurrency),
// the longest (the legal group with the paced load, which mostly waits on its windows) first.
/**
 * Legal variations, several to a server (each is legal alone, so together they are too): every
 * suite must pass, with --strict. The rate-limit suite meets each variation alone on the virtual
 * clock (test/clock/catalogue.test.ts); here they meet the functional suites and the
 * paced load over real sockets.
 */
const GROUPS: { title: string; variations: VariationId[]; suites: 'functional' | 'every'; preload?: number }[] = [
  {
    // Every suite but the relations suite, whose 517 requests over answers each on a connection of
    // its own (close-delimited) and held by the instances would cost 11 s more here: its spellings
    // meet chunked bodies and interim answers in the first group.
    title: 'delivery, clocks, 429s, sharded ids, a null status, interim answers, close-delimited and coded bodies, every suite but relations, with the paced load',
    variations: ['status-null', 'keep-alive-1s', 'several-instances', '429-empty-body', 'retry-after-http-date', 'clock-ahead', 'ids-sharded', 'interim-100-102', 'close-delimited', 'gzip-always', 'deflate-always', 'br-always'],
    suites: 'every',
  },
  {
    // chunked-bodies apart from close-delimited, which would frame every body instead; the
    // rate-limit suite meets early-hints-103 alone, against the plain reference (test/e2e/rate-limit.test.ts).
    title: 'shapes of responses, every Pet with createdAt and _links, every Error with more members, JSON reversed and pretty-printed, 501 for unknown methods, chunked after 103 Early Hints, slow heads and bodies, over a store of 500 animals',
    variations: ['ids-beyond-2^53', 'status-default-available', 'limit-clamp', 'charset-utf8', 'shuffled-order', 'non-numeric-id-404', 'extra-fields-rejected', 'routing-before-auth', 'json-parser-first', 'media-type-415', 'deprecation-date-form', 'sunset-end-of-day', 'affinity-cookie', 'cache-control-keyed', 'pet-extra-members', 'chunked-bodies', 'early-hints-103', 'unknown-method-501', 'error-extra-members', 'json-reformatted', 'slow-body'],
    suites: 'functional',
    preload: 500,
  },
  // Other spellings of a request as real stacks read them (the relations suite's families), in two
  // groups since the strict readings would hide the lenient ones: the firewall refuses the paths
  // merged-slashes and path-parameters-ignored serve, the redirect answers the trailing slash first.
  // The store assigns ids one way: ids-negative and ids-near-2^63 go one to each of these groups (the
  // spellings of a path parameter meet a negative id and the largest int64).
  {
    title: 'spellings read leniently: paths in any case, with a trailing slash, doubled slashes, path parameters or encodings served; a CORS layer; an absolute Location; the last of duplicate members; negative ids; reads that lag writes',
    variations: ['case-insensitive-routing', 'trailing-slash-served', 'merged-slashes', 'path-parameters-ignored', 'percent-decoded-path', 'options-cors', 'location-absolute', 'duplicate-member-last-wins', 'ids-negative', 'read-lag'],
    suites: 'functional',
    preload: 20,
  },
  {
    title: 'spellings read strictly: a path firewall, redirects to the clean path, a query schema, 406 for an Accept without JSON, HEAD not routed; ids from 2^63 - 1 down',
    variations: ['strict-path-400', 'trailing-slash-redirect', 'strict-query', 'accept-406', 'head-405', 'ids-near-2^63'],
    suites: 'functional',
  },
];

/**
 * Legal variations that read input the interface does not describe (another media type, a null
 * status, a status filter in another case, another spelling of the credential, a filter it does
 * not know): the run passes WITHOUT
 * --strict, no must fails, and exactly the should checks that say so fail, each on its own reading.
 */
const LENIENT = {
  variations: ['any-body-as-json', 'lenient-values', 'lenient-bearer', 'unknown-filter-ignored'] as VariationId[],
  suites: ['create-pet', 'list-pets', 'auth'],
  shouldFail: ['auth.credential-syntax', 'auth.key-without-scheme', 'create-pet.lenient-input', 'create-pet.media-type', 'list-pets.status-case', 'list-pets.unknown-status'],
};

/** Every suite, the paced load (named, as it runs only then) among them; the relations suite aside (see its group). */
const EVERY_SUITE = ['--suite', listSuites().filter((s) => s !== 'relations').join(',')];
/** The suites that judge what responses look like: neither the rate-limit suite nor the paced load. */
const FUNCTIONAL = ['--suite', listSuites().filter((s) => s !== 'rate-limit' && s !== 'load').join(',')];

describe.concurrent('legal variations pass every check', () => {
  it('every variation is in a group here, or changes only what the virtual clock meets', () => {
    const grouped = [...GROUPS.flatMap((g) => g.variations), ...LENIENT.variations];
    expect(new Set(grouped).size).toBe(grouped.length);
    // The rest change only the limiter: the virtual clock's catalogue meets each of them alone.
    // slow-responses, far-away and answers-reordered only hold replies: on the virtual clock they cost no time.
    const limiterOnly: VariationId[] = ['rejected-count-against-quota', 'sliding-window', 'ban-after-ignoring-429', 'ban-after-3-early', 'first-key-banned', 'window-per-key', 'retry-after-fractional-wait', 'sliding-log', 'headers-day-window', 'headers-minute-window', 'reset-jitter', 'clock-behind', 'instances-clock-skew', 'slow-day', 'slow-responses', 'far-away', 'answers-reordered'];
    expect([...grouped, ...limiterOnly].sort()).toEqual([...VARIATION_IDS].sort());
  });


  it.concurrent.each(GROUPS)('$title', async ({ variations, suites, preload }) => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations, preload: preload ?? 0 });
    try {
      const name = variations.join('+').replace(/\^/g, '');
      const { run, report } = await runAgainst(name.slice(0, 60), server, ['--strict', ...(suites === 'every' ? EVERY_SUITE : FUNCTIONAL)], { load: { thresholds: LOAD_THRESHOLDS } });
      if (suites === 'every') expect(report.checks.filter((c) => c.id === 'load.paced-no-429' && c.outcome === 'pass').length).toBeGreaterThan(0);
      expect(report.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(run.code).toBe(0);
      // No key here is disposable, so none may be banned, whatever the server bans for.
      expect(server.stats().bans).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe.concurrent('legal variations that read leniently pass without --strict', () => {
  it.concurrent(LENIENT.variations.join(', '), async () => {
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations: LENIENT.variations });
    try {
      const { run, report } = await runAgainst('lenient-readings', server, LENIENT.suites.flatMap((s) => ['--suite', s]));
      const notPassed = report.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error');
      expect(notPassed.filter((c) => c.severity !== 'should').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect([...new Set(notPassed.map((c) => c.id))].sort()).toEqual(LENIENT.shouldFail);
      // Each says what it read: the media types and animals, the spellings, the filters.
      const message = (id: string, subject?: string) => notPassed.find((c) => c.id === id && (subject === undefined || c.subject === subject))!.message;
      expect(message('create-pet.media-type')).toMatch(/^a NewPet under another media type than application\/json was accepted: text\/plain \(pet \d+\)$/);
      // A null status read as none: the one NewPet reading lenient-values keeps (a value of another type or outside the enum is a fault's).
      expect(message('create-pet.lenient-input')).toMatch(/^\d+ of \d+ spellings the interface does not describe were accepted as the NewPet they spell: status is null /);
      expect(message('auth.credential-syntax', 'listPets GET /pets')).toBe('"Bearer <key> <key>" got 200: the key was read out of another spelling of the credential');
      expect(message('list-pets.unknown-status')).toMatch(/status="adopted" listed \d+ animals of/);
      expect(run.code).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe.concurrent('fault catalogue', () => {
  it('lists every fault of the reference server exactly once, caught here or on the virtual clock', () => {
    expect(CAUGHT.map((c) => c.fault).sort()).toEqual([...FAULT_IDS].sort());
  });

  it("groups faults soundly: no fault of a group fails another one's check with that one's code when on alone", () => {
    for (const [group, members] of GROUPS_OF_FAULTS) {
      for (const m of members) {
        expect({ fault: m.fault, code: m.code }).toEqual({ fault: m.fault, code: expect.any(String) });
        if (members.length === 1) continue;
        expect({ fault: m.fault, alone: FAULT_SIGNATURES[m.fault] }).toEqual({ fault: m.fault, alone: expect.arrayContaining([signatureOf(m)]) });
        for (const other of members.filter((o) => o !== m)) expect({ group, other: other.fault, shows: FAULT_SIGNATURES[other.fault]?.includes(signatureOf(m)) }).toEqual({ group, other: other.fault, shows: false });
      }
    }
  });

  it.concurrent.each(BY_COMMAND)('$fault fails the run through $check ($code)', async (caught) => {
    const { run, report } = await groupRun(groupOf(caught.fault));
    expect(failureSignatures(report)).toContain(signatureOf(caught));
    expect(run.code).toBe(1);
  });
});

/** What a fault's report says beyond the failing check: no empty pass, every kind of failure, one cause once. */
describe.concurrent('what the report says about a fault', () => {
  const reportOf = async (fault: FaultId) => (await groupRun(groupOf(fault))).report;
  const outcomes = (report: Report, id: string) => report.checks.filter((c) => c.id === id);

  it('create-accepts-many-invalid: each kind of accepted invalid NewPet is reported, each with its own counterexample', async () => {
    const report = await reportOf('create-accepts-many-invalid');
    const [invalid] = outcomes(report, 'create-pet.invalid-rejected');
    expect(invalid?.outcome).toBe('fail');
    const failures = invalid?.evidence?.failures ?? [];
    expect(failures.length).toBeGreaterThanOrEqual(5);
    expect(new Set(failures.map((f) => f.kind)).size).toBe(failures.length);
    for (const f of failures) expect(f.counterexample).toContain(f.kind);
  });

  it('list-one-invalid-pet: one root failure, the Pet shape; the list checks only mention it', async () => {
    const report = await reportOf('list-one-invalid-pet');
    expect(report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual(['list-pets.pet-shape']);
    expect(outcomes(report, 'list-pets.smoke')[0]?.message).toContain('see list-pets.pet-shape');
  });

  it('list-limit-ignored-with-status: the stateful run reports its shortest sequence and seed, and the same seed fails the same way', async () => {
    const modelOf = (report: Report) => {
      const [model] = outcomes(report, 'stateful.store-model');
      expect(model?.outcome).toBe('fail');
      return model!;
    };
    const first = modelOf(await reportOf('list-limit-ignored-with-status'));
    expect(first.message).toMatch(/more than limit \d+/);
    expect(first.evidence?.counterexample).toMatch(/^(Create\(.*\),)*List\(limit=\d+, status=\w+\)/);
    expect(first.evidence?.seed).toEqual(expect.any(Number));
    expect(first.evidence?.reproduce.at(-1)).toContain(`--seed ${SEED}`);
    const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: ['list-limit-ignored-with-status'], preload: 30 });
    let again: ReturnType<typeof modelOf>;
    try {
      again = modelOf((await runAgainst('list-limit-ignored-with-status-again', server, ['--suite', 'stateful'])).report);
    } finally {
      await server.close();
    }
    expect({ counterexample: again.evidence?.counterexample, seed: again.evidence?.seed, message: again.message }).toEqual({ counterexample: first.evidence?.counterexample, seed: first.evidence?.seed, message: first.message });
  });

  it('on GitHub Actions: the job summary names the failing checks, and at most ten ::error lines are printed', async () => {
    const { run } = await groupRun('auth-disabled');
    expect(run.code).toBe(1);
    const md = readFileSync(SUMMARY, 'utf8');
    expect(md).toContain('## ❌ Not conformant: auth-disabled');
    // The finding first (what the server did), then the check it broke.
    expect(md).toMatch(/\| [^|]*\b200\b[^|]* \| `auth\.missing-key \[listPets GET \/pets\]`: [^|]+\| must \|/);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThanOrEqual(10);
    expect(errors[0]).toMatch(/^::error title=[^:]*\b200\b.*::.*%0Aauth\.missing-key \[.*\]: .* \(must\)$/);
  });

  it('latency-grows-with-load: the breached threshold fails the run (exit 1), the measured figure in the message', async () => {
    const { run, report } = await groupRun('latency-grows-with-load');
    expect(run.code).toBe(1);
    const failed = report.checks.filter((c) => c.outcome === 'fail');
    expect(failed.map((c) => [c.id, c.code])).toEqual([['load.thresholds', 'threshold-breached']]);
    expect(failed[0]!.message).toMatch(/^over \d+ paced requests: p95 (\d+) ms is above the threshold p95Ms 200$/);
    const measured = Number(/p95 (\d+) ms/.exec(failed[0]!.message)![1]);
    expect(measured).toBe(report.pacedLoad!.overall.latency.p95);
    expect(measured).toBeGreaterThan(LOAD_THRESHOLDS.p95Ms);
  });

  it('rate-slow-refill: the paced load stops a key at its first 429, sending nothing into the period it was told to wait out', async () => {
    const { report } = await groupRun('rate-slow-refill');
    const refused = report.pacedLoad!.keys.filter((k) => k.first429 !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    for (const k of refused) expect(k.stopped).toMatch(/^stopped at its first 429/);
    expect(report.politeness!.map((p) => [p.label, p.inside.unexplained])).toEqual(report.politeness!.map((p) => [p.label, 0]));
  });

  it('rate-no-burst: a limiter refusing far below the quota fails rate-limit.quota well within the time limit; the checks it kept from running say why, by their code', async () => {
    const { run, report } = await groupRun('rate-no-burst');
    expect(run.code).toBe(1);
    expect(report.timeLimit).toMatchObject({ seconds: 120, reached: false });
    // Waiting out a Retry-After at every other request of every suite would take minutes.
    expect(report.durationMs).toBeLessThan(60_000);
    const quota = report.checks.filter((c) => c.id === 'rate-limit.quota');
    expect(quota.length).toBe(KEYS.length);
    for (const c of quota) expect({ key: c.subject, outcome: c.outcome, code: c.code }).toEqual({ key: c.subject, outcome: 'fail', code: 'refused-within-quota' });
    const errors = report.checks.filter((c) => c.outcome === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(new Set(errors.map((c) => c.code))).toEqual(new Set(['HARNESS_REFUSED_WITHIN_QUOTA']));
  });

  it.concurrent('relations-c, whose faults are seen on a single spelling (a repeated limit, a `;` path parameter, a body nested deep) among others, fails the relations suite on seeds 1 to 10 by every fault of the group, the same spellings sent on each', async () => {
    const members = CAUGHT.filter((c) => c.group === 'relations-c');
    for (const single of ['query-repeated-limit-500', 'path-semicolon-skips-auth', 'body-nesting-500']) expect(members.map((m) => m.fault)).toContain(single);
    const wanted = members.map(signatureOf).sort();
    const seeds = Array.from({ length: 10 }, (_, i) => String(i + 1));
    // Seed 1 is the catalogue's own run of the group; a server each, two at a time.
    const runs = [];
    for (let i = 0; i < seeds.length; i += 2) runs.push(...(await Promise.all(seeds.slice(i, i + 2).map((seed) => groupRun('relations-c', seed)))));
    const sent = runs.map(({ run, report }, i) => {
      const seed = seeds[i];
      expect({ seed, code: run.code, shown: wanted.filter((w) => failureSignatures(report).has(w)) }).toEqual({ seed, code: 1, shown: wanted });
      return spellingsSent(path.join(dir, i === 0 ? 'relations-c' : `relations-c-seed-${seed}`));
    });
    // The seed picks generated values, never which spellings are sent.
    expect(sent[0]!.length).toBeGreaterThan(300);
    for (const [i, spellings] of sent.entries()) expect({ seed: seeds[i], spellings }).toEqual({ seed: seeds[i], spellings: sent[0] });
  });

  it.concurrent('create-accepts-empty-status: fails create-pet.invalid-rejected (accepted) on every seed, through the empty status sent on every run', async () => {
    // A server each: runs side by side on one server would share its keys' quotas, which the
    // harness takes to be its own (a 429 within the quota by its count stops its waiting).
    const seeds = ['1', '2', '3'];
    const servers = await Promise.all(seeds.map(() => startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: ['create-accepts-empty-status'] })));
    try {
      const runs = await Promise.all(seeds.map((seed, i) => runAgainst(`create-accepts-empty-status-seed-${seed}`, servers[i]!, ['--suite', 'create-pet', '--seed', seed])));
      runs.forEach(({ run, report }, i) => {
        const seed = seeds[i];
        const failed = report.checks.filter((c) => c.outcome === 'fail');
        expect({ seed, failed: failed.map((c) => `${c.id}:${c.code}`) }).toEqual({ seed, failed: ['create-pet.invalid-rejected:accepted'] });
        const kinds = [failed[0]!.message, ...(failed[0]!.evidence?.failures ?? []).map((f) => f.message)];
        expect({ seed, kinds }).toEqual({ seed, kinds: [expect.stringMatching(/^status is the empty string: got 201 \(accepted\), not 400: created \{ id: \d+, name: "conformance-harness invalid status", categoryId: 12 \}/)] });
        expect(run.code).toBe(1);
      });
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('auth-no-error-body: one failure, errors.error-body over every 401; the auth checks, whose status is right, pass saying so', async () => {
    const report = await reportOf('auth-no-error-body');
    const failed = report.checks.filter((c) => c.outcome === 'fail');
    expect(failed.map((c) => [c.id, c.code])).toEqual([['errors.error-body', 'no-error-body']]);
    expect(failed[0]!.message).toMatch(/^\d+ of \d+ responses: .* → 401: body is empty/);
    expect(report.checks.filter((c) => c.suite === 'auth' && c.outcome !== 'pass' && c.outcome !== 'skip')).toEqual([]);
  });
});
