// Where the harness's own files are, run from this repository (TypeScript through tsx) or
// installed as a package (plain JavaScript built into dist/). Node built-ins only: `--help` and
// `--version` load this and nothing heavier.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = fileURLToPath(import.meta.url);

/** Where the code lives: this repository's root, or dist/ of a built package. */
export const PROJECT_ROOT = path.resolve(path.dirname(HERE), '..');

/** `.ts` when run from source, `.js` when built: the extension of suites and entry points. */
export const CODE_EXT = path.extname(HERE);

/** The directory holding package.json: PROJECT_ROOT, or its parent when built into dist/. */
export const PACKAGE_ROOT = existsSync(path.join(PROJECT_ROOT, 'package.json')) ? PROJECT_ROOT : path.dirname(PROJECT_ROOT);

/** This package's name and version, from its package.json. */
export function toolInfo(): { name: string; version: string } {
  const { name, version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name, version };
}

const quote = (s: string) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The shell command that runs this harness's command line, quoted: what a target's start command
 * names as ${ANIMAL_STORE_HARNESS} (targets/local.yaml runs `${ANIMAL_STORE_HARNESS} serve`).
 */
export function harnessCommand(): string {
  const main = path.join(PROJECT_ROOT, 'lib', 'cli', `main${CODE_EXT}`);
  // From source, tsx named by its own path: the command may run in any directory.
  const tsx = CODE_EXT === '.ts' ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  return [process.execPath, ...tsx, main].map(quote).join(' ');
}
