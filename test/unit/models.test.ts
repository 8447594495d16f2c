import { describe, expect, it } from 'vitest';
import { parseJson } from '../../lib/json.ts';
import { ApiError, INT64_MAX, INT64_MIN, Int64, NewPet, Pet, PetStatus, Pets, readRateLimitHeaders } from '../../lib/models.ts';

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

describe('readRateLimitHeaders', () => {
  it.each([
    ['canonical', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': '1893456000' }],
    ['lower-case', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1893456000' }],
    ['upper-case', { 'X-RATELIMIT-LIMIT': '60', 'X-RATELIMIT-REMAINING': '59', 'X-RATELIMIT-RESET': '1893456000' }],
  ])('reads %s header names', (_name, headers) => {
    const result = readRateLimitHeaders(headers);
    expect(result.success && result.data).toEqual({ 'x-ratelimit-limit': 60, 'x-ratelimit-remaining': 59, 'x-ratelimit-reset': 1893456000 });
  });

  it('accepts 0 remaining and surrounding whitespace', () => {
    const result = readRateLimitHeaders({ 'x-ratelimit-limit': ' 60 ', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' });
    expect(result.success && result.data['x-ratelimit-remaining']).toBe(0);
  });

  const good = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1893456000' };
  it.each([
    ['a fraction', 'x-ratelimit-limit', '60.5'],
    ['a negative number', 'x-ratelimit-remaining', '-1'],
    ['an empty value', 'x-ratelimit-reset', ''],
    ['a word', 'x-ratelimit-limit', 'sixty'],
    ['an exponent', 'x-ratelimit-reset', '1e9'],
    ['a value beyond safe integers', 'x-ratelimit-reset', '9007199254740993'],
  ])('rejects %s', (_name, header, value) => {
    const result = readRateLimitHeaders({ ...good, [header]: value });
    expect(result.success).toBe(false);
    expect(new Set(result.error?.issues.map((i) => i.path[0]))).toEqual(new Set([header]));
  });

  it('rejects a header sent twice (joined into a list)', () => {
    expect(readRateLimitHeaders({ ...good, 'x-ratelimit-limit': ['60', '60'] }).success).toBe(false);
  });

  it.each(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])('reports %s when it is missing', (header) => {
    const headers: Record<string, string> = { ...good };
    delete headers[header];
    const result = readRateLimitHeaders(headers);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path[0])).toEqual([header]);
  });
});
