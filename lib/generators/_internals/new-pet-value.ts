// A valid NewPet value, with its keys in any order (JSON object members are unordered, so a
// service must not depend on the order; the object's insertion order is what stringifyJson writes).
import fc from 'fast-check';
import { PET_STATUSES, type PetStatus } from '../../models.ts';
import { int64 } from './int64.ts';
import { petName } from './pet-name.ts';

/** A NewPet as the generators hand it out: categoryId is always a bigint; status may be absent. */
export type GeneratedNewPet = { name: string; categoryId: bigint; status?: PetStatus };

type Key = 'name' | 'categoryId' | 'status';
const KEY_ORDERS: readonly (readonly Key[])[] = [
  ['name', 'categoryId', 'status'],
  ['categoryId', 'name', 'status'],
  ['status', 'name', 'categoryId'],
  ['name', 'status', 'categoryId'],
  ['categoryId', 'status', 'name'],
  ['status', 'categoryId', 'name'],
];

/** status is absent (no key at all) a quarter of the time, and each value a quarter. */
export function optionalStatus(): fc.Arbitrary<PetStatus | undefined> {
  return fc.constantFrom<PetStatus | undefined>(undefined, ...PET_STATUSES);
}

export function newPetValue(namePrefix: string): fc.Arbitrary<GeneratedNewPet> {
  return fc
    .tuple(petName(namePrefix), int64(), optionalStatus(), fc.constantFrom(...KEY_ORDERS))
    .map(([name, categoryId, status, order]) => {
      const fields: GeneratedNewPet = { name, categoryId, ...(status === undefined ? {} : { status }) };
      const pet: Record<string, unknown> = {};
      for (const key of order) if (key in fields) pet[key] = fields[key];
      return pet as GeneratedNewPet;
    });
}

/** Adds members to a pet object, before or after its own keys (shallow, no shared references). */
export function withMembers(pet: GeneratedNewPet, members: Record<string, unknown>, first: boolean): Record<string, unknown> {
  return first ? { ...members, ...pet } : { ...pet, ...members };
}
