// Animals present at start (config `preload`): varied like a real catalogue, but derived from the
// index alone so every run with the same count holds the same animals.
import { INT64_MAX, INT64_MIN, type PetStatus } from '../../lib/models.ts';
import type { NewPetInput } from './pet-record.ts';

const NAMES = [
  'Rex', 'Mittens', 'Biscuit', 'Luna', 'Señor Bigotes', 'Ünal', 'Tama 🐈', 'Blue Parrot', 'Goldie',
  "Sir Reginald Fluffington III", 'Пушок', '小白', 'Ziggy', 'Nemo', 'Mr. Pickles', 'Kiwi', "O'Malley", 'Pépé',
] as const;
const SUFFIXES = ['', '', '', ' Jr.', ' 2', ' (rescue)'] as const;
// Weighted towards available, as a shop's stock would be; undefined is "created without status".
const STATUSES: readonly (PetStatus | undefined)[] = [
  'available', 'available', 'available', 'available', 'pending', 'pending', 'sold', 'sold', 'sold', undefined,
];
const TWO_53 = 2n ** 53n;

/** The i-th preloaded animal (from 0). */
export function preloadedPet(i: number): NewPetInput {
  const h1 = lowbias32(i + 1);
  const h2 = lowbias32(h1);
  const h3 = lowbias32(h2);
  const status = STATUSES[h1 % STATUSES.length];
  return {
    name: `${NAMES[h2 % NAMES.length]}${SUFFIXES[(h2 >>> 8) % SUFFIXES.length]}`,
    categoryId: categoryId(h3),
    ...(status === undefined ? {} : { status }),
  };
}

/** Mostly small category ids, some beyond 2^32 and 2^53, a few at the ends of int64 or negative. */
function categoryId(h: number): bigint {
  const small = BigInt(h % 1000);
  switch ((h >>> 16) % 16) {
    case 10:
      return 4_294_967_296n + small;
    case 11:
    case 12:
      return TWO_53 + small;
    case 13:
      return INT64_MAX - small;
    case 14:
      return -1n - small;
    case 15:
      return h % 2 === 0 ? INT64_MIN : 0n;
    default:
      return BigInt((h % 12) + 1);
  }
}

/**
 * A 32-bit integer hash (lowbias32): neighbouring indexes give unrelated values. Not lib/hash.ts's
 * fmix32 on purpose: the preloaded catalogue is this hash's, and the tests and the fault catalogue
 * count on its animals (how many are available among the first 50, say).
 */
function lowbias32(n: number): number {
  let x = n >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}
