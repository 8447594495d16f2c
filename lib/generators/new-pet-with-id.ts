// A valid NewPet that also carries an `id`. NewPet has no id (the service assigns it on
// creation), and the interface does not forbid extra members, so the body is a valid NewPet; what
// a service does with the id it was sent is for the checks to judge.
import fc from 'fast-check';
import { stringifyJson } from '../json.ts';
import { int64 } from './_internals/int64.ts';
import { type GeneratedNewPet, newPetValue, withMembers } from './_internals/new-pet-value.ts';
import { type NamePrefixOptions, resolveNamePrefixOptions } from './_internals/options.ts';

export type NewPetWithIdOptions = NamePrefixOptions;

export type NewPetWithIdCase = {
  /** The exact JSON text to send, id written with every digit. */
  body: string;
  /** The NewPet part, as validNewPet gives it. */
  pet: GeneratedNewPet;
  /** The id sent: any int64, biased to the same edges as categoryId. */
  id: bigint;
};

/** The id goes before or after the pet's own members. */
export function newPetWithId(options?: NewPetWithIdOptions): fc.Arbitrary<NewPetWithIdCase> {
  const { namePrefix } = resolveNamePrefixOptions(options);
  return fc
    .tuple(newPetValue(namePrefix), int64(), fc.boolean())
    .map(([pet, id, first]) => ({ body: stringifyJson(withMembers(pet, { id }, first)), pet, id }));
}
