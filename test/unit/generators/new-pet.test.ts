// validNewPet, newPetWithExtraFields, newPetWithId: bodies a conforming service must accept.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INT64_EDGES } from '../../../lib/generators/_internals/int64.ts';
import { EDGE_WHITESPACE } from '../../../lib/generators/_internals/pet-name.ts';
import { newPetWithExtraFields } from '../../../lib/generators/new-pet-with-extra-fields.ts';
import { newPetWithId } from '../../../lib/generators/new-pet-with-id.ts';
import { validNewPet, validNewPetEdges } from '../../../lib/generators/valid-new-pet.ts';
import { parseJson, stringifyJson } from '../../../lib/json.ts';
import { Int64, INT64_MAX, INT64_MIN, NewPet, PET_STATUSES } from '../../../lib/models.ts';

const SEED = 20_240_601;
const PREFIX = 'cf-test-';
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LEAD_WS = /^[ \t\u00a0\u3000\n]*/;

describe('validNewPet', () => {
  it('generates pets that NewPet accepts, with a body that is stringifyJson(pet)', () => {
    fc.assert(
      fc.property(validNewPet(), ({ pet, body }) => {
        expect(NewPet.safeParse(pet).success).toBe(true);
        expect(body).toBe(stringifyJson(pet));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('survives parseJson / stringifyJson exactly, categoryId with every digit', () => {
    fc.assert(
      fc.property(validNewPet({ namePrefix: PREFIX }), ({ pet, body }) => {
        const parsed = parseJson(body);
        expect(stringifyJson(parsed)).toBe(body);
        expect(NewPet.parse(parsed)).toEqual(pet);
        expect(body).toContain(`"categoryId":${pet.categoryId.toString()}`);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('puts the prefix after optional leading whitespace, never a lone surrogate, never an empty core', () => {
    fc.assert(
      fc.property(validNewPet({ namePrefix: PREFIX }), ({ pet }) => {
        const afterLead = pet.name.replace(LEAD_WS, '');
        expect(afterLead.startsWith(PREFIX)).toBe(true);
        expect(afterLead.length).toBeGreaterThan(PREFIX.length);
        expect(LONE_SURROGATE.test(pet.name)).toBe(false);
        expect(pet.name.trim().startsWith(PREFIX)).toBe(true);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('has categoryId a bigint in int64 and status either absent (no key) or a PetStatus', () => {
    fc.assert(
      fc.property(validNewPet(), ({ pet }) => {
        expect(typeof pet.categoryId).toBe('bigint');
        expect(pet.categoryId >= INT64_MIN && pet.categoryId <= INT64_MAX).toBe(true);
        if ('status' in pet) expect(PET_STATUSES).toContain(pet.status);
        expect(Object.values(pet)).not.toContain(undefined);
        expect(Object.keys(pet).sort()).toEqual(['categoryId', 'name', ...('status' in pet ? ['status'] : [])].sort());
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('keeps bodies far under 64 KiB', () => {
    fc.assert(
      fc.property(validNewPet({ namePrefix: PREFIX }), ({ pet, body }) => {
        expect(pet.name.length).toBeLessThanOrEqual(2000 + PREFIX.length + 6);
        expect(Buffer.byteLength(body, 'utf8')).toBeLessThan(16 * 1024);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('rejects a prefix with a lone surrogate', () => {
    expect(() => validNewPet({ namePrefix: 'x\ud800' })).toThrow(RangeError);
  });

  it('validNewPetEdges gives one pet for each int64 edge, 0 first, each a NewPet written with every digit', () => {
    const edges = validNewPetEdges({ namePrefix: PREFIX });
    expect(edges.map((e) => e.pet.categoryId)).toEqual(INT64_EDGES);
    expect(edges[0]!.pet.categoryId).toBe(0n);
    for (const edge of [-1n, 2n ** 53n + 1n, -(2n ** 53n + 1n), INT64_MAX, INT64_MIN, INT64_MAX - 1n, INT64_MIN + 1n]) {
      expect(edges.map((e) => e.pet.categoryId)).toContain(edge);
    }
    for (const { pet, body } of edges) {
      expect(NewPet.parse(parseJson(body))).toEqual(pet);
      expect(body).toBe(stringifyJson(pet));
      expect(body).toContain(`"categoryId":${pet.categoryId}`);
      expect(pet.name).toBe(`${PREFIX}categoryId ${pet.categoryId}`);
    }
    expect(new Set(edges.map((e) => e.pet.status ?? '(absent)'))).toEqual(new Set(['(absent)', ...PET_STATUSES]));
  });

  describe('coverage (fixed seed, 800 samples)', () => {
    const samples = fc.sample(validNewPet(), { seed: SEED, numRuns: 800 });
    const ids = samples.map((s) => s.pet.categoryId);
    const names = samples.map((s) => s.pet.name);

    const edges: [string, bigint][] = [
      ['0', 0n],
      ['-1', -1n],
      ['1', 1n],
      ['2^53 - 1', 2n ** 53n - 1n],
      ['-(2^53 - 1)', -(2n ** 53n - 1n)],
      ['2^53', 2n ** 53n],
      ['-2^53', -(2n ** 53n)],
      ['2^53 + 1', 2n ** 53n + 1n],
      ['-(2^53 + 1)', -(2n ** 53n + 1n)],
      ['2^63 - 1', INT64_MAX],
      ['-2^63', INT64_MIN],
    ];
    it.each(edges)('categoryId %s appears', (_, value) => {
      expect(ids).toContain(value);
    });

    it('categoryId also takes values spread over int64 (not only edges or small values)', () => {
      const spread = ids.filter((id) => !INT64_EDGES.includes(id) && (id > 2n ** 53n || id < -(2n ** 53n)));
      expect(spread.length).toBeGreaterThan(20);
      expect(spread.some((id) => id > 0n)).toBe(true);
      expect(spread.some((id) => id < 0n)).toBe(true);
    });

    it('status is absent and each value', () => {
      const statuses = new Set(samples.map((s) => s.pet.status ?? '(absent)'));
      expect([...statuses].sort()).toEqual(['(absent)', ...PET_STATUSES].sort());
    });

    it('keys come in more than one order', () => {
      expect(new Set(samples.map((s) => Object.keys(s.pet)[0])).size).toBe(3);
    });

    const classes: [string, (name: string) => boolean][] = [
      ['printable ASCII only', (n) => /^[\x20-\x7e]+$/.test(n)],
      ['Latin with combining marks', (n) => /[a-zA-Z]\p{M}/u.test(n)],
      ['Hebrew', (n) => /\p{Script=Hebrew}/u.test(n)],
      ['Arabic', (n) => /\p{Script=Arabic}/u.test(n)],
      ['CJK ideographs', (n) => /\p{Script=Han}/u.test(n)],
      ['Hangul or kana', (n) => /[\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(n)],
      ['astral code points (surrogate pairs)', (n) => /[\u{10000}-\u{10FFFF}]/u.test(n)],
      ['emoji', (n) => /\p{Extended_Pictographic}/u.test(n)],
      ['emoji ZWJ sequence', (n) => /\p{Extended_Pictographic}\uFE0F?\u200D\p{Extended_Pictographic}/u.test(n)],
      ['flag (regional indicator pair)', (n) => /[\u{1F1E6}-\u{1F1FF}]{2}/u.test(n)],
      ['double quote', (n) => n.includes('"')],
      ['backslash', (n) => n.includes('\\')],
      ['control character', (n) => /[\u0000-\u0008\u000b-\u001f]/.test(n)],
      ['U+2028 / U+2029', (n) => /[\u2028\u2029]/.test(n)],
      ['long (over 1,000 code units)', (n) => n.length > 1000],
      ['short (under 20 code units)', (n) => n.length < 20],
    ];
    it.each(classes)('names include: %s', (_, test) => {
      expect(names.some(test)).toBe(true);
    });

    it('names start and end with each kind of whitespace, and usually with none', () => {
      for (const ws of EDGE_WHITESPACE) {
        expect(names.some((n) => n.startsWith(ws))).toBe(true);
        expect(names.some((n) => n.endsWith(ws))).toBe(true);
      }
      const bare = names.filter((n) => !/^[ \t\u00a0\u3000\n]/.test(n));
      expect(bare.length).toBeGreaterThan(names.length / 2);
    });
  });
});

const RESERVED = ['name', 'categoryid', 'status', 'id', '__proto__', 'constructor', 'prototype'];

describe('newPetWithExtraFields', () => {
  it('is a valid NewPet plus the extra members, surviving a parseJson / stringifyJson round trip', () => {
    fc.assert(
      fc.property(newPetWithExtraFields({ namePrefix: 'cf-' }), ({ body, pet, extra }) => {
        const parsed = parseJson(body) as Record<string, unknown>;
        expect(stringifyJson(parsed)).toBe(body);
        expect(NewPet.parse(parsed)).toEqual(pet);
        expect(pet.name.trim().startsWith('cf-')).toBe(true);
        const extraKeys = Object.keys(parsed).filter((k) => !Object.hasOwn(pet, k));
        expect(extraKeys.sort()).toEqual(Object.keys(extra).sort());
        for (const key of extraKeys) expect(parsed[key]).toEqual(extra[key]);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('never uses a NewPet or Pet field name (any case) or a prototype name for an extra member', () => {
    fc.assert(
      fc.property(newPetWithExtraFields(), ({ extra }) => {
        const keys = Object.keys(extra);
        expect(keys.length).toBeGreaterThanOrEqual(1);
        expect(keys.length).toBeLessThanOrEqual(4);
        for (const key of keys) expect(RESERVED).not.toContain(key.toLowerCase());
        expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('covers well-known and random names, scalar, array and object values, members before and after', () => {
    const samples = fc.sample(newPetWithExtraFields(), { seed: SEED, numRuns: 400 });
    const keys = new Set(samples.flatMap((s) => Object.keys(s.extra)));
    expect(keys).toContain('tags');
    expect(keys).toContain('owner');
    expect([...keys].some((k) => !/^[\x20-\x7e]*$/.test(k))).toBe(true);
    const values = samples.flatMap((s) => Object.values(s.extra));
    expect(values.some(Array.isArray)).toBe(true);
    expect(values.some((v) => typeof v === 'object' && v !== null && !Array.isArray(v))).toBe(true);
    expect(values.some((v) => typeof v === 'string')).toBe(true);
    expect(values.some((v) => typeof v === 'number')).toBe(true);
    expect(values).toContain(null);
    const firstKeys = samples.map((s) => Object.keys(parseJson(s.body) as object)[0]!);
    const petKeys = ['name', 'categoryId', 'status'];
    expect(firstKeys.some((k) => !petKeys.includes(k))).toBe(true);
    expect(firstKeys.some((k) => petKeys.includes(k))).toBe(true);
  });
});


describe('newPetWithId', () => {
  it('is a valid NewPet carrying an int64 id written with every digit', () => {
    fc.assert(
      fc.property(newPetWithId({ namePrefix: 'cf-' }), ({ body, pet, id }) => {
        const parsed = parseJson(body) as Record<string, unknown>;
        expect(stringifyJson(parsed)).toBe(body);
        expect(NewPet.parse(parsed)).toEqual(pet);
        expect(Int64.parse(parsed.id)).toBe(id);
        expect(body).toContain(`"id":${id.toString()}`);
        expect(Object.keys(parsed).sort()).toEqual([...Object.keys(pet), 'id'].sort());
        expect(pet).not.toHaveProperty('id');
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it('covers the int64 edges and ids before and after the pet members', () => {
    const samples = fc.sample(newPetWithId(), { seed: SEED, numRuns: 400 });
    const ids = samples.map((s) => s.id);
    for (const edge of [0n, INT64_MAX, INT64_MIN, 2n ** 53n + 1n, -(2n ** 53n + 1n)]) expect(ids).toContain(edge);
    const first = samples.map((s) => Object.keys(parseJson(s.body) as object)[0]);
    expect(first).toContain('id');
    expect(first.some((k) => k !== 'id')).toBe(true);
  });
});
