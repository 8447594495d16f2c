// Values of the petId path segment of GET /pets/{petId} that are not an int64 integer
// ("Path parameter": petId, integer, int64).
import fc from 'fast-check';
import { outsideInt64 } from './_internals/int64.ts';

export type NonNumericPetIdCase = {
  /**
   * The path segment exactly as it goes into the URL, already percent-encoded: encodeURIComponent
   * of `decoded`, so "%20" stands for a space and "１２" is sent as its UTF-8 bytes. Use it as is:
   * `/pets/${raw}`; encoding it again would turn "%" into "%25".
   */
  raw: string;
  /** The value the service sees after percent-decoding. */
  decoded: string;
  /** What kind of non-integer it is, e.g. "letters", "above int64", "full-width digits". */
  reason: string;
};

const labelled = (reason: string, decoded: fc.Arbitrary<string>): fc.Arbitrary<NonNumericPetIdCase> =>
  decoded.map((value) => ({ raw: encodeURIComponent(value), decoded: value, reason }));

const named = (decoded: string, reason: string): NonNumericPetIdCase => ({ raw: encodeURIComponent(decoded), decoded, reason });

/**
 * Ids past the ends of int64, tried on every run before the generated ones: 2^63 (one past the
 * maximum, what a signed 64-bit parse overflows on), 10^30 (past any integer type), -2^63 - 1,
 * and 1e400 (beyond any double: Infinity to a parser that reads floats). A service answers 400
 * or 404; a 2xx or a 5xx is wrong.
 */
export const PET_IDS_BEYOND_INT64: readonly NonNumericPetIdCase[] = [
  named('9223372036854775808', 'above int64'),
  named(`1${'0'.repeat(30)}`, 'above int64'),
  named('-9223372036854775809', 'below int64'),
  named('1e400', 'exponent notation'),
];

/**
 * A petId that is not an int64 integer, labelled. Left out on purpose: "" (that is GET /pets/),
 * "." and ".." (URL normalisation rewrites them to other paths), anything with "/" (another
 * route), and values whose integer-ness is debatable ("+12", "012", "12.0").
 */
export function nonNumericPetId(): fc.Arbitrary<NonNumericPetIdCase> {
  return fc.oneof(
    labelled('letters', fc.oneof(fc.constantFrom('abc', 'rex', 'latest', 'me'), fc.stringMatching(/^[a-z]{1,12}$/))),
    labelled('word a loose parser reads as a number', fc.constantFrom('NaN', 'Infinity', '-Infinity', 'null', 'undefined', 'true')),
    labelled('fraction', fc.constantFrom('1.5', '0.1', '-2.5', '12.25')),
    labelled('exponent notation', fc.constantFrom('1e3', '1E3', '2e0', '1e400')),
    labelled('sign without digits', fc.constantFrom('-', '+', '--1')),
    labelled('hexadecimal literal', fc.constantFrom('0x10', '0xFF', '0X1')),
    labelled('space (encoded %20)', fc.constantFrom(' ', '  ')),
    labelled('digits with whitespace', fc.constantFrom(' 12', '12 ', '\t7', '1 2')),
    labelled('above int64', fc.oneof(fc.constant('9223372036854775808'), outsideInt64(1).map(String))),
    labelled('below int64', fc.oneof(fc.constant('-9223372036854775809'), outsideInt64(-1).map(String))),
    labelled('full-width digits', fc.constantFrom('１２', '０', '９２２３')),
    labelled('Arabic-Indic digits', fc.constantFrom('١٢', '٣')),
    labelled('digits followed by letters', fc.oneof(fc.constant('12abc'), fc.tuple(fc.nat(99_999), fc.stringMatching(/^[a-z]{1,4}$/)).map(([n, s]) => `${n}${s}`))),
    labelled('digits with a unit or separator', fc.constantFrom('1,000', '1_000', '12;x', '12%')),
  );
}
