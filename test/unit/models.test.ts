import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/json.ts';
import { ApiError, INT64_MAX, INT64_MIN, Int64, NewPet, Pet, PetStatus, Pets, headerInt } from '../../lib/models.ts';

describe('Int64', () => {
  it.each([
    ['0', 0, 0n],
    ['a negative safe integer', -42, -42n],
    ['MAX_SAFE_INTEGER', Number.MAX_SAFE_INTEGER, 9007199254740991n],
    ['a bigint above 2^53', 2n ** 53n + 1n, 9007199254740993n],
    ['int64 max', INT64_MAX, 9223372036854775807n],
    ['int64 min', INT64_MIN, -9223372036854775808n],
  ])('accepts %s and normalises it to a bigint', (_name, input, expected) => {
    expect(Int64.parse(input)).toBe(expected);
  });

  it.each([
    ['2^63 as a bigint', 2n ** 63n],
    ['-2^63 - 1 as a bigint', -(2n ** 63n) - 1n],
    ['2^63 as a number', 2 ** 63],
    ['a fraction', 1.5],
    ['a numeric string', '12'],
    ['NaN', Number.NaN],
    ['null', null],
  ])('rejects %s', (_name, input) => {
    expect(Int64.safeParse(input).success).toBe(false);
  });

  it('accepts what parseJson makes of the int64 extremes', () => {
    const [max, min] = parseJson('[9223372036854775807,-9223372036854775808]') as unknown[];
    expect(Int64.parse(max)).toBe(INT64_MAX);
    expect(Int64.parse(min)).toBe(INT64_MIN);
  });
});

describe('PetStatus', () => {
  it.each(['available', 'pending', 'sold'])('accepts %s', (status) => {
    expect(PetStatus.parse(status)).toBe(status);
  });

  it.each(['Available', 'adopted', ''])('rejects %j', (status) => {
    expect(PetStatus.safeParse(status).success).toBe(false);
  });
});

describe('NewPet and Pet', () => {
  it('accepts a NewPet without status', () => {
    expect(NewPet.parse({ name: 'Rex', categoryId: 3 })).toEqual({ name: 'Rex', categoryId: 3n });
  });

  it.each([
    ['name missing', { categoryId: 1 }],
    ['categoryId missing', { name: 'Rex' }],
    ['categoryId a string', { name: 'Rex', categoryId: '1' }],
    ['status outside the enum', { name: 'Rex', categoryId: 1, status: 'lost' }],
  ])('rejects a NewPet with %s', (_name, body) => {
    expect(NewPet.safeParse(body).success).toBe(false);
  });

  it('requires id on Pet', () => {
    expect(Pet.safeParse({ name: 'Rex', categoryId: 1 }).success).toBe(false);
  });

  it('keeps an id above 2^53 exact in a parsed Pets array', () => {
    const pets = Pets.parse(parseJson('[{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807,"status":"sold"}]'));
    expect(pets[0]).toEqual({ id: 9007199254740993n, name: 'Rex', categoryId: INT64_MAX, status: 'sold' });
  });

  it('allows fields the interface does not forbid', () => {
    expect(Pet.safeParse({ id: 1, name: 'Rex', categoryId: 1, tag: 'dog' }).success).toBe(true);
  });
});

describe('ApiError', () => {
  it('accepts code, message and integer status', () => {
    expect(ApiError.parse({ code: 'unauthorized', message: 'no key', status: 401 })).toEqual({ code: 'unauthorized', message: 'no key', status: 401 });
  });

  it.each([
    ['status missing', { code: 'x', message: 'y' }],
    ['status as a string', { code: 'x', message: 'y', status: '401' }],
    ['status a fraction', { code: 'x', message: 'y', status: 401.5 }],
    ['code a number', { code: 401, message: 'y', status: 401 }],
  ])('rejects an Error body with %s', (_name, body) => {
    expect(ApiError.safeParse(body).success).toBe(false);
  });
});

describe('headerInt', () => {
  it.each([
    ['a plain integer', '60', 60],
    ['0', '0', 0],
    ['surrounding whitespace', ' 60 ', 60],
    ['a negative integer (a wrong Remaining the checks must see)', '-1', -1],
  ])('reads %s', (_name, value, expected) => {
    expect(headerInt(value)).toBe(expected);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['a fraction', '60.5'],
    ['a word', 'sixty'],
    ['an exponent', '1e9'],
    ['a header sent twice (joined into a list)', '60, 60'],
    ['a value beyond safe integers', '9007199254740993'],
  ])('gives nothing for %s', (_name, value) => {
    expect(headerInt(value)).toBeUndefined();
  });
});
