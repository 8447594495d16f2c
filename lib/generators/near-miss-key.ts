// Credentials close to a configured key, each of which is not that key and must get 401
// ("Authentication": the header `Authorization: Bearer <API_KEY>`; a missing or invalid key gets
// 401 with an Error body). Each one catches a way of comparing keys loosely: by prefix, up to the
// shorter length, ignoring case, up to a separator, by the first token, or by stripping "Bearer".
//
// Every header here is made from a real key, so it is a secret like the key: the client records it
// through the Redactor (which scrubs the key and its prefix in any case), and reproductions rebuild
// it from the key's environment variable with `shell`.

export type NearMissName =
  | 'prefix'
  | 'suffix'
  | 'upper-case'
  | 'lower-case'
  | 'trailing-semicolon'
  | 'trailing-comma'
  | 'two-tokens'
  | 'two-tokens-other'
  | 'no-space';

export interface NearMissKey {
  /** Short and stable: tests and callers name a case by it. */
  name: NearMissName;
  /** The Authorization header value to send. Secret: never print it. */
  header: string;
  /**
   * The same header as shell text for inside double quotes, rebuilt from the environment variable
   * holding the key, e.g. `Bearer ${FREE_KEY%?}` for the prefix. Never contains the key.
   */
  shell(variable: string): string;
}

export interface NearMissOptions {
  /** Other configured keys: a near miss equal to one of them is a valid key, and is left out. */
  otherKeys?: readonly string[];
}

/** ASCII only, as `tr a-z A-Z` does: the shell reproduction must rebuild exactly the same value. */
const asciiUpper = (s: string): string => s.replace(/[a-z]+/g, (m) => m.toUpperCase());
const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** Literal text inside double quotes in a shell: only \ " $ ` are special there. */
const dq = (literal: string): string => literal.replace(/[\\"$`]/g, (c) => `\\${c}`);

/** One more character of the same kind as the key's last: a digit after a digit, else a letter. */
function extraCharacter(key: string): string {
  const last = key.at(-1) ?? '';
  if (/[0-9]/.test(last)) return '0';
  return /[A-Z]/.test(last) ? 'X' : 'x';
}

/**
 * The near misses of one configured key, in a fixed order (the likeliest loose comparisons first):
 * the key without its last character, with one more, in upper and in lower case (each only when
 * that changes it), followed by ";x" and by ",x", twice, followed by another word, and glued to
 * "Bearer" without the space. None is empty, the key itself, or one of `otherKeys`.
 */
export function nearMissKeys(key: string, options: NearMissOptions = {}): NearMissKey[] {
  const chars = Array.from(key);
  const extra = extraCharacter(key);
  const v = (variable: string) => `\${${variable}}`;
  /** A near miss and the token it sends after "Bearer " (no-space has none: it is never a key). */
  const bearer = (name: NearMissName, token: string, shellToken: (variable: string) => string): [NearMissKey, string] => [
    { name, header: `Bearer ${token}`, shell: (variable) => `Bearer ${shellToken(variable)}` },
    token,
  ];
  const cases: [NearMissKey, string | undefined][] = [
    ...(chars.length > 1 ? [bearer('prefix', chars.slice(0, -1).join(''), (x) => `\${${x}%?}`)] : []),
    bearer('suffix', `${key}${extra}`, (x) => `${v(x)}${dq(extra)}`),
    ...(asciiUpper(key) !== key ? [bearer('upper-case', asciiUpper(key), (x) => `$(printf %s "$${x}" | tr a-z A-Z)`)] : []),
    ...(asciiLower(key) !== key ? [bearer('lower-case', asciiLower(key), (x) => `$(printf %s "$${x}" | tr A-Z a-z)`)] : []),
    bearer('trailing-semicolon', `${key};x`, (x) => `${v(x)};x`),
    bearer('trailing-comma', `${key},x`, (x) => `${v(x)},x`),
    bearer('two-tokens', `${key} ${key}`, (x) => `${v(x)} ${v(x)}`),
    bearer('two-tokens-other', `${key} other`, (x) => `${v(x)} other`),
    [{ name: 'no-space', header: `Bearer${key}`, shell: (x) => `Bearer${v(x)}` }, undefined],
  ];
  const others = new Set(options.otherKeys ?? []);
  return cases.filter(([, token]) => token === undefined || !others.has(token)).map(([c]) => c);
}
