// lib/client/client.ts and curl.ts: a request body longer than the record limit (an oversized body
// sent on purpose) is recorded by its start and its length, never whole; its reproduction reads the
// body from a file rather than carrying a cut one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budget } from '../../../lib/client/budget.ts';
import { ApiClient } from '../../../lib/client/client.ts';
import { curlCommand } from '../../../lib/result/curl.ts';

let server: http.Server;
let baseUrl: string;
const received: number[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let size = 0;
    req.on('data', (c: Buffer) => (size += c.length));
    req.on('end', () => {
      received.push(size);
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"x","message":"y","status":400}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a recorded request body', () => {
  const client = () => new ApiClient({ baseUrl, keys: [], budget: new Budget(10), timeoutMs: 5000 });

  it('over 64 KiB: sent whole, recorded by its first KiB (on a character boundary) and its length in bytes', async () => {
    const api = client();
    try {
      const body = `{"name":"${'€'.repeat(400_000)}"}`; // 1,200,011 bytes
      const { exchange } = await api.send({ method: 'POST', path: '/pets', auth: { none: true }, body });
      expect(received.at(-1)).toBe(Buffer.byteLength(body));
      expect(exchange.requestBodyBytes).toBe(Buffer.byteLength(body));
      expect(Buffer.byteLength(exchange.requestBody ?? '')).toBeLessThanOrEqual(1024);
      expect(Buffer.byteLength(exchange.requestBody ?? '')).toBeGreaterThan(1020);
      expect(body.startsWith(exchange.requestBody ?? '-')).toBe(true);
      const curl = curlCommand(exchange);
      expect(curl).toContain('--data-binary @request-body # request-body: the 1200011-byte body sent');
      expect(curl.length).toBeLessThan(1000);
    } finally {
      await api.close();
    }
  });

  it('of exactly 64 KiB: recorded whole, without a length, and given inline in its reproduction', async () => {
    const api = client();
    try {
      const body = 'a'.repeat(64 * 1024);
      const { exchange } = await api.send({ method: 'POST', path: '/pets', auth: { none: true }, body });
      expect(exchange.requestBody).toBe(body);
      expect(exchange.requestBodyBytes).toBeUndefined();
      expect(curlCommand(exchange)).toContain(`--data-binary ${body}`);
    } finally {
      await api.close();
    }
  });
});
