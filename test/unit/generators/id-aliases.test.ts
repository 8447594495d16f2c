// idAliases: the ids a sign, index, wrap or integer-width mistake maps onto a known id X.
import { describe, expect, it } from 'vitest';
import { EDGE_IDS, idAliases } from '../../../lib/generators/id-aliases.ts';
import { INT64_MAX, INT64_MIN } from '../../../lib/models.ts';

const P = (n: number) => 2n ** BigInt(n);
const XS = [1n, 7n, 127n, 255n, P(31) - 1n, P(53) + 1n, 4_611_686_018_427_387_903n, INT64_MAX, -5n, 0n];

describe('idAliases', () => {
  it.each(XS)('gives each id once, never X itself (X = %s)', (x) => {
    const aliases = idAliases(x);
    const ids = aliases.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(x);
    expect(aliases.length).toBeLessThanOrEqual(32);
    for (const a of aliases) expect(a.why).not.toBe('');
  });

  it('computes the aliases of 7 exactly, the sign and the neighbours first', () => {
    const aliases = idAliases(7n);
    expect(aliases.slice(0, 3)).toEqual([
      { id: -7n, kind: 'negated', why: '-X: the sign dropped' },
      { id: 6n, kind: 'adjacent', why: expect.stringContaining('X - 1: an index') },
      { id: 8n, kind: 'adjacent', why: expect.stringContaining('X + 1: an index') },
    ]);
    const wrapped = aliases.filter((a) => a.kind === 'wrapped').map((a) => a.id);
    expect(wrapped).toEqual([7n + P(8), 7n - P(8), 7n + P(16), 7n - P(16), 7n + P(31), 7n - P(31), 4_294_967_303n, 7n - P(32), 7n - P(63), 7n + P(64), 7n - P(64)]);
    expect(aliases.find((a) => a.id === 4_294_967_303n)?.why).toBe('X + 2^32: the id kept in 32 bits');
    // Beyond int64, as a uint64 or BigInt.asIntN wrap reads it, with every digit.
    expect(aliases.find((a) => a.id === 18_446_744_073_709_551_623n)?.kind).toBe('wrapped');
    expect(aliases.find((a) => a.id === -18_446_744_073_709_551_609n)?.kind).toBe('wrapped');
  });

  it('maps every wrapped alias back onto X modulo its power of two', () => {
    for (const x of XS) {
      for (const a of idAliases(x).filter((a) => a.kind === 'wrapped')) {
        const n = Number(/2\^(\d+)/.exec(a.why)![1]);
        expect(BigInt.asUintN(n, a.id), a.why).toBe(BigInt.asUintN(n, x));
      }
    }
  });

  it('keeps digits beyond 2^53 exact: the aliases of a large X differ from it by exact powers of two', () => {
    const x = P(53) + 1n;
    const ids = idAliases(x).map((a) => a.id);
    expect(ids).toContain(x + 1n);
    expect(ids).toContain(x - 1n);
    expect(ids).toContain(x + P(32));
    // A double could not tell these apart from X.
    expect(Number(x - 1n)).toBe(Number(x));
  });

  it('tries both ends of every width, once each, whatever X is', () => {
    expect(EDGE_IDS.map((e) => e.id)).toEqual([0n, -1n, -128n, 127n, 255n, -32768n, 32767n, 65535n, -P(31), P(31) - 1n, P(31), P(32) - 1n, P(53) - 1n, P(53) + 1n, INT64_MIN, INT64_MAX, P(64) - 1n]);
    const ofSeven = idAliases(7n).filter((a) => a.kind === 'edge').map((a) => a.id);
    expect(ofSeven).toEqual(EDGE_IDS.map((e) => e.id));
  });

  it('keeps the first reason of an id that is several aliases at once, and leaves out X when it is an edge', () => {
    // X = 1: X - 1 is 0, an index off by one before it is an edge.
    const ofOne = idAliases(1n);
    expect(ofOne.filter((a) => a.id === 0n)).toEqual([{ id: 0n, kind: 'adjacent', why: expect.stringContaining('X - 1') }]);
    // X = 127 is the high end of int8: not sent.
    expect(idAliases(127n).map((a) => a.id)).not.toContain(127n);
    // X = 0: -X is X.
    expect(idAliases(0n).some((a) => a.kind === 'negated')).toBe(false);
  });
});
