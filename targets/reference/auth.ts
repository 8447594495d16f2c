// Bearer-key authentication. Keys are held only as SHA-256 digests and identified everywhere else
// by a label such as `free#1`, so nothing this server prints or reports can contain a key.
import { createHash, timingSafeEqual } from 'node:crypto';

export interface Client {
  /** `plan#n`, numbered per plan in config order. */
  label: string;
  plan: string;
}

export type AuthResult = { ok: true; client: Client } | { ok: false; message: string };

interface KeyEntry extends Client {
  digest: Buffer;
}

export class KeyRing {
  private readonly entries: readonly KeyEntry[];

  constructor(keys: readonly { key: string; plan: string }[]) {
    const perPlan = new Map<string, number>();
    this.entries = keys.map(({ key, plan }) => {
      const n = (perPlan.get(plan) ?? 0) + 1;
      perPlan.set(plan, n);
      return { label: `${plan}#${n}`, plan, digest: digest(key) };
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
  find(key: string): Client | undefined {
    const presented = digest(key);
    let match: KeyEntry | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, presented) && match === undefined) match = entry;
    }
    return match && { label: match.label, plan: match.plan };
  }

  /**
   * Checks an Authorization header value: `Bearer <key>`, the scheme compared case-insensitively
   * (RFC 9110 §11.1). The options are faults.
   */
  authenticate(header: string | undefined, options: AuthOptions = {}): AuthResult {
    if (header === undefined || header.trim() === '') return { ok: false, message: 'missing Authorization header' };
    const parts = /^\s*(\S+)(?:[ \t]+(\S+))?\s*$/.exec(header);
    if (!parts) return { ok: false, message: 'Authorization must be "Bearer <API key>"' };
    const [, scheme = '', token] = parts;
    const isBearer = options.caseSensitiveScheme ? scheme === 'Bearer' : scheme.toLowerCase() === 'bearer';
    if (!isBearer) return { ok: false, message: 'Authorization scheme must be Bearer' };
    if (token === undefined) {
      const first = this.entries[0];
      if (options.emptyTokenAsFirstKey && first) return { ok: true, client: { label: first.label, plan: first.plan } };
      return { ok: false, message: 'missing API key after Bearer' };
    }
    const client = this.find(token);
    return client ? { ok: true, client } : { ok: false, message: 'invalid API key' };
  }
}

export interface AuthOptions {
  /** Fault auth-scheme-case-sensitive. */
  caseSensitiveScheme?: boolean;
  /** Fault auth-empty-bearer-accepted. */
  emptyTokenAsFirstKey?: boolean;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
