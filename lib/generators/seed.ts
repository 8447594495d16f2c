// Per-check seeds: a property check's cases depend only on the run's seed and the check's name,
// so running a subset of the checks (or adding one) replays the same cases for every other check.
import { fmix32 } from '../hash.ts';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`. */
function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/**
 * The fast-check seed of one check: a signed 32-bit integer (the form fast-check reports seeds
 * in) from FNV-1a of the check's name mixed with both halves of the run seed.
 *
 * @param runSeed the run's seed, a safe integer (negative allowed)
 * @param checkName the check's stable name
 * @throws RangeError when runSeed is not a safe integer
 */
export function seedFor(runSeed: number, checkName: string): number {
  if (!Number.isSafeInteger(runSeed)) throw new RangeError(`run seed must be a safe integer, got ${runSeed}`);
  const low = runSeed >>> 0; // ToUint32: the low 32 bits, two's complement for negatives
  const high = Math.floor(runSeed / 2 ** 32) >>> 0;
  const run = fmix32(low ^ fmix32(high ^ 0x9e3779b9));
  return fmix32(fnv1a(checkName) ^ run) | 0;
}
