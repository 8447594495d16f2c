// The floors of the source tree (docs/how-it-works.md, "Floors"): no folder imports one on its floor or above, and
// no source file imports itself through others. The rule is read from that page, so the written
// layering and the enforced one are the same text.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/paths.ts';
import { importCycles, importsOf, LAYERED_ROOTS, parseFloors, upwardImports } from '../support/floors.ts';

const floors = parseFloors(readFileSync(path.join(PROJECT_ROOT, 'docs', 'how-it-works.md'), 'utf8'));
const { files, imports } = importsOf(PROJECT_ROOT, LAYERED_ROOTS);

describe('the floors of the source tree', () => {
  it('are written down for every folder with source files', () => {
    expect(floors.get('lib')).toBe(0);
    expect(files.length).toBeGreaterThan(100);
    expect(upwardImports(files.map((from) => ({ from, to: from })), floors)).toEqual([]);
  });

  it('hold: no folder imports one on its own floor or above', () => {
    expect(upwardImports(imports, floors)).toEqual([]);
  });

  it('leave no cycle of imports among the source files', () => {
    expect(importCycles(imports)).toEqual([]);
  });
});

describe('the guard itself', () => {
  const sample = parseFloors('<!-- floors -->\nfloor  folders  what\n2      lib/checks, lib/report  checks\n1      lib/result  records\n0      lib  words\n<!-- /floors -->');

  it('reads the floors block', () => {
    expect([...sample]).toEqual([['lib/checks', 2], ['lib/report', 2], ['lib/result', 1], ['lib', 0]]);
  });

  it('fails an import that runs upward, or sideways to a folder of the same floor', () => {
    expect(upwardImports([{ from: 'lib/result/model.ts', to: 'lib/checks/define.ts' }], sample)).toEqual([
      'lib/result/model.ts (lib/result, floor 1) imports lib/checks/define.ts (lib/checks, floor 2)',
    ]);
    expect(upwardImports([{ from: 'lib/report/html.ts', to: 'lib/checks/define.ts' }], sample)).toHaveLength(1);
    expect(upwardImports([{ from: 'lib/checks/define.ts', to: 'lib/result/model.ts' }, { from: 'lib/result/model.ts', to: 'lib/json.ts' }], sample)).toEqual([]);
  });

  it('fails a folder that has no floor, and a file of the root lib/ is lib, not a subfolder', () => {
    expect(upwardImports([{ from: 'lib/new-folder/a.ts', to: 'lib/json.ts' }], sample)).toEqual(['lib/new-folder/a.ts: its folder has no floor']);
    expect(upwardImports([{ from: 'lib/json.ts', to: 'lib/result/model.ts' }], sample)).toHaveLength(1);
  });

  it('finds a cycle through type-only imports as well', () => {
    expect(importCycles([{ from: 'a.ts', to: 'b.ts' }, { from: 'b.ts', to: 'c.ts' }, { from: 'c.ts', to: 'a.ts' }, { from: 'c.ts', to: 'd.ts' }])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(importCycles([{ from: 'a.ts', to: 'b.ts' }])).toEqual([]);
  });
});
