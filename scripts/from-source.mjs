#!/usr/bin/env node
// `npm run conformance` and `npm run serve`: the harness run from this repository's TypeScript as
// plain JavaScript, the way the installed command runs its build. esbuild bundles lib/cli/main.ts
// (with the reference server its `serve` starts) in well under a second, the bundle is kept in
// node_modules/.cache/animal-store-conformance/ under a name taken from its content, and this
// process imports it. No loader hooks at run time: tsx's take a thread of their own and some
// 30 MiB in each process (the harness, and the reference server it starts), which a full local run
// could not afford within its memory bound.
//
// Packages stay outside the bundle (imported from node_modules as usual), and each module keeps
// its own import.meta.url, so the harness finds its files (suites/, targets/, report.schema.json)
// where they are. Type errors are `npm run typecheck`'s business, not this script's.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'animal-store-conformance');
/** Bundles of sources since changed are removed once they are this old (another process may still be starting from one). */
const STALE_MS = 60 * 60 * 1000;

/** Each module's import.meta.url stays its own source file's URL, as under tsx. */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => ({
      contents: (await readFile(file, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href)),
      loader: 'ts',
    }));
  },
};

async function bundle() {
  try {
    const { outputFiles } = await build({
      entryPoints: [path.join(ROOT, 'lib', 'cli', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      outfile: path.join(CACHE, 'main.mjs'),
      plugins: [keepModuleUrls],
      logLevel: 'silent',
    });
    return outputFiles[0].contents;
  } catch (err) {
    // A syntax error in the sources, say: esbuild's own messages name the file and line.
    const messages = err?.errors?.map((e) => `${e.location ? `${path.relative(ROOT, e.location.file)}:${e.location.line}:${e.location.column}: ` : ''}${e.text}`);
    process.stderr.write(`internal error: the harness's sources could not be bundled:\n${messages?.join('\n') ?? String(err)}\n`);
    process.exit(70);
  } finally {
    // esbuild's service process would otherwise live (and hold its memory) as long as this one.
    await stop();
  }
}

/** The bundle's file, written once per content (atomically: other processes may be starting too). */
function store(code) {
  const name = `main-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const file = path.join(CACHE, name);
  if (!existsSync(file)) {
    mkdirSync(CACHE, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, file);
  }
  for (const other of readdirSync(CACHE)) {
    if (other === name || !/^main-.*\.mjs$/.test(other)) continue;
    const old = path.join(CACHE, other);
    try {
      if (Date.now() - statSync(old).mtimeMs > STALE_MS) rmSync(old, { force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
  return file;
}

await import(pathToFileURL(store(await bundle())).href);
