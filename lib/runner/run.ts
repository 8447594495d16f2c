// One conformance run: load the target, start it if asked, check it is there, run the suites,
// build the result, write the reports. Returns the exit status; never prints a key.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ApiClient } from '../client/client.ts';
import { Budget } from '../client/budget.ts';
import { curlCommand } from '../client/curl.ts';
import { judgeRun, type RunFinding } from '../checks/responses.ts';
import { targetClientOptions } from '../client/for-target.ts';
import { Redactor } from '../client/redact.ts';
import type { CliArgs } from '../cli/args.ts';
import { DEFAULT_RUNS } from '../cli/args.ts';
import { loadTarget, PROJECT_ROOT } from '../config/load.ts';
import type { Target } from '../config/schema.ts';
import { describeError, TargetUnreachableError, TransportError, UsageError } from '../errors.ts';
import { buildReport } from '../result/build.ts';
import { type CheckResult, type Exchange, RateLimitKey, type Report } from '../result/model.ts';
import { z } from 'zod';
import { COLOUR, checkName, PLAIN, renderSummary, verdictLine } from '../report/console.ts';
import { linkLatest, timestampDir, writeReports } from '../report/write.ts';
import { type RunContext, SOAK_LIMIT_SECONDS } from '../suite/run-context.ts';
import { didYouMean } from '../util/suggest.ts';
import { freePort, type StartedTarget, startTarget } from './start-target.ts';
import { listSuites, runSuites } from './suites.ts';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  colour: boolean;
}

export const TOOL = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

export interface RunOutcome {
  exitCode: number;
  report: Report;
  reportDir: string;
}

export async function runConformance(args: CliArgs, io: Output): Promise<RunOutcome> {
  const startedAt = new Date();
  const suites = selectSuites(args.suites);
  const { target, port } = await loadTarget(args.target, { allocatePort: freePort });
  const redactor = new Redactor(target.keys);
  const style = io.colour ? COLOUR : PLAIN;
  const say = (text: string) => {
    if (!args.quiet) io.out(redactor.scrub(text));
  };

  const warnings: string[] = [];
  const allowWrites = args.allowWrites || target.allow.writes;
  const allowLoad = args.allowLoad || target.allow.load;
  if (args.allowWrites && !target.allow.writes) warnings.push(`--allow-writes: POST /pets will create animals on ${target.name}, and the interface has no delete`);
  if (args.allowLoad && !target.allow.load) warnings.push(`--allow-load: the load suite will drive ${target.name} above its plan rates`);

  if (target.http.insecure) warnings.push(`http.insecure: TLS certificates of ${target.name} are not verified`);
  // --soak lets checks that need real time (a day's quota) run to the end.
  const deadline = startedAt.getTime() + (args.soak ? Math.max(target.budget.maxSeconds, SOAK_LIMIT_SECONDS) : target.budget.maxSeconds) * 1000;
  for (const w of warnings) say(style.yellow(`Warning: ${w}`));
  const seed = args.seed ?? Math.floor(Math.random() * 2 ** 32);
  const runs = args.runs ?? DEFAULT_RUNS;
  const maxRequests = args.maxRequests ?? target.budget.maxRequests;
  const reportDir = path.resolve(args.reportDir ?? uniqueDir(timestampDir(path.join(PROJECT_ROOT, 'reports'), target.name, startedAt)));
  const exchangeLog = path.join(reportDir, 'exchanges.jsonl');
  prepareReportDir(reportDir, exchangeLog);

  say(`Checking ${target.name} at ${target.baseUrl} (seed ${seed}, budget ${maxRequests} requests, suites: ${suites.join(', ')})`);
  const checks: CheckResult[] = [];
  let unreachable = false;
  let started: StartedTarget | undefined;
  // Our listener replaces Node's default exit on Ctrl-C: stop what we started, then exit.
  const stopOnSignal = () => {
    io.err('Interrupted: stopping.');
    void (started ? started.stop() : Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    if (target.start) {
      say(`Starting the target: ${target.start.command}`);
      started = await startTarget({
        spec: target.start,
        baseDir: path.dirname(target.source),
        readyUrl: `${target.baseUrl}/pets`,
        ...(port !== undefined ? { port } : {}),
        onProgress: say,
        scrub: (t) => redactor.scrub(t),
      });
      say(`Target started (pid ${started.pid})`);
    }
    const probe = await probeTarget(target, maxRequests, exchangeLog);
    checks.push(probe.check);
    if (probe.reachable) {
      const context: RunContext = {
        target,
        seed,
        runs,
        allowWrites,
        allowLoad,
        soak: args.soak,
        maxRequests,
        requestsBefore: probe.sent,
        exchangeLog,
        deadline,
      };
      const progress = new SuiteProgress(exchangeLog, say);
      const result = await runSuites(context, suites, {
        onSuiteStart: (s) => progress.start(s),
        onCheck: (c) => {
          progress.check(c);
          if (c.outcome === 'fail' || c.outcome === 'error') say(`  ${style.red('✗')} ${checkName(c)}: ${c.message.split('\n')[0]}`);
        },
        onLog: (line) => say(`  ${line}`),
      });
      progress.end();
      checks.push(...result.checks);
    } else unreachable = true;
  } catch (err) {
    if (!(err instanceof TargetUnreachableError)) throw err;
    unreachable = true;
    checks.push(reachabilityCheck('error', err.message, []));
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    if (started) {
      await started.stop();
      say(`Target stopped (pid ${started.pid})`);
    }
  }

  const exchanges = readExchanges(exchangeLog);
  const rateLimits = readRateLimits(path.join(reportDir, 'rate-limits.json'));
  if (!unreachable) checks.push(...judgeRun(exchanges).map(runCheckResult));
  const report = buildReport({
    tool: { name: TOOL.name, version: TOOL.version },
    target,
    startedAt,
    finishedAt: new Date(),
    seed,
    options: { suites, runs, strict: args.strict, allowWrites, allowLoad, soak: args.soak, maxRequests },
    checks: redactor.scrubDeep(checks),
    exchanges,
    warnings,
    unreachable,
    ...(rateLimits ? { rateLimits } : {}),
  });
  const written = writeReports(report, reportDir, (t) => redactor.scrub(t));
  if (!args.reportDir) linkLatest(reportDir);
  const files = written.files.map((f) => path.relative(process.cwd(), f) || f);
  if (args.quiet) io.out(redactor.scrub(verdictLine(report, style)));
  else io.out(redactor.scrub(renderSummary(report, files, style)));
  return { exitCode: report.exitCode, report, reportDir };
}

function selectSuites(requested: readonly string[] | undefined): string[] {
  const known = listSuites();
  if (!requested) return known;
  for (const s of requested) {
    if (!known.includes(s)) throw new UsageError(`unknown suite "${s}"${didYouMean(s, known)}: suites are ${known.join(', ')}`);
  }
  return [...new Set(requested)];
}

function uniqueDir(dir: string): string {
  let candidate = dir;
  for (let n = 2; existsSync(candidate); n++) candidate = `${dir}-${n}`;
  return candidate;
}

/** One line per suite when it ends: its checks by outcome and the requests it sent. */
class SuiteProgress {
  private suite: string | undefined;
  private counts = { pass: 0, fail: 0, skip: 0, error: 0 };
  private started = 0;
  private sentBefore = 0;

  constructor(
    private readonly log: string,
    private readonly say: (line: string) => void,
  ) {}

  start(suite: string): void {
    this.end();
    this.suite = suite;
    this.counts = { pass: 0, fail: 0, skip: 0, error: 0 };
    this.started = Date.now();
    this.sentBefore = this.sent();
    this.say(`▶ ${suite}`);
  }

  check(c: CheckResult): void {
    this.counts[c.outcome] += 1;
  }

  end(): void {
    if (!this.suite) return;
    const c = this.counts;
    const total = c.pass + c.fail + c.skip + c.error;
    const parts = Object.entries(c).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
    this.say(`  ${this.suite}: ${total} checks (${parts.join(', ') || 'none'}), ${this.sent() - this.sentBefore} requests, ${((Date.now() - this.started) / 1000).toFixed(1)} s`);
    this.suite = undefined;
  }

  private lines = 0;
  private offset = 0;

  /** Lines in the exchange log, reading only what was appended since the last call. */
  private sent(): number {
    if (!existsSync(this.log)) return 0;
    const size = statSync(this.log).size;
    if (size > this.offset) {
      const fd = openSync(this.log, 'r');
      try {
        const chunk = Buffer.alloc(size - this.offset);
        readSync(fd, chunk, 0, chunk.length, this.offset);
        for (const byte of chunk) if (byte === 0x0a) this.lines += 1;
      } finally {
        closeSync(fd);
      }
      this.offset = size;
    }
    return this.lines;
  }
}

/** Creates the run's directory and an empty exchange log (suites append to it). */
function prepareReportDir(dir: string, log: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(log, '');
}

/**
 * Is anything answering at baseUrl? One unauthenticated GET /pets: any HTTP status means yes (a
 * conforming server says 401). Only a failure to get a response at all makes the run exit 3.
 */
async function probeTarget(target: Target, maxRequests: number, log: string): Promise<{ reachable: boolean; sent: number; check: CheckResult }> {
  const exchanges: Exchange[] = [];
  const client = new ApiClient({
    ...targetClientOptions(target),
    budget: new Budget(maxRequests),
    suite: 'probe',
    onExchange: (e) => {
      exchanges.push(e);
      writeFileSync(log, `${JSON.stringify(e)}\n`, { flag: 'a' });
    },
  });
  try {
    const res = await client.sendOnce({ method: 'GET', path: '/pets', auth: { none: true } });
    return { reachable: true, sent: client.sent, check: reachabilityCheck('pass', `answered ${res.status}`, []) };
  } catch (err) {
    if (!(err instanceof TransportError)) throw err;
    return { reachable: false, sent: client.sent, check: reachabilityCheck('error', describeError(err), exchanges) };
  } finally {
    await client.close();
  }
}

function reachabilityCheck(outcome: 'pass' | 'error', message: string, exchanges: Exchange[]): CheckResult {
  return {
    id: 'target.reachable',
    subject: 'GET /pets',
    clause: 'What the service does',
    title: 'The target answers HTTP at its base URL',
    severity: 'must',
    outcome,
    message,
    suite: 'probe',
    durationMs: exchanges.reduce((t, e) => t + e.durationMs, 0),
    evidence: outcome === 'pass' ? null : { exchanges, reproduce: exchanges.map(curlCommand) },
  };
}

function runCheckResult(f: RunFinding): CheckResult {
  return {
    id: f.def.id,
    subject: 'every response of the run',
    clause: f.def.clause,
    title: f.def.title,
    severity: f.def.severity,
    outcome: f.outcome,
    message: f.message,
    suite: 'run',
    durationMs: 0,
    evidence:
      f.outcome === 'fail'
        ? {
            ...(f.expected !== undefined ? { expected: f.expected } : {}),
            ...(f.actual !== undefined ? { actual: f.actual } : {}),
            exchanges: f.offenders,
            reproduce: f.offenders.map(curlCommand),
          }
        : null,
  };
}

/** Written by the rate-limit suite in the worker; folded into report.json. */
function readRateLimits(file: string): RateLimitKey[] | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = z.array(RateLimitKey).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data : undefined;
}

function readExchanges(log: string): Exchange[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Exchange);
}
