// The floors of the source tree, as docs/how-it-works.md writes them down ("Floors"), and every import that
// breaks them. A folder of lib/, suites/ or targets/ imports only folders on lower floors (a folder
// holds its subfolders: lib/generators/_internals is lib/generators); no source file imports
// itself through others. Type-only imports count: a type from a floor above is a dependency on it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Source folders whose files must keep to the floors. */
export const LAYERED_ROOTS = ['lib', 'suites', 'targets'] as const;

export interface Import {
  from: string;
  to: string;
}

/** The floors block of docs/how-it-works.md: lines `N  folder, folder  what they hold` between `<!-- floors -->` and `<!-- /floors -->`. */
export function parseFloors(readme: string): Map<string, number> {
  const block = /<!-- floors -->([\s\S]*?)<!-- \/floors -->/.exec(readme)?.[1];
  if (block === undefined) throw new Error('docs/how-it-works.md has no <!-- floors --> block');
  const floors = new Map<string, number>();
  for (const line of block.split('\n')) {
    // `N  folder, folder  what they hold`: columns apart by two spaces or more.
    const [floor, folders] = line.trim().split(/\s{2,}/);
    if (!/^\d+$/.test(floor ?? '') || folders === undefined) continue;
    for (const folder of folders.split(/,\s*/)) floors.set(folder.replace(/\/$/, ''), Number(floor));
  }
  return floors;
}

/** The floor's unit a file belongs to: the longest folder of `floors` that holds it. */
export function unitOf(file: string, floors: ReadonlyMap<string, number>): string | undefined {
  let best: string | undefined;
  for (const folder of floors.keys()) {
    const holds = folder === 'lib' ? path.posix.dirname(file) === 'lib' : file.startsWith(`${folder}/`);
    if (holds && (best === undefined || folder.length > best.length)) best = folder;
  }
  return best;
}

/** Every relative import (static, dynamic, type-only, re-export) of every .ts file under `roots`, resolved to project paths. */
export function importsOf(projectRoot: string, roots: readonly string[]): { files: string[]; imports: Import[] } {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(projectRoot, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts')) files.push(rel);
    }
  };
  for (const root of roots) walk(root);
  const imports: Import[] = [];
  for (const from of files) {
    const info = ts.preProcessFile(readFileSync(path.join(projectRoot, from), 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      imports.push({ from, to: path.posix.normalize(path.posix.join(path.posix.dirname(from), fileName)) });
    }
  }
  return { files, imports };
}

/** Imports that run upwards or sideways (to another folder of the same floor), or leave the floors. */
export function upwardImports(imports: readonly Import[], floors: ReadonlyMap<string, number>): string[] {
  const found: string[] = [];
  for (const { from, to } of imports) {
    const a = unitOf(from, floors);
    const b = unitOf(to, floors);
    if (a === undefined) {
      found.push(`${from}: its folder has no floor`);
      continue;
    }
    if (b === undefined) {
      found.push(`${from} imports ${to}, which is on no floor`);
      continue;
    }
    if (a === b) continue;
    const fa = floors.get(a) as number;
    const fb = floors.get(b) as number;
    if (fb >= fa) found.push(`${from} (${a}, floor ${fa}) imports ${to} (${b}, floor ${fb})`);
  }
  return found;
}

/** Every cycle of imports among the files (Tarjan's strongly connected components of more than one file, or a file importing itself). */
export function importCycles(imports: readonly Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of imports) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
