// createPet bodies that break the NewPet contract ("400: required fields missing or values
// invalid"), each labelled with the rule it breaks.
import fc from 'fast-check';
import { stringifyJson } from '../json.ts';
import { int64, outsideInt64 } from './_internals/int64.ts';
import { type Member, objectText, stringText } from './_internals/json-text.ts';
import { newPetValue, optionalStatus } from './_internals/new-pet-value.ts';
import { type NamePrefixOptions, resolveNamePrefixOptions } from './_internals/options.ts';
import { petName } from './_internals/pet-name.ts';
import { isPetStatusIgnoringCase, petStatusInAnotherCase, unknownPetStatus } from './pet-status.ts';

export type InvalidNewPetOptions = NamePrefixOptions;

export type InvalidNewPetCase = {
  /** The raw text to send; undefined means send no body at all. */
  body: string | undefined;
  /** Content-Type to send; absent means send none. 'application/json' whenever there is a body. */
  contentType?: string;
  /** Short label of the rule broken, e.g. "name missing", "categoryId above int64". */
  reason: string;
};

const JSON_TYPE = 'application/json';

type Field = 'name' | 'categoryId' | 'status';
type Fields = Partial<Record<Field, string>>;

/** Valid values for all three fields, as JSON text (status sometimes absent). */
function validFields(namePrefix: string): fc.Arbitrary<Fields> {
  return fc.tuple(petName(namePrefix), int64(), optionalStatus()).map(([name, categoryId, status]) => ({
    name: stringText(name),
    categoryId: categoryId.toString(),
    ...(status === undefined ? {} : { status: stringText(status) }),
  }));
}

function membersOf(fields: Fields, reversed: boolean): Member[] {
  const members = (['name', 'categoryId', 'status'] as const).flatMap((key): Member[] => {
    const value = fields[key];
    return value === undefined ? [] : [[key, value]];
  });
  return reversed ? members.reverse() : members;
}

function withBody(reason: string, body: fc.Arbitrary<string>): fc.Arbitrary<InvalidNewPetCase> {
  return body.map((text) => ({ body: text, contentType: JSON_TYPE, reason }));
}

/** Valid fields except `field`, which gets one of `bad` (JSON text). */
function wrongValue(namePrefix: string, field: Field, reason: string, bad: fc.Arbitrary<string>): fc.Arbitrary<InvalidNewPetCase> {
  return withBody(
    reason,
    fc
      .tuple(validFields(namePrefix), bad, fc.boolean())
      .map(([fields, value, reversed]) => objectText(membersOf({ ...fields, [field]: value }, reversed))),
  );
}

/** Valid fields without the given ones. */
function missing(namePrefix: string, fields: readonly Field[], reason: string): fc.Arbitrary<InvalidNewPetCase> {
  return withBody(
    reason,
    fc.tuple(validFields(namePrefix), fc.boolean()).map(([valid, reversed]) => {
      const kept: Fields = { ...valid };
      for (const field of fields) delete kept[field];
      return objectText(membersOf(kept, reversed));
    }),
  );
}

/** Numbers with a non-zero fractional part, written literally. Never integral ones such as 1.0 or 1e3. */
function fractionText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('1.5', '-0.25', '1e-3', '0.5', '-1.5', '15e-1', '2.5E-1', '123.456'),
    // |integer part| <= 10^6 < 2^20 and 1 to 6 decimals ending in a non-zero digit: doubles there
    // are 2^-32 apart, far finer than 10^-6, so the value read is never integral.
    fc
      .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 1, max: 9 }))
      .map(([whole, digits, last]) => `${whole === 0 && digits % 2 === 1 ? '-' : ''}${whole}.${digits}${last}`),
    // m × 10^-k with m not a multiple of 10^k.
    fc
      .tuple(fc.integer({ min: 1, max: 9_999 }), fc.integer({ min: 1, max: 5 }), fc.boolean())
      .filter(([mantissa, exponent]) => mantissa % 10 ** exponent !== 0)
      .map(([mantissa, exponent, negative]) => `${negative ? '-' : ''}${mantissa}e-${exponent}`),
  );
}

const simpleName = fc.stringMatching(/^[A-Z][a-z]{0,9}$/);
const smallInt = fc.integer({ min: -1000, max: 1000 }).map(String);

/** Text that is almost a NewPet but not JSON at all. */
function malformed(namePrefix: string): fc.Arbitrary<InvalidNewPetCase>[] {
  const validBody = newPetValue(namePrefix).map((pet) => stringifyJson(pet));
  const idText = int64().map(String);
  return [
    withBody(
      'malformed JSON: truncated',
      fc.tuple(validBody, fc.nat()).map(([body, n]) => {
        const codePoints = Array.from(body); // cut between code points, never inside a surrogate pair
        return codePoints.slice(0, 1 + (n % (codePoints.length - 1))).join('');
      }),
    ),
    withBody('malformed JSON: trailing comma', validBody.map((body) => `${body.slice(0, -1)},}`)),
    withBody(
      'malformed JSON: single quotes',
      fc
        .tuple(simpleName, idText, fc.constantFrom('keys', 'values', 'both'))
        .map(([name, id, where]) =>
          where === 'keys'
            ? `{'name':"${name}",'categoryId':${id}}`
            : where === 'values'
              ? `{"name":'${name}',"categoryId":${id}}`
              : `{'name':'${name}','categoryId':${id}}`,
        ),
    ),
    withBody(
      'malformed JSON: unquoted keys',
      fc.tuple(simpleName, idText).map(([name, id]) => `{name:"${name}",categoryId:${id}}`),
    ),
    withBody('malformed JSON: NaN', simpleName.map((name) => `{"name":"${name}","categoryId":NaN}`)),
    withBody(
      'malformed JSON: Infinity',
      fc.tuple(simpleName, fc.constantFrom('Infinity', '-Infinity')).map(([name, v]) => `{"name":"${name}","categoryId":${v}}`),
    ),
    withBody(
      'malformed JSON: comment',
      fc
        .tuple(simpleName, idText, fc.constantFrom('block-before', 'block-inside', 'line-inside', 'line-after'))
        .map(([name, id, where]) => {
          switch (where) {
            case 'block-before':
              return `/* a pet */{"name":"${name}","categoryId":${id}}`;
            case 'block-inside':
              return `{"name":"${name}", /* category */ "categoryId":${id}}`;
            case 'line-inside':
              return `{"name":"${name}", // category\n"categoryId":${id}}`;
            default:
              return `{"name":"${name}","categoryId":${id}} // end`;
          }
        }),
    ),
    withBody(
      'malformed JSON: invalid number literal',
      fc
        .tuple(simpleName, fc.constantFrom('01', '-01', '+1', '0x10', '.5', '1.', '1e', '--1', '1_000'))
        .map(([name, literal]) => `{"name":"${name}","categoryId":${literal}}`),
    ),
    withBody(
      'malformed JSON: unescaped control character in string',
      fc
        .tuple(simpleName, fc.constantFrom('\n', '\t', '\r', '\u0000', '\u001f'), idText)
        .map(([name, control, id]) => `{"name":"${name}${control}x","categoryId":${id}}`),
    ),
    withBody(
      'malformed JSON: invalid escape in string',
      fc
        .tuple(simpleName, fc.constantFrom('\\x41', '\\u12', '\\u12G4', '\\a', '\\\''), idText)
        .map(([name, escape, id]) => `{"name":"${name}${escape}","categoryId":${id}}`),
    ),
    withBody(
      'malformed JSON: data after the object',
      fc.tuple(validBody, fc.constantFrom('{}', ' x', ',', ']', '}', ' null')).map(([body, tail]) => body + tail),
    ),
  ];
}

/**
 * A createPet request that breaks exactly one rule of NewPet where that is possible (the other
 * fields are valid), labelled by `reason`:
 *
 * - a required field missing: name, categoryId, or both;
 * - a field of the wrong JSON type: name as number/boolean/array/object/null; categoryId as a
 *   string (also numeric strings such as "12"), boolean, array, object, null; status as
 *   number/boolean/null/array, a PetStatus in another case ("Available", "SOLD": the enum is
 *   case-sensitive) or a string outside PetStatus in any case ("adopted", "availabl", "");
 * - categoryId with a fraction (1.5, -0.25, 1e-3, written literally), or an integer outside int64
 *   (2^63, -2^63 - 1, 10^30, written as digits; 1e400, 1e19, 9.3e18 in exponent notation, which a
 *   double reads as Infinity or rounds);
 * - malformed JSON (truncated, trailing comma, single quotes, unquoted keys, NaN, Infinity,
 *   comments, invalid number literals, raw control characters, invalid escapes, trailing data);
 * - an empty or whitespace-only body, or no body at all;
 * - a JSON scalar or array instead of an object.
 *
 * Integral numbers written with a fraction or exponent (1.0, 1e3) are never used: JSON Schema
 * counts them as integers. Duplicate keys and a leading byte order mark are left out too: RFC 8259
 * lets a parser accept them. namePrefix (default '') marks the names in these bodies as well, so an
 * animal a faulty service creates from one can be recognised.
 */
export function invalidNewPet(options?: InvalidNewPetOptions): fc.Arbitrary<InvalidNewPetCase> {
  const { namePrefix } = resolveNamePrefixOptions(options);
  const name = petName(namePrefix);
  const validBody = newPetValue(namePrefix).map((pet) => stringifyJson(pet));
  const idText = int64().map(String);
  const unknownStatus = fc.oneof(
    unknownPetStatus(),
    fc.constantFrom('', ' available', 'sold '),
    fc.string({ maxLength: 12 }).filter((s) => !isPetStatusIgnoringCase(s)),
  );

  return fc.oneof(
    // Required fields missing.
    missing(namePrefix, ['name'], 'name missing'),
    missing(namePrefix, ['categoryId'], 'categoryId missing'),
    missing(namePrefix, ['name', 'categoryId'], 'name and categoryId missing'),
    // name of the wrong type.
    wrongValue(namePrefix, 'name', 'name is a number', fc.oneof(smallInt, fc.constantFrom('0', '1.5', '1e3'))),
    wrongValue(namePrefix, 'name', 'name is a boolean', fc.constantFrom('true', 'false')),
    wrongValue(namePrefix, 'name', 'name is an array', fc.oneof(fc.constant('[]'), name.map((n) => `[${stringText(n)}]`))),
    wrongValue(namePrefix, 'name', 'name is an object', fc.oneof(fc.constant('{}'), name.map((n) => `{"first":${stringText(n)}}`))),
    wrongValue(namePrefix, 'name', 'name is null', fc.constant('null')),
    // categoryId of the wrong type.
    wrongValue(
      namePrefix,
      'categoryId',
      'categoryId is a string',
      fc.oneof(fc.constantFrom('""', '"abc"', '"one"', '"0x10"', '"null"'), simpleName.map(stringText)),
    ),
    wrongValue(
      namePrefix,
      'categoryId',
      'categoryId is a numeric string',
      fc.oneof(fc.constantFrom('"12"', '"0"', '"-1"', '"9007199254740993"'), int64().map((n) => `"${n}"`)),
    ),
    wrongValue(namePrefix, 'categoryId', 'categoryId is a boolean', fc.constantFrom('true', 'false')),
    wrongValue(namePrefix, 'categoryId', 'categoryId is an array', fc.oneof(fc.constant('[]'), idText.map((n) => `[${n}]`))),
    wrongValue(namePrefix, 'categoryId', 'categoryId is an object', fc.oneof(fc.constant('{}'), idText.map((n) => `{"id":${n}}`))),
    wrongValue(namePrefix, 'categoryId', 'categoryId is null', fc.constant('null')),
    wrongValue(namePrefix, 'categoryId', 'categoryId has a fraction', fractionText()),
    wrongValue(namePrefix, 'categoryId', 'categoryId above int64', outsideInt64(1).map(String)),
    wrongValue(namePrefix, 'categoryId', 'categoryId below int64', outsideInt64(-1).map(String)),
    wrongValue(namePrefix, 'categoryId', 'categoryId above int64 in exponent notation', fc.constantFrom('1e400', '1E300', '1e19', '1e+19', '9.3e18')),
    // status of the wrong type or value.
    wrongValue(namePrefix, 'status', 'status is a number', fc.oneof(smallInt, fc.constant('1.5'))),
    wrongValue(namePrefix, 'status', 'status is a boolean', fc.constantFrom('true', 'false')),
    wrongValue(namePrefix, 'status', 'status is null', fc.constant('null')),
    wrongValue(namePrefix, 'status', 'status is an array', fc.constantFrom('[]', '["available"]')),
    wrongValue(namePrefix, 'status', 'status is a PetStatus in another case', petStatusInAnotherCase().map(stringText)),
    wrongValue(namePrefix, 'status', 'status not in PetStatus', unknownStatus.map(stringText)),
    // Not JSON.
    ...malformed(namePrefix),
    // No content.
    withBody('empty body', fc.constant('')),
    withBody('whitespace-only body', fc.constantFrom(' ', '\n', ' \t\r\n ')),
    fc.constant<InvalidNewPetCase>({ body: undefined, reason: 'no body' }),
    fc.constant<InvalidNewPetCase>({ body: undefined, contentType: JSON_TYPE, reason: 'no body, Content-Type application/json' }),
    // JSON, but not an object.
    withBody(
      'string instead of object',
      fc.oneof(fc.constant('"x"'), name.map(stringText), validBody.map(stringText) /* JSON encoded twice */),
    ),
    withBody('number instead of object', fc.oneof(fc.constantFrom('1', '0', '-1'), idText)),
    withBody('boolean instead of object', fc.constantFrom('true', 'false')),
    withBody('null instead of object', fc.constant('null')),
    withBody('array instead of object', fc.oneof(fc.constant('[]'), validBody.map((body) => `[${body}]`))),
  );
}
