// The faults of "one way in" (faults/auth.ts): a server that lets a request in by other ways than
// `Authorization: Bearer <key>`, as servers built on popular auth libraries do.
//
// - auth-api-key-header-accepted: with no Authorization header, an X-API-Key header is taken as the
//   bearer key (passport-headerapikey's default header; API gateways' key header).
// - auth-basic-key-accepted: "Authorization: Basic" is decoded and its user name (or, when empty,
//   its password) taken as the key (Stripe-style "key as user name").
// - auth-session-cookie: every authenticated answer opens a session (Set-Cookie: sid=…) and a
//   request without Authorization that brings a session's cookie is served as its key.
// - auth-prototype-key: keys looked up in a plain object, so a bearer token naming a member every
//   JavaScript object has (__proto__, constructor, toString…) is found, and served on the free plan.
//
// With none of them on, every method here returns what it was given (or nothing) at once.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthResult, Client } from './auth.ts';
import type { Faults } from './faults.ts';

/** The client a token found among an object's members is served as: what `entry.plan ?? 'free'` makes of it. */
const MEMBER_CLIENT: Client = { label: 'unknown', plan: 'free' };
/** Sessions kept at most (the oldest is forgotten first): a load run opens one per request. */
const MAX_SESSIONS = 10_000;
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

export class OtherWaysIn {
  private readonly apiKeyHeader: boolean;
  private readonly basic: boolean;
  private readonly prototypeKeys: boolean;
  private readonly sessions: Map<string, Client> | undefined;

  constructor(faults: Faults) {
    this.apiKeyHeader = faults.has('auth-api-key-header-accepted');
    this.basic = faults.has('auth-basic-key-accepted');
    this.prototypeKeys = faults.has('auth-prototype-key');
    this.sessions = faults.has('auth-session-cookie') ? new Map() : undefined;
  }

  /** The Authorization value the server goes by: the header, or what a fault takes for one. */
  authorization(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization;
    if (this.basic && header !== undefined) {
      const basic = /^\s*basic\s+(\S+)\s*$/i.exec(header);
      if (basic) {
        const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        const key = colon === -1 ? decoded : decoded.slice(0, colon) || decoded.slice(colon + 1);
        if (key !== '') return `Bearer ${key}`;
      }
    }
    if (this.apiKeyHeader && header === undefined) {
      const apiKey = req.headers['x-api-key'];
      if (typeof apiKey === 'string' && apiKey !== '') return `Bearer ${apiKey}`;
    }
    return header;
  }

  /** A request the key ring refused that a fault lets in: by its session cookie, or by a token found among an object's members. */
  admit(req: IncomingMessage, auth: AuthResult, presented: string | undefined): AuthResult {
    if (auth.ok) return auth;
    if (this.sessions && presented === undefined) {
      const sid = cookie(req, 'sid');
      const client = sid === undefined ? undefined : this.sessions.get(sid);
      if (client) return { ok: true, client };
    }
    if (this.prototypeKeys && presented !== undefined) {
      const token = /^\s*bearer\s+(\S+)\s*$/i.exec(presented)?.[1];
      // `keys[token]` on a plain object: the object's own keys are never these, its prototype's members always are.
      if (token !== undefined && token in {}) return { ok: true, client: MEMBER_CLIENT };
    }
    return auth;
  }

  /** Fault auth-session-cookie: the Set-Cookie of a new session for an answer to an authenticated client. */
  setCookie(client: Client | undefined): Readonly<Record<string, string>> {
    if (!this.sessions || client === undefined) return NO_HEADERS;
    const sid = randomBytes(12).toString('hex');
    this.sessions.set(sid, client);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return { 'Set-Cookie': `sid=${sid}; Path=/; HttpOnly` };
  }
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}
