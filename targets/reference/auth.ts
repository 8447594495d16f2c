// Bearer-key authentication. Keys are held only as SHA-256 digests and identified everywhere else
// by a label such as `free#1`, so nothing this server prints or reports can contain a key.
import { hash, timingSafeEqual } from 'node:crypto';

export interface Client {
  /** `plan#n`, numbered per plan in config order. */
  label: string;
  plan: string;
}

export type AuthResult = { ok: true; client: Client } | { ok: false; message: string };

interface KeyEntry extends Client {
  digest: Buffer;
  /** Only when built for loose matching (the faults): see `KeyRingOptions`. */
  loose?: { prefixes: readonly Buffer[]; foldedPrefixes: readonly Buffer[] };
}

export interface KeyRingOptions {
  /**
   * Also hold the digests of every prefix of each key (index n - 1 for its first n characters),
   * as written and in lower case, for the faults auth-key-prefix-accepted and
   * auth-key-case-insensitive. Digests of prefixes give a key away one character at a time to
   * whoever can read this process's memory, so a ring holds them only when a fault needs them.
   */
  looseMatching?: boolean;
}

export class KeyRing {
  private readonly entries: readonly KeyEntry[];

  constructor(keys: readonly { key: string; plan: string }[], options: KeyRingOptions = {}) {
    const perPlan = new Map<string, number>();
    this.entries = keys.map(({ key, plan }) => {
      const n = (perPlan.get(plan) ?? 0) + 1;
      perPlan.set(plan, n);
      const loose = options.looseMatching ? { loose: { prefixes: prefixDigests(key), foldedPrefixes: prefixDigests(key.toLowerCase()) } } : {};
      return { label: `${plan}#${n}`, plan, digest: digest(key), ...loose };
    });
  }

  clients(): Client[] {
    return this.entries.map(({ label, plan }) => ({ label, plan }));
  }

  /**
   * The client a key belongs to. timingSafeEqual needs equal lengths, so digests are compared
   * rather than keys, and every entry is compared so the time taken does not depend on which
   * entry (if any) matches.
   */
  find(key: string, options: KeyMatchOptions = {}): Client | undefined {
    if (options.prefixAccepted || options.caseInsensitive) return this.findLoosely(key, options);
    const presented = digest(key);
    let match: KeyEntry | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, presented) && match === undefined) match = entry;
    }
    return match && { label: match.label, plan: match.plan };
  }

  /**
   * The faults' comparisons, still of digests in constant time: ignoring case (both sides in lower
   * case), and over the shorter length only, as a hand-written comparison loop that forgets to
   * compare the lengths first would (a prefix of a key, or a key followed by anything, matches).
   */
  private findLoosely(key: string, options: KeyMatchOptions): Client | undefined {
    const presented = options.caseInsensitive ? key.toLowerCase() : key;
    let match: KeyEntry | undefined;
    for (const entry of this.entries) {
      if (!entry.loose) throw new Error('this key ring was not built for loose matching (KeyRingOptions.looseMatching)');
      const prefixes = options.caseInsensitive ? entry.loose.foldedPrefixes : entry.loose.prefixes;
      // Without the prefix fault the lengths must still be equal.
      const length = options.prefixAccepted ? Math.min(presented.length, prefixes.length) : presented.length;
      const expected = length === 0 ? undefined : prefixes[length - 1];
      const equal = expected !== undefined && (options.prefixAccepted || length === prefixes.length) && timingSafeEqual(expected, digest(presented.slice(0, length)));
      if (equal && match === undefined) match = entry;
    }
    return match && { label: match.label, plan: match.plan };
  }

  /**
   * Checks an Authorization header value: `Bearer <key>`, the scheme compared case-insensitively
   * (RFC 9110 §11.1). The options are faults.
   */
  authenticate(header: string | undefined, options: AuthOptions = {}): AuthResult {
    if (header === undefined || header.trim() === '') return { ok: false, message: 'missing Authorization header' };
    // Fault auth-credential-list: the value is read as a list, cut at its first separator.
    const value = options.listOfCredentials ? header.split(/[,;]/)[0]! : header;
    // Variation lenient-bearer: a leading "Bearer" stripped, whatever spacing follows it (none
    // too), and the first word of what is left taken for the key.
    if (options.firstWord) {
      const token = value.replace(/^\s*bearer/i, '').trim().split(/[ \t]+/)[0];
      if (!token) return { ok: false, message: 'missing API key after Bearer' };
      const client = this.find(token);
      return client ? { ok: true, client } : { ok: false, message: 'invalid API key' };
    }
    const parts = /^\s*(\S+)(?:[ \t]+(\S+))?\s*$/.exec(value);
    if (!parts) return { ok: false, message: 'Authorization must be "Bearer <API key>"' };
    const [, scheme = '', token] = parts;
    const isBearer = options.caseSensitiveScheme ? scheme === 'Bearer' : scheme.toLowerCase() === 'bearer';
    if (!isBearer) return { ok: false, message: 'Authorization scheme must be Bearer' };
    if (token === undefined) {
      const first = this.entries[0];
      if (options.emptyTokenAsFirstKey && first) return { ok: true, client: { label: first.label, plan: first.plan } };
      return { ok: false, message: 'missing API key after Bearer' };
    }
    const client = this.find(token, { prefixAccepted: options.keyPrefixAccepted, caseInsensitive: options.keyCaseInsensitive });
    return client ? { ok: true, client } : { ok: false, message: 'invalid API key' };
  }
}

export interface AuthOptions {
  /** Fault auth-scheme-case-sensitive. */
  caseSensitiveScheme?: boolean;
  /** Fault auth-empty-bearer-accepted. */
  emptyTokenAsFirstKey?: boolean;
  /** Fault auth-key-prefix-accepted. */
  keyPrefixAccepted?: boolean;
  /** Fault auth-key-case-insensitive. */
  keyCaseInsensitive?: boolean;
  /** Fault auth-credential-list. */
  listOfCredentials?: boolean;
  /** Variation lenient-bearer. */
  firstWord?: boolean;
}

/** How loosely `find` compares: both false (the conforming comparison) unless a fault is on. */
export interface KeyMatchOptions {
  /** Over the shorter of the two lengths only. */
  prefixAccepted?: boolean | undefined;
  /** Both sides in lower case. */
  caseInsensitive?: boolean | undefined;
}

/** SHA-256 of the key's UTF-8 bytes (the one-shot hash: a third of createHash's cost per request). */
function digest(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

function prefixDigests(key: string): Buffer[] {
  return Array.from({ length: key.length }, (_, i) => digest(key.slice(0, i + 1)));
}
