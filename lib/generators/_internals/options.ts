// Options shared by the generators of animals the harness may create.

/** The caller's view: every field optional. */
export type NamePrefixOptions = {
  /**
   * Put into every generated name (after optional leading whitespace), so the harness can tell
   * the animals it created from others. Default ''.
   */
  namePrefix?: string;
};

export type ResolvedNamePrefixOptions = Required<NamePrefixOptions>;

/** Fills in defaults. A prefix must be well-formed Unicode, for the same reason names are. */
export function resolveNamePrefixOptions(options: NamePrefixOptions | undefined): ResolvedNamePrefixOptions {
  const namePrefix = options?.namePrefix ?? '';
  if (hasLoneSurrogate(namePrefix)) throw new RangeError('namePrefix contains a lone surrogate');
  return { namePrefix };
}

/** In a u-mode regex a surrogate pair is one code point, so this only matches unpaired halves. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDFFF]/u.test(text);
}
