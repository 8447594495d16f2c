// Pacing accuracy: how closely a paced load holds the rate asked for, our scheduler (lib/load/pace.ts,
// request i at start + i / rate over the harness's transport) against autocannon's own rates (overallRate,
// and connectionRate = rate / connections), which send each second's share at the start of the
// second. For every asked rate, the same number of requests (rate × seconds) against a bare
// node:http server in its own process (bench/bare-server.ts, a small JSON body and the
// X-RateLimit-* headers), the send time of every request recorded, and from those:
//   - the achieved rate over the whole run, (n − 1) / span of the send times, against the asked rate;
//   - the worst 1-second window: for each send with a whole second of the run after it, the sends
//     in [send, send + 1 s), against the asked rate (a perfect schedule's own figure is given too:
//     a window holds a whole number of sends, so at 10.8/s it is 11 or 10, never 10.8; and at a
//     whole rate a send a hair early at the window's edge adds one, 1/rate: 1.85% at 54/s);
//   - the gaps between consecutive sends (sorted first: autocannon sends on several connections),
//     p50, p99 and the largest, in ms.
// Loopback only; every run is bounded in count and time. Used by `npm run bench` and runnable alone:
//   node --import tsx bench/pacing.ts [--quick] [--json]   (prints a table, or the figures as JSON)
import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { Transport } from '../lib/http/transport.ts';
import { pace } from '../lib/load/pace.ts';
import { freePort } from '../lib/runner/start-target.ts';

export interface PacingOptions {
  /** Two rates and runs of 2 s instead of four rates and 3 s. */
  quick: boolean;
  /** Progress, one line at a time. */
  say: (line: string) => void;
}

/** The local target's 90% rates (per second), and one high rate. */
const RATES = [10.8, 54, 180, 900];
const QUICK_RATES = [10.8, 180];
const CONNECTIONS = 4;
const IN_FLIGHT = 16;
const WINDOW_MS = 1000;
/** No single run may take longer than this, whatever happens to the server. */
const RUN_LIMIT_MS = 15_000;
const TIMEOUT_MS = 5_000;

const BODY = JSON.stringify({ data: [{ id: 'p1', name: 'Rex', species: 'dog' }], next: null });
const HEADERS = { 'content-type': 'application/json', 'x-ratelimit-limit': '1000000', 'x-ratelimit-remaining': '999999', 'x-ratelimit-reset': '60' };

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
const pct = (fraction: number) => round(fraction * 100, 2);

/** What one way of pacing achieved, from its send times. */
export interface Figures {
  /** The rate handed to the tool (autocannon takes whole requests per second, per connection or overall). */
  given: number;
  sent: number;
  /** Arrivals our scheduler dropped at the in-flight cap; requests that got no answer. */
  dropped: number;
  errors: number;
  /** From the first send to the last. */
  spanMs: number;
  /** (n − 1) / span. */
  achievedRate: number;
  /** achievedRate / asked − 1, in percent (signed). */
  wholeRunErrorPct: number;
  /** Largest |sends in a 1 s window / asked − 1| over windows starting at each send, in percent. */
  worst1sErrorPct: number;
  /** The fewest and most sends in any such window. */
  windowSends: { min: number; max: number; windows: number };
  gapMs: { p50: number; p99: number; max: number };
}

export interface RateFigures {
  asked: number;
  requests: number;
  /** The worst 1 s window of a perfect schedule (no jitter at all): the floor the counting allows. */
  idealWorst1sErrorPct: number;
  pace: Figures;
  overallRate: Figures;
  connectionRate: Figures;
}

export interface PacingResult {
  seconds: number;
  connections: number;
  inFlightMax: number;
  server: string;
  rates: RateFigures[];
  /** Over every rate: the largest whole-run and 1 s window errors (absolute, percent) of each way. */
  worst: Record<'pace' | 'overallRate' | 'connectionRate', { wholeRunErrorPct: number; worst1sErrorPct: number; within2Pct: boolean }>;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Sends in [t, t + 1 s) for each send t with a whole second of the run after it. */
function windowCounts(sorted: readonly number[]): number[] {
  const last = sorted.at(-1) ?? 0;
  const counts: number[] = [];
  let j = 0;
  for (let i = 0; i < sorted.length && sorted[i]! + WINDOW_MS <= last; i++) {
    if (j < i) j = i;
    while (j < sorted.length && sorted[j]! < sorted[i]! + WINDOW_MS) j++;
    counts.push(j - i);
  }
  return counts;
}

function worstWindowError(sorted: readonly number[], asked: number): number {
  const perSecond = asked * (WINDOW_MS / 1000);
  return Math.max(0, ...windowCounts(sorted).map((c) => Math.abs(c / perSecond - 1)));
}

export function figuresOf(sendTimes: readonly number[], asked: number, extra: { given: number; dropped: number; errors: number }): Figures {
  const s = [...sendTimes].sort((a, b) => a - b);
  const spanMs = s.length > 1 ? s.at(-1)! - s[0]! : 0;
  const achieved = spanMs > 0 ? (s.length - 1) / (spanMs / 1000) : 0;
  const gaps = s.slice(1).map((t, i) => t - s[i]!).sort((a, b) => a - b);
  const counts = windowCounts(s);
  return {
    ...extra,
    sent: s.length,
    spanMs: round(spanMs, 1),
    achievedRate: round(achieved, 2),
    wholeRunErrorPct: pct(achieved / asked - 1),
    worst1sErrorPct: pct(worstWindowError(s, asked)),
    windowSends: { min: counts.length ? Math.min(...counts) : 0, max: counts.length ? Math.max(...counts) : 0, windows: counts.length },
    gapMs: { p50: round(percentile(gaps, 50)), p99: round(percentile(gaps, 99)), max: round(gaps.at(-1) ?? 0) },
  };
}

function startBareServer(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts', String(port), '200', JSON.stringify(HEADERS), BODY], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => reject(new Error('the bare server did not start within 20 s')), 20_000);
    child.stdout!.on('data', (c: Buffer) => {
      if (/ready/.test(c.toString())) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
}

async function ownScheduler(url: string, rate: number, count: number): Promise<Figures> {
  const transport = new Transport({ timeoutMs: TIMEOUT_MS });
  try {
    const deadline = performance.now() + RUN_LIMIT_MS;
    const result = await pace({
      url,
      headers: {},
      rate,
      count,
      transport,
      inFlight: { now: 0, max: IN_FLIGHT },
      stop: () => (performance.now() > deadline ? 'time limit' : undefined),
    });
    return figuresOf(
      result.requests.map((r) => r.sentAt),
      rate,
      { given: rate, dropped: result.dropped, errors: result.requests.filter((r) => r.error !== undefined).length },
    );
  } finally {
    transport.close();
  }
}

/** The parts of autocannon's http client used here (not all in its published types). */
type Tracked = { on(event: 'request', fn: () => void): void; on(event: 'response', fn: () => void): void };

/** autocannon at a rate, every request's send time taken from its client's 'request' event. */
function viaAutocannon(url: string, asked: number, count: number, mode: 'overallRate' | 'connectionRate'): Promise<Figures> {
  const given = mode === 'overallRate' ? Math.max(1, Math.round(asked)) : asked / CONNECTIONS;
  return new Promise((resolve, reject) => {
    const sendTimes: number[] = [];
    let answered = 0;
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        pipelining: 1,
        amount: count,
        [mode]: given,
        ignoreCoordinatedOmission: true,
        timeout: TIMEOUT_MS / 1000,
        sampleInt: 100,
        setupClient: (client: autocannon.Client) => {
          const tracked = client as unknown as Tracked;
          tracked.on('request', () => sendTimes.push(performance.timeOrigin + performance.now()));
          // Done once every request is answered: autocannon would otherwise wait for its next second.
          tracked.on('response', () => {
            if (++answered >= count) instance.stop();
          });
        },
      },
      (err, result) => {
        clearTimeout(limit);
        if (err) reject(err);
        else resolve(figuresOf(sendTimes, asked, { given, dropped: 0, errors: result.errors }));
      },
    );
    const limit = setTimeout(() => instance.stop(), RUN_LIMIT_MS);
  });
}

export async function pacing({ quick, say }: PacingOptions): Promise<PacingResult> {
  const rates = quick ? QUICK_RATES : RATES;
  const seconds = quick ? 2 : 3;
  const port = await freePort();
  const server = await startBareServer(port);
  const url = `http://127.0.0.1:${port}/v1/pets?limit=1`;
  try {
    say('pacing: warming up (our scheduler and autocannon, 50 requests each)...');
    await ownScheduler(url, 200, 50);
    await viaAutocannon(url, 200, 50, 'overallRate');
    const out: RateFigures[] = [];
    for (const rate of rates) {
      const count = Math.round(rate * seconds);
      say(`pacing: ${rate}/s for ${seconds} s (${count} requests): our scheduler, autocannon overallRate, autocannon connectionRate...`);
      out.push({
        asked: rate,
        requests: count,
        // A window from a send holds the sends k / rate after it for k / rate < 1 s: ceil(rate) of them.
        idealWorst1sErrorPct: pct(Math.ceil(rate) / rate - 1),
        pace: await ownScheduler(url, rate, count),
        overallRate: await viaAutocannon(url, rate, count, 'overallRate'),
        connectionRate: await viaAutocannon(url, rate, count, 'connectionRate'),
      });
    }
    const worstOf = (way: 'pace' | 'overallRate' | 'connectionRate') => {
      const wholeRunErrorPct = Math.max(...out.map((r) => Math.abs(r[way].wholeRunErrorPct)));
      const worst1sErrorPct = Math.max(...out.map((r) => r[way].worst1sErrorPct));
      return { wholeRunErrorPct, worst1sErrorPct, within2Pct: wholeRunErrorPct <= 2 && worst1sErrorPct <= 2 };
    };
    return {
      seconds,
      connections: CONNECTIONS,
      inFlightMax: IN_FLIGHT,
      server: 'bare node:http (bench/bare-server.ts) in its own process',
      rates: out,
      worst: { pace: worstOf('pace'), overallRate: worstOf('overallRate'), connectionRate: worstOf('connectionRate') },
    };
  } finally {
    server.kill('SIGTERM');
  }
}

const signed = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(2)}%`;

/** One line per rate and way: whole-run error, worst 1 s window, gaps. */
export function pacingTable(result: PacingResult): string[] {
  const lines = [`${'rate/s'.padEnd(7)} ${'way'.padEnd(15)} ${'given'.padStart(6)} ${'sent'.padStart(5)} ${'achieved'.padStart(9)} ${'whole run'.padStart(9)} ${'worst 1 s'.padStart(9)} ${'gap p50'.padStart(9)} ${'gap p99'.padStart(9)} ${'gap max'.padStart(9)}`];
  for (const r of result.rates) {
    for (const way of ['pace', 'overallRate', 'connectionRate'] as const) {
      const f = r[way];
      lines.push(
        `${String(r.asked).padEnd(7)} ${way.padEnd(15)} ${String(round(f.given, 2)).padStart(6)} ${String(f.sent).padStart(5)} ${f.achievedRate.toFixed(2).padStart(9)} ${signed(f.wholeRunErrorPct).padStart(9)} ${`${f.worst1sErrorPct.toFixed(2)}%`.padStart(9)} ${f.gapMs.p50.toFixed(2).padStart(9)} ${f.gapMs.p99.toFixed(2).padStart(9)} ${f.gapMs.max.toFixed(2).padStart(9)}`,
      );
    }
    lines.push(`${''.padEnd(7)} (a perfect schedule's worst 1 s window: ${r.idealWorst1sErrorPct.toFixed(2)}%)`);
  }
  return lines;
}

// Run alone: progress on stderr, the table (or with --json the figures) on stdout.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await pacing({ quick: process.argv.includes('--quick'), say: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(result, null, 2)}\n` : `${pacingTable(result).join('\n')}\n`);
  process.exit(0);
}
