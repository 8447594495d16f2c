import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson, tryParseJson } from '../../lib/json.ts';

describe('parseJson / stringifyJson: int64 without loss', () => {
  const cases = [
    { name: '2^53 + 1', literal: '9007199254740993', value: 2n ** 53n + 1n },
    { name: '2^63 - 1 (int64 max)', literal: '9223372036854775807', value: 2n ** 63n - 1n },
    { name: '-2^63 (int64 min)', literal: '-9223372036854775808', value: -(2n ** 63n) },
  ];

  it.each(cases)('parses $name as a bigint with every digit', ({ literal, value }) => {
    expect(parseJson(`{"id":${literal}}`)).toEqual({ id: value });
  });

  it.each(cases)('writes $name back with the same digits', ({ literal }) => {
    const text = `{"id":${literal},"categoryId":[${literal}]}`;
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('keeps safe integers as plain numbers', () => {
    const value = parseJson('{"id":9007199254740991,"n":-3,"z":0}') as Record<string, unknown>;
    expect(value).toEqual({ id: Number.MAX_SAFE_INTEGER, n: -3, z: 0 });
    expect(typeof value.id).toBe('number');
  });

  it('keeps fractions and exponents as numbers', () => {
    const value = parseJson('[1.5, 0.1, 1e3, -2.25e-2]') as unknown[];
    expect(value).toEqual([1.5, 0.1, 1000, -0.0225]);
    expect(value.every((v) => typeof v === 'number')).toBe(true);
  });

  it('writes bigints given directly as integer literals', () => {
    expect(stringifyJson({ id: 2n ** 63n - 1n, name: 'Rex' })).toBe('{"id":9223372036854775807,"name":"Rex"}');
  });

  it('indents when given a space argument', () => {
    expect(stringifyJson({ a: 1 }, 2)).toBe('{\n  "a": 1\n}');
  });

  it('throws a TypeError for a value JSON cannot hold', () => {
    expect(() => stringifyJson(undefined)).toThrow(TypeError);
  });
});

describe('parseJson: rejects what is not one JSON value', () => {
  it.each([
    ['truncated object', '{"a":'],
    ['trailing comma', '[1,]'],
    ['single quotes', "{'a':1}"],
    ['bare word', 'pets'],
    ['empty text', ''],
    ['two values', '{} {}'],
  ])('throws on %s', (_name, text) => {
    expect(() => parseJson(text)).toThrow(SyntaxError);
  });

  it('throws on a duplicate key with different values', () => {
    expect(() => parseJson('{"id":1,"id":2}')).toThrow(/Duplicate key 'id'/);
  });
});

describe('tryParseJson', () => {
  it('tags a good body ok with its lossless value', () => {
    expect(tryParseJson('[9223372036854775807]')).toEqual({ ok: true, value: [2n ** 63n - 1n] });
  });

  it('tags malformed text with the parser message', () => {
    const result = tryParseJson('{"a":');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/position 5/);
  });

  it('tags a duplicate key as an error instead of throwing', () => {
    const result = tryParseJson('{"name":"a","name":"b"}');
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/Duplicate key 'name'/) });
  });
});
