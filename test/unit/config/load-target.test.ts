import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { listTargets, loadTarget, resolveTargetFile, TARGETS_DIR, validateTarget } from '../../../lib/config/load-target.ts';
import { ConfigError } from '../../../lib/errors.ts';
import { PUBLISHED_PLANS } from '../../../lib/plans.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'animal-store-load-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let fileCount = 0;
/** Writes YAML to a fresh temp file and returns its absolute path. */
function yamlFile(text: string): string {
  const file = path.join(tmp, `target-${++fileCount}.yaml`);
  writeFileSync(file, text);
  return file;
}

const SOURCE = '/configs/test.yaml';
/** A distinctive key: asserted absent from every error message. */
const SECRET = 'sk-DISTINCTIVE-7f3a9c41e0';

function minimal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'unit', baseUrl: 'http://127.0.0.1:4010/v1', keys: [{ key: SECRET, plan: 'free' }], ...overrides };
}

/** Runs fn, which must throw a ConfigError, and returns it. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

async function configErrorAsync(promise: Promise<unknown>): Promise<ConfigError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

describe('validateTarget: a valid config', () => {
  const raw = {
    name: 'unit-target',
    baseUrl: 'https://api.example.com/v1/',
    keys: [
      { key: '${UNIT_FREE_KEY}', plan: 'free' },
      { key: 'literal-free-key-2', plan: 'free', disposable: true },
      { key: 'literal-pro-key', plan: 'pro' },
      { key: 'literal-business-key', plan: 'business' },
      { key: 'literal-enterprise-key', plan: 'enterprise' },
    ],
    plans: { enterprise: { perMinute: 5000, perDay: 2000000 }, pro: { perMinute: 10, perDay: 100 } },
    windows: { minute: 2, day: 30 },
  };
  const target = validateTarget(raw, SOURCE, { UNIT_FREE_KEY: 'env-free-key-1' });

  it('keeps five keys over four plans, with labels per plan and position', () => {
    expect(target.keys.map((k) => [k.label, k.plan, k.key, k.disposable])).toEqual([
      ['free#1', 'free', 'env-free-key-1', false],
      ['free#2', 'free', 'literal-free-key-2', true],
      ['pro#1', 'pro', 'literal-pro-key', false],
      ['business#1', 'business', 'literal-business-key', false],
      ['enterprise#1', 'enterprise', 'literal-enterprise-key', false],
    ]);
  });

  it('names the variable a ${VAR} key came from, and suggests one for literal keys', () => {
    expect(target.keys.map((k) => k.env)).toEqual([
      'UNIT_FREE_KEY',
      'ANIMAL_STORE_FREE_KEY_2',
      'ANIMAL_STORE_PRO_KEY_1',
      'ANIMAL_STORE_BUSINESS_KEY_1',
      'ANIMAL_STORE_ENTERPRISE_KEY_1',
    ]);
  });

  it('gives each key its quota: plans: completes enterprise and overrides pro', () => {
    expect(target.keys.map((k) => k.quota)).toEqual([
      PUBLISHED_PLANS.free,
      PUBLISHED_PLANS.free,
      { perMinute: 10, perDay: 100 },
      PUBLISHED_PLANS.business,
      { perMinute: 5000, perDay: 2000000 },
    ]);
  });

  it('keeps short windows, strips the trailing slash of baseUrl, and records the source', () => {
    expect(target.windows).toEqual({ minute: 2, day: 30 });
    expect(target.baseUrl).toBe('https://api.example.com/v1');
    expect(target.source).toBe(SOURCE);
  });

  it('fills the defaults: writes and load off, budget 5000 requests and 30 minutes, timeout 10 s, TLS verified, no start', () => {
    expect(target.allow).toEqual({ writes: false, load: false });
    expect(target.budget).toEqual({ maxRequests: 5000, maxSeconds: 1800 });
    expect(target.http).toEqual({ headers: {}, timeoutMs: 10000, maxConcurrency: 16, insecure: false });
    expect(target.start).toBeUndefined();
  });

  it('defaults the windows to a minute and a day', () => {
    expect(validateTarget(minimal(), SOURCE, {}).windows).toEqual({ minute: 60, day: 86400 });
  });

  it('accepts a plan of its own defined under plans:', () => {
    const t = validateTarget(minimal({ keys: [{ key: 'k', plan: 'gold-tier' }], plans: { 'gold-tier': { perMinute: 7, perDay: 70 } } }), SOURCE, {});
    expect(t.keys[0]).toMatchObject({ label: 'gold-tier#1', env: 'ANIMAL_STORE_GOLD_TIER_KEY_1', quota: { perMinute: 7, perDay: 70 } });
  });
});

describe('validateTarget: load thresholds', () => {
  it('are optional, and unset by default', () => {
    expect(validateTarget(minimal(), SOURCE, {}).load.thresholds).toEqual({});
  });

  it('take numbers, and their decimal string forms from the environment', () => {
    const t = validateTarget(minimal({ load: { thresholds: { p99Ms: '${UNIT_P99}', p95Ms: 100, p50Ms: 12.5, errorRate: '0.001' } } }), SOURCE, { UNIT_P99: '250' });
    expect(t.load.thresholds).toEqual({ p99Ms: 250, p95Ms: 100, p50Ms: 12.5, errorRate: 0.001 });
  });

  it.each([
    [{ p99Ms: 0 }, 'load.thresholds.p99Ms'],
    [{ p95Ms: 'fast' }, 'load.thresholds.p95Ms'],
    [{ errorRate: 2 }, 'load.thresholds.errorRate: is a fraction of the requests, from 0 to 1'],
    [{ p90Ms: 100 }, 'load.thresholds'],
  ])('name the field of a bad threshold %j', (thresholds, field) => {
    expect(configError(() => validateTarget(minimal({ load: { thresholds } }), SOURCE, {})).message).toContain(field);
  });
});

describe('validateTarget: environment substitution', () => {
  it('uses ${VAR:-default} when the variable is unset and when it is empty', () => {
    const raw = minimal({ http: { timeoutMs: '${TIMEOUT:-2500}' } });
    expect(validateTarget(raw, SOURCE, {}).http.timeoutMs).toBe(2500);
    expect(validateTarget(raw, SOURCE, { TIMEOUT: '' }).http.timeoutMs).toBe(2500);
    expect(validateTarget(raw, SOURCE, { TIMEOUT: '700' }).http.timeoutMs).toBe(700);
  });

  it('names the unset variable and the field that needs it', () => {
    const err = configError(() => validateTarget(minimal({ baseUrl: '${UNIT_BASE_URL}' }), SOURCE, {}));
    expect(err.message).toContain('UNIT_BASE_URL (for baseUrl)');
    expect(err.problems).toEqual([{ field: 'UNIT_BASE_URL', message: 'environment variable UNIT_BASE_URL is not set (needed by baseUrl)' }]);
  });

  it('lists every unset variable at once', () => {
    const raw = minimal({ baseUrl: '${UNIT_URL}', keys: [{ key: '${UNIT_KEY_A}', plan: 'free' }, { key: '${UNIT_KEY_B}', plan: 'pro' }] });
    const err = configError(() => validateTarget(raw, SOURCE, { UNIT_KEY_A: 'a' }));
    expect(err.problems.map((p) => p.field)).toEqual(['UNIT_URL', 'UNIT_KEY_B']);
    expect(err.message).toContain('UNIT_KEY_B (for keys[1].key)');
  });

  it('reports a malformed reference as a ConfigError naming the field', () => {
    const err = configError(() => validateTarget(minimal({ baseUrl: 'http://${bad-name}/v1' }), SOURCE, {}));
    expect(err.message).toMatch(/baseUrl: "\$\{bad-name\}" is not a valid variable reference/);
  });

  it('rejects a key whose variable is set to an empty value', () => {
    const err = configError(() => validateTarget(minimal({ keys: [{ key: '${UNIT_EMPTY_KEY}', plan: 'free' }] }), SOURCE, { UNIT_EMPTY_KEY: '' }));
    expect(err.problems).toEqual([{ field: 'keys[0].key', message: expect.stringMatching(/is empty/) }]);
  });

  it.each([
    ['"true"', 'true', true],
    ['"false"', 'false', false],
  ])('accepts %s from the environment for a boolean', (_name, value, expected) => {
    const t = validateTarget(minimal({ allow: { writes: '${UNIT_WRITES}', load: true } }), SOURCE, { UNIT_WRITES: value });
    expect(t.allow).toEqual({ writes: expected, load: true });
  });

  it.each([
    ['budget.maxRequests', { budget: { maxRequests: '${N}' } }, (t: ReturnType<typeof validateTarget>) => t.budget.maxRequests],
    ['windows.minute', { windows: { minute: '${N}' } }, (t: ReturnType<typeof validateTarget>) => t.windows.minute],
    ['http.timeoutMs', { http: { timeoutMs: '${N}' } }, (t: ReturnType<typeof validateTarget>) => t.http.timeoutMs],
  ])('accepts a numeric string from the environment for %s', (_field, overrides, pick) => {
    expect(pick(validateTarget(minimal(overrides), SOURCE, { N: '250' }))).toBe(250);
  });
});

describe('validateTarget: invalid configs name the field at fault', () => {
  it.each([
    ['a boolean written "yes"', 'allow.writes', { allow: { writes: 'yes' } }],
    ['disposable written "yes"', 'keys[0].disposable', { keys: [{ key: 'k', plan: 'free', disposable: 'yes' }] }],
    ['a fractional number string', 'windows.minute', { windows: { minute: '2.5' } }],
    ['a negative number string', 'http.timeoutMs', { http: { timeoutMs: '-1' } }],
    ['zero requests of budget', 'budget.maxRequests', { budget: { maxRequests: 0 } }],
    ['no keys', 'keys', { keys: [] }],
    ['a name with spaces', 'name', { name: 'my target' }],
    ['a baseUrl not ending in /v1', 'baseUrl', { baseUrl: 'https://api.example.com/v2' }],
    ['a baseUrl with /v1 not last', 'baseUrl', { baseUrl: 'https://api.example.com/v1/pets' }],
    ['a baseUrl that is not http', 'baseUrl', { baseUrl: 'ftp://api.example.com/v1' }],
    ['a baseUrl that is not a URL', 'baseUrl', { baseUrl: 'api.example.com/v1' }],
    ['an empty baseUrl', 'baseUrl', { baseUrl: '' }],
    ['a plan quota without perDay', 'plans.pro.perDay', { plans: { pro: { perMinute: 5 } } }],
    ['a plan name in capitals', 'keys[0].plan', { keys: [{ key: 'k', plan: 'Free' }] }],
  ])('rejects %s at %s', (_name, field, overrides) => {
    const err = configError(() => validateTarget(minimal(overrides), SOURCE, {}));
    expect(new Set(err.problems.map((p) => p.field))).toEqual(new Set([field]));
    expect(err.message).toContain(`${field}: `);
  });

  it('rejects "yes" for a boolean even when it comes from the environment', () => {
    const err = configError(() => validateTarget(minimal({ allow: { load: '${UNIT_LOAD}' } }), SOURCE, { UNIT_LOAD: 'yes' }));
    expect(err.problems.map((p) => p.field)).toEqual(['allow.load']);
  });

  it.each([
    ['not a URL', 'api.example.com/v1', 'baseUrl: is not a URL'],
    ['empty', '${UNIT_URL:-}', 'baseUrl: is empty'],
  ])('says a baseUrl that is %s is wrong, with one message', (_name, baseUrl, expected) => {
    const err = configError(() => validateTarget(minimal({ baseUrl }), SOURCE, {}));
    expect(err.problems).toHaveLength(1);
    expect(err.message).toContain(expected);
  });

  it('says a baseUrl must end with /v1', () => {
    const err = configError(() => validateTarget(minimal({ baseUrl: 'https://api.example.com/v2' }), SOURCE, {}));
    expect(err.message).toMatch(/baseUrl: must end with \/v1/);
  });

  it.each([
    ['at the top level', { baseURL: 'x' }, 'baseURL', 'baseUrl'],
    ['under windows', { windows: { dayy: 30 } }, 'windows.dayy', 'day'],
    ['in a key', { keys: [{ key: 'k', plan: 'free', disposible: true }] }, 'keys[0].disposible', 'disposable'],
    ['in a plan quota', { plans: { pro: { perMinute: 1, perDay: 2, perHour: 3 } } }, 'plans.pro.perHour', undefined],
    ['under http', { http: { timeout: 5 } }, 'http.timeout', 'timeoutMs'],
  ])('rejects an unknown field %s, naming its path with a suggestion', (_where, overrides, field, suggestion) => {
    const err = configError(() => validateTarget(minimal(overrides), SOURCE, {}));
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]!.field).toBe(field);
    expect(err.message).toContain(`${field}: unknown field`);
    if (suggestion) expect(err.message).toContain(`did you mean "${suggestion}"?`);
    else expect(err.message).not.toContain('did you mean');
  });

  it('lists the known fields of the object an unknown field is in', () => {
    const err = configError(() => validateTarget(minimal({ windows: { dayy: 30 } }), SOURCE, {}));
    expect(err.message).toContain('known fields here: minute, day');
  });

  it('rejects an enterprise key without a plans entry, naming keys[i].plan', () => {
    const raw = minimal({ keys: [{ key: 'a', plan: 'free' }, { key: 'b', plan: 'enterprise' }] });
    const err = configError(() => validateTarget(raw, SOURCE, {}));
    expect(err.problems).toEqual([{ field: 'keys[1].plan', message: expect.stringContaining('plans.enterprise') }]);
  });

  it('rejects a plan that is neither published nor defined', () => {
    const err = configError(() => validateTarget(minimal({ keys: [{ key: 'k', plan: 'gold' }] }), SOURCE, {}));
    expect(err.problems).toEqual([{ field: 'keys[0].plan', message: expect.stringContaining('unknown plan "gold"') }]);
  });

  it('rejects a plan named after an Object.prototype property', () => {
    const err = configError(() => validateTarget(minimal({ keys: [{ key: 'k', plan: 'constructor' }] }), SOURCE, {}));
    expect(err.problems).toEqual([{ field: 'keys[0].plan', message: expect.stringContaining('unknown plan "constructor"') }]);
  });

  it('rejects the same key given twice, naming the second and pointing at the first', () => {
    const raw = minimal({ keys: [{ key: 'same', plan: 'free' }, { key: 'other', plan: 'free' }, { key: 'same', plan: 'pro' }] });
    const err = configError(() => validateTarget(raw, SOURCE, {}));
    expect(err.problems).toEqual([{ field: 'keys[2].key', message: 'is the same key as keys[0].key' }]);
  });

  it('exits with the usage status', () => {
    expect(configError(() => validateTarget(minimal({ keys: [] }), SOURCE, {})).exitCode).toBe(2);
  });
});

describe('validateTarget: the key value never appears in an error', () => {
  it.each([
    ['a bad baseUrl', minimal({ baseUrl: 'https://x/v2' }), {}],
    ['an unknown field beside the key', { ...minimal(), keys: [{ key: SECRET, plan: 'free', token: SECRET }] }, {}],
    ['the key given twice', minimal({ keys: [{ key: SECRET, plan: 'free' }, { key: SECRET, plan: 'free' }] }), {}],
    ['an enterprise key without quotas', minimal({ keys: [{ key: SECRET, plan: 'enterprise' }] }), {}],
    ['a key from the environment and another variable unset', minimal({ baseUrl: '${UNIT_URL}', keys: [{ key: '${UNIT_KEY}', plan: 'free' }] }), { UNIT_KEY: SECRET }],
    ['a key from the environment and a bad boolean', minimal({ keys: [{ key: '${UNIT_KEY}', plan: 'free', disposable: 'yes' }] }), { UNIT_KEY: SECRET }],
    ['a key pasted as the plan', minimal({ keys: [{ key: 'k', plan: SECRET }] }), {}],
    ['a key from the environment pasted as the plan', minimal({ keys: [{ key: 'k', plan: '${UNIT_KEY}' }] }), { UNIT_KEY: SECRET }],
  ])('with %s', (_name, raw, env) => {
    const err = configError(() => validateTarget(raw, SOURCE, env));
    expect(err.message).not.toContain(SECRET);
    expect(JSON.stringify(err.problems)).not.toContain(SECRET);
  });
});

describe('loadTarget: YAML files', () => {
  it('reads a file, substitutes the environment and validates it', async () => {
    const file = yamlFile(
      [
        'name: from-yaml',
        'baseUrl: ${UNIT_URL:-http://127.0.0.1:4010/v1}',
        'keys:',
        '  - { key: "${UNIT_FREE}", plan: free }',
        '  - { key: pro-key, plan: pro }',
        'allow: { writes: "${UNIT_WRITES}", load: false }',
        'budget: { maxRequests: "${UNIT_MAX}" }',
      ].join('\n'),
    );
    const { target, port } = await loadTarget(file, { env: { UNIT_FREE: 'free-from-env', UNIT_WRITES: 'true', UNIT_MAX: '123' } });
    expect(port).toBeUndefined();
    expect(target).toMatchObject({ name: 'from-yaml', baseUrl: 'http://127.0.0.1:4010/v1', allow: { writes: true, load: false }, budget: { maxRequests: 123 }, source: file });
    expect(target.keys.map((k) => [k.label, k.key, k.env])).toEqual([
      ['free#1', 'free-from-env', 'UNIT_FREE'],
      ['pro#1', 'pro-key', 'ANIMAL_STORE_PRO_KEY_1'],
    ]);
  });

  it('treats YAML yes as the string "yes" and rejects it for a boolean', async () => {
    const file = yamlFile('name: t\nbaseUrl: http://h/v1\nkeys: [{ key: k, plan: free }]\nallow: { writes: yes }\n');
    const err = await configErrorAsync(loadTarget(file, { env: {} }));
    expect(err.problems.map((p) => p.field)).toEqual(['allow.writes']);
  });

  it('reports the line of a YAML syntax error, without quoting a key from the source', async () => {
    const file = yamlFile(`name: t\nbaseUrl: http://h/v1\n\tkeys: [{ key: ${SECRET}, plan: free }]\n`);
    const err = await configErrorAsync(loadTarget(file, { env: {} }));
    expect(err.message).toMatch(/line 3, column \d+/);
    expect(err.message).not.toContain(SECRET);
    expect(JSON.stringify(err.problems)).not.toContain(SECRET);
  });

  it('rejects a field written twice, naming its line', async () => {
    const file = yamlFile('name: t\nname: u\nbaseUrl: http://h/v1\nkeys: [{ key: k, plan: free }]\n');
    const err = await configErrorAsync(loadTarget(file, { env: {} }));
    expect(err.message).toMatch(/line 2, column 1: Map keys must be unique/);
  });

  it('rejects a file that is not a mapping', async () => {
    const err = await configErrorAsync(loadTarget(yamlFile('- just\n- a list\n'), { env: {} }));
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]!.field).toBe('(root)');
  });

  describe('with start:', () => {
    const startYaml = [
      'name: started',
      'baseUrl: http://127.0.0.1:${PORT}/v1',
      'keys: [{ key: k, plan: free }]',
      'start:',
      '  command: node server.js --port ${PORT}',
    ].join('\n');

    it('allocates a port and offers it as ${PORT}, over the environment PORT', async () => {
      const allocatePort = vi.fn(async () => 45678);
      const { target, port } = await loadTarget(yamlFile(startYaml), { env: { PORT: '1111' }, allocatePort });
      expect(allocatePort).toHaveBeenCalledTimes(1);
      expect(port).toBe(45678);
      expect(target.baseUrl).toBe('http://127.0.0.1:45678/v1');
      expect(target.start).toEqual({ command: 'node server.js --port 45678', readyTimeoutMs: 20000, env: {} });
    });

    it('does not change the environment object it was given', async () => {
      const env = { PORT: '1111' };
      await loadTarget(yamlFile(startYaml), { env, allocatePort: async () => 45679 });
      expect(env).toEqual({ PORT: '1111' });
    });

    it('does not allocate a port for a target without start:', async () => {
      const allocatePort = vi.fn(async () => 1);
      const file = yamlFile('name: t\nbaseUrl: http://127.0.0.1:${PORT:-4010}/v1\nkeys: [{ key: k, plan: free }]\n');
      const { target, port } = await loadTarget(file, { env: {}, allocatePort });
      expect(allocatePort).not.toHaveBeenCalled();
      expect(port).toBeUndefined();
      expect(target.baseUrl).toBe('http://127.0.0.1:4010/v1');
    });
  });
});

describe('resolveTargetFile and listTargets', () => {
  it('finds targets/local.yaml for the name local', () => {
    expect(resolveTargetFile('local')).toBe(path.join(TARGETS_DIR, 'local.yaml'));
  });

  it('lists the shipped targets', () => {
    expect(listTargets()).toEqual(expect.arrayContaining(['local', 'production', 'staging']));
  });

  it('names the known targets and suggests one for a misspelt name', () => {
    const err = configError(() => resolveTargetFile('stagin'));
    expect(err.message).toContain('unknown target "stagin" (did you mean "staging"?)');
    expect(err.message).toMatch(/use one of .*local.*production.*staging/);
    expect(err.problems).toEqual([{ field: '--target', message: 'unknown target' }]);
  });

  it('gives no suggestion for a name far from every target', () => {
    const err = configError(() => resolveTargetFile('qqqqqqqqqq'));
    expect(err.message).not.toContain('did you mean');
  });

  it('does not let a name escape targets/', () => {
    const err = configError(() => resolveTargetFile('../package'));
    expect(err.message).toContain('unknown target "../package"');
  });

  it('treats a value ending in .yaml as a path relative to cwd', () => {
    const file = yamlFile('name: t\n');
    expect(resolveTargetFile(path.basename(file), tmp)).toBe(file);
  });

  it.each(['missing.yaml', 'missing.yml'])('reports %s as a missing file', (name) => {
    const err = configError(() => resolveTargetFile(name, tmp));
    expect(err.message).toBe(`target file ${name} does not exist`);
  });
});

describe('the shipped targets', () => {
  const stagingEnv = {
    ANIMAL_STORE_STAGING_URL: 'https://staging.example.com/v1',
    ANIMAL_STORE_STAGING_FREE_KEY: 'staging-free',
    ANIMAL_STORE_STAGING_PRO_KEY: 'staging-pro',
    ANIMAL_STORE_STAGING_SPARE_KEY: 'staging-spare',
  };
  const productionEnv = { ANIMAL_STORE_PRODUCTION_URL: 'https://api.example.com/v1', ANIMAL_STORE_PRODUCTION_KEY: 'production-key' };

  it('loads local with the allocated port, short windows and a start command', async () => {
    const { target, port } = await loadTarget('local', { env: {}, allocatePort: async () => 40123 });
    expect(port).toBe(40123);
    expect(target.baseUrl).toBe('http://127.0.0.1:40123/v1');
    expect(target.start?.command).toContain('40123');
    expect(target.keys.length).toBeGreaterThan(0);
  });

  it('loads staging when its variables are given', async () => {
    const { target } = await loadTarget('staging', { env: stagingEnv });
    expect(target.baseUrl).toBe('https://staging.example.com/v1');
    expect(target.keys.map((k) => [k.label, k.env, k.disposable])).toEqual([
      ['free#1', 'ANIMAL_STORE_STAGING_FREE_KEY', false],
      ['pro#1', 'ANIMAL_STORE_STAGING_PRO_KEY', false],
      ['free#2', 'ANIMAL_STORE_STAGING_SPARE_KEY', true],
    ]);
  });

  it('names every staging variable that is missing', async () => {
    const err = await configErrorAsync(loadTarget('staging', { env: {} }));
    expect(err.problems.map((p) => p.field).sort()).toEqual(Object.keys(stagingEnv).sort());
  });

  it('loads production read-only, without load and with a small budget', async () => {
    const { target } = await loadTarget('production', { env: productionEnv });
    expect(target.allow).toEqual({ writes: false, load: false });
    expect(target.budget.maxRequests).toBeLessThanOrEqual(500);
    expect(target.keys.map((k) => [k.label, k.env])).toEqual([['free#1', 'ANIMAL_STORE_PRODUCTION_KEY']]);
  });

  it('takes the production plan from its variable', async () => {
    const { target } = await loadTarget('production', { env: { ...productionEnv, ANIMAL_STORE_PRODUCTION_PLAN: 'pro' } });
    expect(target.keys[0]).toMatchObject({ label: 'pro#1', quota: PUBLISHED_PLANS.pro });
  });

  it('names the production URL and key variables when they are missing', async () => {
    const err = await configErrorAsync(loadTarget('production', { env: {} }));
    expect(err.message).toContain('ANIMAL_STORE_PRODUCTION_URL');
    expect(err.message).toContain('ANIMAL_STORE_PRODUCTION_KEY');
    expect(err.message).not.toContain('ANIMAL_STORE_PRODUCTION_PLAN');
  });
});
