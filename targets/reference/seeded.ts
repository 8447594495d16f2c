// Deterministic noise for the variations that differ per request (reset-jitter, slow-responses):
// a server sees the same sequence on every run.

/** A fraction in [0, 1) that depends only on `salt` and `n` (MurmurHash3's finaliser over both). */
export function seededFraction(salt: number, n: number): number {
  let h = (Math.imul(n, 0x9e3779b1) ^ salt) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}
