// Commands for model-based testing of the store (fast-check's fc.commands): create an animal, list
// with any combination of limit and status, get a known animal. Each command sends one request
// through `StoreApi` (the suite supplies it), judges it against the model (lib/checks/stateful.ts)
// and updates the model; the first disagreement is thrown as a StepFailed, which ends the sequence.
import fc from 'fast-check';
import { judgeCreateStep, judgeGetStep, judgeListStep, type ListQuery, type StepFailure, type StoreModel } from '../checks/stateful.ts';
import type { Seen } from '../checks/types.ts';
import { stringifyJson } from '../json.ts';
import { type NewPet, PAGE_SIZE, PET_STATUSES } from '../models.ts';

/** The requests a command may send: the suite binds them to the client and a key. */
export interface StoreApi {
  create(body: NewPet): Promise<Seen>;
  list(query: ListQuery): Promise<Seen>;
  get(id: bigint): Promise<Seen>;
  /**
   * Reads again (bounded) until the answer shows what the sequence wrote (lib/suite-kit/read-back.ts):
   * a store's reads may lag its writes. Absent: one read.
   */
  readBack?: (read: () => Promise<Seen>, visible: (seen: Seen) => boolean) => Promise<Seen>;
}

const once = (read: () => Promise<Seen>): Promise<Seen> => read();

/** The model, and the commands run so far (for the failure message). */
export interface Sequence {
  model: StoreModel;
  steps: string[];
}

export class StepFailed extends Error {
  constructor(readonly failure: StepFailure) {
    super(`${failure.steps.at(-1)}: ${failure.problems.join('; ')}`);
  }
}

type StoreCommand = fc.AsyncCommand<Sequence, StoreApi>;

/** A judged step: its name recorded; a disagreement (its problems and their code) ends the sequence. */
function step(sequence: Sequence, name: string, judged: { problems: string[]; code?: string }, seen: Seen): void {
  sequence.steps.push(name);
  const { problems, code } = judged;
  if (problems.length > 0) throw new StepFailed({ steps: [...sequence.steps], problems, ...(code ? { code } : {}), seen });
}

class Create implements StoreCommand {
  constructor(readonly pet: NewPet) {}
  check(s: Readonly<Sequence>): boolean {
    return s.model.writes;
  }
  async run(s: Sequence, api: StoreApi): Promise<void> {
    const seen = await api.create(this.pet);
    const judged = judgeCreateStep(s.model, this.pet, seen);
    step(s, this.toString(), judged, seen);
    const { learned } = judged;
    if (learned) s.model.known.set(learned.id, learned);
  }
  toString(): string {
    return `Create(${stringifyJson(this.pet)})`;
  }
}

class List implements StoreCommand {
  constructor(readonly query: ListQuery) {}
  check(): boolean {
    return true;
  }
  async run(s: Sequence, api: StoreApi): Promise<void> {
    // Listed again while the one thing wrong is a known animal missing (it may not be visible yet).
    const seen = await (api.readBack ?? once)(() => api.list(this.query), (answer) => judgeListStep(s.model, this.query, answer).code !== 'known-animal-missing');
    const judged = judgeListStep(s.model, this.query, seen);
    step(s, this.toString(), judged, seen);
    const { learned } = judged;
    // Without writes, the model learns the store from what it reads.
    if (!s.model.writes) for (const pet of learned) if (!s.model.known.has(pet.id)) s.model.known.set(pet.id, pet);
  }
  toString(): string {
    const parts = [this.query.limit !== undefined ? `limit=${this.query.limit}` : '', this.query.status ? `status=${this.query.status}` : ''].filter(Boolean);
    return `List(${parts.join(', ')})`;
  }
}

class Get implements StoreCommand {
  constructor(readonly pick: number) {}
  check(s: Readonly<Sequence>): boolean {
    return s.model.known.size > 0;
  }
  async run(s: Sequence, api: StoreApi): Promise<void> {
    const ids = [...s.model.known.keys()];
    const id = ids[this.pick % ids.length]!;
    // Read again while not found: an animal created just before may not be visible yet.
    const seen = await (api.readBack ?? once)(() => api.get(id), (answer) => answer.status !== 404);
    step(s, `Get(${id})`, judgeGetStep(s.model, id, seen), seen);
  }
  toString(): string {
    return `Get(#${this.pick})`;
  }
}

const status = fc.option(fc.constantFrom(...PET_STATUSES), { nil: undefined });

/** A NewPet named with the harness's prefix: plain names (the create-pet suite tries the hard ones). */
function newPet(namePrefix: string): fc.Arbitrary<NewPet> {
  return fc
    .record({ n: fc.nat({ max: 9999 }), categoryId: fc.bigInt({ min: 0n, max: 1000n }), status })
    .map(({ n, categoryId, status: s }) => ({ name: `${namePrefix}model ${n}`, categoryId, ...(s ? { status: s } : {}) }));
}

/** Limits worth combining with a filter: the ends, small pages, and absent (the default). */
const limit = fc.option(fc.oneof(fc.constantFrom(PAGE_SIZE.min, PAGE_SIZE.max, 2, 3), fc.integer({ min: PAGE_SIZE.min, max: PAGE_SIZE.max })), { nil: undefined });

export interface StoreCommandsOptions {
  namePrefix: string;
  /** Without writes there is no Create: the sequence lists and gets what is there. */
  writes: boolean;
  maxCommands: number;
  /** Bound on shrinking steps: each one sends the sequence again. */
  maxShrinks: number;
}

export function storeCommands(options: StoreCommandsOptions): fc.Arbitrary<Iterable<StoreCommand>> {
  const list = fc.record({ limit, status }).map((q) => new List({ ...(q.limit !== undefined ? { limit: q.limit } : {}), ...(q.status ? { status: q.status } : {}) }));
  const get = fc.nat({ max: 1000 }).map((pick) => new Get(pick));
  const create = newPet(options.namePrefix).map((pet) => new Create(pet));
  const kinds: fc.Arbitrary<StoreCommand>[] = options.writes ? [create, create, list, list, get] : [list, list, get];
  return fc.limitShrink(fc.commands(kinds, { maxCommands: options.maxCommands }), options.maxShrinks);
}

/** Runs one sequence against the store; the first step that disagrees with the model, if any. */
export async function runSequence(commands: Iterable<StoreCommand>, api: StoreApi, writes: boolean): Promise<{ failure?: StepFailure; steps: number }> {
  const sequence: Sequence = { model: { known: new Map(), writes }, steps: [] };
  try {
    await fc.asyncModelRun(() => ({ model: sequence, real: api }), commands);
  } catch (err) {
    if (err instanceof StepFailed) return { failure: err.failure, steps: sequence.steps.length };
    throw err;
  }
  return { steps: sequence.steps.length };
}
