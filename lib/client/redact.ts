// Keys never leave the process: every string bound for a report, log or console passes scrub().

export interface SecretKey {
  key: string;
  label: string;
}

export class Redactor {
  private readonly secrets: SecretKey[];

  constructor(keys: readonly SecretKey[]) {
    // Longest first, so a key that contains another is replaced whole.
    this.secrets = [...keys].filter((k) => k.key.length > 0).sort((a, b) => b.key.length - a.key.length);
  }

  scrub(text: string): string {
    let out = text;
    for (const { key, label } of this.secrets) {
      if (out.includes(key)) out = out.split(key).join(`[REDACTED:${label}]`);
      // URL-encoded forms: encodeURIComponent, and the query-string form URLSearchParams writes
      // (which also encodes ~ ! ' ( ) and writes a space as +).
      for (const encoded of new Set([encodeURIComponent(key), new URLSearchParams([['', key]]).toString().slice(1)])) {
        if (encoded !== key && out.includes(encoded)) out = out.split(encoded).join(`[REDACTED:${label}]`);
      }
    }
    return out;
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
