// Reading animals out of responses, and comparing them. Ids are bigint: compared exactly.
import { type NewPet, Pet, Pets } from '../models.ts';
import { tryParseJson } from '../json.ts';
import { jsonProblems, modelProblems } from './bodies.ts';
import type { Seen } from './types.ts';

export interface Parsed<T> {
  value?: T;
  problems: string[];
}

export function readPet(seen: Seen): Parsed<Pet> {
  const { problems, value } = jsonProblems(seen);
  if (value === undefined) return { problems };
  const shape = modelProblems(Pet, value, 'Pet');
  if (shape.length > 0) return { problems: [...problems, ...shape] };
  return { value: Pet.parse(value), problems };
}

export function readPets(seen: Seen): Parsed<Pet[]> {
  const { problems, value } = jsonProblems(seen);
  if (value === undefined) return { problems };
  const shape = modelProblems(Pets, value, 'Pets');
  if (shape.length > 0) return { problems: [...problems, ...shape] };
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

export function readPage(seen: Seen): { page?: Page; problems: string[] } {
  if (seen.text.trim() === '') return { problems: ['body is empty'] };
  const parsed = tryParseJson(seen.text);
  if (!parsed.ok) return { problems: [`body is not JSON (${parsed.error})`] };
  if (!Array.isArray(parsed.value)) return { problems: ['body is not a JSON array'] };
  const items: unknown[] = parsed.value;
  const pets = items.flatMap((item) => {
    const pet = Pet.safeParse(item);
    return pet.success ? [pet.data] : [];
  });
  return { page: { items, pets, invalid: items.length - pets.length }, problems: [] };
}

/** What each item of a page that is not a Pet gets wrong, at most a few. */
export function invalidPetProblems(items: readonly unknown[]): string[] {
  const problems: string[] = [];
  items.forEach((item, i) => {
    const shape = modelProblems(Pet, item, `item ${i}`);
    if (shape.length > 0) problems.push(...shape);
  });
  return problems;
}

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : typeof v === 'bigint' ? v.toString() : v === undefined ? 'absent' : String(v));

/** What of the NewPet sent did not come back exactly. Status is compared only when it was sent. */
export function echoProblems(sent: NewPet, got: Pick<Pet, 'name' | 'categoryId' | 'status'>): string[] {
  const problems: string[] = [];
  if (got.name !== sent.name) problems.push(`name ${show(got.name)} is not the ${show(sent.name)} sent`);
  if (got.categoryId !== sent.categoryId) problems.push(`categoryId ${show(got.categoryId)} is not the ${show(sent.categoryId)} sent`);
  if (sent.status !== undefined && got.status !== sent.status) problems.push(`status ${show(got.status)} is not the ${show(sent.status)} sent`);
  return problems;
}

/** Differences between two views of one animal (all fields of Pet). */
export function sameAnimalProblems(expected: Pet, got: Pet): string[] {
  const problems: string[] = [];
  if (got.id !== expected.id) problems.push(`id ${show(got.id)} is not ${show(expected.id)}`);
  if (got.name !== expected.name) problems.push(`name ${show(got.name)} is not ${show(expected.name)}`);
  if (got.categoryId !== expected.categoryId) problems.push(`categoryId ${show(got.categoryId)} is not ${show(expected.categoryId)}`);
  if (got.status !== expected.status) problems.push(`status ${show(got.status)} is not ${show(expected.status)}`);
  return problems;
}

export function duplicateIds(pets: readonly Pet[]): bigint[] {
  const seen = new Set<bigint>();
  const dups = new Set<bigint>();
  for (const p of pets) (seen.has(p.id) ? dups : seen).add(p.id);
  return [...dups];
}
