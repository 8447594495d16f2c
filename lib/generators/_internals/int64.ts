// int64 values (the `Format: int64` of categoryId, id and petId in the interface), biased to the
// places where implementations break: 0 and ±1, the edges of what a double holds exactly
// (±(2^53 - 1), ±2^53, ±(2^53 + 1)), the 32-bit edges, and the ends of int64 itself.
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN } from '../../models.ts';

const TWO_53 = 2n ** 53n;

/** Edge values, every one inside int64. The first one is what a failing case shrinks towards. */
export const INT64_EDGES: readonly bigint[] = [
  0n,
  -1n,
  1n,
  TWO_53 - 1n,
  -(TWO_53 - 1n),
  TWO_53,
  -TWO_53,
  TWO_53 + 1n,
  -(TWO_53 + 1n),
  INT64_MAX,
  INT64_MIN,
  INT64_MAX - 1n,
  INT64_MIN + 1n,
  2n ** 31n - 1n,
  -(2n ** 31n),
  2n ** 32n,
];

/** Any int64: edges, small values, and bigints spread over the whole range. */
export function int64(): fc.Arbitrary<bigint> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...INT64_EDGES) },
    { weight: 1, arbitrary: fc.bigInt({ min: -1000n, max: 1000n }) },
    { weight: 4, arbitrary: fc.bigInt({ min: INT64_MIN, max: INT64_MAX }) },
  );
}

/** Integers just outside int64 and far outside it, above (sign 1) or below (sign -1). */
export function outsideInt64(sign: 1 | -1): fc.Arbitrary<bigint> {
  const edge = sign === 1 ? INT64_MAX + 1n : INT64_MIN - 1n;
  const far = 10n ** 40n;
  const constants = sign === 1 ? [edge, 2n ** 64n, 2n ** 64n + 1n, 10n ** 30n] : [edge, -(2n ** 64n), -(10n ** 30n)];
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...constants) },
    { weight: 1, arbitrary: sign === 1 ? fc.bigInt({ min: edge, max: far }) : fc.bigInt({ min: -far, max: edge }) },
  );
}
