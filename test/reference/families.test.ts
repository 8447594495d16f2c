// The reference's legal variations as families (targets/reference/families.ts): each on exactly one
// axis, servers composed by seed alone, and a named server checked before it is run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../lib/checks/registry.ts';
import { PROJECT_ROOT } from '../../lib/config/load-target.ts';
import { SERVER_FAMILIES, SERVER_FAMILY_IDS } from '../../lib/checks/server-families.ts';
import { axisOf, combinationOf, composeServers, describeCombination, FAMILIES_DOC_MARKERS, FAMILY_AXES, familiesMarkdown, ONLY_ON_THE_CLOCK, onSockets, onTheClock, reproduceCommand, variationsOf } from '../../targets/reference/families.ts';
import { VARIATION_IDS, WIRE_VARIATIONS } from '../../targets/reference/variations.ts';

describe('server families', () => {
  it('put every legal variation on exactly one axis of one family, and every family has a clause', () => {
    const onAxes = SERVER_FAMILY_IDS.flatMap((f) => FAMILY_AXES[f].flatMap((a) => a.alternatives));
    expect([...onAxes].sort()).toEqual([...VARIATION_IDS].sort());
    expect(new Set(onAxes).size).toBe(onAxes.length);
    for (const f of SERVER_FAMILIES) expect(f.clause.length).toBeGreaterThan(40);
    expect(axisOf('chunked-bodies')).toEqual({ family: 'http', axis: expect.objectContaining({ name: 'framing', alternatives: ['chunked-bodies', 'close-delimited'] }) });
  });

  it('compose servers from the seed alone, each of at least three families and one alternative an axis', () => {
    const a = composeServers({ seed: 11, count: 50 });
    expect(composeServers({ seed: 11, count: 50 })).toEqual(a);
    expect(composeServers({ seed: 12, count: 50 })).not.toEqual(a);
    for (const c of a) {
      expect(c.members.length).toBeGreaterThanOrEqual(3);
      expect(new Set(c.members.map((m) => m.family)).size).toBe(c.members.length);
      for (const m of c.members) {
        expect(m.variations.length).toBeGreaterThan(0);
        const axes = m.variations.map((v) => axisOf(v)!);
        expect(axes.every((x) => x.family === m.family)).toBe(true);
        expect(new Set(axes.map((x) => x.axis.name)).size).toBe(axes.length);
      }
    }
    // Over enough servers every family and every variation is met.
    const many = composeServers({ seed: 1, count: 200 });
    expect(new Set(many.flatMap((c) => c.members.map((m) => m.family))).size).toBe(SERVER_FAMILY_IDS.length);
    expect(new Set(many.flatMap(variationsOf)).size).toBe(VARIATION_IDS.length);
    expect(composeServers({ seed: 1, count: 20, minFamilies: 8 }).every((c) => c.members.length === 8)).toBe(true);
  });

  it('split a server between the sockets (no answer held for long) and the virtual clock (no wire)', () => {
    const vs = ['chunked-bodies', 'far-away', 'sliding-log', 'pet-extra-members'] as const;
    expect(onSockets(vs)).toEqual(['chunked-bodies', 'sliding-log', 'pet-extra-members']);
    expect(onTheClock(vs)).toEqual(['far-away', 'sliding-log', 'pet-extra-members']);
    expect(ONLY_ON_THE_CLOCK.some((v) => WIRE_VARIATIONS.includes(v))).toBe(false);
  });

  it('read a named server back from the line that reproduces it, and refuse what no server is', () => {
    const [c] = composeServers({ seed: 5, count: 1 });
    const line = reproduceCommand(c!);
    expect(line).toMatch(/^npm run verify:legal -- --variations [a-z0-9^,-]+$/);
    const again = combinationOf(line.split('--variations ')[1]!.split(','));
    expect('error' in again ? again : variationsOf(again)).toEqual(variationsOf(c!));
    expect('error' in again ? '' : describeCombination(again)).toBe(describeCombination(c!));
    expect(combinationOf(['no-such-variation'])).toEqual({ error: expect.stringMatching(/"no-such-variation" is not a legal variation/) });
    expect(combinationOf(['chunked-bodies', 'close-delimited'])).toEqual({ error: expect.stringMatching(/alternatives of one axis \(http: framing\)/) });
  });
});

describe('the families in docs/checks.md', () => {
  it('are as the families and the musts say (npm run docs:families writes them)', () => {
    const text = readFileSync(path.join(PROJECT_ROOT, 'docs', 'checks.md'), 'utf8');
    const [open, close] = FAMILIES_DOC_MARKERS;
    expect(text.slice(text.indexOf(open) + open.length, text.indexOf(close)).trim()).toBe(familiesMarkdown());
  });

  it('name, for every must, the families it was judged against or why none', () => {
    const doc = familiesMarkdown();
    for (const c of CHECKS.filter((x) => x.severity === 'must')) {
      expect(doc).toContain(`\`${c.id}\``);
      expect(c.judgedAgainst).toBeDefined();
    }
    for (const c of CHECKS.filter((x) => x.severity !== 'must')) expect(c.judgedAgainst).toBeUndefined();
  });
});
