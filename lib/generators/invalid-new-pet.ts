// createPet bodies that break the NewPet contract ("400: required fields missing or values
// invalid"), each labelled with the rule it breaks and, where it still describes a NewPet to a
// lenient reader, with the NewPets that reader takes it for and whether that reading coerces a
// value the interface calls invalid.
import fc from 'fast-check';
import { stringifyJson } from '../json.ts';
import { INT64_MAX, INT64_MIN, type NewPet } from '../models.ts';
import { int64, outsideInt64 } from './_internals/int64.ts';
import { type Member, objectText, stringText } from './_internals/json-text.ts';
import { type GeneratedNewPet, newPetValue, optionalStatus } from './_internals/new-pet-value.ts';
import { type NamePrefixOptions, resolveNamePrefixOptions } from './_internals/options.ts';
import { petName } from './_internals/pet-name.ts';
import { isPetStatusIgnoringCase, petStatusIgnoringCase, petStatusInAnotherCase, petStatusWithWhitespace, unknownPetStatus } from './pet-status.ts';

export type InvalidNewPetOptions = NamePrefixOptions;

export type InvalidNewPetCase = {
  /** The raw text to send; undefined means send no body at all. */
  body: string | undefined;
  /** Content-Type to send; absent means send none. 'application/json' whenever there is a body. */
  contentType?: string;
  /** Short label of the rule broken, e.g. "name missing", "categoryId above int64". */
  reason: string;
  /**
   * The NewPets a lenient reader takes the body for, when it still describes one: a value of another
   * type or outside the enum coerced ("12" for 12, "Available" for available, 42 for "42"), or what
   * the interface does not describe (a null status for none; the JSON in single quotes, with a
   * comment, a trailing comma...). Any 2xx that created none of these created an animal the body
   * does not describe. Absent: no reading.
   */
  readings?: NewPet[];
  /**
   * Present (true) when the readings coerce a value of another type or outside the enum: a string
   * of digits for categoryId, a number for name, a PetStatus in another case or padded, a NewPet
   * JSON-encoded twice as a string. The interface calls these values invalid ("400: ... values
   * invalid"), so a 2xx that created a reading is create-pet.invalid-rejected's failure (a must).
   * Absent with readings: they read what the interface does not describe (JSON5 and forgiving
   * parsers' syntax, a null status as none), create-pet.lenient-input's (a should). Never present
   * without readings.
   */
  coerced?: true;
};

const JSON_TYPE = 'application/json';

type Field = 'name' | 'categoryId' | 'status';
type Fields = Partial<Record<Field, string>>;

/** The fields of a valid NewPet as JSON text. */
function fieldsOf(pet: GeneratedNewPet): Fields {
  return {
    name: stringText(pet.name),
    categoryId: pet.categoryId.toString(),
    ...(pet.status === undefined ? {} : { status: stringText(pet.status) }),
  };
}

/** A valid NewPet (status sometimes absent). */
function validPet(namePrefix: string): fc.Arbitrary<GeneratedNewPet> {
  return fc.tuple(petName(namePrefix), int64(), optionalStatus()).map(([name, categoryId, status]) => ({ name, categoryId, ...(status === undefined ? {} : { status }) }));
}

function membersOf(fields: Fields, reversed: boolean): Member[] {
  const members = (['name', 'categoryId', 'status'] as const).flatMap((key): Member[] => {
    const value = fields[key];
    return value === undefined ? [] : [[key, value]];
  });
  return reversed ? members.reverse() : members;
}

/** A body to send, with the NewPets a lenient reader takes it for (if any), and whether that reading coerces (see InvalidNewPetCase). */
type Body = { text: string; readings?: NewPet[]; coerced?: true };

/** The readings of a case, with `coerced` only where there are readings. */
function readingsOf(readings: NewPet[] | undefined, coerced: boolean | undefined): Pick<InvalidNewPetCase, 'readings' | 'coerced'> {
  if (!readings || readings.length === 0) return {};
  return coerced ? { readings, coerced: true } : { readings };
}

function withBody(reason: string, body: fc.Arbitrary<string | Body>): fc.Arbitrary<InvalidNewPetCase> {
  return body.map((b) => {
    const { text, readings, coerced } = typeof b === 'string' ? { text: b, readings: undefined, coerced: undefined } : b;
    return { body: text, contentType: JSON_TYPE, reason, ...readingsOf(readings, coerced) };
  });
}

/**
 * How a lenient reader reads one field's JSON text: the values it may take it for (undefined: the
 * field absent; none: the text describes no value of the field), and whether it coerces a value
 * of another type or outside the enum (see InvalidNewPetCase's `coerced`).
 */
interface ReadField {
  values: (text: string) => (string | bigint | undefined)[];
  coerced: boolean;
}

const jsonString = (text: string): string | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Lenient readings of a field, each named by what it reads. All but `absent` coerce a value the
 * interface calls invalid; a null status read as none is no value of PetStatus, but many clients
 * and validators read it so, and the interface does not say what null is.
 */
const READ = {
  /** A string of decimal digits within int64 as that integer ("12" as 12): another type. */
  numericString: {
    coerced: true,
    values: (text) => {
      const value = jsonString(text);
      if (value === undefined || !/^-?[0-9]+$/.test(value)) return [];
      const n = BigInt(value);
      return n >= INT64_MIN && n <= INT64_MAX ? [n] : [];
    },
  },
  /** A PetStatus in another case or with whitespace at its ends as that status: outside the enum. */
  status: {
    coerced: true,
    values: (text) => {
      const status = petStatusIgnoringCase(jsonString(text)?.trim() ?? '');
      return status === undefined ? [] : [status];
    },
  },
  /** null as the field left out: not described. */
  absent: { coerced: false, values: () => [undefined] },
  /** A number as its text: as written, as JavaScript writes it, as Python writes a float (1e3: "1e3", "1000", "1000.0"): another type. */
  numberText: {
    coerced: true,
    values: (text) => {
      const n = Number(text);
      const float = Number.isInteger(n) && !/^-?[0-9]+$/.test(text) ? [`${n}.0`] : [];
      return [...new Set([text, String(n), ...float])];
    },
  },
} satisfies Record<string, ReadField>;

/** `pet` with `field` set to a value a reader took (undefined: left out). */
function withValue(pet: GeneratedNewPet, field: Field, value: string | bigint | undefined): NewPet {
  const { [field]: _, ...rest } = pet;
  return (value === undefined ? rest : { ...rest, [field]: value }) as NewPet;
}

/** The valid `pet` with `field` written as `text`, and the readings `read` gives it. */
function fieldCase(reason: string, pet: GeneratedNewPet, field: Field, text: string, reversed: boolean, read?: ReadField): InvalidNewPetCase {
  const readings = (read?.values(text) ?? []).map((value) => withValue(pet, field, value));
  return { body: objectText(membersOf({ ...fieldsOf(pet), [field]: text }, reversed)), contentType: JSON_TYPE, reason, ...readingsOf(readings, read?.coerced) };
}

/** Valid fields except `field`, which gets one of `bad` (JSON text), read leniently by `read`. */
function wrongValue(namePrefix: string, field: Field, reason: string, bad: fc.Arbitrary<string>, read?: ReadField): fc.Arbitrary<InvalidNewPetCase> {
  return fc.tuple(validPet(namePrefix), bad, fc.boolean()).map(([pet, text, reversed]) => fieldCase(reason, pet, field, text, reversed, read));
}

/** Valid fields without the given ones. */
function missing(namePrefix: string, fields: readonly Field[], reason: string): fc.Arbitrary<InvalidNewPetCase> {
  return withBody(
    reason,
    fc.tuple(validPet(namePrefix), fc.boolean()).map(([pet, reversed]) => {
      const kept = fieldsOf(pet);
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

/** Integer literals JSON does not allow that JSON5 or a number parser reads as an integer. */
const LENIENT_INTEGERS: Readonly<Record<string, bigint>> = { '01': 1n, '-01': -1n, '+1': 1n, '0x10': 16n, '1.': 1n };

/**
 * Text that is almost a NewPet but not JSON at all. Spellings a lenient parser (JSON5, a parser
 * that reads the first value and stops, one that allows control characters in strings) still reads
 * as the NewPet come with it as their reading; text it cannot read (truncated, NaN, Infinity, an
 * invalid escape, a fraction's spelling) has none.
 */
function malformed(namePrefix: string): fc.Arbitrary<InvalidNewPetCase>[] {
  const pet = newPetValue(namePrefix);
  const idText = int64().map(String);
  /** A NewPet of a simple name and a categoryId (digits), as written by `write`. */
  const simple = <T>(extra: fc.Arbitrary<T>, write: (name: string, id: string, extra: T) => string, reading: (name: string, id: string, extra: T) => NewPet | undefined = (name, id) => ({ name, categoryId: BigInt(id) })) =>
    fc.tuple(simpleName, idText, extra).map(([name, id, x]): Body => {
      const read = reading(name, id, x);
      return { text: write(name, id, x), ...(read ? { readings: [read] } : {}) };
    });
  return [
    withBody(
      'malformed JSON: truncated',
      fc.tuple(pet, fc.nat()).map(([p, n]) => {
        const codePoints = Array.from(stringifyJson(p)); // cut between code points, never inside a surrogate pair
        return codePoints.slice(0, 1 + (n % (codePoints.length - 1))).join('');
      }),
    ),
    withBody('malformed JSON: trailing comma', pet.map((p) => ({ text: `${stringifyJson(p).slice(0, -1)},}`, readings: [p] }))),
    withBody(
      'malformed JSON: single quotes',
      simple(fc.constantFrom('keys', 'values', 'both'), (name, id, where) =>
        where === 'keys' ? `{'name':"${name}",'categoryId':${id}}` : where === 'values' ? `{"name":'${name}',"categoryId":${id}}` : `{'name':'${name}','categoryId':${id}}`,
      ),
    ),
    withBody('malformed JSON: unquoted keys', simple(fc.constant(null), (name, id) => `{name:"${name}",categoryId:${id}}`)),
    withBody('malformed JSON: NaN', simpleName.map((name) => `{"name":"${name}","categoryId":NaN}`)),
    withBody(
      'malformed JSON: Infinity',
      fc.tuple(simpleName, fc.constantFrom('Infinity', '-Infinity')).map(([name, v]) => `{"name":"${name}","categoryId":${v}}`),
    ),
    withBody(
      'malformed JSON: comment',
      simple(fc.constantFrom('block-before', 'block-inside', 'line-inside', 'line-after'), (name, id, where) => {
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
      fc.tuple(simpleName, fc.constantFrom('01', '-01', '+1', '0x10', '.5', '1.', '1e', '--1', '1_000')).map(([name, literal]): Body => {
        const value = LENIENT_INTEGERS[literal];
        return { text: `{"name":"${name}","categoryId":${literal}}`, ...(value === undefined ? {} : { readings: [{ name, categoryId: value }] }) };
      }),
    ),
    withBody(
      'malformed JSON: unescaped control character in string',
      simple(
        fc.constantFrom('\n', '\t', '\r', '\u0000', '\u001f'),
        (name, id, control) => `{"name":"${name}${control}x","categoryId":${id}}`,
        (name, id, control) => ({ name: `${name}${control}x`, categoryId: BigInt(id) }),
      ),
    ),
    withBody(
      'malformed JSON: invalid escape in string',
      fc
        .tuple(simpleName, fc.constantFrom('\\x41', '\\u12', '\\u12G4', '\\a', "\\'"), idText)
        .map(([name, escape, id]) => `{"name":"${name}${escape}","categoryId":${id}}`),
    ),
    withBody(
      'malformed JSON: data after the object',
      fc.tuple(pet, fc.constantFrom('{}', ' x', ',', ']', '}', ' null')).map(([p, tail]) => ({ text: stringifyJson(p) + tail, readings: [p] })),
    ),
  ];
}

/** Strings no reader takes for a PetStatus: never blank, never one with whitespace or control characters taken out. */
const notAStatusAtAll = (s: string): boolean => {
  const bare = s.replace(/[\s\p{Cc}\p{Cf}\p{Z}]/gu, '');
  return bare !== '' && !isPetStatusIgnoringCase(bare);
};

/**
 * A createPet request that breaks exactly one rule of NewPet where that is possible (the other
 * fields are valid), labelled by `reason`:
 *
 * - a required field missing: name, categoryId, or both;
 * - a field of the wrong JSON type: name as number/boolean/array/object/null; categoryId as a
 *   string (also numeric strings such as "12"), boolean, array, object, null; status as
 *   number/boolean/null/array, the empty string, whitespace only, a PetStatus in another case
 *   ("Available", "SOLD": the enum is case-sensitive) or with whitespace at its ends (" available"),
 *   or a string outside PetStatus in any case ("adopted", "availabl");
 * - categoryId with a fraction (1.5, -0.25, 1e-3, written literally), or an integer outside int64
 *   (2^63, -2^63 - 1, 10^30, written as digits; 1e400, 1e19, 9.3e18 in exponent notation, which a
 *   double reads as Infinity or rounds);
 * - malformed JSON (truncated, trailing comma, single quotes, unquoted keys, NaN, Infinity,
 *   comments, invalid number literals, raw control characters, invalid escapes, trailing data);
 * - an empty or whitespace-only body, or no body at all;
 * - a JSON scalar or array instead of an object.
 *
 * Cases that still describe a NewPet to a lenient reader carry it as their `readings`. Those that
 * coerce a value of another type or outside the enum are marked `coerced` (the interface calls
 * them invalid): categoryId as a string of digits within int64 ("12": 12), a PetStatus in another
 * case or padded (that status), a number for name (its text), the NewPet JSON-encoded twice as a
 * string. The others read what the interface does not describe: a null status (none), and the JSON
 * spellings of JSON5 and of forgiving parsers (trailing comma, single quotes, unquoted keys,
 * comments, data after the object, control characters in a string, an integer written 01, +1, 1.
 * or 0x10). A missing field, an empty, blank or unknown status, a fraction, a value beyond int64,
 * NaN, Infinity, a boolean, array or object for a scalar, truncated JSON, an invalid escape and an
 * empty body have none: nothing a reader makes of them is the NewPet.
 *
 * Integral numbers written with a fraction or exponent (1.0, 1e3) are never used: JSON Schema
 * counts them as integers. Duplicate keys and a leading byte order mark are left out too: RFC 8259
 * lets a parser accept them. namePrefix (default '') marks the names in these bodies as well, so an
 * animal a faulty service creates from one can be recognised.
 */
export function invalidNewPet(options?: InvalidNewPetOptions): fc.Arbitrary<InvalidNewPetCase> {
  const { namePrefix } = resolveNamePrefixOptions(options);
  const name = petName(namePrefix);
  const pet = newPetValue(namePrefix);
  const idText = int64().map(String);
  const unknownStatus = fc.oneof(unknownPetStatus(), fc.string({ maxLength: 12 }).filter(notAStatusAtAll));

  return fc.oneof(
    // Required fields missing.
    missing(namePrefix, ['name'], 'name missing'),
    missing(namePrefix, ['categoryId'], 'categoryId missing'),
    missing(namePrefix, ['name', 'categoryId'], 'name and categoryId missing'),
    // name of the wrong type.
    wrongValue(namePrefix, 'name', 'name is a number', fc.oneof(smallInt, fc.constantFrom('0', '1.5', '1e3')), READ.numberText),
    wrongValue(namePrefix, 'name', 'name is a boolean', fc.constantFrom('true', 'false')),
    wrongValue(namePrefix, 'name', 'name is an array', fc.oneof(fc.constant('[]'), name.map((n) => `[${stringText(n)}]`))),
    wrongValue(namePrefix, 'name', 'name is an object', fc.oneof(fc.constant('{}'), name.map((n) => `{"first":${stringText(n)}}`))),
    wrongValue(namePrefix, 'name', 'name is null', fc.constant('null')),
    // categoryId of the wrong type.
    wrongValue(
      namePrefix,
      'categoryId',
      'categoryId is a string',
      fc.oneof(fc.constantFrom('""', '" "', '"abc"', '"one"', '"0x10"', '"null"'), simpleName.map(stringText)),
    ),
    wrongValue(
      namePrefix,
      'categoryId',
      'categoryId is a numeric string',
      fc.oneof(fc.constantFrom('"12"', '"0"', '"-1"', '"9007199254740993"'), int64().map((n) => `"${n}"`)),
      READ.numericString,
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
    wrongValue(namePrefix, 'status', 'status is null', fc.constant('null'), READ.absent),
    wrongValue(namePrefix, 'status', 'status is an array', fc.constantFrom('[]', '["available"]')),
    wrongValue(namePrefix, 'status', 'status is the empty string', fc.constant('""')),
    wrongValue(namePrefix, 'status', 'status is whitespace only', fc.constantFrom(' ', '  ', '\t', '\n', ' \t\r\n ').map(stringText)),
    wrongValue(namePrefix, 'status', 'status is a PetStatus in another case', petStatusInAnotherCase().map(stringText), READ.status),
    wrongValue(namePrefix, 'status', 'status is a PetStatus with whitespace at its ends', petStatusWithWhitespace().map(stringText), READ.status),
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
      // A NewPet JSON-encoded twice: a string where the object goes, which the interface calls invalid.
      fc.oneof(fc.constant('"x"'), name.map(stringText), pet.map((p): Body => ({ text: stringText(stringifyJson(p)), readings: [p], coerced: true }))),
    ),
    withBody('number instead of object', fc.oneof(fc.constantFrom('1', '0', '-1'), idText)),
    withBody('boolean instead of object', fc.constantFrom('true', 'false')),
    withBody('null instead of object', fc.constant('null')),
    withBody('array instead of object', fc.oneof(fc.constant('[]'), pet.map((p) => `[${stringifyJson(p)}]`))),
  );
}

/**
 * The invalid NewPets real faults sit on, sent on every run besides the generated ones (they are
 * the property's examples): status as the empty string, whitespace only, in another case, padded
 * and null; categoryId as the empty string, a blank, a string of digits, null and one beyond each
 * end of int64; name as null and as a number. The empty and the whitespace-only name are valid
 * (any string): create-pet.boundaries sends them. Each is labelled with the reason the generator
 * gives the same rule broken, and carries its readings (coerced but for the null status).
 */
export function invalidNewPetBoundaries(options?: InvalidNewPetOptions): InvalidNewPetCase[] {
  const { namePrefix } = resolveNamePrefixOptions(options);
  const cases: [Field, string, string, ReadField?][] = [
    ['status', '""', 'status is the empty string'],
    ['status', '" "', 'status is whitespace only'],
    ['status', '"\\t \\n"', 'status is whitespace only'],
    ['status', '"Available"', 'status is a PetStatus in another case', READ.status],
    ['status', '"AVAILABLE"', 'status is a PetStatus in another case', READ.status],
    ['status', '" available"', 'status is a PetStatus with whitespace at its ends', READ.status],
    ['status', 'null', 'status is null', READ.absent],
    ['categoryId', '""', 'categoryId is a string'],
    ['categoryId', '" "', 'categoryId is a string'],
    ['categoryId', '"12"', 'categoryId is a numeric string', READ.numericString],
    ['categoryId', 'null', 'categoryId is null'],
    ['categoryId', String(INT64_MAX + 1n), 'categoryId above int64'],
    ['categoryId', String(INT64_MIN - 1n), 'categoryId below int64'],
    ['name', 'null', 'name is null'],
    ['name', '42', 'name is a number', READ.numberText],
  ];
  return cases.map(([field, text, reason, read]) => fieldCase(reason, { name: `${namePrefix}invalid ${field}`, categoryId: 12n }, field, text, false, read));
}
