// Other spellings of an int64 petId. The interface gives petId as "integer | int64" and says
// nothing about how it is written in the path: `/pets/7.0`, `/pets/0x7`, `/pets/%207`, `/pets/+7`
// and `/pets/7e0` are read as 7 by the number coercion of most frameworks' validators. Such a
// spelling answered with animal 7 is a reading the interface leaves open (a `should` failure: a
// petId is written one way); answered with another animal it is not (a `must` failure). `/pets/07`
// is decimal digits still (strict integer parsers read it as 7 too): served or refused, both pass.

/** int64's bounds. */
const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
/** Exponents beyond this read as no int64 anyway (and would build huge integers). */
const MAX_EXPONENT = 400;

const HEX_LIKE = /^([+-]?)0([xob])([0-9a-f]+)$/i;
const DECIMAL = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:e([+-]?[0-9]+))?$/i;
const RADIX = { x: 16, o: 8, b: 2 } as const;

function radixValue(digits: string, radix: number): bigint | undefined {
  let v = 0n;
  for (const ch of digits.toLowerCase()) {
    const d = parseInt(ch, radix);
    if (Number.isNaN(d)) return undefined;
    v = v * BigInt(radix) + BigInt(d);
  }
  return v;
}

function decimalValue(int: string, frac: string, exp: number): bigint | undefined {
  const digits = `${int}${frac}`.replace(/^0+/, '');
  if (digits === '') return 0n;
  const scale = exp - frac.length;
  if (Math.abs(exp) > MAX_EXPONENT) return undefined;
  if (scale >= 0) return BigInt(digits) * 10n ** BigInt(scale);
  const d = 10n ** BigInt(-scale);
  const big = BigInt(digits);
  return big % d === 0n ? big / d : undefined;
}

/**
 * The int64 a petId segment (percent-decoded) spells when it is a number literal whose value is an
 * integer within int64: surrounding whitespace, a sign, leading zeros, a fraction of zeros, exponent
 * notation, a 0x, 0o or 0b prefix. Undefined for anything else (letters, a fraction, Infinity,
 * digits of other scripts, a value beyond int64).
 */
export function int64Spelled(text: string): bigint | undefined {
  const s = text.trim();
  let v: bigint | undefined;
  const prefixed = HEX_LIKE.exec(s);
  if (prefixed) {
    const [, sign, kind, digits] = prefixed;
    const abs = radixValue(digits!, RADIX[kind!.toLowerCase() as keyof typeof RADIX]);
    v = abs === undefined ? undefined : sign === '-' ? -abs : abs;
  } else {
    const m = DECIMAL.exec(s);
    if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return undefined;
    const [, sign, int = '', frac = '', exp] = m;
    const abs = decimalValue(int, frac, exp === undefined ? 0 : Number(exp));
    v = abs === undefined ? undefined : sign === '-' ? -abs : abs;
  }
  return v !== undefined && v >= MIN && v <= MAX ? v : undefined;
}

/** The segment percent-decoded, or as is when it does not decode. */
export function decodedSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The int64 a path segment spells in another way than its canonical decimal form ("0x7" → 7n),
 * or undefined when it is the canonical form itself or spells no int64.
 */
export function otherSpellingOf(raw: string): bigint | undefined {
  const text = decodedSegment(raw);
  const v = int64Spelled(text);
  return v === undefined || text === v.toString() ? undefined : v;
}

/** Decimal digits with leading zeros ("07", "-007"): served as the animal or refused, both readings pass. */
export function isZeroPadded(raw: string): boolean {
  return /^-?0[0-9]+$/.test(decodedSegment(raw));
}
