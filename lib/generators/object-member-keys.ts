// Bearer tokens named like the members every object has in the languages servers are written in.
// A key lookup in a plain map finds them anyway: `keys[token]` in JavaScript is
// Object.prototype.constructor for "constructor"; `getattr(keys, token)` in Python finds `get` and
// `__class__`; Ruby's `send` and Java reflection find `class`, `to_s`, `hashCode`. Each is an
// invalid key ("Authentication": a missing or invalid key gets 401 with an Error body). None is a
// secret: they are sent and recorded as written.

export const OBJECT_MEMBER_KEYS: readonly { token: string; language: string }[] = [
  ...['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString', '__defineGetter__', 'prototype'].map((token) => ({ token, language: 'JavaScript' })),
  ...['__class__', '__dict__', '__init__', 'get', 'keys'].map((token) => ({ token, language: 'Python' })),
  ...['class', 'to_s', 'object_id'].map((token) => ({ token, language: 'Ruby' })),
  ...['hashCode', 'getClass'].map((token) => ({ token, language: 'Java' })),
];

/** The tokens to send: every one that is not a configured key (which would be valid). */
export function objectMemberKeys(configuredKeys: readonly string[] = []): { token: string; language: string }[] {
  const configured = new Set(configuredKeys);
  return OBJECT_MEMBER_KEYS.filter((k) => !configured.has(k.token));
}
