import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../lib/client/redact.ts';
import { nearMissKeys } from '../../../lib/generators/near-miss-key.ts';

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

  it('replaces the key without its last character (a prefix is not covered by the key), naming it', () => {
    expect(redactor.scrub('Bearer free-key-12')).toBe('Bearer [REDACTED:free#1 prefix]');
    expect(redactor.scrub('invalid key "free-key-12", try free-key-123')).toBe('invalid key "[REDACTED:free#1 prefix]", try [REDACTED:free#1]');
  });

  it('replaces the key and its prefix in any case, naming the case, never the text', () => {
    expect(redactor.scrub('FREE-KEY-123 Free-Key-123 free-key-123')).toBe('[REDACTED:free#1 upper-case] [REDACTED:free#1 other-case] [REDACTED:free#1]');
    expect(redactor.scrub('FREE-KEY-12 free-KEY-12')).toBe('[REDACTED:free#1 prefix upper-case] [REDACTED:free#1 prefix other-case]');
    expect(redactor.scrub('api_key=PRO-KEY-456')).toBe('api_key=[REDACTED:pro#1 upper-case]');
  });

  it('names a key that is also the prefix of another key as itself', () => {
    const keys = [
      { key: 'abcd', label: 'long' },
      { key: 'abc', label: 'short' },
    ];
    expect(new Redactor(keys).scrub('abcd abc')).toBe('[REDACTED:long] [REDACTED:short]');
  });
});

describe('Redactor: near misses of a key', () => {
  /** With characters that URL encodings change, and letters of both cases. */
  const KEY = 'sk-live-NearMiss+Key/7f3a9c~';
  const redactor = new Redactor([{ key: KEY, label: 'free#1' }]);
  /** Every run of 4 characters of the key, in lower case. */
  const pieces = Array.from({ length: KEY.length - 3 }, (_, i) => KEY.slice(i, i + 4).toLowerCase());
  const leaked = (text: string) => pieces.filter((p) => text.toLowerCase().includes(p));

  it.each(nearMissKeys(KEY).map((c) => [c.name, c.header]))('%s: nothing of the key is left, as sent or echoed, URL-encoded or in another case', (_name, header) => {
    const echoed = [
      header,
      `{"message":"invalid API key ${header.replace(/^Bearer ?/, '')}"}`,
      `?api_key=${encodeURIComponent(header.replace(/^Bearer ?/, ''))}`,
      new URLSearchParams([['auth', header]]).toString(),
      header.toUpperCase(),
      header.toLowerCase(),
    ].join('\n');
    const out = redactor.scrub(echoed);
    expect(out).toContain('[REDACTED:free#1');
    expect(leaked(out)).toEqual([]);
  });

  it('records the prefix and other cases by name, and keeps the shape of the others', () => {
    const shown = Object.fromEntries(nearMissKeys(KEY).map((c) => [c.name, redactor.scrub(c.header)]));
    expect(shown).toEqual({
      prefix: 'Bearer [REDACTED:free#1 prefix]',
      suffix: 'Bearer [REDACTED:free#1]x',
      'upper-case': 'Bearer [REDACTED:free#1 upper-case]',
      'lower-case': 'Bearer [REDACTED:free#1 lower-case]',
      'trailing-semicolon': 'Bearer [REDACTED:free#1];x',
      'trailing-comma': 'Bearer [REDACTED:free#1],x',
      'two-tokens': 'Bearer [REDACTED:free#1] [REDACTED:free#1]',
      'two-tokens-other': 'Bearer [REDACTED:free#1] other',
      'no-space': 'Bearer[REDACTED:free#1]',
    });
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
