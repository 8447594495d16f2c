// Other spellings of an int64 petId: which segments spell an int64 (lib/checks/pet-id-spelling.ts),
// get-pet.non-numeric over them (a must: never another animal, never a 2xx for what is no int64)
// and get-pet.canonical-id (a should: not the animal either).
import { describe, expect, it } from 'vitest';
import { canonicalId, judgeNonNumeric, judgeSpellings, nonNumeric, type SpelledLookup } from '../../../lib/checks/get-pet.ts';
import { int64Spelled, otherSpellingOf } from '../../../lib/checks/pet-id-spelling.ts';
import { petIdSpellings } from '../../../lib/generators/pet-id-spellings.ts';
import { errorBody, expectFinding, pet, seen } from './_seen.ts';

describe('int64Spelled and otherSpellingOf', () => {
  it.each([
    ['1.0', 1n], ['0x1', 1n], [' 1', 1n], ['+1', 1n], ['01', 1n], ['1e0', 1n], ['1E3', 1000n], ['10e-1', 1n], ['0X1f', 31n],
    ['0b101', 5n], ['0o17', 15n], ['-0x10', -16n], ['-0', 0n], ['1.', 1n], ['.5e1', 5n], ['\t7 ', 7n], ['9223372036854775807.0', 2n ** 63n - 1n],
  ])('"%s" spells %s', (text, value) => {
    expect(int64Spelled(text)).toBe(value);
    expect(otherSpellingOf(encodeURIComponent(text))).toBe(value);
  });

  it.each(['abc', '1abc', '', ' ', '1.5', '0.1', '1e400', '1e-1', 'NaN', 'Infinity', '0x', '0xg', '1,000', '1_000', '１２', '٣', '-', '+', '.', 'e1', '9223372036854775808', '-9223372036854775809', '1 2'])(
    '"%s" spells no int64',
    (text) => expect(int64Spelled(text)).toBeUndefined(),
  );

  it('the canonical decimal digits are no other spelling', () => {
    expect(otherSpellingOf('7')).toBeUndefined();
    expect(otherSpellingOf('-7')).toBeUndefined();
    expect(otherSpellingOf('%207')).toBe(7n);
    expect(otherSpellingOf('%E0%A4%A')).toBeUndefined();
  });

  it('the spellings sent for an id: six spell it, one (digits followed by letters) spells nothing', () => {
    const sent = petIdSpellings(42n);
    expect(sent.map((s) => s.raw)).toEqual(['42.0', '0x2a', '%2042', '+42', '042', '42e0', '42abc']);
    expect(sent.map((s) => otherSpellingOf(s.raw))).toEqual([42n, 42n, 42n, 42n, 42n, 42n, undefined]);
    expect(petIdSpellings(-5n).map((s) => otherSpellingOf(s.raw))).toEqual([-5n, -5n, -5n, -5n, -5n, undefined]);
  });
});

describe('get-pet.non-numeric (must) on other spellings', () => {
  it('another spelling answered with that animal passes, naming the reading', () => {
    expectFinding(judgeNonNumeric('0x10', 'hexadecimal literal', seen(200, pet(16))), 'pass', ['animal 16', 'get-pet.canonical-id']);
  });
  it('another spelling answered with another animal fails: other-animal', () => {
    const f = judgeNonNumeric('1.0', 'a fraction of zeros', seen(200, pet(2)));
    expectFinding(f, 'fail', ['GET /pets/1.0', 'another spelling of 1', 'animal 2, not animal 1']);
    expect(f).toMatchObject({ code: 'other-animal' });
    expect(judgeNonNumeric('1.0', 'a fraction of zeros', seen(200, {}))).toMatchObject({ outcome: 'fail', code: 'other-animal' });
  });
  it('no int64 answered 2xx still fails: accepted (1abc, a fraction, beyond int64)', () => {
    for (const raw of ['1abc', '1.5', '9223372036854775808']) expect(judgeNonNumeric(raw, 'r', seen(200, pet(1))), raw).toMatchObject({ outcome: 'fail', code: 'accepted' });
  });
  it('is the must, and the spellings judge skips with no animal', () => {
    expect(nonNumeric.severity).toBe('must');
    expectFinding(judgeSpellings([]), 'skip', ['no animal']);
  });
});

describe('get-pet.canonical-id (should)', () => {
  const lookups = (answer: (raw: string) => ReturnType<typeof seen>): SpelledLookup[] => petIdSpellings(1n).map(({ raw, reason }) => ({ raw, reason, seen: answer(raw) }));

  it('is a should', () => expect(canonicalId.severity).toBe('should'));

  it('fails when other spellings are answered with the animal, naming each', () => {
    const f = canonicalId.judge(lookups((raw) => (raw === '1abc' ? seen(400, errorBody(400)) : seen(200, pet(1)))));
    expectFinding(f, 'fail', ['animal 1 is also served at /pets/1.0 (a fraction of zeros)', '/pets/0x1 (hexadecimal)', '/pets/%201']);
    expect(f).toMatchObject({ code: 'other-spelling-served' });
  });

  it('passes when they get 400 or 404 (either reading of a malformed id)', () => {
    expectFinding(canonicalId.judge(lookups((raw) => (raw.startsWith('0x') ? seen(404, errorBody(404)) : seen(400, errorBody(400))))), 'pass', ['no other spelling of 1']);
  });

  it('a leading zero is decimal digits still: served or refused, both pass, and the reading is said', () => {
    const onlyPaddedServed = lookups((raw) => (raw === '01' ? seen(200, pet(1)) : seen(400, errorBody(400))));
    expectFinding(canonicalId.judge(onlyPaddedServed), 'pass', ['/pets/01 (a leading zero) served animal 1', 'both accepted']);
    const f = canonicalId.judge(lookups(() => seen(200, pet(1))));
    expect(f.outcome === 'fail' && f.message.includes('/pets/01')).toBe(false);
  });

  it('another animal is not its failure (get-pet.non-numeric judges it)', () => {
    expectFinding(canonicalId.judge(lookups(() => seen(200, pet(2)))), 'pass');
  });

  it('skips with nothing sent', () => {
    expectFinding(canonicalId.judge([]), 'skip', ['no animal']);
  });
});
