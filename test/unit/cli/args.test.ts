import { describe, expect, it } from 'vitest';
import { HELP, MERGE_HELP, parseCli, parseMergeCli } from '../../../lib/cli/args.ts';
import { DEFAULT_RUNS } from '../../../lib/runner/options.ts';
import { UsageError } from '../../../lib/errors.ts';

function usageError(argv: string[]): UsageError {
  try {
    parseCli(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(argv)}`);
}

describe('parseCli: defaults', () => {
  it('targets local with every switch off and nothing else set', () => {
    expect(parseCli([])).toEqual({ target: 'local', allowWrites: false, allowLoad: false, strict: false, soak: false, quiet: false, help: false, version: false, listChecks: false, json: false });
  });

  it('runs 20 cases per property by default (applied by the runner)', () => {
    expect(DEFAULT_RUNS).toBe(20);
  });
});

describe('parseCli: options', () => {
  it('reads every option at once', () => {
    const argv = [
      '--target', 'staging',
      '--report-dir', 'out/reports',
      '--suite', 'auth',
      '--seed', '42',
      '--runs', '7',
      '--allow-writes',
      '--allow-load',
      '--max-requests', '300',
      '--strict',
      '--soak',
      '--quiet',
      '--help',
      '--version',
      '--list-checks',
      '--json',
      '--expected-failures', 'known.yaml',
    ];
    expect(parseCli(argv)).toEqual({
      target: 'staging',
      reportDir: 'out/reports',
      suites: ['auth'],
      seed: 42,
      runs: 7,
      maxRequests: 300,
      allowWrites: true,
      allowLoad: true,
      strict: true,
      soak: true,
      quiet: true,
      help: true,
      version: true,
      listChecks: true,
      json: true,
      expectedFailures: 'known.yaml',
    });
  });

  it('takes --json only with --list-checks', () => {
    expect(() => parseCli(['--json'])).toThrow(/--json goes with --list-checks/);
  });

  it('accepts --name=value and -h', () => {
    expect(parseCli(['--target=targets/mine.yaml', '--seed=0', '-h'])).toMatchObject({ target: 'targets/mine.yaml', seed: 0, help: true });
  });

  it.each([
    ['repeated', ['--suite', 'auth', '--suite', 'list-pets'], ['auth', 'list-pets']],
    ['comma-separated', ['--suite', 'auth,list-pets'], ['auth', 'list-pets']],
    ['mixed, with spaces and empty items', ['--suite', 'auth, rate-limits,', '--suite', 'list-pets'], ['auth', 'rate-limits', 'list-pets']],
    ['followed by bare names', ['--suite', 'auth', 'list-pets', 'create-pet'], ['auth', 'list-pets', 'create-pet']],
  ])('collects --suite %s', (_name, argv, suites) => {
    expect(parseCli(argv).suites).toEqual(suites);
  });

  it.each([
    ['--seed', '0', 'seed', 0],
    ['--seed', '4294967295', 'seed', 4294967295],
    ['--runs', '1', 'runs', 1],
    ['--max-requests', '100000000', 'maxRequests', 100000000],
  ] as const)('accepts %s %s at the edge of its range', (option, value, field, expected) => {
    expect(parseCli([option, value])[field]).toBe(expected);
  });
});

describe('parseCli: usage errors name the option', () => {
  it.each([
    ['--seed', 'abc', '--seed takes a whole number, not "abc"'],
    ['--seed', '-1', '--seed takes a whole number, not "-1"'],
    ['--seed', '1.5', '--seed takes a whole number, not "1.5"'],
    ['--seed', '1e3', '--seed takes a whole number, not "1e3"'],
    ['--seed', '4294967296', '--seed must be between 0 and 4294967295, not 4294967296'],
    ['--runs', '0', '--runs must be between 1 and 100000, not 0'],
    ['--runs', 'many', '--runs takes a whole number, not "many"'],
    ['--max-requests', '0', '--max-requests must be between 1 and 100000000, not 0'],
    ['--max-requests', '', '--max-requests takes a whole number, not ""'],
  ])('rejects %s %j', (option, value, message) => {
    const err = usageError([`${option}=${value}`]);
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(2);
  });

  it.each([
    ['--seeed', 'unknown option --seeed (did you mean "--seed"?)'],
    ['--sute', 'unknown option --sute (did you mean "--suite"?)'],
    ['--allow-write', 'unknown option --allow-write (did you mean "--allow-writes"?)'],
    ['--frobnicate', 'unknown option --frobnicate'],
    ['-x', 'unknown option -x'],
  ])('rejects the unknown option %s', (option, message) => {
    expect(usageError([option]).message).toBe(message);
  });

  it('rejects a stray positional argument', () => {
    expect(usageError(['staging']).message).toBe('unexpected argument "staging" (options start with --; see --help)');
  });

  it('rejects an option that needs a value and has none', () => {
    expect(usageError(['--target']).message).toMatch(/--target/);
  });

  it('rejects a value given to a switch', () => {
    expect(usageError(['--strict=yes']).message).toMatch(/--strict/);
  });

  it.each([
    ['--target', '--target is empty'],
    ['--report-dir', '--report-dir is empty'],
  ])('rejects an empty %s', (option, message) => {
    expect(usageError([`${option}=  `]).message).toBe(message);
  });
});

describe('HELP', () => {
  it('documents every option parseCli accepts', () => {
    for (const option of ['--target', '--report-dir', '--suite', '--seed', '--runs', '--allow-writes', '--allow-load', '--max-requests', '--strict', '--soak', '--quiet', '--help', '--load-segment', '--start-at', 'merge DIR', '--suite load', '--load-rate', '--load-windows']) {
      expect(HELP).toContain(option);
    }
  });
});

describe('--load-segment and --start-at', () => {
  const NOW = Date.UTC(2026, 10, 24, 18, 0, 0);
  const parse = (argv: string[]) => parseCli(argv, NOW);
  it('read this runner\'s number, the count and the agreed start', () => {
    expect(parse(['--load-segment', '2/4', '--start-at', '2026-11-24T18:03:00Z']).segment).toEqual({ index: 2, count: 4, startAt: NOW + 180_000 });
  });
  it('go together', () => {
    expect(() => parse(['--load-segment', '1/2'])).toThrow('--load-segment needs --start-at');
    expect(() => parse(['--start-at', '2026-11-24T18:03:00Z'])).toThrow('--start-at goes with --load-segment');
  });
  it('name what is wrong with a value', () => {
    expect(() => parse(['--load-segment', '3/2', '--start-at', '2026-11-24T18:03:00Z'])).toThrow('I must be between 1 and N (2)');
    expect(() => parse(['--load-segment', '1/2', '--start-at', '2026-11-24T17:00:00Z'])).toThrow('in the past');
  });
});

describe('--load-rate and --load-windows', () => {
  it('set the paced load of the load suite', () => {
    expect(parseCli(['--suite', 'load', '--load-rate', '0.5', '--load-windows', '3']).pace).toEqual({ fraction: 0.5, windows: 3 });
    expect(parseCli(['--suite', 'auth,load', '--load-rate', '1']).pace).toEqual({ fraction: 1 });
    expect(parseCli(['--suite', 'load', '--load-windows', '1']).pace).toEqual({ windows: 1 });
    expect(parseCli(['--suite', 'load']).pace).toBeUndefined();
  });
  it('need the load suite named, which runs only then', () => {
    expect(() => parseCli(['--load-rate', '0.5'])).toThrow('--load-rate sets the paced load of the load suite, which runs only when named: add --suite load');
    expect(() => parseCli(['--suite', 'rate-limit', '--load-windows', '2'])).toThrow('add --suite load');
  });
  it.each([['0'], ['1.5'], ['-0.5'], ['90%'], ['abc'], ['']])('refuse --load-rate %j, naming the range', (value) => {
    expect(() => parseCli(['--suite', 'load', `--load-rate=${value}`])).toThrow("--load-rate takes a fraction of each plan's per-minute quota, more than 0 and at most 1 (e.g. 0.9)");
  });
  it('refuse a --load-windows out of range, and either with --replay', () => {
    expect(() => parseCli(['--suite', 'load', '--load-windows', '0'])).toThrow('--load-windows must be between 1 and 60, not 0');
    expect(() => parseCli(['--replay', 'r.json', '--check', 'load.pacing', '--load-rate', '0.5'])).toThrow('--load-rate does not go with --replay');
  });
});

describe('merge', () => {
  it('takes the segments\' directories and the options of a merge', () => {
    expect(parseMergeCli(['a', 'b', '--report-dir', 'out', '--quiet'])).toEqual({ dirs: ['a', 'b'], reportDir: 'out', quiet: true, help: false });
  });
  it('needs at least one directory, and refuses options of a run', () => {
    expect(() => parseMergeCli(['--report-dir', 'out'])).toThrow('merge needs the report directories');
    expect(() => parseMergeCli(['a', '--seed', '1'])).toThrow(UsageError);
  });
  it('has its own help', () => {
    expect(parseMergeCli(['--help']).help).toBe(true);
    expect(MERGE_HELP).toContain('--expected-failures');
  });
});
