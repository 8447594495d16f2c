// Ids that a server's integer mistake maps onto a known animal's id X ("Pet": id, int64, a unique
// identifier): the sign dropped, an index off by one, the id kept in fewer bits (modulo 2^8, 2^16,
// 2^32 or 2^64, or with a top bit masked off), and both ends of every integer width a server may
// read an id into (an out-of-range id clamped or defaulted to an animal). A correct server answers
// each with 404 (or 400), or with the animal whose id is exactly that one. Pure, exact bigint
// arithmetic: ids may exceed 2^53.
import { INT64_MAX, INT64_MIN } from '../models.ts';

/** What kind of mistake maps the alias onto X: the code of the failure names it. */
export type AliasKind = 'negated' | 'adjacent' | 'wrapped' | 'edge';

export interface IdAlias {
  /** The petId to send: exact; may lie beyond int64 (X ± 2^64). */
  id: bigint;
  kind: AliasKind;
  /** The id and the mistake that maps it onto X, e.g. "X + 2^32: the id kept in 32 bits". */
  why: string;
}

const P = (n: number) => 2n ** BigInt(n);

/** X plus or minus 2^n, and the mistake that maps it back onto X. */
const OFFSETS: readonly { n: number; signs: readonly (1n | -1n)[]; mistake: string }[] = [
  { n: 8, signs: [1n, -1n], mistake: 'the id kept in 8 bits' },
  { n: 16, signs: [1n, -1n], mistake: 'the id kept in 16 bits' },
  { n: 31, signs: [1n, -1n], mistake: 'the top bit of 32 masked off' },
  { n: 32, signs: [1n, -1n], mistake: 'the id kept in 32 bits' },
  { n: 63, signs: [-1n], mistake: 'the sign bit of int64 masked off' },
  { n: 64, signs: [1n, -1n], mistake: 'read modulo 2^64 (a uint64 or BigInt.asIntN wrap)' },
];

/**
 * Both ends of every integer width a server may read an id into, and just past int32 (where a
 * 32-bit parse overflows): 0, -1 (an index from the end), int8, uint8, int16, uint16, int32,
 * uint32, the doubles' exact integers (2^53 ± 1), int64 and uint64.
 */
export const EDGE_IDS: readonly { id: bigint; why: string }[] = [
  { id: 0n, why: '0: an unparsed id read as zero, or a first index' },
  { id: -1n, why: '-1: an index from the end' },
  { id: -P(7), why: '-2^7: the low end of int8' },
  { id: P(7) - 1n, why: '2^7 - 1: the high end of int8' },
  { id: P(8) - 1n, why: '2^8 - 1: the high end of uint8' },
  { id: -P(15), why: '-2^15: the low end of int16' },
  { id: P(15) - 1n, why: '2^15 - 1: the high end of int16' },
  { id: P(16) - 1n, why: '2^16 - 1: the high end of uint16' },
  { id: -P(31), why: '-2^31: the low end of int32' },
  { id: P(31) - 1n, why: '2^31 - 1: the high end of int32' },
  { id: P(31), why: '2^31: one past int32, where a 32-bit parse overflows' },
  { id: P(32) - 1n, why: '2^32 - 1: the high end of uint32' },
  { id: P(53) - 1n, why: '2^53 - 1: the largest integer a double holds exactly' },
  { id: P(53) + 1n, why: '2^53 + 1: the first integer a double rounds' },
  { id: INT64_MIN, why: '-2^63: the low end of int64' },
  { id: INT64_MAX, why: '2^63 - 1: the high end of int64' },
  { id: P(64) - 1n, why: '2^64 - 1: the high end of uint64 (-1 in 64 bits)' },
];

/**
 * The aliases of X, most telling first (the sign, the neighbours, the wraps, then the edges):
 * each id once (the first reason kept), none equal to X. About 30.
 */
export function idAliases(x: bigint): IdAlias[] {
  const candidates: IdAlias[] = [
    { id: -x, kind: 'negated', why: '-X: the sign dropped' },
    { id: x - 1n, kind: 'adjacent', why: 'X - 1: an index off by one, or a double rounding it' },
    { id: x + 1n, kind: 'adjacent', why: 'X + 1: an index off by one, or a double rounding it' },
    ...OFFSETS.flatMap(({ n, signs, mistake }) =>
      signs.map((sign): IdAlias => {
        const id = x + sign * P(n);
        return { id, kind: 'wrapped', why: `X ${sign > 0n ? '+' : '-'} 2^${n}: ${mistake}` };
      }),
    ),
    ...EDGE_IDS.map(({ id, why }): IdAlias => ({ id, kind: 'edge', why })),
  ];
  const seen = new Set<bigint>([x]);
  return candidates.filter((c) => {
    if (seen.has(c.id)) return false;
    seen.add(c.id);
    return true;
  });
}
