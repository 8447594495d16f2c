// The relations engine's plan (issues 35 and 42): which spellings to send, with which credential.
// Every spelling of every family, for every operation and every credential an invariant needs, is
// planned in one fixed order, whatever the seed: the same server gets the same plan, and so the
// same verdict, on every run. Where the request budget cannot hold them all (a production target,
// a lone Free key), the order decides what is sent: first one spelling of every family ×
// operation × credential (so every family × invariant × operation pair is met), each family's
// first being the strictest it has (the same message), then the rest round by round; what is left
// out is listed. Production targets get no spelling that writes. Pure: the plan and what it
// covers, no requests.
import { type Credential, type Family, type Operation, type Spelled, spellingsOf, type Transformed } from '../generators/transformations.ts';
import type { PlanQuota } from '../plans.ts';
import type { Invariant } from './invariants.ts';

export interface PlannedSpelling {
  canonical: Spelled;
  transformed: Transformed;
  credential: Credential;
}

export interface RelationsPlan {
  spellings: PlannedSpelling[];
  /** Every family × invariant × operation pair the plan meets, as "family / invariant / operation". */
  covered: string[];
  /** Pairs no spelling meets (a family without variants of an operation, the budget too small), with why. */
  uncovered: string[];
  /** Spellings the budget left out, in the order they would have come: "family / operation / credential: name". */
  unsent: string[];
  /** Requests the planned spellings cost, with what the driver sends around them (costOf). */
  cost: number;
  /** Spellings there were to plan (sent and left out). */
  total: number;
}

export interface PlanOptions {
  /** Requests at most the plan may cost (costOf each spelling, and the canonical answers). */
  budget: number;
  /** Only methods that read (GET, HEAD): a production target. */
  readOnly?: boolean;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * Requests a spelling costs with what the driver sends around it (lib/suite-kit/relations.ts): a
 * createPet spelling with a key, its Location followed and the store's integrity read (a NewPet
 * without categoryId, the canonical animal read back); the order family's spelling, the canonical
 * request with a key right before it; any other, itself. (A spelling sent again when it looks
 * uncounted, and the canonical request taken again when an answer differs, are rare: the run's
 * budget bounds them.)
 */
export function costOf(s: PlannedSpelling): number {
  if (s.credential === 'key' && s.canonical.operation === 'createPet') return 4;
  return s.transformed.family === 'order' ? 2 : 1;
}

/** The canonical requests the driver takes once per operation: with a key and without one. */
const CANONICAL_COST = 2;

export function planRelations(canonicals: readonly Spelled[], families: readonly Family[], invariants: readonly Invariant[], options: PlanOptions): RelationsPlan {
  const credentials = [...new Set(invariants.flatMap((i) => i.needs))];
  const groups: { key: string; canonical: Spelled; credential: Credential; variants: Transformed[]; family: Family }[] = [];
  const uncovered: string[] = [];
  for (const canonical of canonicals) {
    if (options.readOnly && !READS.has(canonical.method)) continue;
    for (const family of families) {
      if (family.operations && !family.operations.includes(canonical.operation)) continue;
      const variants = spellingsOf(family, canonical).filter((t) => !options.readOnly || READS.has(t.request.method));
      for (const credential of credentials) {
        const key = `${family.id} / ${canonical.operation} / ${credential}`;
        if (variants.length === 0) uncovered.push(`${key}: no spelling${options.readOnly ? ' that only reads' : ''}`);
        else groups.push({ key, canonical, credential, variants, family });
      }
    }
  }
  // Every group's first spelling, then every group's second, and so on: one fixed order.
  const ordered: PlannedSpelling[] = [];
  for (let round = 0; groups.some((g) => round < g.variants.length); round++) {
    for (const g of groups) if (round < g.variants.length) ordered.push({ canonical: g.canonical, transformed: g.variants[round]!, credential: g.credential });
  }
  const spellings: PlannedSpelling[] = [];
  const unsent: string[] = [];
  const operations = new Set<Operation>();
  let cost = 0;
  for (const s of ordered) {
    const more = costOf(s) + (operations.has(s.canonical.operation) ? 0 : CANONICAL_COST);
    if (cost + more > options.budget) {
      unsent.push(`${s.transformed.family} / ${s.canonical.operation} / ${s.credential}: ${s.transformed.name}`);
      continue;
    }
    cost += more;
    operations.add(s.canonical.operation);
    spellings.push(s);
  }
  const met = new Set(spellings.map((s) => `${s.transformed.family} / ${s.canonical.operation} / ${s.credential}`));
  for (const g of groups) if (!met.has(g.key)) uncovered.push(`${g.key}: beyond the budget of ${options.budget} requests`);
  const covered = groups.flatMap((g) =>
    met.has(g.key) ? invariants.filter((i) => i.needs.includes(g.credential)).map((i) => `${g.family.id} / ${i.id} / ${g.canonical.operation}`) : [],
  );
  return { spellings, covered: [...new Set(covered)].sort(), uncovered, unsent, cost, total: ordered.length };
}

/** Requests a suite that runs after the relations suite needs, measured on the reference (routes 27, stateful about 35), with room. */
const LATER_NEEDS: Readonly<Record<string, number>> = { routes: 40, stateful: 60 };
/** What any other suite after it is given (the runner runs the relations suite last: none is). */
const OTHER_NEED = 60;

export interface BudgetInput {
  /** Requests left of the run's budget. */
  remaining: number;
  /** The key the relations suite sends with: its plan's quota, and the requests that carried it so far in the run. */
  key: { quota: PlanQuota; sent: number };
  /** The suites that run after this one: none in a run (the runner runs it last); routes and stateful where vitest runs the files alone. */
  later: readonly string[];
}

/**
 * What the relations plan may cost: what is left of the run's budget and of the key's day (a
 * lone Free key's), less what any suite after it needs. The runner runs the relations suite after
 * every other (lib/runner/vitest-settings.ts), so it takes what they left.
 */
export function relationsBudget(input: BudgetInput): number {
  const later = input.later.reduce((n, suite) => n + (LATER_NEEDS[suite] ?? OTHER_NEED), 0);
  return Math.max(0, Math.min(input.remaining, input.key.quota.perDay - input.key.sent) - later);
}
