// seedFor, and every generator being a pure function of the fast-check seed (no Math.random, no clock).
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundaryNewPet } from '../../../lib/generators/boundary-new-pet.ts';
import { invalidNewPet } from '../../../lib/generators/invalid-new-pet.ts';
import { newPetWithExtraFields } from '../../../lib/generators/new-pet-with-extra-fields.ts';
import { newPetWithId } from '../../../lib/generators/new-pet-with-id.ts';
import { nonNumericPetId } from '../../../lib/generators/non-numeric-pet-id.ts';
import { outOfRangeLimit } from '../../../lib/generators/out-of-range-limit.ts';
import { pageLimit } from '../../../lib/generators/page-limit.ts';
import { notAPetStatus, petStatus } from '../../../lib/generators/pet-status.ts';
import { seedFor } from '../../../lib/generators/seed.ts';
import { validNewPet } from '../../../lib/generators/valid-new-pet.ts';

const names = Array.from({ length: 2000 }, (_, i) => `suite-${i % 7}.check-${i}`);

describe('seedFor', () => {
  it('is deterministic and a signed 32-bit integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), fc.string({ unit: 'grapheme' }), (run, name) => {
        const seed = seedFor(run, name);
        expect(seedFor(run, name)).toBe(seed);
        expect(seed | 0).toBe(seed);
      }),
      { seed: 11, numRuns: 100 },
    );
  });

  it('pins a few values (changing the mixing changes every replayed run)', () => {
    expect([seedFor(0, ''), seedFor(1, 'auth.invalid-key'), seedFor(-1, 'pets.create'), seedFor(2 ** 40 + 3, 'list-pets.limit')]).toEqual([
      1837564549, -1826828319, -488814489, 1916180121,
    ]);
    expect(seedFor(42, 'pets.create')).not.toBe(seedFor(42, 'pets.create '));
  });

  it('gives distinct seeds to distinct check names in one run', () => {
    for (const run of [0, 42, -7, 2 ** 40 + 3]) {
      expect(new Set(names.map((n) => seedFor(run, n))).size).toBe(names.length);
    }
  });

  it('gives a check distinct seeds across runs, high bits of the run seed included', () => {
    const runs = Array.from({ length: 2000 }, (_, i) => i);
    expect(new Set(runs.map((r) => seedFor(r, 'pets.create'))).size).toBe(runs.length);
    expect(seedFor(5, 'x')).not.toBe(seedFor(5 + 2 ** 32, 'x'));
    expect(seedFor(-1, 'x')).not.toBe(seedFor(2 ** 32 - 1, 'x'));
  });

  it('spreads: every bit is set in roughly half of the seeds', () => {
    const seeds = names.map((n) => seedFor(42, n));
    for (let bit = 0; bit < 32; bit++) {
      const ones = seeds.filter((s) => (s >>> bit) & 1).length / seeds.length;
      expect(ones, `bit ${bit}`).toBeGreaterThan(0.45);
      expect(ones, `bit ${bit}`).toBeLessThan(0.55);
    }
  });

  it('refuses a run seed that is not a safe integer', () => {
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(() => seedFor(bad, 'x')).toThrow(RangeError);
  });
});

// Every generator is a pure function of the fast-check seed: no Math.random, no clock.

const generators: [string, () => fc.Arbitrary<unknown>][] = [
  ['validNewPet', () => validNewPet({ namePrefix: 'cf-' })],
  ['invalidNewPet', () => invalidNewPet()],
  ['newPetWithExtraFields', () => newPetWithExtraFields()],
  ['newPetWithId', () => newPetWithId()],
  ['pageLimit', () => pageLimit()],
  ['outOfRangeLimit', () => outOfRangeLimit()],
  ['petStatus', () => petStatus()],
  ['nonNumericPetId', () => nonNumericPetId()],
  ['notAPetStatus', () => notAPetStatus()],
  ['boundaryNewPet', () => boundaryNewPet({ namePrefix: 'cf-' })],
];

describe('reproducible from the seed', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each(generators)('%s gives the same values for the same seed, without Math.random or the clock', (_, make) => {
    const random = vi.spyOn(Math, 'random');
    const now = vi.spyOn(Date, 'now');
    const first = fc.sample(make(), { seed: 2024, numRuns: 100 });
    const second = fc.sample(make(), { seed: 2024, numRuns: 100 });
    expect(second).toEqual(first);
    expect(random).not.toHaveBeenCalled();
    expect(now).not.toHaveBeenCalled();
    const other = fc.sample(make(), { seed: 2025, numRuns: 100 });
    if (_ !== 'petStatus') expect(other).not.toEqual(first);
  });
});
