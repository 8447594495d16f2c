// `--list-checks`: every check the harness has, from the registry. Text for people, grouped by
// suite; `--json` for tools (a CI baseline names checks by these ids).
import { type CheckListing, listChecks } from '../checks/registry.ts';

export function renderCheckList(json: boolean, checks: readonly CheckListing[] = listChecks()): string {
  if (json) return `${JSON.stringify(checks, null, 2)}\n`;
  const lines: string[] = [];
  const width = Math.max(...checks.map((c) => c.id.length));
  for (const suite of [...new Set(checks.map((c) => c.suite))]) {
    lines.push(suite);
    for (const c of checks.filter((x) => x.suite === suite)) {
      lines.push(`  ${c.id.padEnd(width)}  ${c.severity.padEnd(6)}  ${c.title}`);
      lines.push(`  ${''.padEnd(width)}  ${''.padEnd(6)}  (${c.clause})`);
    }
    lines.push('');
  }
  lines.push(`${checks.length} checks. Severity: must (the interface states it), should (HTTP standards or the interface's intent), info (recorded, never fails).`);
  return `${lines.join('\n')}\n`;
}
