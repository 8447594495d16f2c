// PetStatus ("Resources and their fields"): available, pending, sold.
import fc from 'fast-check';
import { PET_STATUSES, type PetStatus } from '../models.ts';

/** One of the three PetStatus values (shrinks towards 'available'). */
export function petStatus(): fc.Arbitrary<PetStatus> {
  return fc.constantFrom(...PET_STATUSES);
}
