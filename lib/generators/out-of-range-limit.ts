// `limit` values outside the contract of GET /pets ("Page size": an integer, minimum 1, maximum
// 100). The interface lists no 400 for listPets, so what a service should answer is for the checks
// to decide; the labels say what each value is.
import fc from 'fast-check';

export type OutOfRangeLimitCase = {
  /**
   * The query value as text, NOT percent-encoded (" 5" has a real space): pass it through
   * URLSearchParams or encodeURIComponent when building the URL.
   */
  raw: string;
  /** What is wrong with it, e.g. "above maximum", "not an integer literal: exponent". */
  reason: string;
  /**
   * Present only when raw denotes an integer in 1..100 without being written as a plain integer
   * literal (" 5", "+5", "05", "20.0", "1e2"): the value a lenient parser reads. Such values are
   * outside the contract, but a service that treats them as this value is not obviously wrong.
   */
  lenientValue?: number;
};

const labelled = (reason: string, raw: fc.Arbitrary<string>): fc.Arbitrary<OutOfRangeLimitCase> =>
  raw.map((value) => ({ raw: value, reason }));

const lenient = (reason: string, pairs: readonly (readonly [string, number])[]): fc.Arbitrary<OutOfRangeLimitCase> =>
  fc.constantFrom(...pairs).map(([raw, lenientValue]) => ({ raw, reason, lenientValue }));

/** A `limit` query value that is not an integer in 1..100, with a label. */
export function outOfRangeLimit(): fc.Arbitrary<OutOfRangeLimitCase> {
  return fc.oneof(
    labelled('zero (below minimum 1)', fc.constantFrom('0', '-0', '00')),
    labelled('negative (below minimum 1)', fc.oneof(fc.constant('-1'), fc.integer({ min: -1_000_000, max: -1 }).map(String))),
    labelled(
      'above maximum 100',
      fc.oneof(fc.constantFrom('101', '500', '1000'), fc.integer({ min: 101, max: 1_000_000 }).map(String)),
    ),
    labelled(
      'beyond 64-bit integer range',
      fc.constantFrom('10000000000000000000000', '9223372036854775808', '18446744073709551616', '-9223372036854775809'),
    ),
    labelled('above maximum, exponent notation', fc.constantFrom('1e400', '1e3', '1E9', '2e2')),
    // A service that truncates to 32 or 64 bits would read these as 1 or 20.
    labelled('above maximum, wraps into 1..100 if truncated to 32 or 64 bits', fc.constantFrom('4294967297', '4294967316', '18446744073709551636')),
    labelled(
      'fraction',
      fc.oneof(
        fc.constantFrom('1.5', '0.5', '99.9', '20.25', '100.5'),
        fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 9 })).map(([whole, tenth]) => `${whole}.${tenth}`),
      ),
    ),
    labelled('not a number', fc.oneof(fc.constantFrom('abc', 'ten', 'NaN', 'Infinity', '-Infinity', 'null', 'true', 'undefined'), fc.stringMatching(/^[a-z]{1,8}$/))),
    labelled('empty', fc.constant('')),
    labelled('hexadecimal literal', fc.constantFrom('0x10', '0x14', '0X64')),
    labelled('full-width digits', fc.constantFrom('２０', '１', '１００')),
    labelled('trailing characters', fc.constantFrom('20abc', '5;', '10,20', '20%', '5 6', '1/2')),
    lenient('not an integer literal: exponent notation', [['1e2', 100], ['2e1', 20], ['1E1', 10], ['5e0', 5]]),
    lenient('not an integer literal: integral value with a fraction', [['20.0', 20], ['1.0', 1], ['100.00', 100]]),
    lenient('not an integer literal: surrounding whitespace', [[' 5', 5], ['5 ', 5], ['\t20', 20], [' 100 ', 100], ['\n1', 1]]),
    lenient('not an integer literal: leading plus sign', [['+5', 5], ['+100', 100]]),
    lenient('not an integer literal: leading zeros', [['05', 5], ['007', 7], ['0100', 100]]),
  );
}
