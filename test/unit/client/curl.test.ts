import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from '../../../lib/result/curl.ts';
import { Redactor } from '../../../lib/client/redact.ts';
import { nearMissKeys } from '../../../lib/generators/near-miss-key.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';

const KEY = 'sk-live-CURLTEST-91b2';

function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    seq: 0,
    suite: 'unit',
    method: 'GET',
    url: 'http://127.0.0.1:4010/v1/pets?limit=5&status=sold',
    auth: { kind: 'key', label: 'free#1', env: 'UNIT_FREE_KEY', header: 'Bearer $UNIT_FREE_KEY' },
    requestHeaders: { accept: 'application/json', authorization: 'Bearer [REDACTED:free#1]' },
    responseHeaders: {},
    startedAt: '2030-01-01T00:00:00.000Z',
    durationMs: 1,
    ...overrides,
  };
}

/** Runs the command in sh with curl replaced by a function that prints its arguments. */
function argvOf(command: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('sh', ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  it.each(['pets', 'http://127.0.0.1:4010/v1/pets', 'a=b,c+d@e%f'])('leaves the shell-safe %s bare', (s) => {
    expect(shellQuote(s)).toBe(s);
  });

  it.each(["it's", 'a b', '$HOME', '`id`', '"x"', 'a;b', '*', '~', '', 'line\nbreak', '!', 'a&b'])('quotes %j so the shell reads it back unchanged', (s) => {
    expect(argvOf(`curl ${shellQuote(s)}`, { HOME: '/should-not-expand' })).toEqual([s]);
  });
});

describe('curlCommand', () => {
  it('reads a configured key from its variable and skips the recorded Authorization header', () => {
    const command = curlCommand(exchange());
    expect(command).toContain('"Authorization: Bearer $UNIT_FREE_KEY"');
    expect(command).not.toContain('REDACTED');
    expect(argvOf(command, { UNIT_FREE_KEY: KEY })).toEqual([
      '-sS',
      '-i',
      '-X',
      'GET',
      'http://127.0.0.1:4010/v1/pets?limit=5&status=sold',
      '-H',
      `Authorization: Bearer ${KEY}`,
      '-H',
      'accept: application/json',
    ]);
  });

  it('never contains the key itself', () => {
    const command = curlCommand(exchange({ method: 'POST', requestBody: '{"name":"Rex","categoryId":1}' }));
    expect(command).not.toContain(KEY);
  });

  it('passes a body with single quotes and shell syntax through unchanged', () => {
    const body = `{"name":"O'Malley $(rm -rf /) \`id\`","categoryId":9223372036854775807}`;
    const command = curlCommand(exchange({ method: 'POST', requestBody: body, requestHeaders: { 'content-type': 'application/json', 'content-length': '99' } }));
    const argv = argvOf(command);
    expect(argv.slice(-2)).toEqual(['--data-binary', body]);
    expect(argv).toContain('content-type: application/json');
    expect(argv.some((a) => a.startsWith('content-length'))).toBe(false);
  });

  it('sends a made-up credential as it was sent', () => {
    const command = curlCommand(
      exchange({ auth: { kind: 'literal', header: "Basic dXNlcjpwYXNz'", where: 'header' }, requestHeaders: { authorization: "Basic dXNlcjpwYXNz'" } }),
    );
    expect(argvOf(command).filter((a) => a.startsWith('Authorization'))).toEqual(["Authorization: Basic dXNlcjpwYXNz'"]);
  });

  it('sends no Authorization header for a request without credentials', () => {
    const command = curlCommand(exchange({ auth: { kind: 'none' }, requestHeaders: { accept: 'application/json' } }));
    expect(argvOf(command).some((a) => /^authorization/i.test(a))).toBe(false);
  });

  it('keeps a query credential in the URL and adds no header for it', () => {
    const command = curlCommand(
      exchange({ url: 'http://127.0.0.1:4010/v1/pets?api_key=made-up', auth: { kind: 'literal', header: 'made-up', where: 'query' }, requestHeaders: {} }),
    );
    expect(argvOf(command)).toEqual(['-sS', '-i', '-X', 'GET', 'http://127.0.0.1:4010/v1/pets?api_key=made-up']);
  });

  it.each(nearMissKeys(KEY).map((c) => [c.name, c]))('rebuilds the near miss %s from the key\'s variable, and holds nothing of the key', (_name, nearMiss) => {
    const redactor = new Redactor([{ key: KEY, label: 'free#1' }]);
    const command = curlCommand(
      exchange({
        auth: { kind: 'key', label: 'free#1', env: 'UNIT_FREE_KEY', header: nearMiss.shell('UNIT_FREE_KEY') },
        requestHeaders: { accept: 'application/json', authorization: redactor.scrub(nearMiss.header) },
      }),
    );
    for (const secret of [KEY, KEY.slice(0, -1)]) expect(command.toLowerCase()).not.toContain(secret.toLowerCase());
    expect(argvOf(command, { UNIT_FREE_KEY: KEY }).filter((a) => /^authorization/i.test(a))).toEqual([`Authorization: ${nearMiss.header}`]);
  });

  it('quotes a URL whose redacted key holds shell characters', () => {
    const url = 'http://127.0.0.1:4010/v1/pets?api_key=[REDACTED:free#1]';
    expect(argvOf(curlCommand(exchange({ url, requestHeaders: {} })), { UNIT_FREE_KEY: KEY })[4]).toBe(url);
  });
});
