// The store as a model: what any sequence of createPet, listPets (every combination of limit and
// status) and getPet must agree on. Each step is judged here, purely, against what the model
// knows; the commands (lib/suite-kit/store-commands.ts) send the requests and keep the model.
import { PAGE_SIZE, type NewPet, type Pet, type PetStatus } from '../models.ts';
import { defineCheck } from './define.ts';
import { type Problem, problem } from './bodies.ts';
import { duplicateIds, echoProblems, readPage, readPet, sameAnimalProblems } from './pets.ts';
import { describeSeen, explainedBy, fail, type Finding, type Seen } from './types.ts';
import { isServerError } from '../status.ts';

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

/**
 * One step's verdict: problems (none: it agrees with the model), the code of the first (the kind
 * of failure it leads, see judgeSequence), and what the model learns.
 */
export interface Step<T> {
  problems: string[];
  code?: string;
  learned: T;
}

function step<T>(problems: readonly Problem[], learned: T): Step<T> {
  const [first] = problems;
  return { problems: problems.map((p) => p.text), ...(first ? { code: first.code } : {}), learned };
}

/**
 * Why a status is not the one expected: code server-error for a 5xx (judgeSequence links it to
 * responses.no-5xx), else `${op}-not-${expected}`.
 */
function statusProblems(op: 'create' | 'list' | 'get', seen: Seen, expected: number, what = ''): Problem[] {
  return [isServerError(seen) ? problem('server-error', `${what}got ${seen.status} (a server error)`) : problem(`${op}-not-${expected}`, `${what}got ${seen.status}, not ${expected}`)];
}

/** Codes: create-not-201, server-error, create-not-a-pet, id-taken, and echoProblems' (name-not-echoed, …). */
export function judgeCreateStep(model: StoreModel, sent: NewPet, seen: Seen): Step<Pet | undefined> {
  if (seen.status !== 201) return step(statusProblems('create', seen, 201), undefined);
  const { value: pet, problems } = readPet(seen);
  if (!pet) return step(problems.length > 0 ? problems.map((p) => ({ ...p, code: 'create-not-a-pet' })) : [problem('create-not-a-pet', '201 without a Pet')], undefined);
  const clash = model.known.get(pet.id);
  const idProblems = clash ? [problem('id-taken', `the new animal got id ${pet.id}, which ${clash.name === undefined ? 'another animal' : `"${clash.name}"`} already has`)] : [];
  return step([...echoProblems(sent, pet), ...idProblems], pet);
}

/**
 * A page agrees with the model when it holds at most `limit` animals (default 20), each of the
 * filtered status, none twice; and when it holds fewer than it could, it is every animal of that
 * status, so every known one of that status is on it. Codes: list-not-200, server-error,
 * list-not-a-page, too-many-animals, wrong-status-listed, listed-twice, known-animal-missing,
 * listed-differently.
 */
export function judgeListStep(model: StoreModel, query: ListQuery, seen: Seen): Step<Pet[]> {
  if (seen.status !== 200) return step(statusProblems('list', seen, 200), []);
  const { page, problems } = readPage(seen);
  if (!page) return step(problems.map((p) => ({ ...p, code: 'list-not-a-page' })), []);
  const pets = page.pets;
  const size = query.limit ?? PAGE_SIZE.default;
  const out: Problem[] = [];
  if (page.items.length > size) out.push(problem('too-many-animals', `the page holds ${page.items.length} animals, more than ${query.limit === undefined ? `the default ${size}` : `limit ${size}`}`));
  if (query.status !== undefined) {
    const other = pets.find((p) => p.status !== query.status);
    if (other) out.push(problem('wrong-status-listed', `animal ${other.id} has status ${other.status === undefined ? 'absent' : `"${other.status}"`} on a page filtered by status=${query.status}`));
  }
  const ids = pets.map((p) => p.id);
  const [twice] = duplicateIds(pets);
  if (twice !== undefined) out.push(problem('listed-twice', `animal ${twice} is listed twice`));
  if (page.items.length < size) {
    const missing = [...model.known.values()].find((p) => (query.status === undefined || p.status === query.status) && !ids.includes(p.id));
    if (missing) out.push(problem('known-animal-missing', `the page holds ${page.items.length} animals, fewer than ${size}, so it is every animal${query.status ? ` of status ${query.status}` : ''}, but animal ${missing.id} ("${missing.name}", ${missing.status ?? 'no status'}) is not on it`));
  }
  for (const listed of pets) {
    const known = model.known.get(listed.id);
    const differs = known ? sameAnimalProblems(known, listed) : [];
    if (differs.length > 0) out.push(problem('listed-differently', `animal ${listed.id} is listed differently from before: ${differs.map((p) => p.text).join('; ')}`));
  }
  return step(out, pets);
}

/** Codes: get-not-200, server-error, get-not-a-pet, and sameAnimalProblems' (id-differs, name-differs, …). */
export function judgeGetStep(model: StoreModel, id: bigint, seen: Seen): Step<Pet | undefined> {
  const known = model.known.get(id);
  if (seen.status !== 200) return step(statusProblems('get', seen, 200, `getPet(${id}) of a known animal `), undefined);
  const { value: pet, problems } = readPet(seen);
  if (!pet) return step(problems.map((p) => ({ ...p, code: 'get-not-a-pet' })), undefined);
  return step(known ? sameAnimalProblems(known, pet) : [], pet);
}

/** A step that did not agree with the model, and the steps before it. */
export interface StepFailure {
  /** The commands run, the failing one last, e.g. ["Create(…)", "List(limit=3, status=sold)"]. */
  steps: string[];
  problems: string[];
  /** The code of the failing step's first problem (its Step's code). */
  code?: string;
  seen: Seen;
}

/**
 * The first step that disagreed with the model, as a failure whose code is that step's (see the
 * judge…Step functions); without one, server-error for a 5xx, else disagrees-with-model.
 */
export function judgeSequence(failure: StepFailure | undefined, steps: number): Finding {
  if (!failure) return { outcome: 'pass', message: `${steps} steps agreed with the model` };
  const last = failure.steps.at(-1) ?? '';
  const code = failure.code ?? (isServerError(failure.seen) ? 'server-error' : 'disagrees-with-model');
  const finding = fail(
    code,
    `after ${failure.steps.length - 1} step${failure.steps.length === 2 ? '' : 's'}, ${last}: ${failure.problems.join('; ')}`,
    'what the model of the store says: pages within limit and filter, created animals found and listed under their status',
    describeSeen(failure.seen),
  );
  return code === 'server-error' ? explainedBy(finding, 'responses.no-5xx') : finding;
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
