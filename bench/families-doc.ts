// Writes docs/checks.md's account of the server families (targets/reference/families.ts
// familiesMarkdown) between its markers. Run after changing a family, an axis or a must:
//   npm run docs:families
// test/reference/families.test.ts fails while the file and the families disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { FAMILIES_DOC_MARKERS, familiesMarkdown } from '../targets/reference/families.ts';

const file = path.join(PROJECT_ROOT, 'docs', 'checks.md');
const text = readFileSync(file, 'utf8');
const [open, close] = FAMILIES_DOC_MARKERS;
const from = text.indexOf(open);
const to = text.indexOf(close);
if (from < 0 || to < from) {
  process.stderr.write(`docs:families: ${path.relative(PROJECT_ROOT, file)} has no "${open}" … "${close}" block to write into\n`);
  process.exit(2);
}
writeFileSync(file, `${text.slice(0, from + open.length)}\n${familiesMarkdown()}\n${text.slice(to)}`);
process.stdout.write(`docs:families: wrote ${path.relative(PROJECT_ROOT, file)}\n`);
