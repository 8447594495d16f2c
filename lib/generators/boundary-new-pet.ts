// NewPets at the edges of what the interface says about their fields, each labelled with its edge
// and with what a conforming service may answer besides 201.
//
// `name` is "a string": no length, no character set. So a name of one character, of 1,000, with
// characters outside the Basic Multilingual Plane (surrogate pairs in UTF-16, four bytes in
// UTF-8), with combining marks (which Unicode normalisation would rewrite) or with control
// characters (escaped in JSON, so the body is legal) must be created and come back exactly. Two
// edges leave room for a second reading: an empty or whitespace-only name (a required field given
// no content: a service may count it as missing, "400: required fields missing") and a name of
// 10,000 characters (the interface states no maximum, but a service may bound what it stores and
// refuse more with 400, or 413 for the body). Whatever the reading, never a 5xx.
//
// `categoryId` is "integer, int64". JSON may write one integer several ways: `1.0`, `1e2`, `-0`
// are integers to JSON Schema but fractions to many typed parsers, so a service may create the
// animal with the value they denote or refuse them with 400. Whitespace between JSON tokens is
// plain JSON and must be accepted. (The int64 edges of categoryId written as plain digits are
// validNewPetEdges(), and values beyond int64 in any notation are invalidNewPet().)
import fc from 'fast-check';
import { stringifyJson } from '../json.ts';
import { objectText, stringText } from './_internals/json-text.ts';
import { type GeneratedNewPet, optionalStatus } from './_internals/new-pet-value.ts';
import { type NamePrefixOptions, resolveNamePrefixOptions } from './_internals/options.ts';
import { repeatToLength } from './_internals/pet-name.ts';

export type BoundaryNewPetOptions = NamePrefixOptions;

export type BoundaryNewPetCase = {
  /** The exact JSON text to send. */
  body: string;
  /** What the body denotes: a created Pet must repeat it exactly (status only when sent). */
  pet: GeneratedNewPet;
  /** The edge, e.g. "name of 10,000 characters", "categoryId written -0". */
  reason: string;
  /**
   * The statuses besides 201 a conforming service may answer, with an Error body: [400] where the
   * interface leaves room for a refusal, [400, 413] for the longest name, [] where the animal
   * must be created.
   */
  mayRefuseWith: readonly number[];
};

/** Whitespace-only names: ASCII and Unicode spaces, tabs and line breaks. */
export const BLANK_NAMES = [' ', '   ', '\t', '\n', ' \t\r\n ', '\u00a0', '\u3000', '\u2003'] as const;

/** Lengths (UTF-16 code units, here also code points and characters) of the long names, prefix included. */
export const LONG_NAME_LENGTHS = { long: 1_000, longest: 10_000 } as const;

const codePointIn = (min: number, max: number): fc.Arbitrary<string> => fc.integer({ min, max }).map((cp) => String.fromCodePoint(cp));

/** BMP text only, so the length in code units is the number of characters; nothing JSON escapes, so a 10,000-character body stays under 32 KiB. */
const longUnit = fc.constantFrom('abcdefghij', 'Rex ', 'Bélla ', '柴犬ポチ', 'Zoë-', 'K9 ');

/** Astral code points, never a noncharacter (U+xFFFE, U+xFFFF of each plane). */
const astralCodePoint = codePointIn(0x10000, 0x10ffff).filter((c) => (c.codePointAt(0)! & 0xfffe) !== 0xfffe);
const astral = fc.oneof(
  fc.constantFrom('𠮷野家', '🐕‍🦺', '👩‍👩‍👧‍👦', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '🀄', '𓃠 Horus', '🇯🇵'),
  fc.string({ unit: astralCodePoint, minLength: 1, maxLength: 6 }),
);

/** Decomposed letters (normalisation to NFC would change them), stacked marks, Hangul jamo. */
const combining = fc.oneof(
  fc.constantFrom('Bele\u0301n', 'Zoe\u0308', 'n\u0303o', 'a\u0300\u0301\u0302\u0303', 'Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324', '\u1100\u1161\u11a8'),
  fc
    .tuple(fc.constantFrom(...'aeiouyAEIOUZ'), fc.array(fc.integer({ min: 0x300, max: 0x36f }), { minLength: 1, maxLength: 4 }))
    .map(([base, marks]) => base + String.fromCodePoint(...marks)),
);

/** C0 controls (NUL included), DEL and C1 controls, among letters; JSON escapes the C0 ones. */
const controlUnit = fc.oneof(codePointIn(0x00, 0x1f), fc.constant('\u007f'), codePointIn(0x80, 0x9f));
const control = fc
  .array(fc.oneof(controlUnit, fc.constantFrom('a', 'b', ' ')), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(''))
  .filter((text) => /[\u0000-\u001f\u007f-\u009f]/.test(text));

/** Integers a JSON number literal may also denote, written with an exponent: [literal, value]. */
const EXPONENT_FORMS: readonly (readonly [string, bigint])[] = [
  ['1e2', 100n],
  ['1E3', 1_000n],
  ['5e0', 5n],
  ['12e1', 120n],
  ['2E+2', 200n],
  ['1e15', 10n ** 15n],
];

/**
 * A NewPet at one edge of name or categoryId, labelled (see the file's head for which edges may
 * be refused). Names carry namePrefix except the three that cannot: the empty name, a
 * whitespace-only name and a name of one character. Other fields are plain: categoryId in
 * 1..999,999 where the name is the edge, status absent or any value.
 */
export function boundaryNewPet(options?: BoundaryNewPetOptions): fc.Arbitrary<BoundaryNewPetCase> {
  const { namePrefix } = resolveNamePrefixOptions(options);
  const plainId = fc.bigInt({ min: 1n, max: 999_999n });

  /** A NewPet whose name is the edge. */
  const named = (reason: string, name: fc.Arbitrary<string>, mayRefuseWith: readonly number[] = []): fc.Arbitrary<BoundaryNewPetCase> =>
    fc.tuple(name, plainId, optionalStatus()).map(([n, categoryId, status]) => {
      const pet: GeneratedNewPet = { name: n, categoryId, ...(status === undefined ? {} : { status }) };
      return { body: stringifyJson(pet), pet, reason, mayRefuseWith };
    });

  /** A NewPet whose categoryId is written as `literal`, denoting `value`. */
  const numbered = (reason: string, form: fc.Arbitrary<readonly [string, bigint]>): fc.Arbitrary<BoundaryNewPetCase> =>
    fc.tuple(form, optionalStatus()).map(([[literal, categoryId], status]) => {
      const name = `${namePrefix}categoryId ${literal}`;
      const pet: GeneratedNewPet = { name, categoryId, ...(status === undefined ? {} : { status }) };
      const body = objectText([['name', stringText(name)], ['categoryId', literal], ...(status === undefined ? [] : [['status', stringText(status)] as const])]);
      return { body, pet, reason, mayRefuseWith: [400] };
    });

  const longName = (length: number) => longUnit.map((unit) => namePrefix + repeatToLength(unit, length - namePrefix.length));
  const ws = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), minLength: 1, maxLength: 3 });

  return fc.oneof(
    named('name empty', fc.constant(''), [400]),
    named('name whitespace only', fc.constantFrom(...BLANK_NAMES), [400]),
    named('name of one character', fc.constantFrom('x', 'Q', '7', 'é', '猫', '🐕')),
    named('name of 1,000 characters', longName(LONG_NAME_LENGTHS.long)),
    named('name of 10,000 characters', longName(LONG_NAME_LENGTHS.longest), [400, 413]),
    named('name with characters outside the BMP', astral.map((text) => namePrefix + text)),
    named('name with combining characters', combining.map((text) => namePrefix + text)),
    named('name with control characters', control.map((text) => `${namePrefix}${text}`)),
    numbered('categoryId written with a zero fraction', fc.integer({ min: -1000, max: 1000 }).filter((n) => n !== 0).map((n) => [`${n}.0`, BigInt(n)] as const)),
    numbered('categoryId in exponent notation', fc.constantFrom(...EXPONENT_FORMS)),
    numbered('categoryId written -0', fc.constant(['-0', 0n] as const)),
    // Plain JSON: whitespace around every token, the number included; must be accepted.
    fc.tuple(plainId, optionalStatus(), fc.array(ws, { minLength: 12, maxLength: 12 })).map(([categoryId, status, w]): BoundaryNewPetCase => {
      const name = `${namePrefix}spaced JSON`;
      const pet: GeneratedNewPet = { name, categoryId, ...(status === undefined ? {} : { status }) };
      const statusText = status === undefined ? '' : `,${w[10]}"status"${w[11]}:${w[10]}${stringText(status)}`;
      const body = `${w[0]}{${w[1]}"name"${w[2]}:${w[3]}${stringText(name)}${w[4]},${w[5]}"categoryId"${w[6]}:${w[7]}${categoryId}${w[8]}${statusText}}${w[9]}`;
      return { body, pet, reason: 'whitespace between the JSON tokens', mayRefuseWith: [] };
    }),
  );
}
