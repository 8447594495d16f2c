// Faults in how getPet reads its petId path segment: other spellings of an id.
import type { FaultDefinition } from '../fault-definition.ts';

export const SPELLING_FAULTS = [
  {
    id: 'get-coerces-id',
    breaks:
      'getPet reads petId with Number() (a validator coercing the path segment): /pets/1.0, /pets/0x1, /pets/%201, /pets/+1, /pets/01 and /pets/1e0 find pet 1. ' +
      'A reading the interface leaves open: only get-pet.canonical-id (should) fails, with --strict.',
    // Other spellings of an id answered with that animal: a reading the interface leaves open (a should).
    caught: { check: 'get-pet.canonical-id', code: 'other-spelling-served' },
  },
  {
    id: 'get-parses-id-prefix',
    breaks: 'getPet reads petId with parseInt(): /pets/7abc and /pets/7.5 find pet 7, ids that are no int64 answered 200.',
    caught: { check: 'get-pet.non-numeric', code: 'accepted' },
  },
] as const satisfies readonly FaultDefinition[];

/**
 * The id a faulty reading of the percent-decoded petId finds, or undefined to read it as the interface says. Number():
 * any number literal of a safe integer (whitespace, sign, leading zeros, fraction of zeros, 0x…,
 * exponent); parseInt(): the leading decimal digits.
 */
export function faultyPetId(segment: string, how: 'number' | 'prefix'): bigint | undefined {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  if (text.trim() === '') return undefined;
  const n = how === 'number' ? Number(text) : parseInt(text, 10);
  return Number.isSafeInteger(n) ? BigInt(n) : undefined;
}
