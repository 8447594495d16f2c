// `npm run build` (also run by `prepack`, so by `npm pack`): the harness as plain
// JavaScript in dist/, for the installed `animal-store-conformance` command. tsc compiles lib/,
// suites/ and targets/ (tsconfig.build.json); then the files the built harness reads at run time
// besides its code (target configs, the reference server's configs, the report's JSON Schema) are
// copied beside it, and the list of checks is written for a quick `--list-checks`.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ASSETS = /\.(ya?ml|json)$/;

function copy(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    if (entry.isDirectory()) copy(from);
    else if (ASSETS.test(entry.name)) cpSync(from, path.join('dist', from));
  }
}

rmSync('dist', { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
for (const dir of ['targets', 'lib']) copy(dir);

const { listChecks } = await import(pathToFileURL(path.resolve('dist/lib/checks/registry.js')).href);
writeFileSync('dist/lib/cli/checks.json', `${JSON.stringify(listChecks(), null, 2)}\n`);
