// `limit` on GET /pets ("Page size"): minimum 1, maximum 100, default 20.
import fc from 'fast-check';
import { PAGE_SIZE } from '../models.ts';

/** The ends of the contract, maximum first: a property tries them on every run before its generated cases. */
export const PAGE_LIMIT_ENDS: readonly number[] = [PAGE_SIZE.max, PAGE_SIZE.min];

/** Page sizes inside the contract, biased to 1, 2, 20 (the default), 99 and 100. */
export function pageLimit(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(PAGE_SIZE.min, PAGE_SIZE.min + 1, PAGE_SIZE.default, PAGE_SIZE.max - 1, PAGE_SIZE.max) },
    { weight: 2, arbitrary: fc.integer({ min: PAGE_SIZE.min, max: PAGE_SIZE.max }) },
  );
}
