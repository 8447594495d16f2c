// The store as a model: what any sequence of createPet, listPets (every combination of limit and
// status) and getPet must agree on. Each step is judged here, purely, against what the model
// knows; the commands (lib/generators/store-commands.ts) send the requests and keep the model.
import { PAGE_SIZE, type NewPet, type Pet, type PetStatus } from '../models.ts';
import { defineCheck } from './define.ts';
import { duplicateIds, echoProblems, readPage, readPet, sameAnimalProblems } from './pets.ts';
import { describeSeen, explainedBy, fail, type Finding, type Seen } from './types.ts';

/** What the model knows of the store: animals created in this sequence, or read from it. */
export interface StoreModel {
  /** Animals by id, as the store must give them back. */
  known: Map<bigint, Pet>;
  /** May the sequence create animals (allow.writes)? Without, the model learns from what it reads. */
  writes: boolean;
}

export interface ListQuery {
  limit?: number;
  status?: PetStatus;
}

/** One step's verdict: problems (none: it agrees with the model), and what the model learns. */
export interface Step<T> {
  problems: string[];
  learned: T;
}

/** Why a status is not the one expected; a 5xx says so (judgeSequence links it to responses.no-5xx). */
function statusProblems(seen: Seen, expected: number, what = ''): string[] {
  return [seen.status >= 500 ? `${what}got ${seen.status} (a server error)` : `${what}got ${seen.status}, not ${expected}`];
}

export function judgeCreateStep(model: StoreModel, sent: NewPet, seen: Seen): Step<Pet | undefined> {
  if (seen.status !== 201) return { problems: statusProblems(seen, 201), learned: undefined };
  const { value: pet, problems } = readPet(seen);
  if (!pet) return { problems: problems.length > 0 ? problems : ['201 without a Pet'], learned: undefined };
  const clash = model.known.get(pet.id);
  const idProblems = clash ? [`the new animal got id ${pet.id}, which ${clash.name === undefined ? 'another animal' : `"${clash.name}"`} already has`] : [];
  return { problems: [...echoProblems(sent, pet), ...idProblems], learned: pet };
}

/**
 * A page agrees with the model when it holds at most `limit` animals (default 20), each of the
 * filtered status, none twice; and when it holds fewer than it could, it is every animal of that
 * status, so every known one of that status is on it.
 */
export function judgeListStep(model: StoreModel, query: ListQuery, seen: Seen): Step<Pet[]> {
  if (seen.status !== 200) return { problems: statusProblems(seen, 200), learned: [] };
  const { page, problems } = readPage(seen);
  if (!page) return { problems, learned: [] };
  const pets = page.pets;
  const size = query.limit ?? PAGE_SIZE.default;
  const out: string[] = [];
  if (page.items.length > size) out.push(`the page holds ${page.items.length} animals, more than ${query.limit === undefined ? `the default ${size}` : `limit ${size}`}`);
  if (query.status !== undefined) {
    const other = pets.find((p) => p.status !== query.status);
    if (other) out.push(`animal ${other.id} has status ${other.status === undefined ? 'absent' : `"${other.status}"`} on a page filtered by status=${query.status}`);
  }
  const ids = pets.map((p) => p.id);
  const [twice] = duplicateIds(pets);
  if (twice !== undefined) out.push(`animal ${twice} is listed twice`);
  if (page.items.length < size) {
    const missing = [...model.known.values()].find((p) => (query.status === undefined || p.status === query.status) && !ids.includes(p.id));
    if (missing) out.push(`the page holds ${page.items.length} animals, fewer than ${size}, so it is every animal${query.status ? ` of status ${query.status}` : ''}, but animal ${missing.id} ("${missing.name}", ${missing.status ?? 'no status'}) is not on it`);
  }
  for (const listed of pets) {
    const known = model.known.get(listed.id);
    const differs = known ? sameAnimalProblems(known, listed) : [];
    if (differs.length > 0) out.push(`animal ${listed.id} is listed differently from before: ${differs.join('; ')}`);
  }
  return { problems: out, learned: pets };
}

export function judgeGetStep(model: StoreModel, id: bigint, seen: Seen): Step<Pet | undefined> {
  const known = model.known.get(id);
  if (seen.status !== 200) return { problems: statusProblems(seen, 200, `getPet(${id}) of a known animal `), learned: undefined };
  const { value: pet, problems } = readPet(seen);
  if (!pet) return { problems, learned: undefined };
  return { problems: known ? sameAnimalProblems(known, pet) : [], learned: pet };
}

/** A step that did not agree with the model, and the steps before it. */
export interface StepFailure {
  /** The commands run, the failing one last, e.g. ["Create(…)", "List(limit=3, status=sold)"]. */
  steps: string[];
  problems: string[];
  seen: Seen;
}

export function judgeSequence(failure: StepFailure | undefined, steps: number): Finding {
  if (!failure) return { outcome: 'pass', message: `${steps} steps agreed with the model` };
  const last = failure.steps.at(-1) ?? '';
  const finding = fail(
    `after ${failure.steps.length - 1} step${failure.steps.length === 2 ? '' : 's'}, ${last}: ${failure.problems.join('; ')}`,
    'what the model of the store says: pages within limit and filter, created animals found and listed under their status',
    describeSeen(failure.seen),
  );
  return failure.problems.some((p) => p.includes('a server error')) ? explainedBy(finding, 'responses.no-5xx') : finding;
}

export const storeModel = defineCheck({
  id: 'stateful.store-model',
  clause: 'Endpoints',
  suite: 'stateful',
  title: 'Any sequence of createPet, listPets (limit and status together) and getPet agrees with a model of the store',
  severity: 'must',
  explainedBy: ['responses.no-5xx', 'list-pets.pet-shape', 'list-pets.limit', 'list-pets.default-limit', 'list-pets.status-filter'],
  judge: judgeSequence,
});

export const STATEFUL_CHECKS = [storeModel] as const;
