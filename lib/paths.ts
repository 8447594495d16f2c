// Where the harness's own files are, run from this repository (TypeScript, bundled by
// scripts/from-source.mjs or run through tsx) or installed as a package (plain JavaScript built
// into dist/). Node built-ins only: `--help` and
// `--version` load this and nothing heavier.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  // From source, what `npm run conformance` runs: the sources bundled as plain JavaScript.
  const main = CODE_EXT === '.ts' ? path.join(PROJECT_ROOT, 'scripts', 'from-source.mjs') : path.join(PROJECT_ROOT, 'lib', 'cli', `main${CODE_EXT}`);
  return [process.execPath, main].map(quote).join(' ');
}
