// pageLimit, outOfRangeLimit, petStatus and the strings that are not one, nonNumericPetId.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonNumericPetId, PET_IDS_BEYOND_INT64 } from '../../../lib/generators/non-numeric-pet-id.ts';
import { outOfRangeLimit } from '../../../lib/generators/out-of-range-limit.ts';
import { PAGE_LIMIT_ENDS, pageLimit } from '../../../lib/generators/page-limit.ts';
import { isPetStatusIgnoringCase, notAPetStatus, petStatus, petStatusInAnotherCase, unknownPetStatus } from '../../../lib/generators/pet-status.ts';
import { INT64_MAX, INT64_MIN, PET_STATUSES, PetStatus } from '../../../lib/models.ts';

describe('pageLimit', () => {
  it('is an integer in 1..100', () => {
    fc.assert(
      fc.property(pageLimit(), (limit) => {
        expect(Number.isInteger(limit)).toBe(true);
        expect(limit).toBeGreaterThanOrEqual(1);
        expect(limit).toBeLessThanOrEqual(100);
      }),
      { seed: 5, numRuns: 500 },
    );
  });

  it('has both ends of the contract, the maximum first, for properties to try on every run', () => {
    expect(PAGE_LIMIT_ENDS).toEqual([100, 1]);
  });

  it('is biased to 1, 2, 20, 99 and 100 and also takes other values', () => {
    const samples = fc.sample(pageLimit(), { seed: 5, numRuns: 300 });
    for (const edge of [1, 2, 20, 99, 100]) expect(samples).toContain(edge);
    expect(new Set(samples).size).toBeGreaterThan(30);
  });
});

const SEED = 424_242;
/** The only way to write an in-contract limit: a plain integer literal 1..100. */
const IN_CONTRACT = /^(?:[1-9][0-9]?|100)$/;

describe('outOfRangeLimit', () => {
  it('is never a plain integer literal in 1..100, and is labelled', () => {
    fc.assert(
      fc.property(outOfRangeLimit(), ({ raw, reason }) => {
        expect(IN_CONTRACT.test(raw)).toBe(false);
        expect(reason.length).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('gives lenientValue only for values that denote an integer in 1..100', () => {
    fc.assert(
      fc.property(outOfRangeLimit(), ({ raw, reason, lenientValue }) => {
        if (lenientValue === undefined) return;
        expect(reason.startsWith('not an integer literal')).toBe(true);
        expect(Number(raw.trim())).toBe(lenientValue);
        expect(Number.isInteger(lenientValue) && lenientValue >= 1 && lenientValue <= 100).toBe(true);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('labels values outside 1..100 without lenientValue', () => {
    fc.assert(
      fc.property(outOfRangeLimit(), ({ raw, lenientValue }) => {
        // Decimal notation only: Number() also reads "0x10", which no lenient decimal parser does.
        if (!/^\s*[+-]?[0-9]+(\.[0-9]*)?(e[+-]?[0-9]+)?\s*$/i.test(raw)) return;
        const n = Number(raw);
        if (Number.isInteger(n) && n >= 1 && n <= 100) expect(lenientValue).toBeDefined();
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  describe('coverage (fixed seed, 600 samples)', () => {
    const samples = fc.sample(outOfRangeLimit(), { seed: SEED, numRuns: 600 });
    const raws = new Set(samples.map((s) => s.raw));
    it.each(['0', '101', '500', '-1', '1.5', 'abc', '', '1e2', '1e400', 'Infinity', '10000000000000000000000', ' 5', '+5', '05', '20.0', '4294967297', '0x10', '２０'])(
      '%j appears',
      (raw) => {
        expect(raws).toContain(raw);
      },
    );
    it('labels 1e2 as not an integer literal', () => {
      expect(samples.find((s) => s.raw === '1e2')).toEqual({ raw: '1e2', reason: 'not an integer literal: exponent notation', lenientValue: 100 });
    });
  });
});

describe('petStatus', () => {
  it('is a PetStatus', () => {
    fc.assert(
      fc.property(petStatus(), (status) => {
        expect(PetStatus.safeParse(status).success).toBe(true);
      }),
      { seed: 3, numRuns: 100 },
    );
  });

  it('takes every value', () => {
    expect(new Set(fc.sample(petStatus(), { seed: 3, numRuns: 60 }))).toEqual(new Set(PET_STATUSES));
  });
});


const foldsToStatus = (value: string) => (PET_STATUSES as readonly string[]).includes(value.toUpperCase().toLowerCase());

describe('strings that are not a PetStatus', () => {
  it('petStatusInAnotherCase is never a PetStatus, but is one ignoring case', () => {
    fc.assert(
      fc.property(petStatusInAnotherCase(), (value) => {
        expect(PetStatus.safeParse(value).success).toBe(false);
        expect(foldsToStatus(value)).toBe(true);
        expect(isPetStatusIgnoringCase(value)).toBe(true);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('unknownPetStatus is no PetStatus in any case, never blank, never padded, never a list', () => {
    fc.assert(
      fc.property(unknownPetStatus(), (value) => {
        expect(foldsToStatus(value)).toBe(false);
        expect(isPetStatusIgnoringCase(value)).toBe(false);
        expect(value).not.toBe('');
        expect(value.trim()).toBe(value);
        expect(value).not.toContain(',');
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('notAPetStatus labels each value by how it misses, and covers both kinds and the named values', () => {
    const samples = fc.sample(notAPetStatus(), { seed: SEED, numRuns: 600 });
    for (const { value, reason } of samples) expect(foldsToStatus(value), value).toBe(reason === 'a PetStatus in another case');
    expect(new Set(samples.map((c) => c.reason))).toEqual(new Set(['a PetStatus in another case', 'not a PetStatus in any case']));
    const values = new Set(samples.map((c) => c.value));
    for (const value of ['Available', 'SOLD', 'ſold', 'adopted', 'availabl']) expect(values, value).toContain(value);
    expect([...values].filter((v) => /[a-z][A-Z]/.test(v)).length).toBeGreaterThan(0);
  });
});

/** What a strict reading of "integer, int64" accepts in a path segment. */
function isInt64Literal(text: string): boolean {
  if (!/^-?(?:0|[1-9][0-9]*)$/.test(text)) return false;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX;
}

describe('nonNumericPetId', () => {
  it('is not an int64 literal, is percent-encoded for a path segment, and is labelled', () => {
    fc.assert(
      fc.property(nonNumericPetId(), ({ raw, decoded, reason }) => {
        expect(isInt64Literal(decoded)).toBe(false);
        expect(raw).toBe(encodeURIComponent(decoded));
        expect(decodeURIComponent(raw)).toBe(decoded);
        expect(raw).toMatch(/^[A-Za-z0-9\-_.!~*'()%]+$/);
        expect(['', '.', '..']).not.toContain(decoded);
        expect(decoded).not.toContain('/');
        expect(reason.length).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('names ids past both ends of int64, and beyond any double, encoded like the generated ones', () => {
    expect(PET_IDS_BEYOND_INT64.map((c) => c.decoded)).toEqual(['9223372036854775808', `1${'0'.repeat(30)}`, '-9223372036854775809', '1e400']);
    for (const c of PET_IDS_BEYOND_INT64) {
      expect(isInt64Literal(c.decoded)).toBe(false);
      expect(c.raw).toBe(encodeURIComponent(c.decoded));
    }
    const reasons = new Set(fc.sample(nonNumericPetId(), { seed: SEED, numRuns: 600 }).map((c) => c.reason));
    for (const c of PET_IDS_BEYOND_INT64) expect(reasons).toContain(c.reason);
  });

  it('covers the listed kinds (fixed seed, 600 samples)', () => {
    const samples = fc.sample(nonNumericPetId(), { seed: SEED, numRuns: 600 });
    const raws = new Set(samples.map((s) => s.raw));
    for (const raw of ['abc', '1.5', '1e3', '-', '0x10', '%20', '9223372036854775808', '-9223372036854775809', '%EF%BC%91%EF%BC%92', '12abc']) {
      expect(raws, raw).toContain(raw);
    }
    expect(samples.find((s) => s.raw === '%EF%BC%91%EF%BC%92')?.decoded).toBe('１２');
  });
});
