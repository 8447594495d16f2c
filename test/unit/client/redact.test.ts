import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../lib/client/redact.ts';

describe('Redactor.scrub', () => {
  const redactor = new Redactor([
    { key: 'free-key-123', label: 'free#1' },
    { key: 'pro-key-456', label: 'pro#1' },
  ]);

  it('replaces each key with its label, every time it occurs', () => {
    expect(redactor.scrub('Bearer free-key-123 and free-key-123, pro-key-456')).toBe(
      'Bearer [REDACTED:free#1] and [REDACTED:free#1], [REDACTED:pro#1]',
    );
  });

  it('leaves text without keys unchanged', () => {
    expect(redactor.scrub('Bearer not-a-key-0000')).toBe('Bearer not-a-key-0000');
  });

  it('replaces the longer key first when one key contains another', () => {
    const nested = new Redactor([
      { key: 'abc', label: 'short' },
      { key: 'abc-def', label: 'long' },
    ]);
    expect(nested.scrub('abc-def abc')).toBe('[REDACTED:long] [REDACTED:short]');
  });

  it.each([
    ['encodeURIComponent form', 'k+y/=', 'api_key=k%2By%2F%3D'],
    ['query-string form of a space (+)', 'key with space', 'api_key=key+with+space'],
    ['encodeURIComponent form of a space (%20)', 'key with space', 'path/key%20with%20space'],
    ['query-string form of ~ and !', 'k~e!y', '?api_key=k%7Ee%21y'],
  ])('replaces the %s of a key', (_name, key, text) => {
    const out = new Redactor([{ key, label: 'free#1' }]).scrub(text);
    expect(out).toContain('[REDACTED:free#1]');
    expect(out).not.toMatch(/k%2By|with|k%7Ee/);
  });

  it('redacts a key sent as a query parameter in a URL built by URLSearchParams', () => {
    const key = "k'(e)y~ *!";
    const url = new URL('http://127.0.0.1/v1/pets');
    url.searchParams.append('api_key', key);
    expect(new Redactor([{ key, label: 'free#1' }]).scrub(url.toString())).toBe('http://127.0.0.1/v1/pets?api_key=[REDACTED:free#1]');
  });

  it('ignores empty keys instead of redacting between every character', () => {
    expect(new Redactor([{ key: '', label: 'x' }]).scrub('abc')).toBe('abc');
  });
});

describe('Redactor.scrubDeep', () => {
  const redactor = new Redactor([{ key: 'sekrit', label: 'free#1' }]);

  it('scrubs strings at any depth, object keys included, and keeps other values', () => {
    const value = { a: ['x sekrit', { sekrit: 'sekrit' }], n: 5, b: true, z: null };
    expect(redactor.scrubDeep(value)).toEqual({ a: ['x [REDACTED:free#1]', { '[REDACTED:free#1]': '[REDACTED:free#1]' }], n: 5, b: true, z: null });
  });

  it('returns a copy and leaves the input as it was', () => {
    const value = { s: 'sekrit' };
    redactor.scrubDeep(value);
    expect(value).toEqual({ s: 'sekrit' });
  });
});
