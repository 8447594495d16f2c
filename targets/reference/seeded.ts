// Deterministic noise for the reference server: the preloaded animals, and the variations that
// differ per request (reset-jitter, slow-responses). A server sees the same sequence on every run.
import { fmix32 } from '../../lib/hash.ts';

/** A fraction in [0, 1) that depends only on `salt` and `n`. */
export function seededFraction(salt: number, n: number): number {
  return fmix32(Math.imul(n, 0x9e3779b1) ^ salt) / 2 ** 32;
}
