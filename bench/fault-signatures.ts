// Runs every fault the command's catalogue catches alone, once, and writes what each fails (every
// failing check as "check-id:code") to test/support/fault-signatures.ts, which says whether the
// catalogue's groups of faults are sound. Loopback only; two runs at a time; bounded by the command's
// own timeouts. Run after changing a fault or a check:
//   node --import tsx bench/fault-signatures.ts
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/config/load-target.ts';
import { startReferenceServer } from '../targets/reference/server.ts';
import { readReport, runCli, tempDir, writeTarget } from '../test/e2e/cli-helpers.ts';
import { CAUGHT, KEYS, PLANS, WINDOWS } from '../test/support/fault-catalogue.ts';

const OUT = path.join(PROJECT_ROOT, 'test', 'support', 'fault-signatures.ts');
const dir = tempDir('signatures');
const signatures = new Map<string, string[]>();
const todo = CAUGHT.filter((c) => c.by !== 'clock');
const queue = [...todo];
await Promise.all(
  [0, 1].map(async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const server = await startReferenceServer({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: [c.fault], preload: c.preload ?? 0 });
      try {
        const reports = path.join(dir, c.fault);
        const target = { name: c.fault, baseUrl: server.baseUrl, keys: KEYS, plans: PLANS, windows: WINDOWS, allow: { writes: true, load: true }, ...c.target };
        await runCli(['--target', writeTarget(dir, target, `${c.fault}.yaml`), '--report-dir', reports, '--seed', '1', '--quiet', ...(c.by as string[]).flatMap((s) => ['--suite', s]), ...(c.strict ? ['--strict'] : [])], {}, 300_000);
        const failed = readReport(reports).checks.filter((x) => x.outcome === 'fail');
        const pairs = new Set(failed.flatMap((x) => [x.code, ...(x.evidence?.failures ?? []).map((f) => f.code)].filter((code): code is string => code !== undefined).map((code) => `${x.id}:${code}`)));
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
// as 'check-id:code', from one run of the command with the fault's suites (seed 1). The catalogue
// switches several faults on in one server (test/support/fault-catalogue.ts, \`group\`); a group is
// sound when no fault in it fails another one's check with that one's code, so that each fault is
// still shown caught by its own failure. Written by \`node --import tsx bench/fault-signatures.ts\`,
// which runs every such fault alone; run it again after changing a fault or a check.
export const FAULT_SIGNATURES: Readonly<Record<string, readonly string[]>> = {
`;
const body = [...signatures].sort(([a], [b]) => (a < b ? -1 : 1)).map(([f, pairs]) => `  '${f}': [${pairs.map((p) => `'${p}'`).join(', ')}],`);
writeFileSync(OUT, `${head}${body.join('\n')}\n};\n`);
process.stdout.write(`wrote ${path.relative(PROJECT_ROOT, OUT)} (${signatures.size} faults)\n`);
