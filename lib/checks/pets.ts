// Reading animals out of responses, and comparing them. Ids are bigint: compared exactly. A Pet is
// compared by the members the interface names (what Pet's model keeps) and nothing else: a server
// may add others (createdAt, _links), which are recorded (otherMembers), never compared.
import { type NewPet, Pet, Pets } from '../models.ts';
import { tryParseJson } from '../json.ts';
import { jsonProblems, modelProblems, type Problem, problem } from './bodies.ts';
import { type Finding, pass, type Seen } from './types.ts';

export interface Parsed<T> {
  value?: T;
  problems: Problem[];
}

/** The members of a Pet the interface names ("Pet has all fields of NewPet plus" id), from the model: id, name, categoryId, status. */
export const PET_MEMBERS: readonly string[] = Object.keys(Pet.shape);
const NAMED: ReadonlySet<string> = new Set(PET_MEMBERS);

/**
 * The members of a JSON value read as a Pet that the interface does not name (createdAt, _links,
 * …): recorded, never compared (Pet's model keeps only the named ones). A value that is not a
 * JSON object has none.
 */
export function otherMembers(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value).filter((name) => !NAMED.has(name));
}

/**
 * A finding that passed, saying which members the interface does not name came with the Pets it
 * compared (they were not compared); any other finding, or none such, unchanged.
 */
export function notingOtherMembers(finding: Finding, others: readonly string[]): Finding {
  if (finding.outcome !== 'pass' || others.length === 0) return finding;
  const said = `members the interface does not name, not compared: ${[...new Set(others)].join(', ')}`;
  return pass(finding.message ? `${finding.message}; ${said}` : said);
}

/**
 * A Pet, as JSON: its value holds only the members the interface names; `others` names the rest.
 * Codes: invalid-pet, and jsonProblems' (empty-body, not-json, no-content-type, not-json-media-type).
 */
export function readPet(seen: Seen): Parsed<Pet> & { others: string[] } {
  const { problems, value } = jsonProblems(seen);
  const others = otherMembers(value);
  if (value === undefined) return { problems, others };
  const shape = modelProblems(Pet, value, 'Pet');
  if (shape.length > 0) return { problems: [...shape.map((text) => problem('invalid-pet', text)), ...problems], others };
  return { value: Pet.parse(value), problems, others };
}

/** Pets, as JSON. Codes: invalid-pets, and jsonProblems'. */
export function readPets(seen: Seen): Parsed<Pet[]> {
  const { problems, value } = jsonProblems(seen);
  if (value === undefined) return { problems };
  const shape = modelProblems(Pets, value, 'Pets');
  if (shape.length > 0) return { problems: [...shape.map((text) => problem('invalid-pets', text)), ...problems] };
  return { value: Pets.parse(value), problems };
}

/**
 * A listPets page read leniently: the items of a JSON array whatever the Content-Type (the media
 * type is judged on its own), the ones that are Pets, and how many are not (list-pets.pet-shape
 * judges those). `problems` says why there is no array at all.
 */
export interface Page {
  items: unknown[];
  pets: Pet[];
  invalid: number;
}

/** Codes of `problems`: empty-body, not-json, not-json-array. */
export function readPage(seen: Seen): { page?: Page; problems: Problem[] } {
  if (seen.text.trim() === '') return { problems: [problem('empty-body', 'body is empty')] };
  const parsed = tryParseJson(seen.text);
  if (!parsed.ok) return { problems: [problem('not-json', `body is not JSON (${parsed.error})`)] };
  if (!Array.isArray(parsed.value)) return { problems: [problem('not-json-array', 'body is not a JSON array')] };
  const items: unknown[] = parsed.value;
  const pets = items.flatMap((item) => {
    const pet = Pet.safeParse(item);
    return pet.success ? [pet.data] : [];
  });
  return { page: { items, pets, invalid: items.length - pets.length }, problems: [] };
}

/** What each item of a page that is not a Pet gets wrong, at most a few. Code: invalid-pet. */
export function invalidPetProblems(items: readonly unknown[]): Problem[] {
  const problems: Problem[] = [];
  items.forEach((item, i) => {
    for (const text of modelProblems(Pet, item, `item ${i}`)) problems.push(problem('invalid-pet', text));
  });
  return problems;
}

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? v.toString() : v === undefined ? 'absent' : String(v));

/**
 * What of the NewPet sent did not come back exactly. Status is compared only when it was sent.
 * Codes: name-not-echoed, category-id-not-echoed, status-not-echoed.
 */
export function echoProblems(sent: NewPet, got: Pick<Pet, 'name' | 'categoryId' | 'status'>): Problem[] {
  const problems: Problem[] = [];
  if (got.name !== sent.name) problems.push(problem('name-not-echoed', `name ${show(got.name)} is not the ${show(sent.name)} sent`));
  if (got.categoryId !== sent.categoryId) problems.push(problem('category-id-not-echoed', `categoryId ${show(got.categoryId)} is not the ${show(sent.categoryId)} sent`));
  if (sent.status !== undefined && got.status !== sent.status) problems.push(problem('status-not-echoed', `status ${show(got.status)} is not the ${show(sent.status)} sent`));
  return problems;
}

/** Differences between two views of one animal (all fields of Pet). Codes: id-differs, name-differs, category-id-differs, status-differs. */
export function sameAnimalProblems(expected: Pet, got: Pet): Problem[] {
  const problems: Problem[] = [];
  if (got.id !== expected.id) problems.push(problem('id-differs', `id ${show(got.id)} is not ${show(expected.id)}`));
  if (got.name !== expected.name) problems.push(problem('name-differs', `name ${show(got.name)} is not ${show(expected.name)}`));
  if (got.categoryId !== expected.categoryId) problems.push(problem('category-id-differs', `categoryId ${show(got.categoryId)} is not ${show(expected.categoryId)}`));
  if (got.status !== expected.status) problems.push(problem('status-differs', `status ${show(got.status)} is not ${show(expected.status)}`));
  return problems;
}

export function duplicateIds(pets: readonly Pet[]): bigint[] {
  const seen = new Set<bigint>();
  const dups = new Set<bigint>();
  for (const p of pets) (seen.has(p.id) ? dups : seen).add(p.id);
  return [...dups];
}
