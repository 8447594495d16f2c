// lib/suite-kit/property-engine.ts: how the property engine tells the failures of one property check apart.
import { describe, expect, it } from 'vitest';
import { fail, pass } from '../../../lib/checks/types.ts';
import { invalidNewPet, invalidNewPetBoundaries } from '../../../lib/generators/invalid-new-pet.ts';
import { examplesFor, kindOfCase, otherFailure } from '../../../lib/suite-kit/property-engine.ts';

describe('kindOfCase', () => {
  it('is the failure\'s code: failures of one code are one kind, whatever their wording and figures', () => {
    const a = fail('too-many-animals', 'limit=3 returned 4 animals', 'at most 3', '4');
    const b = fail('too-many-animals', 'limit=97 returned 100 animals; the page also held 2 items that are not a Pet', 'at most 97', '100');
    expect(kindOfCase(3, a)).toBe('too-many-animals');
    expect(kindOfCase(97, b)).toBe(kindOfCase(3, a));
  });

  it('keeps failures of different codes apart, even when their messages are alike but for values', () => {
    const name = fail('name-not-echoed', 'name "Rex" is not the "Rex " sent');
    const status = fail('status-not-echoed', 'status "sold" is not the "pending" sent');
    const notFound = fail('not-200', 'limit=3: got 404, not 200');
    const serverError = fail('server-error', 'limit=3: got 500, not 200');
    expect(new Set([name, status, notFound, serverError].map((f) => kindOfCase(0, f))).size).toBe(4);
  });

  it('is the cover function\'s kind when the property has one, whatever the code', () => {
    const cover = (c: { reason: string }) => c.reason;
    expect(kindOfCase({ reason: 'name missing' }, fail('accepted', 'got 201'), cover)).toBe('name missing');
    expect(kindOfCase({ reason: 'name missing' }, fail('server-error', 'got 500'), cover)).toBe('name missing');
    expect(kindOfCase({ reason: 'categoryId a string' }, fail('accepted', 'got 201'), cover)).toBe('categoryId a string');
  });

  it('is empty for a case that did not fail', () => {
    expect(kindOfCase(1, pass())).toBe('');
  });
});

describe('otherFailure', () => {
  it('carries the code of its finding beside its kind, with message, expected, actual, property and exchanges', () => {
    const replayed = fail('not-200', 'limit=5: got 500, not 200', '200 with a JSON array of Pet', '500');
    if (replayed.outcome !== 'fail') throw new Error('unreachable');
    const property = { counterexample: '5', seed: 42, runs: 9, kind: 'not-200' };
    expect(otherFailure('not-200', replayed, property, [])).toEqual({
      kind: 'not-200',
      code: 'not-200',
      message: 'limit=5: got 500, not 200',
      expected: '200 with a JSON array of Pet',
      actual: '500',
      property,
      exchanges: [],
    });
  });

  it('keeps a cover function\'s kind apart from the code, and leaves out what the finding has not', () => {
    const replayed = fail('accepted', 'name missing: got 201 (accepted), not 400');
    if (replayed.outcome !== 'fail') throw new Error('unreachable');
    const other = otherFailure('name missing', replayed, { counterexample: '{}', seed: 1, runs: 1 }, []);
    expect(other).toMatchObject({ kind: 'name missing', code: 'accepted' });
    expect(other).not.toHaveProperty('expected');
    expect(other).not.toHaveProperty('actual');
  });
});

describe('examplesFor: the cases tried first', () => {
  it('are the fixed invalid NewPets on every seed, first and in order, then one of each reason', () => {
    const boundaries = invalidNewPetBoundaries({ namePrefix: 'cf-' });
    const options = { arbitrary: invalidNewPet({ namePrefix: 'cf-' }), examples: boundaries, coverEach: (c: { reason: string }) => c.reason };
    for (const seed of [1, 2, 3, 4_242, -7, 2 ** 31 - 1]) {
      const tried = examplesFor(options, seed).map(([c]) => c);
      expect(tried.slice(0, boundaries.length)).toEqual(boundaries);
      expect(new Set(tried.slice(boundaries.length).map((c) => c.reason)).size).toBe(tried.length - boundaries.length);
    }
  });
});
