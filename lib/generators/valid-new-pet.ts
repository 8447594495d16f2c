// Valid createPet request bodies: NewPet ("Resources and their fields") as JSON text.
import fc from 'fast-check';
import { stringifyJson } from '../json.ts';
import { PET_STATUSES } from '../models.ts';
import { INT64_EDGES } from './_internals/int64.ts';
import { type GeneratedNewPet, newPetValue } from './_internals/new-pet-value.ts';
import { type NamePrefixOptions, resolveNamePrefixOptions } from './_internals/options.ts';

export type { GeneratedNewPet } from './_internals/new-pet-value.ts';
export type ValidNewPetOptions = NamePrefixOptions;

export type ValidNewPetCase = {
  /** What was sent, as values: categoryId a bigint (compare ids exactly), status absent or set. */
  pet: GeneratedNewPet;
  /** The exact JSON text to send: stringifyJson(pet), categoryId written with every digit. */
  body: string;
};

/**
 * A NewPet that every conforming service must accept.
 *
 * - name: `${lead}${namePrefix}${core}${trail}`; lead and trail are usually '' and sometimes
 *   whitespace (space, tab, U+00A0, U+3000, newline); core is ASCII, Latin with combining marks,
 *   Hebrew/Arabic, CJK, emoji (ZWJ sequences, flags, astral code points), JSON-sensitive
 *   characters, arbitrary graphemes or code points, or long text (up to 2,000 code units). Never
 *   a lone surrogate (see _internals/pet-name.ts for why), never an empty core.
 * - categoryId: any int64, biased to 0, ±1, ±(2^53 - 1), ±2^53, ±(2^53 + 1), 2^63 - 1, -2^63.
 * - status: absent, or each PetStatus value.
 * - keys in any order.
 */
export function validNewPet(options?: ValidNewPetOptions): fc.Arbitrary<ValidNewPetCase> {
  const { namePrefix } = resolveNamePrefixOptions(options);
  return newPetValue(namePrefix).map((pet) => ({ pet, body: stringifyJson(pet) }));
}

/**
 * One NewPet for each int64 edge of categoryId, in this order: 0, -1, 1, ±(2^53 - 1), ±2^53,
 * ±(2^53 + 1), 2^63 - 1, -2^63, 2^63 - 2, -2^63 + 1, 2^31 - 1, -2^31, 2^32. A property checks
 * them first (its `examples`), so every edge is tried on every run rather than when the random
 * cases happen to hit it. Each is named `${namePrefix}categoryId <value>`; status goes round
 * absent, available, pending, sold.
 */
export function validNewPetEdges(options?: ValidNewPetOptions): ValidNewPetCase[] {
  const { namePrefix } = resolveNamePrefixOptions(options);
  const statuses = [undefined, ...PET_STATUSES];
  return INT64_EDGES.map((categoryId, i) => {
    const status = statuses[i % statuses.length];
    const pet: GeneratedNewPet = { name: `${namePrefix}categoryId ${categoryId}`, categoryId, ...(status === undefined ? {} : { status }) };
    return { pet, body: stringifyJson(pet) };
  });
}
