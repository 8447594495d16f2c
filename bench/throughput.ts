// The reference server's throughput as a ratio to a bare node:http server replaying the same bytes
// (bench/bare-server.ts), for GET /v1/pets?limit=1: autocannon, 10 connections, pipelining 1, a
// 1 s warm-up of each, then 3 interleaved rounds (reference, then bare). Loopback only.
//
//   node --import tsx bench/throughput.ts [--quick]   (prints the summary as JSON)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { freePort } from '../lib/runner/start-target.ts';
import { summary } from './measure.ts';

export interface ThroughputOptions {
  /** Rounds of 1 s instead of 3 s. */
  quick: boolean;
  /** Progress, one line at a time. */
  say: (line: string) => void;
  /** Where the reference server's config is written. */
  outDir: string;
}

function startChild(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.on('data', (c: Buffer) => {
      if (/ready|listening/.test(c.toString())) resolve(child);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function rps(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const result = await autocannon({ url, headers, connections: 10, pipelining: 1, duration: seconds });
  return result.requests.average;
}

export async function throughput({ quick, say, outDir }: ThroughputOptions) {
  const key = 'bench-throughput-key';
  const config = path.join(outDir, 'throughput.server.yaml');
  writeFileSync(config, stringify({ keys: [{ key, plan: 'unlimited' }], plans: { unlimited: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 } } }));
  const refPort = await freePort();
  const reference = await startChild(['targets/reference/main.ts', '--config', config, '--port', String(refPort)]);
  const headers = { authorization: `Bearer ${key}` };
  const sample = await fetch(`http://127.0.0.1:${refPort}/v1/pets?limit=1`, { headers });
  const replay: Record<string, string> = {};
  for (const name of ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) replay[name] = sample.headers.get(name) ?? '';
  const barePort = await freePort();
  const bare = await startChild(['bench/bare-server.ts', String(barePort), String(sample.status), JSON.stringify(replay), await sample.text()]);
  try {
    const seconds = quick ? 1 : 3;
    say('throughput: warming up both servers...');
    await rps(`http://127.0.0.1:${refPort}/v1/pets?limit=1`, headers, 1);
    await rps(`http://127.0.0.1:${barePort}/v1/pets?limit=1`, headers, 1);
    const a: number[] = [];
    const b: number[] = [];
    for (let round = 0; round < 3; round++) {
      say(`throughput round ${round + 1} of 3 (reference, then bare)...`);
      a.push(await rps(`http://127.0.0.1:${refPort}/v1/pets?limit=1`, headers, seconds));
      b.push(await rps(`http://127.0.0.1:${barePort}/v1/pets?limit=1`, headers, seconds));
    }
    const ratios = a.map((x, i) => Math.round((x / b[i]!) * 1000) / 1000);
    return { referenceRps: summary(a), bareRps: summary(b), ratio: summary(ratios), secondsPerRun: seconds, connections: 10 };
  } finally {
    reference.kill('SIGTERM');
    bare.kill('SIGTERM');
  }
}

// Run alone: progress on stderr, the summary as JSON on stdout.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = path.join(PROJECT_ROOT, 'reports', 'bench');
  mkdirSync(outDir, { recursive: true });
  const result = await throughput({ quick: process.argv.includes('--quick'), say: (line) => process.stderr.write(`${line}\n`), outDir });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
