// Deterministic noise for the reference server: the preloaded animals, and the variations that
// differ per request (reset-jitter, slow-responses). A server sees the same sequence on every run.

/** A 32-bit integer hash (lowbias32): neighbouring inputs give unrelated values. The one hash of the reference server. */
export function mix32(n: number): number {
  let x = n >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A fraction in [0, 1) that depends only on `salt` and `n`. */
export function seededFraction(salt: number, n: number): number {
  return mix32(Math.imul(n, 0x9e3779b1) ^ salt) / 2 ** 32;
}
