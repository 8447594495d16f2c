// The relations engine's plan (issue 35): which spellings to send, with which credential, so that
// every family × invariant pair is met at least once for every operation the family applies to,
// within a request budget. Coverage first (one spelling of each family, operation and credential an
// invariant needs, picked by the seed), then further spellings in the seed's order while the budget
// lasts. Production targets get no spelling that writes. Pure: the plan and what it covers, no
// requests.
//
// Started in issue 34's session, not wired into a suite yet.
import fc from 'fast-check';
import { type Credential, type Family, type Spelled, spellingsOf, type Transformed } from '../generators/transformations.ts';
import { seedFor } from '../generators/seed.ts';
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
}

export interface PlanOptions {
  seed: number;
  /** Spellings at most (each is one request; the canonical answers are counted apart). */
  budget: number;
  /** Only methods that read (GET, HEAD): a production target. */
  readOnly?: boolean;
}

const READS = new Set(['GET', 'HEAD']);

/** A seeded shuffle: the same seed, the same order. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  if (items.length < 2) return [...items];
  const [order] = fc.sample(fc.shuffledSubarray([...items.keys()], { minLength: items.length, maxLength: items.length }), { seed, numRuns: 1 });
  return order!.map((i) => items[i]!);
}

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
        // Each group in its own order (the same seed for all would pick the same place in every family's list).
        else groups.push({ key, canonical, credential, variants: shuffled(variants, seedFor(options.seed, `relations ${key}`)), family });
      }
    }
  }
  const spellings: PlannedSpelling[] = [];
  // Coverage first: one spelling of every group, in the seed's order of groups.
  for (const g of shuffled(groups, seedFor(options.seed, 'relations groups'))) {
    if (spellings.length >= options.budget) {
      uncovered.push(`${g.key}: beyond the budget of ${options.budget} spellings`);
      continue;
    }
    spellings.push({ canonical: g.canonical, transformed: g.variants[0]!, credential: g.credential });
  }
  // Then the rest, round by round over the groups, while the budget lasts.
  for (let round = 1; spellings.length < options.budget; round++) {
    const more = groups.filter((g) => round < g.variants.length);
    if (more.length === 0) break;
    for (const g of more) {
      if (spellings.length >= options.budget) break;
      spellings.push({ canonical: g.canonical, transformed: g.variants[round]!, credential: g.credential });
    }
  }
  const met = new Set(spellings.map((s) => `${s.transformed.family} / ${s.canonical.operation} / ${s.credential}`));
  const covered = groups.flatMap((g) =>
    met.has(g.key) ? invariants.filter((i) => i.needs.includes(g.credential)).map((i) => `${g.family.id} / ${i.id} / ${g.canonical.operation}`) : [],
  );
  return { spellings, covered: [...new Set(covered)].sort(), uncovered };
}
