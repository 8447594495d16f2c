// `diff BASE HEAD` on the command line: its arguments, reading the two reports (a file or its
// folder), what it refuses (exit 2, naming the file or both schema versions), its exit status and
// where its output goes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIFF_HELP, parseDiffCli, runDiff } from '../../../lib/cli/diff.ts';
import { EXIT, UsageError } from '../../../lib/errors.ts';
import { check, report } from '../report/fixture.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'animal-store-diff-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'report.json'), typeof value === 'string' ? value : JSON.stringify(value));
  return folder;
}

const BASE = write('base', report([check({ id: 'auth.missing-key', subject: 'GET /pets' }), check({ id: 'x.should', severity: 'should' })]));
const HEAD = write('head', report([check({ id: 'auth.missing-key', subject: 'GET /pets', outcome: 'fail', code: 'not-401' }), check({ id: 'x.should', severity: 'should' })]));
const SHOULD_ONLY = write('should-only', report([check({ id: 'auth.missing-key', subject: 'GET /pets' }), check({ id: 'x.should', severity: 'should', outcome: 'fail' })]));

function run(argv: string[]): { code: number; out: string } {
  let out = '';
  const code = runDiff(argv, { write: (t) => (out += t), isTTY: false, noColor: true });
  return { code, out };
}

const usage = (argv: string[]) => {
  try {
    run(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(EXIT.usage);
    return (err as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

describe('parseDiffCli', () => {
  it('takes BASE and HEAD; text to the standard output and new-must by default', () => {
    expect(parseDiffCli(['a', 'b'])).toEqual({ base: 'a', head: 'b', format: 'text', failOn: 'new-must', help: false });
    expect(parseDiffCli(['a', 'b', '--format', 'markdown', '--out', 'd.md', '--fail-on', 'changed'])).toMatchObject({ format: 'markdown', out: 'd.md', failOn: 'changed' });
    expect(parseDiffCli(['--help'])).toMatchObject({ help: true });
  });

  it('refuses anything else, saying what it takes', () => {
    expect(() => parseDiffCli(['a'])).toThrow('diff takes two reports, BASE and HEAD (each a report.json or the folder holding one): diff BASE HEAD');
    expect(() => parseDiffCli(['a', 'b', 'c'])).toThrow(/, not 3: diff BASE HEAD/);
    expect(() => parseDiffCli(['a', 'b', '--format', 'htm'])).toThrow('--format takes text, markdown, html, json, not "htm" (did you mean "html"?)');
    expect(() => parseDiffCli(['a', 'b', '--fail-on', 'must'])).toThrow(/--fail-on takes new-must, new-should, new-any, changed, not "must"/);
    expect(() => parseDiffCli(['a', 'b', '--formt', 'json'])).toThrow(/diff: unknown option --formt \(did you mean "--format"\?\)/);
    expect(() => parseDiffCli(['a', 'b', '--out', ' '])).toThrow('--out is empty');
  });
});

describe('runDiff', () => {
  it('--help prints the usage, with the formats and every --fail-on', () => {
    const { code, out } = run(['--help']);
    expect(code).toBe(0);
    expect(out).toBe(DIFF_HELP);
    for (const word of ['--format', 'markdown', 'html', 'json', '--out', 'new-must', 'new-should', 'new-any', 'changed', 'Exit status']) expect(out).toContain(word);
  });

  it('exit 1 when a must check newly fails, 0 the other way round (it is fixed)', () => {
    const forward = run([BASE, HEAD]);
    expect(forward.code).toBe(1);
    expect(forward.out.split('\n')[0]).toBe('1 new failure, 0 fixed, 0 still failing');
    const back = run([path.join(HEAD, 'report.json'), path.join(BASE, 'report.json')]);
    expect(back.code).toBe(0);
    expect(back.out.split('\n')[0]).toBe('0 new failures, 1 fixed, 0 still failing');
  });

  it('--fail-on: a new should failure fails only from new-should on; a fix only with changed', () => {
    expect(run([BASE, SHOULD_ONLY]).code).toBe(0);
    expect(run([BASE, SHOULD_ONLY, '--fail-on', 'new-should']).code).toBe(1);
    expect(run([HEAD, BASE, '--fail-on', 'new-any']).code).toBe(0);
    expect(run([HEAD, BASE, '--fail-on', 'changed']).code).toBe(1);
    expect(run([BASE, BASE, '--fail-on', 'changed']).code).toBe(0);
  });

  it('--out writes the rendering there, and prints the verdict line only; json holds the diff and its exit status', () => {
    const out = path.join(dir, 'out', 'nested', 'diff.json');
    const { code, out: printed } = run([BASE, HEAD, '--format', 'json', '--out', out]);
    expect(code).toBe(1);
    expect(printed).toBe(`1 new failure, 0 fixed, 0 still failing (json written to ${out})\n`);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(json).toMatchObject({ failOn: 'new-must', exitCode: 1, newFailures: [{ root: { id: 'auth.missing-key', subject: 'GET /pets' }, blocks: true }] });
    const md = run([BASE, HEAD, '--format', 'markdown']).out;
    expect(md.split('\n')[0]).toBe('## ❌ 1 new failure, 0 fixed, 0 still failing');
    expect(run([BASE, HEAD, '--format', 'html']).out).toMatch(/^<!DOCTYPE html>/);
  });

  it('a report that is missing, not JSON or not a report is a usage error naming it', () => {
    const missing = path.join(dir, 'nowhere', 'report.json');
    expect(usage([missing, HEAD])).toBe(`BASE ${missing}: no such file or folder`);
    const empty = path.join(dir, 'empty');
    mkdirSync(empty, { recursive: true });
    expect(usage([BASE, empty])).toBe(`HEAD ${empty}: no report.json in that folder (give a run's --report-dir, or its report.json)`);
    const notJson = write('not-json', '<html>');
    expect(usage([BASE, notJson])).toMatch(new RegExp(`^HEAD ${path.join(notJson, 'report.json')}: not JSON`));
    const other = write('other', { hello: 'world' });
    expect(usage([other, HEAD])).toBe(`BASE ${path.join(other, 'report.json')}: not a report.json of this harness (no schemaVersion)`);
    const broken = write('broken', { ...report([]), checks: 'none' });
    expect(usage([BASE, broken])).toMatch(/^HEAD .*: not a report\.json of this harness \(checks: /);
  });

  it('reports of incompatible schema versions are refused (exit 2), both versions named; a later minor version is read', () => {
    const future = write('future', { ...report([]), schemaVersion: '2.0.0' });
    expect(usage([BASE, future])).toBe(`the reports' schema versions are incompatible: BASE 1.0.0, HEAD 2.0.0 (a diff compares reports of one major schema version): ${path.join(BASE, 'report.json')}, ${path.join(future, 'report.json')}`);
    const minor = write('minor', { ...report([check({ id: 'auth.missing-key', subject: 'GET /pets' })]), schemaVersion: '1.1.0', somethingNew: true });
    const { code, out } = run([minor, HEAD]);
    expect(code).toBe(1);
    expect(out).toContain('report schema');
  });
});
