// Authorization header values that must be refused ("Authentication": a missing or invalid key
// gets 401 with an Error body). None involves a real key: the generators never see one, and every
// token made up here is random or marked "not-a-real-key".
import fc from 'fast-check';

export type BogusCredentialCase = {
  /**
   * The Authorization header value; undefined means send no Authorization header at all.
   * Always a byte string (each character U+0000..U+00FF, never CR, LF or NUL) so Node and undici
   * send it unchanged: non-ASCII tokens are given as their bytes, one character per byte.
   */
  header: string | undefined;
  /** What is wrong with it, e.g. "no Authorization header", "unknown key". */
  reason: string;
};

const hexDigit = fc.constantFrom(...'0123456789abcdef');
const hex = (length: number): fc.Arbitrary<string> => fc.string({ unit: hexDigit, minLength: length, maxLength: length });
const base64UrlChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
const unknownKey = hex(32).map((h) => `not-a-real-key-${h}`);

/** The UTF-8 bytes of `text`, one character per byte (how a header value carries non-ASCII). */
function utf8Bytes(text: string): string {
  return String.fromCharCode(...new TextEncoder().encode(text));
}

const labelled = (reason: string, header: fc.Arbitrary<string | undefined>): fc.Arbitrary<BogusCredentialCase> =>
  header.map((value) => ({ header: value, reason }));

/** A credential that no service may accept, labelled. */
export function bogusCredential(): fc.Arbitrary<BogusCredentialCase> {
  return fc.oneof(
    labelled('no Authorization header', fc.constant(undefined)),
    labelled('empty header', fc.constant('')),
    labelled('scheme without token', fc.constantFrom('Bearer', 'bearer')),
    labelled('scheme and space without token', fc.constant('Bearer ')),
    labelled('scheme and spaces only', fc.integer({ min: 2, max: 8 }).map((n) => `Bearer${' '.repeat(n)}`)),
    labelled('Basic scheme', fc.oneof(fc.constant('Basic dXNlcjpwYXNz'), hex(16).map((h) => `Basic ${btoa(`user:${h}`)}`))),
    labelled('unknown scheme', fc.oneof(fc.constant('Token abc'), unknownKey.map((k) => `ApiKey ${k}`))),
    labelled('token without scheme', unknownKey),
    labelled('unknown key', unknownKey.map((k) => `Bearer ${k}`)),
    labelled('unknown key, lower-case scheme', unknownKey.map((k) => `bearer ${k}`)),
    labelled('unknown key, scheme repeated', unknownKey.map((k) => `Bearer Bearer ${k}`)),
    labelled(
      'unknown JWT-shaped token',
      fc
        .tuple(fc.string({ unit: base64UrlChar, minLength: 8, maxLength: 40 }), fc.string({ unit: base64UrlChar, minLength: 16, maxLength: 43 }))
        .map(([payload, signature]) => `Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${payload}.${signature}`),
    ),
    labelled(
      'very long unknown token (4 KiB)',
      fc.string({ unit: base64UrlChar, minLength: 4096, maxLength: 4096 }).map((token) => `Bearer ${token}`),
    ),
    labelled(
      'non-ASCII token (UTF-8 bytes)',
      fc
        .tuple(fc.constantFrom('ключ', 'clé', '鍵', '🔑', 'מפתח'), hex(8))
        .map(([word, h]) => `Bearer ${utf8Bytes(`${word}-${h}`)}`),
    ),
    labelled(
      'non-ASCII token (Latin-1 bytes)',
      fc.tuple(fc.constantFrom('clé', 'schlüssel', 'llave-ñ'), hex(8)).map(([word, h]) => `Bearer ${word}-${h}`),
    ),
  );
}
