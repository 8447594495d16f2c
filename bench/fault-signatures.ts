// Runs every fault the command's catalogue catches alone, once, and writes what each fails (every
// failing check as "check-id:code") to test/support/fault-signatures.ts, which says whether the
// catalogue's groups of faults are sound. Loopback only; two runs at a time; bounded by the command's
// own timeouts. Run after changing a fault or a check:
//   node --import tsx bench/fault-signatures.ts
// or, after adding or changing a few faults, only those (the others' lines are kept as written):
//   node --import tsx bench/fault-signatures.ts --only fault-a,fault-b
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { startReferenceServer } from '../targets/reference/server.ts';
import { readReport, runCli, tempDir, writeTarget } from '../test/e2e/cli-helpers.ts';
import { CAUGHT, failureSignatures, KEYS, PLANS, WINDOWS } from '../test/support/fault-catalogue.ts';
import { FAULT_SIGNATURES } from '../test/support/fault-signatures.ts';

const OUT = path.join(PROJECT_ROOT, 'test', 'support', 'fault-signatures.ts');
const dir = tempDir('signatures');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : new Set((process.argv[onlyAt + 1] ?? '').split(',').filter((s) => s !== ''));
const unknown = only ? [...only].filter((id) => !CAUGHT.some((c) => c.fault === id && c.by !== 'clock')) : [];
if (unknown.length > 0) {
  process.stderr.write(`--only: not a fault the command catches: ${unknown.join(', ')}\n`);
  process.exit(2);
}
// With --only, the other faults' lines are kept; a fault no longer caught by the command is dropped.
const byCommand = new Set(CAUGHT.filter((c) => c.by !== 'clock').map((c) => c.fault as string));
const signatures = new Map<string, string[]>(only ? Object.entries(FAULT_SIGNATURES).filter(([f]) => byCommand.has(f) && !only.has(f)).map(([f, p]) => [f, [...p]]) : []);
const todo = CAUGHT.filter((c) => c.by !== 'clock' && (!only || only.has(c.fault)));
const queue = [...todo];
await Promise.all(
  [0, 1].map(async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: [c.fault], preload: c.preload ?? 0 });
      try {
        const reports = path.join(dir, c.fault);
        const target = { name: c.fault, baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true }, ...c.target };
        await runCli(['--target', writeTarget(dir, target, `${c.fault}.yaml`), '--report-dir', reports, '--seed', '1', '--quiet', ...(c.by as string[]).flatMap((s) => ['--suite', s]), ...(c.strict ? ['--strict'] : [])], {}, 300_000);
        const pairs = failureSignatures(readReport(reports));
        signatures.set(c.fault, [...pairs].sort());
        process.stdout.write(`${c.fault}: ${pairs.size} failing check:code pairs\n`);
      } finally {
        await server.close();
      }
    }
  }),
);
rmSync(dir, { recursive: true, force: true });
const head = `// What each fault the command catches fails when it is switched on alone: every failing check,
// as 'check-id:code' (and, for a relations check, 'check-id:code@family' for each family of
// spellings that showed it), from one run of the command with the fault's suites (seed 1). The catalogue
// switches several faults on in one server (test/support/fault-catalogue.ts, \`group\`); a group is
// sound when no fault in it fails another one's check with that one's code, so that each fault is
// still shown caught by its own failure. Written by \`node --import tsx bench/fault-signatures.ts\`,
// which runs every such fault alone (\`--only a,b\`: those faults, the others' lines kept); run it
// again after changing a fault or a check.
export const FAULT_SIGNATURES: Readonly<Record<string, readonly string[]>> = {
`;
const body = [...signatures].sort(([a], [b]) => (a < b ? -1 : 1)).map(([f, pairs]) => `  '${f}': [${pairs.map((p) => `'${p}'`).join(', ')}],`);
writeFileSync(OUT, `${head}${body.join('\n')}\n};\n`);
process.stdout.write(`wrote ${path.relative(PROJECT_ROOT, OUT)} (${signatures.size} faults)\n`);
