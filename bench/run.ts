// `npm run bench`: time, requests and accuracy to a verdict, measured on this machine in one run.
// Writes reports/bench/bench.json and prints a table. Loopback only; every loop is bounded.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { Report } from '../lib/result/model.ts';
import { listSuites } from '../lib/runner/vitest-run.ts';
import { NAMED_ONLY } from '../lib/runner/vitest-settings.ts';
import { startReferenceServer } from '../targets/reference/server.ts';
import { machine, runHarness, summary } from './measure.ts';
import { pacing } from './pacing.ts';
import { startup } from './startup.ts';
import { throughput } from './throughput.ts';
import { singleRun, splitRun } from './segments.ts';

const OUT = path.join(PROJECT_ROOT, 'reports', 'bench');
const say = (line: string) => process.stdout.write(`${line}\n`);
const quick = process.argv.includes('--quick');

function readReportAt(dir: string): Report {
  return Report.parse(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')));
}

function targetFile(name: string, target: Record<string, unknown>): string {
  const file = path.join(OUT, `${name}.yaml`);
  writeFileSync(file, stringify(target));
  return file;
}

/** Where each key's first 429 fell, against the Remaining its burst started from. */
function accuracy(report: Report) {
  return (report.rateLimits ?? []).map((k) => {
    const startRemaining = k.timeline[0]?.remaining ?? 0;
    const firstReject = k.timeline.findIndex((p) => p.status === 429);
    return {
      key: k.label,
      behaviour: k.behaviour,
      firstRejectAt: firstReject, // the start probe is point 0, so this is the 1-based request of the burst
      expectedAt: startRemaining + 1,
      exact: firstReject === startRemaining + 1,
      askedRate: Math.round(k.load?.askedRate ?? 0),
      achievedRate: k.load?.achievedRate ?? 0,
    };
  });
}

async function fullVerdictLocal() {
  const runs = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    say(`full verdict against the local target, run ${i + 1}...`);
    const dir = path.join(OUT, `local-${i}`);
    const run = await runHarness(['--report-dir', dir, '--seed', '1', '--quiet']);
    const report = readReportAt(dir);
    runs.push({ wallMs: run.wallMs, peakRssMiB: run.peakRssMiB, requests: report.requests.total, bySuite: report.requests.bySuite, verdict: report.verdict, report });
  }
  return {
    wallSeconds: summary(runs.map((r) => r.wallMs / 1000)),
    peakRssMiB: summary(runs.map((r) => r.peakRssMiB)),
    requests: summary(runs.map((r) => r.requests)),
    requestsBySuite: runs[0]!.bySuite,
    verdicts: runs.map((r) => r.verdict),
    loadAccuracy: accuracy(runs[0]!.report),
  };
}

/**
 * Every suite but the rate limits, as a server's CI runs it on each change: the run's own duration
 * (report.json durationMs: from the target's start to the last check) and the process's wall time
 * (which adds node, the sources' bundling and vitest starting up).
 */
async function functionalOnly() {
  // The paced load runs only when named, and spends quotas as the rate-limit suite does: neither is functional.
  const suites = listSuites().filter((s) => s !== 'rate-limit' && !NAMED_ONLY.includes(s));
  const runs = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    say(`functional verdict (${suites.join(', ')}), run ${i + 1}...`);
    const dir = path.join(OUT, `functional-${i}`);
    const run = await runHarness(['--report-dir', dir, '--seed', '1', '--quiet', '--suite', suites.join(',')]);
    const report = readReportAt(dir);
    runs.push({ wallMs: run.wallMs, runMs: report.durationMs, requests: report.requests.total, relations: report.requests.bySuite['relations'] ?? 0, verdict: report.verdict });
  }
  // The same without the relations suite: what the families × invariants cost, in requests per run
  // and as a ratio (issue 35's goal of 1.3 was a sample's; since issue 42 every spelling is sent).
  const without = suites.filter((s) => s !== 'relations');
  const before = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    say(`functional verdict without the relations suite, run ${i + 1}...`);
    const dir = path.join(OUT, `functional-without-relations-${i}`);
    const run = await runHarness(['--report-dir', dir, '--seed', '1', '--quiet', '--suite', without.join(',')]);
    const report = readReportAt(dir);
    before.push({ wallMs: run.wallMs, runMs: report.durationMs, requests: report.requests.total });
  }
  const runSeconds = summary(runs.map((r) => r.runMs / 1000));
  const requests = summary(runs.map((r) => r.requests));
  const withoutRelations = { runSeconds: summary(before.map((r) => r.runMs / 1000)), wallSeconds: summary(before.map((r) => r.wallMs / 1000)), requests: summary(before.map((r) => r.requests)) };
  const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
  return {
    suites,
    runSeconds,
    wallSeconds: summary(runs.map((r) => r.wallMs / 1000)),
    requests,
    verdicts: runs.map((r) => r.verdict),
    withoutRelations,
    relationsCost: {
      requestsPerRun: summary(runs.map((r) => r.relations)),
      runSecondsRatio: ratio(runSeconds.median, withoutRelations.runSeconds.median),
      requestsRatio: ratio(requests.median, withoutRelations.requests.median),
    },
  };
}

async function singleFreeKey() {
  const keys = [{ key: 'bench-free-only-key', plan: 'free' }];
  const server = await startReferenceServer({ keys, windows: { minute: 5, day: 60 } });
  try {
    const target = { name: 'bench-free', baseUrl: server.baseUrl, keys, windows: { minute: 5, day: 60 }, allow: { writes: true, load: true } };
    say('full verdict with one Free key...');
    const full = await runHarness(['--target', targetFile('free', target), '--report-dir', path.join(OUT, 'free-full'), '--seed', '1', '--quiet']);
    const fullReport = readReportAt(path.join(OUT, 'free-full'));
    const serverCount = server.stats().requests;
    // What the key's day quota counts: the requests that carried the key, by the server's own count.
    const keyCount = Object.entries(server.stats().byKey).filter(([label]) => label !== 'anonymous').reduce((n, [, k]) => n + k.requests, 0);
    say('full verdict with one Free key within its daily quota (--max-requests 1000)...');
    const capped = await runHarness(['--target', targetFile('free', target), '--report-dir', path.join(OUT, 'free-1000'), '--seed', '1', '--quiet', '--max-requests', '1000']);
    const cappedReport = readReportAt(path.join(OUT, 'free-1000'));
    const skipped = cappedReport.checks.filter((c) => c.outcome === 'skip' && c.message.includes('budget'));
    return {
      requestsForFullVerdict: fullReport.requests.total,
      requestsWithTheKey: keyCount,
      fitsInFreeDailyQuota: keyCount <= 1000,
      bySuite: fullReport.requests.bySuite,
      wallSeconds: full.wallMs / 1000,
      harnessCountedVsServer: { harness: fullReport.requests.total, server: serverCount },
      within1000: { requests: cappedReport.requests.total, verdict: cappedReport.verdict, skippedForBudget: skipped.length, skippedChecks: [...new Set(skipped.map((c) => c.id))] },
      exitCodes: [full.code, capped.code],
    };
  } finally {
    await server.close();
  }
}

async function realWindows() {
  const keys = [
    { key: 'bench-real-free-1', plan: 'free' },
    { key: 'bench-real-free-2', plan: 'free' },
    { key: 'bench-real-pro-1', plan: 'pro' },
    { key: 'bench-real-business-1', plan: 'business' },
  ];
  const server = await startReferenceServer({ keys });
  try {
    const target = { name: 'bench-real', baseUrl: server.baseUrl, keys, allow: { load: true } };
    say('rate-limit suite against real 60-second windows (takes one to two minutes; its own progress follows)...');
    const run = await runHarness(['--target', targetFile('real', target), '--report-dir', path.join(OUT, 'real-windows'), '--suite', 'rate-limit']);
    const report = readReportAt(path.join(OUT, 'real-windows'));
    return {
      wallSeconds: run.wallMs / 1000,
      windows: Math.round((run.wallMs / 60_000) * 100) / 100,
      goalWindows: 2,
      verdict: report.verdict,
      loadAccuracy: accuracy(report),
      harnessCountedVsServer: { harness: report.requests.total, server: server.stats().requests },
    };
  } finally {
    await server.close();
  }
}

/**
 * Merge correctness: the rate-limit suite split over two segments against one reference server,
 * merged, against the same suite from one runner on a fresh server alike; and two segments
 * against a limiter kept per connection, which the merged verdict must fail.
 */
async function mergeCorrectness() {
  say('load segments: two segments against one reference server, then merge (about 30 s)...');
  const split = await splitRun(path.join(OUT, 'segments'), 2);
  say('load segments: the same keys from one runner...');
  const single = await singleRun(path.join(OUT, 'segments-single'));
  say('load segments: two segments against a limiter kept per connection...');
  const fault = await splitRun(path.join(OUT, 'segments-per-connection'), 2, { fault: 'rate-per-connection' });
  return {
    split: { verdict: split.verdict, exits: [...split.segmentExits, split.mergeExit], requests: split.requests, failed: split.failed },
    single,
    sameVerdict: split.verdict === single.verdict,
    countsEqualServer: split.requests.merged === split.requests.server && split.requests.merged === split.requests.sumOfSegments,
    perConnectionFault: { verdict: fault.verdict, failed: fault.failed, requests: fault.requests },
  };
}

mkdirSync(OUT, { recursive: true });
const before = machine();
say(`bench on ${before.cpus} cores (${before.cpuModel}), load average ${before.loadAverage.join(' ')}`);
say('start-up of the built command (builds dist/ first)...');
const start = startup();
const local = await fullVerdictLocal();
const functional = await functionalOnly();
const free = await singleFreeKey();
const load = await throughput({ quick, say, outDir: OUT });
const paced = await pacing({ quick, say });
const segments = await mergeCorrectness();
const real = quick ? undefined : await realWindows();
const bench = {
  // The figures issue 15 asks for, at the top: the full local run's highest peak over its runs, and the median throughput ratio.
  peakRssMiB: local.peakRssMiB.max,
  referenceToBareThroughput: load.ratio.median,
  generatedAt: new Date().toISOString(),
  mergeCorrectness: segments,
  machine: { ...before, loadAverageAfter: machine().loadAverage }, startup: start, fullVerdictLocal: { ...local }, functionalOnly: functional, singleFreeKey: free, throughput: load, pacing: paced, realWindows: real ?? 'skipped (--quick)' };
writeFileSync(path.join(OUT, 'bench.json'), `${JSON.stringify(bench, null, 2)}\n`);

const signedPct = (x: number) => `${x > 0 ? '+' : ''}${x}%`;
const rows: [string, string][] = [
  ['Built command start-up (median of 5)', `--help ${start.help.medianMs} ms, --version ${start.version.medianMs} ms, --list-checks ${start.listChecks.medianMs} ms; bare node ${start.bare.medianMs} ms (ratios ${Object.entries(start.ratioToBare).map(([n, r]) => `${n} ${r}`).join(', ')}); peak ${Math.max(start.help.peakMiB, start.version.peakMiB, start.listChecks.peakMiB)} MiB`],
  ['Full verdict, local target (median of runs)', `${local.wallSeconds.median} s (${local.wallSeconds.min}–${local.wallSeconds.max}), ${local.requests.median} requests, peak ${local.peakRssMiB.median} MiB`],
  ['  requests by suite', Object.entries(local.requestsBySuite).map(([s, n]) => `${s} ${n}`).join(', ')],
  ['Functional verdict, no rate limits (median)', `${functional.runSeconds.median} s run (${functional.runSeconds.min}–${functional.runSeconds.max}), ${functional.wallSeconds.median} s wall with start-up, ${functional.requests.median} requests`],
  ['  without the relations suite (median)', `${functional.withoutRelations.runSeconds.median} s run, ${functional.withoutRelations.wallSeconds.median} s wall, ${functional.withoutRelations.requests.median} requests: with it ${functional.relationsCost.runSecondsRatio}x the run, ${functional.relationsCost.requestsRatio}x the requests`],
  ['  the relations suite (median)', `${functional.relationsCost.requestsPerRun.median} requests a run: every spelling of every family, with and without a key`],
  ['Full verdict, one Free key', `${free.requestsForFullVerdict} requests, ${free.requestsWithTheKey} with the key (${free.fitsInFreeDailyQuota ? 'fits' : 'does not fit'} the Free plan's 1,000 a day)`],
  ['  within --max-requests 1000', `${free.within1000.requests} requests, verdict ${free.within1000.verdict}, ${free.within1000.skippedForBudget} checks skipped for the budget`],
  ['First 429 at quota + 1 (local)', `${local.loadAccuracy.filter((k) => k.exact).length} of ${local.loadAccuracy.length} keys exact`],
  ['Achieved / asked rate (local)', local.loadAccuracy.map((k) => `${k.key} ${k.achievedRate}/${k.askedRate}`).join(', ')],
  ['Harness vs server request counts', `${free.harnessCountedVsServer.harness} vs ${free.harnessCountedVsServer.server}`],
  ['Load segments merged vs one runner', `2 segments: ${segments.split.verdict}, ${segments.split.requests.merged} requests (segments ${segments.split.requests.sumOfSegments}, server ${segments.split.requests.server}); one runner: ${segments.single.verdict}, ${segments.single.requests.harness} (server ${segments.single.requests.server}); same verdict: ${segments.sameVerdict}; per-connection fault merged: ${segments.perConnectionFault.verdict} (${segments.perConnectionFault.failed.join(', ')})`],
  ['Reference / bare node:http throughput', `${load.ratio.median} (${load.referenceRps.median} vs ${load.bareRps.median} req/s)`],
  ['Paced load accuracy (own vs overallRate)', `worst over ${paced.rates.length} rates of ${paced.seconds} s (per rate below: whole-run error, worst 1 s window, gap p50/p99): own scheduler ${paced.worst.pace.wholeRunErrorPct}% whole run, ${paced.worst.pace.worst1sErrorPct}% in a 1 s window; autocannon overallRate ${paced.worst.overallRate.wholeRunErrorPct}%, ${paced.worst.overallRate.worst1sErrorPct}% (connectionRate ${paced.worst.connectionRate.wholeRunErrorPct}%, ${paced.worst.connectionRate.worst1sErrorPct}%)`],
  ...paced.rates.map((r): [string, string] => [
    `  at ${r.asked}/s`,
    `own ${signedPct(r.pace.wholeRunErrorPct)}, ${r.pace.worst1sErrorPct}%, ${r.pace.gapMs.p50.toFixed(2)}/${r.pace.gapMs.p99.toFixed(2)} ms; overallRate ${signedPct(r.overallRate.wholeRunErrorPct)}, ${r.overallRate.worst1sErrorPct}%, ${r.overallRate.gapMs.p50.toFixed(2)}/${r.overallRate.gapMs.p99.toFixed(2)} ms (a perfect schedule's worst 1 s: ${r.idealWorst1sErrorPct}%)`,
  ]),
  ['Rate-limit suite, real 60 s windows', real ? `${real.wallSeconds.toFixed(1)} s = ${real.windows} windows (goal: 2); first 429 exact for ${real.loadAccuracy.filter((k) => k.exact).length} of ${real.loadAccuracy.length} keys` : 'skipped (--quick)'],
];
say('');
for (const [name, value] of rows) say(`${name.padEnd(42)} ${value}`);
say(`\nWrote ${path.relative(process.cwd(), path.join(OUT, 'bench.json'))}`);
process.exit(0);
