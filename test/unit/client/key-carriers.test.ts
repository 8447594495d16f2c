// A configured key sent by other carriers (auth.other-carrier) is a secret in every output: the
// server gets the key where the carrier puts it, and the recorded exchange (URL, headers, body, the
// server's echo) and its curl reproduction hold nothing of it; the reproduction rebuilds the same
// request from the key's variable.
import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Budget } from '../../../lib/client/budget.ts';
import { ApiClient } from '../../../lib/client/client.ts';
import { curlCommand } from '../../../lib/result/curl.ts';
import { Redactor } from '../../../lib/client/redact.ts';
import type { TargetKey } from '../../../lib/config/schema.ts';
import {
  carrierName,
  carrierValue,
  COOKIE_CARRIERS,
  FORM_BODY_CARRIERS,
  HEADER_CARRIERS,
  JSON_BODY_CARRIERS,
  KEY_ENCODINGS,
  type KeyCarrier,
  QUERY_CARRIERS,
  SCHEME_CARRIERS,
} from '../../../lib/generators/key-carriers.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { type Received, type RecordingServer, startRecordingServer } from '../../support/recording-server.ts';

/** Distinctive, with characters base64 and URL encodings change (but none a cookie or a shell word cannot hold). */
const KEY = 'sk-live-CARRIER_Secret.9x~7';
const ENV = 'UNIT_FREE_KEY';
const FREE: TargetKey = { key: KEY, plan: 'free', disposable: false, label: 'free#1', env: ENV, quota: { perMinute: 60, perDay: 1000 } };

/** Every form of the key a record must not hold: itself, its prefix and its encodings, as written, URL-encoded, and base64url. */
const SECRETS = [KEY, KEY.slice(0, -1), ...KEY_ENCODINGS.map((e) => e.encode(KEY))]
  .flatMap((s) => [s, s.replace(/=+$/, ''), encodeURIComponent(s), s.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')])
  .map((s) => s.toLowerCase());
const leaks = (text: string) => SECRETS.filter((s) => text.toLowerCase().includes(s));

let server: RecordingServer;
let baseUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  // Echoes everything it got, as a careless server's error message would.
  server = await startRecordingServer((r, res) => {
    received.push(r);
    res.writeHead(401, { 'content-type': 'application/json', 'x-echo': JSON.stringify(r.headers) });
    res.end(JSON.stringify({ code: 'unauthorized', message: `no key in ${JSON.stringify(r)}`, status: 401 }));
  });
  baseUrl = server.baseUrl;
});

afterAll(() => server.close());

const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(keys: TargetKey[] = [FREE]): { api: ApiClient; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const api = new ApiClient({ baseUrl, keys, budget: new Budget(100), timeoutMs: 2000, onExchange: (e) => exchanges.push(e) });
  clients.push(api);
  return { api, exchanges };
}

/** Runs the command in sh with curl replaced by a function that prints its arguments. */
function argvOf(command: string): string[] {
  const out = execFileSync('sh', ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [ENV]: KEY },
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

/** The request a curl argv describes: URL, headers (lower-case names) and body. */
function requestOf(argv: string[]): { url: string; headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '-H') {
      const [name, ...value] = argv[++i]!.split(': ');
      headers[name!.toLowerCase()] = value.join(': ');
    } else if (argv[i] === '--data-binary') body = argv[++i];
  }
  return { url: argv[4]!, headers, ...(body !== undefined ? { body } : {}) };
}

const NEW_PET = '{"name":"Rex","categoryId":1}';
const FORM_PET = 'name=Rex&categoryId=1';

describe('ApiClient: a key sent by other carriers', () => {
  const kinds: [string, readonly KeyCarrier[], { method: 'GET' | 'POST'; body?: string }][] = [
    ...SCHEME_CARRIERS.map((c): [string, KeyCarrier[], { method: 'GET' }] => [carrierName(c), [c], { method: 'GET' }]),
    ['other headers, all at once', HEADER_CARRIERS, { method: 'GET' }],
    ['query parameters, all at once', QUERY_CARRIERS, { method: 'GET' }],
    ['cookies, all at once', COOKIE_CARRIERS, { method: 'GET' }],
    ['fields of a JSON body', JSON_BODY_CARRIERS, { method: 'POST', body: NEW_PET }],
    ['fields of a form body', FORM_BODY_CARRIERS, { method: 'POST', body: FORM_PET }],
  ];

  it.each(kinds)('%s: sent where the carrier puts it, recorded and reproduced without the key', async (_name, carriers, { method, body }) => {
    const { api, exchanges } = client();
    const { exchange, text } = await api.send({ method, path: '/pets', ...(body !== undefined ? { body } : {}), auth: { carrierOf: FREE, carriers } });
    const got = received.at(-1)!;

    // Sent: the key in each carrier, and no Authorization header unless a carrier is one.
    const url = new URL(`http://x${got.url}`);
    for (const c of carriers) {
      const value = carrierValue(c, KEY);
      if (c.place === 'header') expect(got.headers[c.name.toLowerCase()]).toBe(value);
      if (c.place === 'query') expect(url.searchParams.get(c.name)).toBe(value);
      if (c.place === 'cookie') expect(got.headers.cookie?.split('; ')).toContain(`${c.name}=${value}`);
      if (c.place === 'json-body') expect(JSON.parse(got.body)).toMatchObject({ name: 'Rex', categoryId: 1, [c.name]: value });
      if (c.place === 'form-body') expect(new URLSearchParams(got.body).get(c.name)).toBe(value);
    }
    if (!carriers.some((c) => c.place === 'header' && c.name === 'Authorization')) expect(got.headers.authorization).toBeUndefined();
    if (carriers.some((c) => c.place === 'form-body')) {
      expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(new URLSearchParams(got.body).get('name')).toBe('Rex');
    }
    expect(text).toContain('no key in'); // the server echoed all it got

    // Recorded: nothing of the key, the carriers named.
    expect(exchanges).toEqual([exchange]);
    expect(exchange.auth).toEqual({ kind: 'key-carrier', label: 'free#1', env: ENV, carriers: carriers.map(carrierName) });
    expect(leaks(JSON.stringify(exchange))).toEqual([]);
    expect(JSON.stringify(exchange)).toContain('[REDACTED:free#1');

    // Reproduced: nothing of the key in the command, the same request once the shell has run it.
    const command = curlCommand(exchange);
    expect(leaks(command)).toEqual([]);
    // The key goes into the URL and a form body as written, where the client URL-encoded it: the
    // same parameters for a key of unreserved characters (letters, digits, - . _ ~), as keys are.
    const replayed = requestOf(argvOf(command));
    expect([...new URL(replayed.url).searchParams]).toEqual([...url.searchParams]);
    for (const c of carriers.filter((c) => c.place === 'header')) expect(replayed.headers[c.name.toLowerCase()]).toBe(carrierValue(c, KEY));
    if (carriers.some((c) => c.place === 'cookie')) expect(replayed.headers.cookie).toBe(got.headers.cookie);
    if (carriers.some((c) => c.place === 'form-body')) expect([...new URLSearchParams(replayed.body)]).toEqual([...new URLSearchParams(got.body)]);
    else if (body !== undefined) expect(replayed.body).toBe(got.body);
  });

  it('refuses, before sending or counting anything, a key the client does not redact', async () => {
    const { api, exchanges } = client();
    const other: TargetKey = { ...FREE, key: 'sk-other-key-0001', label: 'free#9' };
    const err = await api.send({ method: 'GET', path: '/pets', auth: { carrierOf: other, carriers: HEADER_CARRIERS } }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/free#9.*not one of this client's keys/);
    expect(String(err)).not.toContain('sk-other');
    expect(exchanges).toEqual([]);
    expect(api.budget.used).toBe(0);
  });
});

describe('Redactor: the encodings of a key', () => {
  const redactor = new Redactor([{ key: KEY, label: 'free#1' }]);

  it.each(KEY_ENCODINGS.map((e) => [e.name, e]))('%s is named, as sent and as a server may echo it', (name, encoding) => {
    const sent = encoding.encode(KEY);
    expect(redactor.scrub(`Basic ${sent}`)).toBe(`Basic [REDACTED:free#1 ${name}]`);
    const echoes = [sent.replace(/=+$/, ''), encodeURIComponent(sent), sent.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'), `?auth=${new URLSearchParams([['', sent]]).toString().slice(1)}`];
    for (const echo of echoes) expect(leaks(redactor.scrub(echo))).toEqual([]);
  });
});
