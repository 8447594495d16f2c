// Keys never leave the process: every string bound for a report, log or console passes scrub().
//
// Besides each key itself, scrub() covers what the harness derives from a key (the near misses of
// lib/generators/near-miss-key.ts) and what a server may echo of them: the key and the key without
// its last character, in any case, as written and URL-encoded. Every near miss contains one of
// those (a prefix is not covered by the key, and a key in another case is not the key), so none can
// reach a record: "Bearer [REDACTED:free#1 prefix]", "Bearer [REDACTED:free#1]x".
//
// It also covers the encodings of a key that auth.other-carrier sends (lib/generators/key-carriers.ts
// KEY_ENCODINGS: base64 of "key:", ":key" and "key"), padded or not, in base64url, and URL-encoded,
// named by encoding: "Basic [REDACTED:free#1 base64(key:)]".
import { KEY_ENCODINGS } from '../generators/key-carriers.ts';

export interface SecretKey {
  key: string;
  label: string;
}

interface Form {
  /** As written or URL-encoded. */
  text: string;
  label: string;
  /** The key without its last character. */
  prefix: boolean;
  /** The name of the key's encoding (KEY_ENCODINGS), when the form is one. */
  encoding?: string;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export class Redactor {
  private readonly forms: readonly Form[];
  private readonly pattern: RegExp | undefined;

  constructor(keys: readonly SecretKey[]) {
    const forms: Form[] = [];
    for (const { key, label } of keys) {
      const prefix = Array.from(key).slice(0, -1).join('');
      for (const [text, isPrefix] of [[key, false], [prefix, true]] as const) {
        if (text.length === 0) continue;
        // URL-encoded forms: encodeURIComponent, and the query-string form URLSearchParams writes
        // (which also encodes ~ ! ' ( ) and writes a space as +).
        for (const form of new Set([text, encodeURIComponent(text), new URLSearchParams([['', text]]).toString().slice(1)])) {
          forms.push({ text: form, label, prefix: isPrefix });
        }
      }
      if (key.length === 0) continue;
      for (const { name, encode } of KEY_ENCODINGS) {
        const padded = encode(key);
        const unpadded = padded.replace(/=+$/, '');
        const url = unpadded.replace(/\+/g, '-').replace(/\//g, '_');
        for (const form of new Set([padded, unpadded, url, encodeURIComponent(padded), new URLSearchParams([['', padded]]).toString().slice(1)])) {
          forms.push({ text: form, label, prefix: false, encoding: name });
        }
      }
    }
    // Longest first: a key that contains another key (or its prefix) is replaced whole, and at one
    // position the key wins over its own prefix. A key equal to another's prefix is named as a key.
    this.forms = forms.sort((a, b) => b.text.length - a.text.length || Number(a.prefix) - Number(b.prefix));
    this.pattern = forms.length === 0 ? undefined : new RegExp(this.forms.map((f) => `(${escapeRegExp(f.text)})`).join('|'), 'gi');
  }

  scrub(text: string): string {
    if (this.pattern === undefined) return text;
    return text.replace(this.pattern, (match: string, ...groups: unknown[]) => {
      const form = this.forms[groups.findIndex((g) => g !== undefined)];
      return form === undefined ? '[REDACTED]' : `[REDACTED:${describe(form, match)}]`;
    });
  }

  /** Deep copy of a JSON-like value with every string scrubbed. */
  scrubDeep<T>(value: T): T {
    if (typeof value === 'string') return this.scrub(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.scrubDeep(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.scrub(k)] = this.scrubDeep(v);
      return out as T;
    }
    return value;
  }
}

/** "free#1", "free#1 prefix", "free#1 upper-case", "free#1 base64(key:)": never the text. */
function describe(form: Form, match: string): string {
  const parts = [form.label, ...(form.prefix ? ['prefix'] : []), ...(form.encoding ? [form.encoding] : [])];
  if (match !== form.text) {
    if (match === form.text.toUpperCase()) parts.push('upper-case');
    else if (match === form.text.toLowerCase()) parts.push('lower-case');
    else parts.push('other-case');
  }
  return parts.join(' ');
}
