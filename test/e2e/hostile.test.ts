// Hostile and broken servers: the run must end by itself, within a bound, with a readable report,
// `error` outcomes for what could not be checked, no crash and no stack trace; exit 1, or 3 when
// nothing answers at all.
import { existsSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readReport, runCli, tempDir, writeTarget } from './cli-helpers.ts';

const KEY = 'sk-hostile-3c4d5e6f';
const RATE = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 60) };

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const HOSTILE: Record<string, Handler> = {
  'never answers': () => {
    /* holds every request open */
  },
  'closes the connection mid-response': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100', ...RATE });
    res.write('[{"id": 1, "na');
    setTimeout(() => res.socket?.destroy(), 10);
  },
  'answers non-JSON labelled JSON': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...RATE });
    res.end('<html><body>Welcome to nginx!</body></html>');
  },
  // More than the 4 MiB the client reads of a body.
  'answers a 5 MB body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...RATE });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < 5 && res.write(chunk)) sent += 1;
      if (sent >= 5) res.end('[]');
      else res.once('drain', () => ((sent += 1), more()));
    };
    more();
  },
  'drips the body a byte at a time': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...RATE });
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  },
  'sends a wrong Content-Length': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500', ...RATE });
    res.end('[]');
    setTimeout(() => res.socket?.destroy(), 10);
  },
  'closes every connection after one response': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close', ...RATE });
    res.end('[]');
  },
};

const dir = tempDir('hostile');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hostile servers', () => {
  it.concurrent.each(Object.entries(HOSTILE))('%s: the run ends in a report, exit 1 or 3, no crash', async (name, handler) => {
    const sockets = new Set<Socket>();
    const server = http.createServer(handler);
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const safe = name.replace(/[^a-z0-9]+/gi, '-');
    const reports = path.join(dir, safe);
    try {
      const target = { name: safe, baseUrl: `http://127.0.0.1:${port}/v1`, keys: [{ key: KEY, plan: 'free' }], http: { timeoutMs: 500 } };
      const started = Date.now();
      const run = await runCli(['--target', writeTarget(dir, target, `${safe}.yaml`), '--report-dir', reports, '--suite', 'auth', '--suite', 'get-pet'], {}, 60_000);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect([1, 3]).toContain(run.code);
      expect(run.stderr).not.toMatch(/\n\s+at |internal error/);
      expect(existsSync(path.join(reports, 'report.html'))).toBe(true);
      const report = readReport(reports);
      expect(report.verdict).toBe('fail');
      expect(report.checks.some((c) => c.outcome === 'error' || c.outcome === 'fail')).toBe(true);
      expect(run.stdout + run.stderr + JSON.stringify(report)).not.toContain(KEY);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
