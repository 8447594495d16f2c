import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerConfigError, loadServerConfig, parseServerConfig } from '../../targets/reference/config.ts';

const KEYS = [{ key: 'k1', plan: 'free' }];

function problemOf(raw: unknown): ServerConfigError {
  try {
    parseServerConfig(raw, 'test.yaml');
  } catch (err) {
    if (err instanceof ServerConfigError) return err;
    throw err;
  }
  throw new Error('config was accepted');
}

describe('parseServerConfig', () => {
  it('fills in defaults', () => {
    expect(parseServerConfig({ keys: KEYS })).toEqual({
      host: '127.0.0.1',
      port: 0,
      keys: KEYS,
      plans: {},
      windows: { minute: 60, day: 86_400 },
      faults: [],
      variations: [],
      preload: 0,
    });
    expect(parseServerConfig({ keys: KEYS, windows: { minute: 2 } }).windows).toEqual({ minute: 2, day: 86_400 });
  });

  it('accepts a custom plan defined under plans, and overrides of published ones', () => {
    const config = parseServerConfig({
      keys: [{ key: 'e', plan: 'enterprise' }],
      plans: { enterprise: { perMinute: 5000, perDay: 2_000_000 }, free: { perMinute: 1, perDay: 2 } },
    });
    expect(config.plans.enterprise).toEqual({ perMinute: 5000, perDay: 2_000_000 });
  });

  it('accepts legal variations by id', () => {
    expect(parseServerConfig({ keys: KEYS, variations: ['ids-beyond-2^53', 'limit-clamp'] }).variations).toEqual([
      'ids-beyond-2^53',
      'limit-clamp',
    ]);
  });

  it.each([
    ['an unknown top-level field', { keys: KEYS, hots: 'x' }, 'hots', /unknown field/],
    ['an unknown nested field', { keys: KEYS, windows: { minute: 1, hour: 2 } }, 'windows.hour', /unknown field/],
    ['an unknown field in a key', { keys: [{ key: 'k', plan: 'free', disposable: true }] }, 'keys.0.disposable', /unknown field/],
    ['missing keys', {}, 'keys', /required/],
    ['an empty key list', { keys: [] }, 'keys', /./],
    ['a key without plan', { keys: [{ key: 'k' }] }, 'keys.0.plan', /required/],
    ['an unknown plan', { keys: [...KEYS, { key: 'k2', plan: 'gold' }] }, 'keys.1.plan', /unknown plan "gold".*free, pro, business/],
    ['enterprise without numbers', { keys: [{ key: 'k', plan: 'enterprise' }] }, 'keys.0.plan', /unknown plan/],
    ['a key with a space', { keys: [{ key: 'a b', plan: 'free' }] }, 'keys.0.key', /ASCII/],
    ['a duplicate key', { keys: [...KEYS, { key: 'k1', plan: 'pro' }] }, 'keys.1.key', /same key as keys\.0\.key/],
    ['a port out of range', { keys: KEYS, port: 70_000 }, 'port', /./],
    ['a port as a string', { keys: KEYS, port: '8080' }, 'port', /expected number/],
    ['a zero window', { keys: KEYS, windows: { minute: 0 } }, 'windows.minute', /./],
    ['a fractional window', { keys: KEYS, windows: { minute: 1.5 } }, 'windows.minute', /./],
    ['a day shorter than a minute', { keys: KEYS, windows: { minute: 60, day: 30 } }, 'windows.day', /shorter/],
    ['a plan with a missing number', { keys: KEYS, plans: { x: { perMinute: 1 } } }, 'plans.x.perDay', /required/],
    [
      'an unknown fault',
      { keys: KEYS, faults: ['auth-disabled', 'no-such-fault'] },
      'faults.1',
      /unknown fault "no-such-fault".*auth-disabled/,
    ],
    [
      'an unknown variation',
      { keys: KEYS, variations: ['charset-utf8', 'utf-16'] },
      'variations.1',
      /unknown variation "utf-16"; valid variations: ids-beyond-2\^53, .*rejected-count-against-quota/,
    ],
    ['a negative preload', { keys: KEYS, preload: -1 }, 'preload', /./],
  ])('rejects %s, naming the field', (_name, raw, field, message) => {
    const error = problemOf(raw);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^test\.yaml: /);
    expect(error.message).not.toContain('\n');
  });

  it('never shows a key value in an error', () => {
    const error = problemOf({ keys: [{ key: 'secret-value', plan: 'free' }, { key: 'secret-value', plan: 'free' }] });
    expect(error.message).not.toContain('secret-value');
  });
});

describe('loadServerConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reference-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('loads the bundled configs', async () => {
    const serve = await loadServerConfig(new URL('../../targets/reference/server.yaml', import.meta.url).pathname);
    expect(serve).toMatchObject({ port: 8080, windows: { minute: 60, day: 86_400 } });
    expect(serve.keys.map((k) => k.plan)).toEqual(['free', 'free', 'pro', 'business', 'daily', 'free']);
    expect(serve.plans).toEqual({ daily: { perMinute: 40, perDay: 100 } });
    const local = await loadServerConfig(new URL('../../targets/reference/local.server.yaml', import.meta.url).pathname);
    expect(local).toMatchObject({ port: 0, windows: { minute: 5, day: 60 }, keys: serve.keys, plans: serve.plans });
    expect(local.keys.find((k) => k.plan === 'daily')?.key).toBe('local-daily-key-1');
  });

  it('names the file and the field', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'keys:\n  - { key: k, plan: free }\nwindows: { minute: 60, dya: 1 }\n');
    await expect(loadServerConfig(file)).rejects.toThrow(`${file}: windows.dya: unknown field`);
  });

  it('reports YAML syntax errors and unreadable files in one line', async () => {
    const file = join(dir, 'broken.yaml');
    await writeFile(file, 'keys: [\n');
    await expect(loadServerConfig(file)).rejects.toThrow(/not valid YAML/);
    await expect(loadServerConfig(join(dir, 'missing.yaml'))).rejects.toThrow(/cannot read: ENOENT/);
  });

  it('treats an empty file as an empty config', async () => {
    const file = join(dir, 'empty.yaml');
    await writeFile(file, '');
    await expect(loadServerConfig(file)).rejects.toThrow(`${file}: keys: required`);
  });
});
