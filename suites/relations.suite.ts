// Every spelling of a request judged as the request it stands for (issues 35 and 42): the families
// of transformations (lib/generators/transformations.ts) respell the canonical request of each
// operation; the plan (lib/checks/relations.ts) holds every spelling of every family, for every
// operation and credential an invariant needs, in one fixed order, whatever the seed, and sends all
// of it where the request budget and the key's day allow (only reads where writes are not
// allowed; the order decides what a small budget sends, and what it leaves out is said); the
// driver (lib/suite-kit/relations.ts) sends it; each invariant (lib/checks/invariants.ts) is a
// check here, judged on every answer, its pass naming the legal answers it saw and what was not sent.
import { describe } from 'vitest';
import { type Invariant, INVARIANTS, type Observation, RELATIONS_CHECKS } from '../lib/checks/invariants.ts';
import { planRelations, relationsBudget, type RelationsPlan } from '../lib/checks/relations.ts';
import { type Finding, skip } from '../lib/checks/types.ts';
import { FAMILIES } from '../lib/generators/transformations.ts';
import { PET_STATUSES, type PetStatus } from '../lib/models.ts';
import { canonicalRequests, idIn, observeRelations, requestOf } from '../lib/suite-kit/relations.ts';
import { type CheckContext, check, prepare } from '../lib/suite-kit/vitest-adapter.ts';
import { readPagesBeforeWrites } from '../lib/suite-kit/pages-before-writes.ts';
import type { TargetKey } from '../lib/config/schema.ts';
import { BudgetExhaustedError } from '../lib/errors.ts';
import { readPage } from '../lib/checks/pets.ts';

let plan: RelationsPlan | undefined;
let budget = 0;
let observations: Observation[] = [];
/** Why sending stopped before the plan's end (the request budget spent). */
let stopped: string | undefined;

/** "body / createPet / key ×40, query / listPets / none ×3": what a plan left out, by group. */
function unsentByGroup(unsent: readonly string[]): string {
  const groups = new Map<string, number>();
  for (const u of unsent) {
    const group = u.slice(0, u.indexOf(':'));
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  return [...groups].map(([g, n]) => `${g} ×${n}`).join(', ');
}

/** A pass says, besides what it saw, the pairs of its credentials the plan could not meet and why, what the budget left unsent, and where sending stopped. */
function withCoverage(finding: Finding, invariant: Invariant): Finding {
  if (finding.outcome === 'fail' || !plan) return finding;
  if (plan.spellings.length === 0 && stopped !== undefined) return skip(`nothing sent: ${stopped} before the relations suite`);
  const missing = plan.uncovered.filter((u) => invariant.needs.some((n) => u.includes(` / ${n}:`)));
  const met = plan.covered.filter((c) => c.includes(` / ${invariant.id} / `)).length;
  const notes = [
    `${plan.spellings.length} of ${plan.total} spellings planned (${plan.cost} requests of a budget of ${budget}), meeting ${met} family × operation pairs`,
    ...(plan.unsent.length > 0 ? [`not sent for the budget: ${unsentByGroup(plan.unsent)}`] : []),
    ...(missing.length > 0 ? [`not met: ${missing.join('; ')}`] : []),
    ...(stopped !== undefined ? [`${observations.length} of ${plan.spellings.length} spellings sent: ${stopped}`] : []),
  ];
  return { ...finding, message: `${finding.message ?? ''}; ${notes.join('; ')}` };
}

/** An animal to read: the first of the list, else (where writes are allowed) one created now. */
async function animalToRead(ctx: CheckContext, basePath: string, key: TargetKey): Promise<string | undefined> {
  const [list] = canonicalRequests(basePath, undefined, false);
  const listed = idIn((await ctx.client.send(requestOf(list!, 'key', key))).text);
  if (listed !== undefined || !ctx.run.allowWrites) return listed;
  const create = canonicalRequests(basePath, undefined, true).find((c) => c.operation === 'createPet')!;
  const id = idIn((await ctx.client.send(requestOf(create, 'key', key))).text);
  // Read back (bounded) before the plan reads it: a store's reads may lag its writes.
  if (id !== undefined) await ctx.readBack.until(() => ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: { key } }), (res) => res.status !== 404);
  return id;
}

/**
 * The status the store holds fewest animals of, in a page of 100 (ties in the interface's order):
 * listPets' canonical filter, so that a spelling answered without the filter shows other animals.
 */
async function rarestStatus(ctx: CheckContext, basePath: string, key: TargetKey): Promise<PetStatus> {
  const counts: number[] = [];
  for (const status of PET_STATUSES) {
    const [list] = canonicalRequests(basePath, undefined, false, status);
    const res = await ctx.client.send(requestOf({ ...list!, query: [['limit', '100'], ['status', status]] }, 'key', key));
    // Not a page: this status is not a good filter to compare with.
    counts.push((res.status === 200 ? readPage(res).page?.items.length : undefined) ?? Number.POSITIVE_INFINITY);
  }
  return PET_STATUSES[counts.indexOf(Math.min(...counts))]!;
}

// The store's pages of each status before anything is written (list-pets.empty-page), where this suite runs first.
readPagesBeforeWrites();

describe('Relations: every spelling of a request, judged as the request it stands for', () => {
  prepare(async (ctx) => {
    const { key } = ctx.auth();
    const basePath = new URL(ctx.run.target.baseUrl).pathname;
    let petId: string | undefined;
    let status: PetStatus;
    try {
      petId = await animalToRead(ctx, basePath, key);
      status = await rarestStatus(ctx, basePath, key);
    } catch (err) {
      // The budget spent before the suite: nothing is sent, and every check says why.
      if (!(err instanceof BudgetExhaustedError)) throw err;
      stopped = err.message;
      plan = { spellings: [], covered: [], uncovered: [], unsent: [], cost: 0, total: 0 };
      return;
    }
    // What is left of the run's budget and of the key's day, but what the suites after this one need:
    // none in a run, which runs this suite last; run alone by vitest, routes and stateful may follow.
    const suites = ctx.run.suites;
    const later = suites ? suites.slice(suites.indexOf('relations') + 1) : ['routes', 'stateful'];
    budget = relationsBudget({ remaining: ctx.client.budget.remaining, key: { quota: key.quota, sent: ctx.sentWith(key.label) }, later });
    plan = planRelations(canonicalRequests(basePath, petId, ctx.run.allowWrites, status), FAMILIES, INVARIANTS, { budget, readOnly: !ctx.run.allowWrites });
    if (!ctx.run.allowWrites) plan.uncovered.push('every family / createPet / key: writes are not allowed', 'every family / createPet / none: writes are not allowed');
    if (petId === undefined) plan.uncovered.push('every family / getPet / key: no animal to read (the list is empty and writes are not allowed)', 'every family / getPet / none: no animal to read');
    ({ observations, stopped } = await observeRelations(plan.spellings, { send: (req) => ctx.client.send(req), key, windows: ctx.run.target.windows, sentWithKey: () => ctx.sentAt(key.label), baseUrl: ctx.run.target.baseUrl, progress: (line) => ctx.progress(line), readBack: (read, visible) => ctx.readBack.until(read, visible) }));
  });

  for (const [i, def] of RELATIONS_CHECKS.entries()) {
    check(def, {}, async () => withCoverage(def.judge(observations), INVARIANTS[i]!));
  }
});
