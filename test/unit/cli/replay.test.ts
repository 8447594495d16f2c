// lib/cli/replay.ts, its pure parts: which report, which check, what to run again, what it says.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planReplay, readReportFile, replayVerdict } from '../../../lib/cli/replay.ts';
import { UsageError } from '../../../lib/errors.ts';
import { check, exchange, evidence, report } from '../report/fixture.ts';

const SUITES = ['auth', 'create-pet', 'get-pet', 'list-pets', 'rate-limit'];

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('no UsageError');
}

describe('readReportFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'replay-'));
  it('names a missing file, a file that is not JSON and a JSON that is not a report', () => {
    expect(usage(() => readReportFile(path.join(dir, 'none.json')))).toContain('no such file');
    writeFileSync(path.join(dir, 'text.json'), 'not json');
    expect(usage(() => readReportFile(path.join(dir, 'text.json')))).toContain('not JSON');
    writeFileSync(path.join(dir, 'other.json'), '{"checks": []}');
    expect(usage(() => readReportFile(path.join(dir, 'other.json')))).toMatch(/not a report\.json of this harness \(schemaVersion/);
  });

  it('reads a report', () => {
    const file = path.join(dir, 'report.json');
    writeFileSync(file, JSON.stringify(report([check({ id: 'get-pet.not-found', outcome: 'fail' })])));
    expect(readReportFile(file).checks[0]!.id).toBe('get-pet.not-found');
  });
});

describe('planReplay', () => {
  const r = report(
    [
      check({ id: 'get-pet.not-found', suite: 'get-pet', outcome: 'fail' }),
      check({ id: 'auth.missing-key', suite: 'auth', outcome: 'pass' }),
      check({ id: 'responses.no-5xx', suite: 'run', outcome: 'fail', evidence: evidence({ exchanges: [exchange({ suite: 'create-pet' }), exchange({ suite: 'list-pets' }), exchange({ suite: 'create-pet' })] }) }),
      check({ id: 'harness.suite-error', suite: 'harness', outcome: 'error' }),
    ],
    { seed: 99, options: { suites: ['auth', 'get-pet'], runs: 7, strict: true, allowWrites: true, allowLoad: false, soak: false, maxRequests: 100 } },
  );

  it('runs a suite check alone in its suite, with the seed, runs and strictness of the report', () => {
    expect(planReplay(r, 'get-pet.not-found', 'r.json', SUITES)).toMatchObject({ id: 'get-pet.not-found', suites: ['get-pet'], onlyCheck: 'get-pet.not-found', seed: 99, runs: 7, strict: true });
  });

  it('runs the suites a run-level check blamed, whole', () => {
    const plan = planReplay(r, 'responses.no-5xx', 'r.json', SUITES);
    expect(plan.suites).toEqual(['create-pet', 'list-pets']);
    expect(plan.onlyCheck).toBeUndefined();
  });

  it.each([
    { title: 'an unknown check, with a suggestion', id: 'get-pet.not-fond', says: ['unknown check "get-pet.not-fond"', 'get-pet.not-found'] },
    { title: 'a check the report does not hold', id: 'list-pets.limit', says: ['not in r.json', 'auth, get-pet'] },
    { title: 'a check that did not fail', id: 'auth.missing-key', says: ['did not fail in r.json (pass)', 'nothing to replay'] },
    { title: 'a check of the harness itself', id: 'harness.suite-error', says: ["the harness's own run"] },
  ])('refuses $title', ({ id, says }) => {
    const message = usage(() => planReplay(r, id, 'r.json', SUITES));
    for (const s of says) expect(message).toContain(s);
  });
});

describe('replayVerdict', () => {
  it('still fails (1), passes now (0), or cannot tell (1; 3 when unreachable)', () => {
    expect(replayVerdict('x.y', [check({ id: 'x.y', outcome: 'pass' }), check({ id: 'x.y', outcome: 'fail' })], false)).toMatchObject({ kind: 'still-fails', exitCode: 1, line: 'STILL FAILS x.y: 1 of 2 results failing' });
    expect(replayVerdict('x.y', [check({ id: 'x.y', outcome: 'error' })], false)).toMatchObject({ kind: 'still-fails', exitCode: 1 });
    expect(replayVerdict('x.y', [check({ id: 'x.y', outcome: 'pass' }), check({ id: 'x.y', outcome: 'skip' })], false)).toMatchObject({ kind: 'passes-now', exitCode: 0, line: 'PASSES NOW x.y: 2 results, none failing' });
    expect(replayVerdict('x.y', [check({ id: 'x.y', outcome: 'skip', message: 'writes are not allowed' })], false)).toMatchObject({ kind: 'not-judged', exitCode: 1, line: 'NOT JUDGED x.y: writes are not allowed' });
    expect(replayVerdict('x.y', [], false)).toMatchObject({ kind: 'not-judged', exitCode: 1 });
    expect(replayVerdict('x.y', [], true)).toMatchObject({ kind: 'not-judged', exitCode: 3 });
  });
});
