// A valid NewPet plus members the interface does not define. NewPet lists name, categoryId and
// status and forbids nothing else (JSON Schema allows additional properties unless told not to),
// so the body is still a valid NewPet.
import fc from 'fast-check';
import { stringifyJson } from '../json.ts';
import { type GeneratedNewPet, newPetValue, withMembers } from './_internals/new-pet-value.ts';
import { type NamePrefixOptions, resolveNamePrefixOptions } from './_internals/options.ts';

export type NewPetWithExtraFieldsOptions = NamePrefixOptions;

export type NewPetWithExtraFieldsCase = {
  /** The exact JSON text to send: the pet's members and the extra ones. */
  body: string;
  /** The NewPet part, as validNewPet gives it. */
  pet: GeneratedNewPet;
  /** The extra members (JSON values: strings, safe integers, booleans, null, arrays, objects). */
  extra: Record<string, unknown>;
};

/**
 * Names an extra member never takes, compared case-insensitively: the NewPet and Pet fields (a
 * service binding names case-insensitively would read "Status" as status) and the names that act
 * on a JavaScript object's prototype.
 */
const RESERVED = new Set(['name', 'categoryid', 'status', 'id', '__proto__', 'constructor', 'prototype']);
const isFree = (key: string): boolean => !RESERVED.has(key.toLowerCase());

const WELL_KNOWN_EXTRAS = ['tags', 'owner', 'nickname', 'color', 'weightKg', 'birthDate', 'photoUrls', 'notes', 'vaccinated', '_links', 'x-extra'];

const extraKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...WELL_KNOWN_EXTRAS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,15}$/).filter(isFree) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter(isFree) },
);

/** -0 would come back as 0, so integers are normalised (n + 0 turns -0 into 0). */
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.integer().map((n) => n + 0),
  fc.boolean(),
  fc.constant(null),
);
const extraValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,9}$/).filter(isFree), leaf, { maxKeys: 3, noNullPrototype: true }),
  },
);

/** One to four extra members, placed before or after the pet's own. */
export function newPetWithExtraFields(options?: NewPetWithExtraFieldsOptions): fc.Arbitrary<NewPetWithExtraFieldsCase> {
  const { namePrefix } = resolveNamePrefixOptions(options);
  const extras = fc
    .uniqueArray(fc.tuple(extraKey, extraValue), { minLength: 1, maxLength: 4, selector: ([key]) => key })
    .map((entries) => Object.fromEntries(entries) as Record<string, unknown>);
  return fc
    .tuple(newPetValue(namePrefix), extras, fc.boolean())
    .map(([pet, extra, first]) => ({ body: stringifyJson(withMembers(pet, extra, first)), pet, extra }));
}
