// Shows that a change of the code's shape changed no behaviour: the same seed sends the same
// requests and gives the same checks, before and after. It checks out BASE (a commit) beside this
// tree, runs the command of each tree with seed 1 against the reference and a few of its faults,
// and compares what they sent and what they found:
//   node --import tsx bench/same-seed.ts [--base REF] [--fault NAME ...]
// Compared: every check's id, outcome, code and message, and every request sent (suite, method,
// URL, headers, body) in order. The rate-limit suite is compared apart and only with
// --with-rate-limit: where in its windows a key's burst falls follows the wall clock, so two runs
// of one tree already differ in its request counts and the messages that quote them; its checks'
// ids, outcomes and codes are compared (test/e2e/rate-limit.test.ts asserts what else of it is
// exact). The load suite is left out (minutes of paced load). Loopback only; one run at a time.
// Exit 0 when both trees agree on every case, 1 with the first differences.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { base: { type: 'string', default: 'HEAD' }, fault: { type: 'string', multiple: true }, 'with-rate-limit': { type: 'boolean', default: false } } });
const FAULTS = values.fault ?? ['auth-after-validation', 'create-accepts-empty-status', 'list-ignores-limit'];
const SUITES = ['auth', 'create-pet', 'list-pets', 'get-pet', 'routes', 'stateful', 'concurrency'];

const work = mkdtempSync(path.join(tmpdir(), 'same-seed-'));
const baseTree = path.join(work, 'base');
execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', '--quiet', baseTree, values.base ?? 'HEAD']);
symlinkSync(path.join(ROOT, 'node_modules'), path.join(baseTree, 'node_modules'));

interface Seen {
  checks: string[];
  requests: string[];
}

/** What one run of `tree`'s command sent and found: one line per check and per request. */
function run(tree: string, fault: string | undefined, out: string, suites: readonly string[] = SUITES): Seen {
  const local = readFileSync(path.join(tree, 'targets', 'local.yaml'), 'utf8');
  const target = fault ? local.replace('--port ${PORT}', `--port \${PORT} --fault ${fault}`) : local;
  const file = path.join(out, 'target.yaml');
  writeFileSync(file, target);
  const args = ['scripts/from-source.mjs', '--target', file, '--report-dir', out, '--seed', '1', '--quiet', ...suites.flatMap((s) => ['--suite', s])];
  const ran = spawnSync(process.execPath, args, { cwd: tree, env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' }, encoding: 'utf8', timeout: 300_000 });
  if (!existsSync(path.join(out, 'report.json'))) throw new Error(`no report from ${tree} (${fault ?? 'reference'}): exit ${ran.status}\n${ran.stderr}`);
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { checks: { id: string; subject?: string; outcome: string; code?: string; message?: string; evidence?: { failures?: { code?: string; message?: string }[] } }[] };
  const checks = report.checks.map((c) =>
    JSON.stringify([c.id, c.subject ?? '', c.outcome, c.code ?? '', c.message ?? '', (c.evidence?.failures ?? []).map((f) => [f.code ?? '', f.message ?? ''])]),
  );
  const requests = readFileSync(path.join(out, 'exchanges.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { suite: string; method: string; url: string; requestHeaders: Record<string, string>; requestBody?: string })
    // The port is the run's own; the order within a suite is what the seed fixes.
    .map((e) => JSON.stringify([e.suite, e.method, e.url.replace(/127\.0\.0\.1:\d+/, 'HOST'), Object.entries(e.requestHeaders).map(([k, v]) => `${k}: ${k === 'host' ? 'HOST' : v}`).sort(), e.requestBody ?? '']))
    .sort();
  return { checks, requests };
}

function firstDifferences(a: string[], b: string[]): string[] {
  const inA = new Set(a);
  const inB = new Set(b);
  return [...a.filter((x) => !inB.has(x)).map((x) => `- ${x}`), ...b.filter((x) => !inA.has(x)).map((x) => `+ ${x}`)].slice(0, 8);
}

/** A rate-limit run: its checks' ids, subjects, outcomes and codes only; no requests. */
function rateLimitRun(tree: string, fault: string | undefined, out: string): Seen {
  const seen = run(tree, fault, out, ['rate-limit']);
  return { checks: seen.checks.map((line) => JSON.stringify((JSON.parse(line) as unknown[]).slice(0, 4))), requests: [] };
}

let differ = 0;
try {
  if (values['with-rate-limit']) {
    for (const fault of [undefined, 'rate-never-429']) {
      const name = `${fault ?? 'reference'} (rate-limit suite)`;
      const before = rateLimitRun(baseTree, fault, mkdtempSync(path.join(work, 'rl-base-')));
      const after = rateLimitRun(ROOT, fault, mkdtempSync(path.join(work, 'rl-head-')));
      const checks = firstDifferences(before.checks, after.checks);
      process.stdout.write(`${name}: ${after.checks.length} checks: ${checks.length === 0 ? 'same' : 'DIFFERENT'}\n`);
      if (checks.length > 0) {
        differ++;
        process.stdout.write(checks.map((l) => `  ${l}\n`).join(''));
      }
    }
  }
  for (const fault of [undefined, ...FAULTS]) {
    const name = fault ?? 'reference';
    const before = run(baseTree, fault, mkdtempSync(path.join(work, `${name}-base-`)));
    const after = run(ROOT, fault, mkdtempSync(path.join(work, `${name}-head-`)));
    const checks = firstDifferences(before.checks, after.checks);
    const requests = firstDifferences(before.requests, after.requests);
    const same = checks.length === 0 && requests.length === 0 && before.requests.length === after.requests.length;
    process.stdout.write(`${name}: ${after.checks.length} checks, ${after.requests.length} requests: ${same ? 'same' : 'DIFFERENT'}\n`);
    if (!same) {
      differ++;
      process.stdout.write([...checks, ...requests].map((l) => `  ${l}\n`).join(''));
    }
  }
} finally {
  execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', baseTree]);
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = differ === 0 ? 0 : 1;
