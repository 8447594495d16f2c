// Names for generated animals: `${lead}${namePrefix}${core}${trail}`.
//
// The interface says only that `name` is a string, so a conforming service must store and return
// any string exactly. The core covers the kinds of text that break that: plain ASCII, Latin
// letters with combining marks (both decomposed "e\u0301" and precomposed "é", which are
// different strings), right-to-left scripts, CJK (including astral ideographs), emoji with ZWJ
// sequences, skin tones and flags (surrogate pairs in UTF-16), characters JSON must escape, and
// long text.
//
// Lone surrogates (an unpaired U+D800..U+DFFF) are never generated. JSON text can spell one
// ("\ud800"), but it is not a Unicode scalar value: it has no UTF-8 encoding, so a service written
// in a UTF-8 language (Go, Rust, most databases) must replace it with U+FFFD or reject the body,
// and RFC 8259 §8.2 calls the behaviour of such strings unpredictable. A name with one cannot be
// expected to come back unchanged, so it would test the service's language, not the interface.
//
// The core is never empty, so a name always carries something besides the prefix: the interface
// puts no minimum length on `name`, but whether "" is accepted is a question for a dedicated
// check, not for every animal the harness creates.
import fc from 'fast-check';

/** Whitespace a name may start or end with (usually it has none). */
export const EDGE_WHITESPACE = [' ', '\t', '\u00a0', '\u3000', '\n'] as const;

/** Upper bound on the length (UTF-16 code units) of a long core. Bodies stay far under 64 KiB. */
export const LONG_CORE_MAX = 2000;

const fromCodePoints = (codePoints: readonly number[]): string => String.fromCodePoint(...codePoints);
const codePointIn = (min: number, max: number): fc.Arbitrary<string> =>
  fc.integer({ min, max }).map((cp) => String.fromCodePoint(cp));
const textOf = (unit: fc.Arbitrary<string>, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit, minLength: 1, maxLength });

const ascii = fc.oneof(
  fc.constantFrom('Rex', 'Bella', 'Mr. Whiskers', "O'Malley", 'Tom & Jerry', 'K-9', 'a'),
  textOf(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), 16),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 24 }),
);

/** A Latin base letter followed by one to three combining marks (U+0300..U+036F). */
const combiningLetter = fc
  .tuple(fc.constantFrom(...'aeiouncyAEIOUNCZ'), fc.array(fc.integer({ min: 0x300, max: 0x36f }), { minLength: 1, maxLength: 3 }))
  .map(([base, marks]) => base + fromCodePoints(marks));
const latinCombining = fc.oneof(
  fc.constantFrom('e\u0301', 'Zoe\u0308', 'Bele\u0301n', 'Pho\u031b\u0309', 'A\u030angstro\u0308m', 'ñ vs n\u0303', 'é', 'Zoë'),
  textOf(fc.oneof(combiningLetter, fc.constantFrom(...'abcdelmnorst ')), 12).filter((s) => /\p{M}/u.test(s)),
);

const hebrewLetter = codePointIn(0x05d0, 0x05ea);
const arabicLetter = fc.oneof(codePointIn(0x0621, 0x063a), codePointIn(0x0641, 0x064a));
const rightToLeft = fc.oneof(
  fc.constantFrom('שלום', 'כלב 7', 'مرحبا', 'كَلْب', 'قطة\u200f', 'Rex שלום'),
  textOf(hebrewLetter, 12),
  textOf(arabicLetter, 12),
  fc.tuple(textOf(hebrewLetter, 6), textOf(arabicLetter, 6)).map(([h, a]) => `${h} ${a}`),
);

const cjk = fc.oneof(
  fc.constantFrom('柴犬', 'ポチ', 'たま', '바둑이', '𠮷野家', '🐕柴犬'),
  textOf(
    fc.oneof(
      codePointIn(0x4e00, 0x9fff), // CJK unified ideographs
      codePointIn(0x3041, 0x3096), // Hiragana
      codePointIn(0x30a1, 0x30fa), // Katakana
      codePointIn(0xac00, 0xd7a3), // Hangul syllables
      codePointIn(0x20000, 0x2a6df), // CJK extension B: astral, a surrogate pair each
    ),
    10,
  ),
);

const regionalIndicator = codePointIn(0x1f1e6, 0x1f1ff);
const emojiUnit = fc.oneof(
  fc.constantFrom(
    '🐶',
    '🐱',
    '🦜',
    '❤️', // BMP heart + variation selector 16
    '🐈‍⬛', // cat ZWJ black square
    '🐕‍🦺', // service dog (ZWJ)
    '👩‍👩‍👧‍👦', // family (three ZWJs)
    '🏳️‍🌈', // rainbow flag (VS16 + ZWJ)
    '🏴‍☠️', // pirate flag (ZWJ)
    '👍🏽', // skin tone modifier
    '1️⃣', // keycap sequence
    '🇯🇵',
    '🇺🇦',
    '🇧🇷',
    '🇮🇱',
  ),
  codePointIn(0x1f400, 0x1f4ff),
  fc.tuple(regionalIndicator, regionalIndicator).map(([a, b]) => a + b), // a flag, or an unknown pair
);
const emoji = fc.oneof(
  textOf(emojiUnit, 6),
  fc.tuple(ascii, textOf(emojiUnit, 3)).map(([a, e]) => `${a} ${e}`),
);

/** Characters JSON must escape, and text that looks like syntax of JSON or of a host language. */
const jsonSensitiveUnit = fc.constantFrom(
  '"',
  '\\',
  '/',
  '\\"',
  '"}',
  '{"name":"x"}',
  '\\u0041',
  '\b',
  '\f',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u2028',
  '\u2029',
  '\ufeff',
  "'",
  '`',
  '</script>',
  '${x}',
  '%00',
  '&amp;',
);
const jsonSensitive = fc
  .array(fc.oneof(jsonSensitiveUnit, ascii), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((s) => /["\\\u0000-\u001f]/.test(s));

/**
 * Any Unicode scalar value: every code point except the surrogate range U+D800..U+DFFF. (Same set
 * as fast-check's unit 'binary', which takes about a second to build; this takes no time.)
 */
const scalarValue = fc.oneof(codePointIn(0, 0xd7ff), codePointIn(0xe000, 0x10ffff));

/** Whatever fast-check considers text: any printable grapheme, or any scalar value. */
const broad = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }), textOf(scalarValue, 16));

const shortCore = fc.oneof(
  { weight: 3, arbitrary: ascii },
  { weight: 2, arbitrary: latinCombining },
  { weight: 2, arbitrary: rightToLeft },
  { weight: 2, arbitrary: cjk },
  { weight: 2, arbitrary: emoji },
  { weight: 2, arbitrary: jsonSensitive },
  { weight: 2, arbitrary: broad },
);

const mixed = fc.array(shortCore, { minLength: 2, maxLength: 5 }).map((parts) => parts.join(''));

/** Repeats `unit` and cuts it to at most `target` UTF-16 code units, never inside a surrogate pair. */
export function repeatToLength(unit: string, target: number): string {
  if (unit === '') throw new RangeError('cannot repeat an empty string');
  let out = '';
  while (out.length < target) {
    for (const codePoint of unit) {
      if (out.length + codePoint.length > target) return out || codePoint;
      out += codePoint;
    }
  }
  return out;
}

const long = fc
  .tuple(mixed, fc.integer({ min: 256, max: LONG_CORE_MAX }))
  .map(([unit, target]) => repeatToLength(unit, target));

/** The part of a name after the prefix: never empty, never a lone surrogate. */
export function nameCore(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 12, arbitrary: shortCore }, { weight: 3, arbitrary: mixed }, { weight: 1, arbitrary: long });
}

/** Usually '', sometimes one to three whitespace characters. */
export function edgeWhitespace(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...EDGE_WHITESPACE), minLength: 1, maxLength: 3 }) },
  );
}

/** `${lead}${namePrefix}${core}${trail}`. */
export function petName(namePrefix: string): fc.Arbitrary<string> {
  return fc
    .tuple(edgeWhitespace(), nameCore(), edgeWhitespace())
    .map(([lead, core, trail]) => `${lead}${namePrefix}${core}${trail}`);
}
