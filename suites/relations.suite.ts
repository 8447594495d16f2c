// Every spelling of a request judged as the request it stands for (issue 35): the families of
// transformations (lib/generators/transformations.ts) respell the canonical request of each
// operation; a seeded plan (lib/checks/relations.ts) meets every family × invariant pair for every
// operation within the budget, and only reads where writes are not allowed; the driver
// (lib/suite-kit/relations.ts) sends it; each invariant (lib/checks/invariants.ts) is a check here,
// judged on every answer, its pass naming the legal answers it saw and what was not sampled.
import { describe } from 'vitest';
import { type Invariant, INVARIANTS, type Observation, RELATIONS_CHECKS } from '../lib/checks/invariants.ts';
import { planRelations, type RelationsPlan } from '../lib/checks/relations.ts';
import { type Finding, skip } from '../lib/checks/types.ts';
import { FAMILIES } from '../lib/generators/transformations.ts';
import { canonicalRequests, idIn, observeRelations, requestOf } from '../lib/suite-kit/relations.ts';
import { type CheckContext, check, prepare } from '../lib/suite-kit/vitest-adapter.ts';
import type { TargetKey } from '../lib/config/schema.ts';
import { BudgetExhaustedError } from '../lib/errors.ts';

/** Spellings at most in one run (each one request, and about one more for what it needs around it). */
export const RELATIONS_BUDGET = 60;

let plan: RelationsPlan | undefined;
let seed = 0;
let observations: Observation[] = [];
/** Why sending stopped before the plan's end (the request budget spent). */
let stopped: string | undefined;

/** A pass says, besides what it saw, the pairs of its credentials the plan could not meet and why, and where the budget stopped it. */
function withUnsampled(finding: Finding, invariant: Invariant): Finding {
  if (finding.outcome === 'fail' || !plan) return finding;
  if (plan.spellings.length === 0 && stopped !== undefined) return skip(`nothing sent: ${stopped} before the relations suite`);
  const missing = plan.uncovered.filter((u) => invariant.needs.some((n) => u.includes(` / ${n}:`)));
  const met = plan.covered.filter((c) => c.includes(` / ${invariant.id} / `)).length;
  const notes = [
    `the plan (seed ${seed}) met ${met} family × operation pairs in ${plan.spellings.length} spellings`,
    ...(missing.length > 0 ? [`not sampled: ${missing.join('; ')}`] : []),
    ...(stopped !== undefined ? [`${observations.length} of ${plan.spellings.length} spellings sent: ${stopped}`] : []),
  ];
  return notes.length === 0 ? finding : { ...finding, message: `${finding.message}; ${notes.join('; ')}` };
}

/** An animal to read: the first of the list, else (where writes are allowed) one created now. */
async function animalToRead(ctx: CheckContext, basePath: string, key: TargetKey): Promise<string | undefined> {
  const [list] = canonicalRequests(basePath, undefined, false);
  const listed = idIn((await ctx.client.send(requestOf(list!, 'key', key))).text);
  if (listed !== undefined || !ctx.run.allowWrites) return listed;
  const create = canonicalRequests(basePath, undefined, true).find((c) => c.operation === 'createPet')!;
  return idIn((await ctx.client.send(requestOf(create, 'key', key))).text);
}

describe('Relations: every spelling of a request, judged as the request it stands for', () => {
  prepare(async (ctx) => {
    const { key } = ctx.auth();
    const basePath = new URL(ctx.run.target.baseUrl).pathname;
    let petId: string | undefined;
    try {
      petId = await animalToRead(ctx, basePath, key);
    } catch (err) {
      // The budget spent before the suite: nothing is sent, and every check says why.
      if (!(err instanceof BudgetExhaustedError)) throw err;
      stopped = err.message;
      plan = { spellings: [], covered: [], uncovered: [] };
      return;
    }
    seed = ctx.run.seed;
    plan = planRelations(canonicalRequests(basePath, petId, ctx.run.allowWrites), FAMILIES, INVARIANTS, { seed: ctx.run.seed, budget: RELATIONS_BUDGET, readOnly: !ctx.run.allowWrites });
    if (!ctx.run.allowWrites) plan.uncovered.push('every family / createPet / key: writes are not allowed', 'every family / createPet / none: writes are not allowed');
    if (petId === undefined) plan.uncovered.push('every family / getPet / key: no animal to read (the list is empty and writes are not allowed)', 'every family / getPet / none: no animal to read');
    ({ observations, stopped } = await observeRelations(plan.spellings, { send: (req) => ctx.client.send(req), key, windows: ctx.run.target.windows, baseUrl: ctx.run.target.baseUrl, progress: (line) => ctx.progress(line) }));
  });

  for (const [i, def] of RELATIONS_CHECKS.entries()) {
    check(def, {}, async () => withUnsampled(def.judge(observations), INVARIANTS[i]!));
  }
});
