// Credentials close to a configured key ("Authentication": the header `Authorization: Bearer
// <API_KEY>`; a missing or invalid key gets 401 with an Error body). Two kinds. Other keys (the key
// without its last character, with one more, in another case) must get 401: each catches a way of
// comparing keys loosely (by prefix, up to the shorter length, ignoring case), which lets in a key
// that is not configured. The whole key with something around it (followed by ";x" or ",x", twice,
// followed by another word, glued to "Bearer") is another spelling of the credential: a server that
// takes the first token after the scheme or strips "Bearer" reads the key out of some of them while
// refusing every request without it, so those are judged apart (auth.credential-syntax, a should).
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
  /** What is sent, with `<key>` for the key, e.g. "Bearer <key>;x". Never the key itself. */
  shape: string;
  /**
   * The whole configured key with something around it: another spelling of the credential, not
   * another key (see the top of this file).
   */
  wholeKey: boolean;
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
  const bearer = (name: NearMissName, shape: string, token: string, shellToken: (variable: string) => string, wholeKey = true): [NearMissKey, string] => [
    { name, shape: `Bearer ${shape}`, wholeKey, header: `Bearer ${token}`, shell: (variable) => `Bearer ${shellToken(variable)}` },
    token,
  ];
  const cases: [NearMissKey, string | undefined][] = [
    ...(chars.length > 1 ? [bearer('prefix', '<key without its last character>', chars.slice(0, -1).join(''), (x) => `\${${x}%?}`, false)] : []),
    bearer('suffix', `<key>${extra}`, `${key}${extra}`, (x) => `${v(x)}${dq(extra)}`, false),
    ...(asciiUpper(key) !== key ? [bearer('upper-case', '<key in upper case>', asciiUpper(key), (x) => `$(printf %s "$${x}" | tr a-z A-Z)`, false)] : []),
    ...(asciiLower(key) !== key ? [bearer('lower-case', '<key in lower case>', asciiLower(key), (x) => `$(printf %s "$${x}" | tr A-Z a-z)`, false)] : []),
    bearer('trailing-semicolon', '<key>;x', `${key};x`, (x) => `${v(x)};x`),
    bearer('trailing-comma', '<key>,x', `${key},x`, (x) => `${v(x)},x`),
    bearer('two-tokens', '<key> <key>', `${key} ${key}`, (x) => `${v(x)} ${v(x)}`),
    bearer('two-tokens-other', '<key> other', `${key} other`, (x) => `${v(x)} other`),
    [{ name: 'no-space', shape: 'Bearer<key>', wholeKey: true, header: `Bearer${key}`, shell: (x) => `Bearer${v(x)}` }, undefined],
  ];
  const others = new Set(options.otherKeys ?? []);
  return cases.filter(([, token]) => token === undefined || !others.has(token)).map(([c]) => c);
}
