// npm run verify:legal -- [--combos N] [--seed S] [--min-families K] [--concurrency C] [--variations a,b,…]
//
// Legal servers as families: composes N servers of the reference's legal variations (one member of
// each of at least K families, targets/reference/families.ts), runs each against the harness (the
// functional suites through the command over sockets, without --strict; the rate-limit checks on
// the virtual clock), and holds the invariant: the command exits 0, no must fails, every should
// that fails names its standard. Prints each combination as it ends, each one that breaks the
// invariant as a line that runs it again, then the runtime and the families' coverage.
// Exit 0 when every combination holds, 1 when one does not, 2 for a usage error. Loopback only.
import { parseArgs } from 'node:util';
import { SERVER_FAMILIES } from '../lib/checks/server-families.ts';
import { type Combination, combinationOf, composeServers, describeCombination } from '../targets/reference/families.ts';
import { type ComboOutcome, runCombinations, shrinkCombination, summaryLines } from '../test/support/legal-combos.ts';

const HELP = `Usage: npm run verify:legal -- [options]

Composes legal servers from the reference's families of legal variations and runs the harness
against each: no must may fail, the command must exit 0 without --strict, and every should that
fails must name the standard it rests on.

Options:
  --combos N          how many servers to compose (default 20)
  --seed S            the seed that picks them (default 1); the same seed, the same servers
  --min-families K    families each server takes a member of, at least (default 3)
  --concurrency C     servers run at a time (default 2)
  --variations a,b,…  run one server of exactly these variations (a line this command printed)
  --clock-only        only the rate-limit checks on the virtual clock (seconds, not minutes)
  --shrink            also shrink a combination that breaks the invariant over sockets (a run
                      per variation); one that breaks it on the clock is always shrunk
  -h, --help          this text
`;

function usage(message: string): never {
  process.stderr.write(`verify:legal: ${message}\n\n${HELP}`);
  process.exit(2);
}

function positiveInt(flag: string, value: string | undefined, fallback: number, least = 1): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) < least) usage(`${flag} takes an integer of at least ${least}, not "${value}"`);
  return Number(value);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      combos: { type: 'string' },
      seed: { type: 'string' },
      'min-families': { type: 'string' },
      concurrency: { type: 'string' },
      variations: { type: 'string' },
      'clock-only': { type: 'boolean' },
      shrink: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
} catch (e) {
  usage((e as Error).message);
}
const o = parsed.values;
if (o.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const seed = positiveInt('--seed', o.seed, 1, 0);
const concurrency = positiveInt('--concurrency', o.concurrency, 2);
let combinations: Combination[];
if (o.variations !== undefined) {
  if (o.combos !== undefined || o['min-families'] !== undefined) usage('--variations names one server: leave out --combos and --min-families');
  const one = combinationOf(o.variations.split(',').map((s) => s.trim()).filter((s) => s !== ''), seed);
  if ('error' in one) usage(one.error);
  combinations = [one];
} else {
  const minFamilies = positiveInt('--min-families', o['min-families'], 3);
  if (minFamilies > SERVER_FAMILIES.length) usage(`--min-families: there are ${SERVER_FAMILIES.length} families, not ${minFamilies}`);
  combinations = composeServers({ seed, count: positiveInt('--combos', o.combos, 20), minFamilies });
}

const parts: readonly ('sockets' | 'clock')[] = o['clock-only'] ? ['clock'] : ['sockets', 'clock'];
const started = Date.now();
const width = String(combinations.length).length;
process.stdout.write(`verify:legal: ${combinations.length} legal server(s), seed ${seed}, ${parts.join(' and ')}, ${concurrency} at a time\n`);

const outcomes = await runCombinations(combinations, {
  parts,
  concurrency,
  onOutcome: (out: ComboOutcome, done: number) => {
    const mark = out.violations.length === 0 ? 'ok  ' : 'FAIL';
    process.stdout.write(`[${String(done).padStart(width)}/${combinations.length}] ${mark} #${out.combination.index} ${(out.durationMs / 1000).toFixed(1)} s  ${describeCombination(out.combination)}\n`);
    for (const v of out.violations) process.stdout.write(`      ${v.text}\n`);
    if (out.stderr) process.stdout.write(`      stderr: ${out.stderr.trim().split('\n').slice(-5).join('\n      ')}\n`);
  },
});

// One that broke the invariant is shrunk to its fewest variations: on the clock alone when only
// the clock showed it (a fraction of a second a try), over sockets too only with --shrink.
const smallest = new Map<number, ComboOutcome>();
for (const out of outcomes.filter((x) => x.violations.length > 0)) {
  const onClock = out.violations.every((v) => v.side === 'clock');
  if (onClock || o.shrink) smallest.set(out.combination.index, await shrinkCombination(out, { parts: onClock ? ['clock'] : parts }));
}
const lines = summaryLines(outcomes, { parts, concurrency, seconds: (Date.now() - started) / 1000, smallest });
process.stdout.write(`\n${lines.join('\n')}\n`);
process.exit(outcomes.some((x) => x.violations.length > 0) ? 1 : 0);
