// PetStatus ("Resources and their fields"): available, pending, sold. Also the strings that are
// not one of them: a value in another case ("Available", "SOLD"), which the enum does not hold,
// and unknown words. Both are invalid wherever a PetStatus is asked for: in a NewPet (createPet)
// and in the status filter of listPets ("one of `available`, `pending`, `sold`").
import fc from 'fast-check';
import { PET_STATUSES, type PetStatus } from '../models.ts';

/** One of the three PetStatus values (shrinks towards 'available'). */
export function petStatus(): fc.Arbitrary<PetStatus> {
  return fc.constantFrom(...PET_STATUSES);
}

/**
 * The PetStatus a string is once case is ignored, by full Unicode case folding as well as by ASCII
 * ("ſold" upper-cases to "SOLD"), or undefined. What a reader that ignores case takes it for.
 */
export function petStatusIgnoringCase(value: string): PetStatus | undefined {
  return PET_STATUSES.find((status) => status === value.toLowerCase() || status === value.toUpperCase().toLowerCase());
}

/** Whether a string is a PetStatus once case is ignored (see petStatusIgnoringCase). */
export function isPetStatusIgnoringCase(value: string): boolean {
  return petStatusIgnoringCase(value) !== undefined;
}

const isPetStatus = (value: string): boolean => (PET_STATUSES as readonly string[]).includes(value);

/**
 * A PetStatus in another case, never the value itself: capitalised, upper case, mixed case, and
 * "ſold" (U+017F LATIN SMALL LETTER LONG S, which upper-cases to S): a service that compares
 * case-insensitively takes it for a value it is not.
 */
export function petStatusInAnotherCase(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('Available', 'AVAILABLE', 'Pending', 'PENDING', 'Sold', 'SOLD', 'ſold'),
    fc
      .tuple(petStatus(), fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }))
      .map(([status, upper]) => [...status].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''))
      .filter((value) => !isPetStatus(value)),
  );
}

/**
 * A word that is no PetStatus in any case: misspellings, prefixes and extensions of the values
 * (which a prefix match would take), and other words. Never empty, never with whitespace at the
 * ends, never a list ("available,sold"): a service may read those as "no filter", as a trimmed
 * value or as several values, readings the checks would have to argue with.
 */
export function unknownPetStatus(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('adopted', 'availabl', 'availables', 'solds', 'sold out', 'in stock', 'reserved', 'lost'),
    fc.stringMatching(/^[a-z][a-z_-]{0,11}$/).filter((value) => !isPetStatusIgnoringCase(value)),
  );
}

export type NotAPetStatusCase = {
  value: string;
  /** How it misses; the empty string and blanks are named by the suite, never generated. */
  reason: 'a PetStatus in another case' | 'not a PetStatus in any case' | 'empty or whitespace only';
};

/** A string that is not a PetStatus, labelled by how it misses: its case, or altogether. */
export function notAPetStatus(): fc.Arbitrary<NotAPetStatusCase> {
  return fc.oneof(
    petStatusInAnotherCase().map((value): NotAPetStatusCase => ({ value, reason: 'a PetStatus in another case' })),
    unknownPetStatus().map((value): NotAPetStatusCase => ({ value, reason: 'not a PetStatus in any case' })),
  );
}

/** Whitespace a padded status may carry at its ends (what a trimming reader removes). */
const PADDING = [' ', '  ', '\t', '\n', ' \t'] as const;

/**
 * A PetStatus as written with whitespace before it, after it or both (" available", "sold "): no
 * PetStatus, but one to a reader that trims.
 */
export function petStatusWithWhitespace(): fc.Arbitrary<string> {
  return fc
    .tuple(petStatus(), fc.constantFrom('', ...PADDING), fc.constantFrom('', ...PADDING))
    .filter(([, before, after]) => before !== '' || after !== '')
    .map(([status, before, after]) => `${before}${status}${after}`);
}
