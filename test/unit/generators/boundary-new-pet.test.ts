// boundaryNewPet: NewPets at the edges of name and categoryId, with the refusals each edge allows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLANK_NAMES, boundaryNewPet, LONG_NAME_LENGTHS } from '../../../lib/generators/boundary-new-pet.ts';
import { parseJson, tryParseJson } from '../../../lib/json.ts';
import { NewPet, PET_STATUSES } from '../../../lib/models.ts';

const SEED = 31_337;
const PREFIX = 'cf-edge ';
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Every edge, with the statuses besides 201 it allows. */
const REASONS: Record<string, readonly number[]> = {
  'name empty': [400],
  'name whitespace only': [400],
  'name of one character': [],
  'name of 1,000 characters': [],
  'name of 10,000 characters': [400, 413],
  'name with characters outside the BMP': [],
  'name with combining characters': [],
  'name with control characters': [],
  'categoryId written with a zero fraction': [400],
  'categoryId in exponent notation': [400],
  'categoryId written -0': [400],
  'whitespace between the JSON tokens': [],
};

/** The edges whose name cannot carry the prefix. */
const UNPREFIXED = ['name empty', 'name whitespace only', 'name of one character'];

describe('boundaryNewPet', () => {
  const samples = fc.sample(boundaryNewPet({ namePrefix: PREFIX }), { seed: SEED, numRuns: 600 });

  it('covers every edge, and labels nothing else', () => {
    expect(new Set(samples.map((c) => c.reason))).toEqual(new Set(Object.keys(REASONS)));
  });

  it('allows a refusal exactly where the interface leaves room', () => {
    for (const c of samples) expect(c.mayRefuseWith, c.reason).toEqual(REASONS[c.reason]);
  });

  it('sends a body that is JSON and a NewPet, and denotes the pet given, categoryId with its value', () => {
    for (const c of samples) {
      const parsed = tryParseJson(c.body);
      expect(parsed.ok, c.body).toBe(true);
      const value = parsed.ok ? (parsed.value as Record<string, unknown>) : {};
      expect(Object.keys(value).sort()).toEqual(Object.keys(c.pet).sort());
      expect(value.name).toBe(c.pet.name);
      expect(value.status).toBe(c.pet.status);
      // 1.0, 1e2 and -0 parse to a double; its value is the integer the pet holds.
      expect(BigInt(value.categoryId as number | bigint)).toBe(c.pet.categoryId);
      if (c.mayRefuseWith.length === 0 || c.reason.startsWith('name ')) expect(NewPet.parse(value)).toEqual(c.pet);
      if (c.pet.status !== undefined) expect(PET_STATUSES).toContain(c.pet.status);
    }
  });

  it('keeps the prefix on every name that can carry it, never a lone surrogate, and bodies under 32 KiB', () => {
    for (const c of samples) {
      if (!UNPREFIXED.includes(c.reason)) expect(c.pet.name.startsWith(PREFIX), c.reason).toBe(true);
      expect(LONE_SURROGATE.test(c.body)).toBe(false);
      expect(Buffer.byteLength(c.body, 'utf8')).toBeLessThan(32 * 1024);
    }
  });

  const of = (reason: string) => samples.filter((c) => c.reason === reason).map((c) => c.pet);

  it.each<[string, (name: string) => boolean]>([
    ['name empty', (n) => n === ''],
    ['name whitespace only', (n) => n.length > 0 && n.trim() === '' && (BLANK_NAMES as readonly string[]).includes(n)],
    ['name of one character', (n) => [...n].length === 1],
    ['name of 1,000 characters', (n) => n.length === LONG_NAME_LENGTHS.long && [...n].length === n.length],
    ['name of 10,000 characters', (n) => n.length === LONG_NAME_LENGTHS.longest && [...n].length === n.length],
    ['name with characters outside the BMP', (n) => /[\u{10000}-\u{10FFFF}]/u.test(n)],
    // Combining marks, or conjoining Hangul jamo (which NFC composes into one syllable).
    ['name with combining characters', (n) => /[\p{M}\u1100-\u11ff]/u.test(n)],
    ['name with control characters', (n) => /[\u0000-\u001f\u007f-\u009f]/.test(n)],
  ])('%s: every name is at that edge', (reason, isAtEdge) => {
    const pets = of(reason);
    expect(pets.length).toBeGreaterThan(0);
    for (const pet of pets) expect(isAtEdge(pet.name), JSON.stringify(pet.name.slice(0, 40))).toBe(true);
  });

  it('has a decomposed name that normalisation to NFC would change, and NUL among the control characters', () => {
    expect(of('name with combining characters').some((p) => p.name.normalize('NFC') !== p.name)).toBe(true);
    expect(of('name with control characters').some((p) => p.name.includes('\u0000'))).toBe(true);
  });

  it('writes categoryId literally as 1.0-style, exponent or -0 forms, and plain JSON with whitespace around every token', () => {
    const bodies = (reason: string) => samples.filter((c) => c.reason === reason).map((c) => c.body);
    for (const body of bodies('categoryId written with a zero fraction')) expect(body).toMatch(/"categoryId":-?[1-9][0-9]*\.0[,}]/);
    for (const body of bodies('categoryId in exponent notation')) expect(body).toMatch(/"categoryId":[0-9]+[eE]\+?[0-9]+[,}]/);
    for (const body of bodies('categoryId written -0')) expect(body).toMatch(/"categoryId":-0[,}]/);
    for (const c of samples.filter((s) => s.reason === 'whitespace between the JSON tokens')) {
      expect(c.body).toMatch(/^[ \t\n\r]+\{[ \t\n\r]+"name"[ \t\n\r]+:[ \t\n\r]+".*"[ \t\n\r]+,[ \t\n\r]+"categoryId"[ \t\n\r]+:[ \t\n\r]+[0-9]+[ \t\n\r]+/s);
      expect(NewPet.parse(parseJson(c.body))).toEqual(c.pet);
    }
  });
});
