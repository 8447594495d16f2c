// The `npm run serve` command line, run as a child process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = 'targets/reference/main.ts';
const LOCAL_CONFIG = 'targets/reference/local.server.yaml';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; with `untilListening`, sends SIGTERM once the banner is printed and the server answered. */
interface RunOptions {
  env?: Record<string, string>;
  untilListening?: (baseUrl: string) => Promise<void>;
}

function run(args: string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, PORT: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /listening on (http:\/\/\S+\/v1)\n[\s\S]*variations: .*\n/.exec(stdout);
      if (found && options.untilListening && !signalled) {
        signalled = true;
        options.untilListening(found[1]!).then(
          () => child.kill('SIGTERM'),
          (err: unknown) => {
            child.kill('SIGKILL');
            reject(err);
          },
        );
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe.concurrent('reference server CLI', () => {
  it('prints the address, key labels, windows, faults and variations, serves, and exits 0 on SIGTERM', async () => {
    let status = 0;
    const result = await run(['--config', LOCAL_CONFIG, '--port', '0', '--fault', 'headers-missing'], {
      env: { PORT: 'not-a-port' },
      untilListening: async (baseUrl) => {
        status = (await fetch(`${baseUrl}/pets`, { headers: { authorization: 'Bearer local-pro-key-1' } })).status;
      },
    });
    expect(result.code).toBe(0);
    expect(status).toBe(200);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Animal Store reference server listening on http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(result.stdout).toContain('free#1 (free), free#2 (free), pro#1 (pro), business#1 (business), daily#1 (daily)');
    expect(result.stdout).toContain('minute 5 s, day 60 s');
    expect(result.stdout).toContain('faults: headers-missing');
    expect(result.stdout).toContain('variations: none');
    expect(result.stdout).not.toContain('local-');
  });

  it('switches on variations given with --variation', async () => {
    let contentType: string | null = null;
    const args = ['--config', LOCAL_CONFIG, '--port', '0', '--variation', 'charset-utf8', '--variation', 'ids-beyond-2^53'];
    const result = await run(args, {
      untilListening: async (baseUrl) => {
        contentType = (await fetch(`${baseUrl}/pets`, { headers: { authorization: 'Bearer local-pro-key-1' } })).headers.get('content-type');
      },
    });
    expect(result.code).toBe(0);
    expect(contentType).toBe('application/json; charset=utf-8');
    expect(result.stdout).toContain('faults: none');
    expect(result.stdout).toContain('variations: ids-beyond-2^53, charset-utf8');
  });

  it('takes the port from PORT when --port is absent', async () => {
    const result = await run([], { env: { PORT: '0' }, untilListening: async () => {} });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(':8080/');
    expect(result.stdout).toContain('minute 60 s, day 86400 s');
  });

  it.each([
    [['--config', 'targets/reference/no-such.yaml'], /no-such\.yaml: cannot read/],
    [['--config', LOCAL_CONFIG, '--fault', 'bogus'], /--fault: unknown fault "bogus"; valid faults: auth-disabled/],
    [['--config', LOCAL_CONFIG, '--variation', 'bogus'], /--variation: unknown variation "bogus"; valid variations: ids-beyond-2\^53/],
    [['--config', LOCAL_CONFIG, '--port', '99999'], /--port: must be a port number/],
    [['--unknown'], /Unknown option '--unknown'/],
  ])('exits 2 with a one-line message for %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints usage for --help', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: animal-store-conformance serve/);
    expect(result.stdout).toContain("npm run serve -- [options]");
  });
});
