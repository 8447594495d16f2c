// `--list-checks`: every check the harness has, from the registry. Text for people, grouped by
// suite; `--json` for tools (a CI baseline names checks by these ids). A built package lists them
// from checks.json, written beside this file by the build, without loading the checks (and zod).
import { existsSync, readFileSync } from 'node:fs';
import type { CheckListing } from '../checks/registry.ts';

/** Written by `npm run build` from the registry; absent when run from source. */
const BUILT_LIST = new URL('./checks.json', import.meta.url);

/** Every check: from the build's list when there is one, else from the registry. */
export async function checkListing(): Promise<CheckListing[]> {
  if (existsSync(BUILT_LIST)) return JSON.parse(readFileSync(BUILT_LIST, 'utf8')) as CheckListing[];
  const { listChecks } = await import('../checks/registry.ts');
  return listChecks();
}

export function renderCheckList(json: boolean, checks: readonly CheckListing[]): string {
  if (json) return `${JSON.stringify(checks, null, 2)}\n`;
  const lines: string[] = [];
  const width = Math.max(...checks.map((c) => c.id.length));
  for (const suite of [...new Set(checks.map((c) => c.suite))]) {
    lines.push(suite);
    for (const c of checks.filter((x) => x.suite === suite)) {
      lines.push(`  ${c.id.padEnd(width)}  ${c.severity.padEnd(6)}  ${c.title}`);
      lines.push(`  ${''.padEnd(width)}  ${''.padEnd(6)}  (${c.clause})`);
      if (c.standard) lines.push(`  ${''.padEnd(width)}  ${''.padEnd(6)}  rests on: ${c.standard}`);
    }
    lines.push('');
  }
  lines.push(`${checks.length} checks. Severity: must (the interface states it), should (HTTP standards or the interface's intent), info (recorded, never fails).`);
  return `${lines.join('\n')}\n`;
}
