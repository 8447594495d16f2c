// The documents travel with the harness: every relative link of the README and docs/ resolves
// inside the repository, every check's clause names a section of the interface's text
// (docs/interface.md), and every sentence docs/checks.md quotes for a must is in it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../lib/checks/registry.ts';
import { PROJECT_ROOT } from '../../lib/config/load-target.ts';

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
const DOCS = ['README.md', 'targets/reference/README.md', ...readdirSync(path.join(PROJECT_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const INTERFACE = read('docs/interface.md');

/** Text compared as a reader sees it: table pipes and escapes gone, whitespace collapsed. */
const plain = (text: string) => text.replace(/\\\|/g, '|').replace(/\|/g, ' ').replace(/\s+/g, ' ').trim();

describe('the documents', () => {
  it('link only to files that exist in the repository', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      for (const [, target] of read(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
        const file = target!.split('#')[0]!;
        if (!existsSync(path.join(PROJECT_ROOT, path.dirname(doc), decodeURI(file)))) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(read('README.md')).toContain('](docs/interface.md)');
  });

  it("name, in every check's clause, sections of the interface's text (the harness's own checks aside)", () => {
    const headings = [...INTERFACE.matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1]!);
    const unknown = CHECKS.filter((c) => c.suite !== 'harness').flatMap((c) => c.clause.split(' / ').filter((part) => !headings.some((h) => h.startsWith(part))).map((part) => `${c.id}: "${part}"`));
    expect(unknown).toEqual([]);
  });

  it("quote, for every must in docs/checks.md, sentences the interface's text contains", () => {
    const checks = read('docs/checks.md');
    const start = checks.indexOf('The `must`s and their sentences:');
    const table = checks.slice(start, checks.indexOf('\n\n', start + 40));
    const quoted = [...table.matchAll(/"([^"]+)"/g)].flatMap((m) => m[1]!.split('…')).map(plain).filter((q) => q.length > 3);
    expect(quoted.length).toBeGreaterThan(20);
    expect(quoted.filter((q) => !plain(INTERFACE).includes(q))).toEqual([]);
  });
});
