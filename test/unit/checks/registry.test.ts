// lib/checks/registry.ts: every check defined once, with a stable id, a clause, a severity and
// the suite that drives it; `--list-checks` prints exactly the registry.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineCheck, SUITE_NAMES } from '../../../lib/checks/define.ts';
import { CHECKS, type CheckId, checkById, isCheckId, listChecks } from '../../../lib/checks/registry.ts';
import { renderCheckList } from '../../../lib/cli/list-checks.ts';
import { PROJECT_ROOT } from '../../../lib/config/load-target.ts';
import { pass } from '../../../lib/checks/types.ts';

const suiteFiles = readdirSync(path.join(PROJECT_ROOT, 'suites'))
  .filter((f) => f.endsWith('.suite.ts'))
  .map((f) => f.replace(/\.suite\.ts$/, ''));

describe('the check registry', () => {
  it('holds each id once', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every check a dotted id, a clause, a title, a severity and a known suite', () => {
    for (const c of CHECKS) {
      expect(c.id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      expect(c.clause.trim()).not.toBe('');
      expect(c.title.trim()).not.toBe('');
      expect(['must', 'should', 'info']).toContain(c.severity);
      expect(SUITE_NAMES).toContain(c.suite);
      expect(typeof c.judge).toBe('function');
    }
  });

  it('has checks for every suite file, and no suite name without a file but the probe, the run and the harness', () => {
    const suites = new Set(CHECKS.map((c) => c.suite));
    for (const file of suiteFiles) expect(suites, file).toContain(file);
    for (const s of suites) expect([...suiteFiles, 'probe', 'run', 'harness']).toContain(s);
  });

  it('names only registered checks, never itself, as what explains a check\'s failure', () => {
    for (const c of CHECKS) {
      for (const root of c.explainedBy ?? []) {
        expect({ check: c.id, root, known: isCheckId(root) }).toEqual({ check: c.id, root, known: true });
        expect(root).not.toBe(c.id);
      }
    }
  });

  it('finds checks by id, and tells known ids from unknown ones', () => {
    expect(checkById('auth.missing-key')?.clause).toBe('Authentication');
    expect(checkById('auth.missing')).toBeUndefined();
    expect(isCheckId('rate-limit.quota')).toBe(true);
    expect(isCheckId('rate-limit.quotas')).toBe(false);
    expectTypeOf<'auth.missing-key'>().toExtend<CheckId>();
    expectTypeOf<'no.such-check'>().not.toExtend<CheckId>();
  });

  it('refuses an id that is not dotted and lower-case, and an empty clause', () => {
    const base = { clause: 'Errors', title: 't', severity: 'must', suite: 'run', judge: () => pass() } as const;
    expect(() => defineCheck({ ...base, id: 'NoDots' })).toThrow(/dotted lower-case id/);
    expect(() => defineCheck({ ...base, id: 'errors.Body' })).toThrow(/dotted lower-case id/);
    expect(() => defineCheck({ ...base, id: 'errors.body', clause: ' ' })).toThrow(/needs a clause/);
  });

  it('asks every should, and only a should, for the standard it rests on', () => {
    const base = { id: 'errors.body', clause: 'Errors', title: 't', suite: 'run', judge: () => pass() } as const;
    expect(() => defineCheck({ ...base, severity: 'should' })).toThrow(/a should names the standard it rests on/);
    expect(() => defineCheck({ ...base, severity: 'should', standard: ' ' })).toThrow(/a should names the standard/);
    expect(() => defineCheck({ ...base, severity: 'must', standard: 'RFC 9110' })).toThrow(/and only a should/);
    expect(defineCheck({ ...base, severity: 'should', standard: 'RFC 9110 §15.5' }).standard).toBe('RFC 9110 §15.5');
    expect(CHECKS.filter((c) => c.severity === 'should' && !/RFC \d+|interface/.test(c.standard ?? '')).map((c) => c.id)).toEqual([]);
  });
});

describe('--list-checks', () => {
  it('prints as JSON every check with id, clause, severity, suite and title, and no function', () => {
    const listed = JSON.parse(renderCheckList(true, listChecks())) as Record<string, unknown>[];
    expect(listed).toEqual(listChecks());
    expect(listed.map((c) => c.id)).toEqual(CHECKS.map((c) => c.id));
    for (const c of listed) expect(Object.keys(c).sort()).toEqual(['clause', 'id', 'severity', ...(c.severity === 'should' ? ['standard'] : []), 'suite', 'title']);
  });

  it('prints as text each id with its severity, title and clause, grouped by suite, and the count', () => {
    const text = renderCheckList(false, listChecks());
    for (const c of CHECKS) {
      expect(text).toContain(c.id);
      expect(text).toContain(`(${c.clause})`);
    }
    expect(text).toMatch(/^auth$/m);
    expect(text).toMatch(/auth\.missing-key\s+must\s+A request without Authorization gets 401/);
    expect(text).toMatch(/auth\.scheme-case-insensitive\s+should[^\n]*\n[^\n]*\n\s+rests on: RFC 9110 §11\.1/);
    expect(text).toContain(`${CHECKS.length} checks.`);
  });
});

describe("the severity rule (docs/checks.md)", () => {
  // Every must follows from a sentence of the interface, and docs/checks.md names it: a new must
  // without its row fails here, as does a row for a check that is not (or no longer) a must.
  const readme = readFileSync(path.join(PROJECT_ROOT, 'docs', 'checks.md'), 'utf8');
  const start = readme.indexOf('The `must`s and their sentences:');
  const table = readme.slice(start, readme.indexOf('\n\n', start + 40));
  const named = (id: string) => {
    const [head, ...rest] = id.split('.');
    return table.includes(`\`${id}\``) || table.includes(`\`${head}.*\``) || table.split('\n').some((row) => row.includes(`\`${head}.`) && row.includes(`\`-.${rest.join('.')}\``));
  };

  it('names the sentence of every must', () => {
    expect(start).toBeGreaterThan(0);
    expect(CHECKS.filter((c) => c.severity === 'must' && !named(c.id)).map((c) => c.id)).toEqual([]);
  });

  it('lists no check that is not a must', () => {
    const listed = [...table.matchAll(/`([a-z-]+\.[a-z0-9.-]+)`/g)].map((m) => m[1]!).filter((id) => isCheckId(id));
    expect(listed.filter((id) => checkById(id)?.severity !== 'must')).toEqual([]);
  });
});
