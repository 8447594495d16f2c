// Other spellings of an existing animal's id X in the path of GET /pets/{petId}: X.0, 0x…, %20X,
// +X, Xe0 (each an int64 literal that a number coercion reads as X), 0X (a leading zero: X to a
// decimal parser, another id to one that reads it as octal), and Xabc (no number at all, which a
// prefix parse such as parseInt reads as X). 7 requests.

export interface PetIdSpelling {
  /** The path segment as sent (already percent-encoded where needed). */
  raw: string;
  /** How it is written, e.g. "a fraction of zeros". */
  reason: string;
}

export function petIdSpellings(id: bigint): PetIdSpelling[] {
  const sign = id < 0n ? '-' : '';
  const abs = id < 0n ? -id : id;
  return [
    { raw: `${id}.0`, reason: 'a fraction of zeros' },
    { raw: `${sign}0x${abs.toString(16)}`, reason: 'hexadecimal' },
    { raw: `%20${id}`, reason: 'a leading space, %20' },
    ...(id >= 0n ? [{ raw: `+${id}`, reason: 'a plus sign' }] : []),
    { raw: `${sign}0${abs}`, reason: 'a leading zero' },
    { raw: `${id}e0`, reason: 'exponent notation' },
    { raw: `${id}abc`, reason: 'digits followed by letters' },
  ];
}
