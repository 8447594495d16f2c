// `start:` in a target: launch a local build, wait until it answers HTTP, stop it afterwards. The
// command runs through `sh -c "exec …"` so the PID we hold is the server's own, and stopping it
// ends exactly the process we started.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Target } from '../config/schema.ts';
import { shellQuote } from '../result/curl.ts';
import { harnessCommand } from '../paths.ts';
import { TargetUnreachableError } from '../errors.ts';
import { Transport } from '../http/transport.ts';

export interface StartSpec {
  command: string;
  cwd?: string;
  readyTimeoutMs: number;
  env: Record<string, string>;
}

export interface StartedTarget {
  pid: number;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface, chosen by the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface StartOptions {
  spec: StartSpec;
  /** Directory of the target file: relative `cwd` is resolved against it. */
  baseDir: string;
  /** Polled until it gives any HTTP response. */
  readyUrl: string;
  port?: number;
  onProgress?: (message: string) => void;
  /** Scrubs keys from the output we quote when the command fails. */
  scrub: (text: string) => string;
}

export async function startTarget(options: StartOptions): Promise<StartedTarget> {
  const { spec, baseDir, readyUrl, port, onProgress, scrub } = options;
  const cwd = spec.cwd ? path.resolve(baseDir, spec.cwd) : process.cwd();
  const child = spawn('/bin/sh', ['-c', `exec ${spec.command}`], {
    cwd,
    env: { ...process.env, ...leanReferenceServer(spec.command), ...spec.env, ...(port ? { PORT: String(port) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  child.once('error', (err) => {
    exited = { code: -1, signal: null };
    output += `\n${err.message}`;
  });

  const stop = () => stopChild(child, exitPromise, () => exited !== undefined);
  const deadline = Date.now() + spec.readyTimeoutMs;
  let lastShown = 0;
  for (;;) {
    if (exited) {
      const tail = scrub(output.trim().split('\n').slice(-8).join('\n'));
      throw new TargetUnreachableError(
        `start command exited (${exited.signal ?? `code ${exited.code}`}) before answering at ${readyUrl}${tail ? `:\n${tail}` : ''}`,
      );
    }
    if (await answers(readyUrl)) return { pid: child.pid ?? -1, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new TargetUnreachableError(`start command did not answer at ${readyUrl} within ${spec.readyTimeoutMs} ms (start.readyTimeoutMs)`);
    }
    const waited = Math.floor((Date.now() - (deadline - spec.readyTimeoutMs)) / 1000);
    if (waited > lastShown) {
      lastShown = waited;
      onProgress?.(`waiting for the target to start: ${waited} s of ${Math.ceil(spec.readyTimeoutMs / 1000)} s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Node options for this harness's own reference server (`${ANIMAL_STORE_HARNESS} serve`): a young
 * generation of 1 MiB and one V8 helper thread, which take a fifth off its memory (about 110 MiB
 * to 85) and nothing measurable off its speed on a run. Added to any NODE_OPTIONS already set; a
 * target's start.env still has the last word. Any other command is started as it is.
 */
export function leanReferenceServer(command: string, inherited: string | undefined = process.env.NODE_OPTIONS): { NODE_OPTIONS?: string } {
  if (!command.startsWith(`${harnessCommand()} serve`)) return {};
  return { NODE_OPTIONS: [inherited, '--max-semi-space-size=1', '--v8-pool-size=1'].filter(Boolean).join(' ') };
}

async function answers(url: string): Promise<boolean> {
  const probe = new Transport({ timeoutMs: 1_000 });
  try {
    await probe.send({ method: 'GET', url, headers: {} }, { keep: () => 0 });
    return true;
  } catch {
    // Not listening yet: the caller polls again.
    return false;
  } finally {
    probe.close();
  }
}

async function stopChild(child: ChildProcess, exit: Promise<void>, hasExited: () => boolean): Promise<void> {
  if (hasExited() || child.pid === undefined) return;
  child.kill('SIGTERM');
  const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5_000).unref());
  if ((await Promise.race([exit, timer])) === 'timeout' && !hasExited()) {
    child.kill('SIGKILL');
    await exit;
  }
}

/** Starts the target's `start:` command, if it has one, on the port chosen for it. */
export async function startConfigured(target: Target, port: number | undefined, say: (line: string) => void, scrub: (text: string) => string): Promise<StartedTarget | undefined> {
  if (!target.start) return undefined;
  say(`Starting the target: ${target.start.command}`);
  const started = await startTarget({
    spec: target.start,
    baseDir: path.dirname(target.source),
    readyUrl: `${target.baseUrl}/pets`,
    ...(port !== undefined ? { port } : {}),
    onProgress: say,
    scrub,
  });
  say(`Target started (pid ${started.pid})`);
  return started;
}

/**
 * Lines put before the reproduction commands of a target the harness started: it is stopped by
 * the time anyone reads the report, so the commands say how to start it again on the same port.
 * The values of start.env are not repeated (they may be secrets); the file is named instead.
 */
export function startedTargetNote(target: Target, port: number | undefined): string[] {
  if (!target.start) return [];
  const cwd = target.start.cwd ? path.resolve(path.dirname(target.source), target.start.cwd) : process.cwd();
  const env = Object.keys(target.start.env).length > 0 ? ` (with start.env from ${target.source})` : '';
  return [
    `# The harness started this target for the run and stopped it after; start it again first${env}:`,
    `#   (cd ${shellQuote(cwd)} && ${port !== undefined ? `PORT=${port} ` : ''}${target.start.command})`,
  ];
}
