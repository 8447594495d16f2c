// The one MurmurHash3 finaliser of the project: the harness's per-check seeds and the reference
// server's per-request noise (its reset-jitter and slow-responses variations) mix with it.

/** MurmurHash3's finaliser: every input bit affects every output bit; neighbouring inputs give unrelated values. */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
