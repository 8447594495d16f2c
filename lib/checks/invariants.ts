// Invariants (issue 35): what every answer to every spelling of a request must satisfy, each with
// its clause of the interface and a severity that follows from the clause, never from the family
// that made the request. Crossed with the families (lib/generators/transformations.ts): an
// invariant judges every family's spellings, and a family's spellings meet every invariant. Pure:
// observations in, a finding out.
//
// Started in issue 34's session, not wired into a suite yet: auth, same meaning and representation
// are here; one quota, store integrity and headers that state facts are invariants of the same shape.
import { tryParseJson } from '../json.ts';
import { ApiError } from '../models.ts';
import { isAccepted, isServerError } from '../status.ts';
import { requestLine, type Credential, type Spelled, type Transformed } from '../generators/transformations.ts';
import { isJsonMediaType } from './bodies.ts';
import { fail, type Finding, pass, type Seen, skip } from './types.ts';

/** One spelling sent, its answer, and the canonical request's answer with the same credential. */
export interface Observation {
  canonical: Spelled;
  transformed: Transformed;
  credential: Credential;
  seen: Seen;
  canonicalSeen?: Seen;
}

/** What an invariant made of one observation: it holds (and which legal answer was seen), it is broken, or it says nothing of it. */
export type Verdict = { holds: true; reading: string } | { holds: false; code: string; what: string } | undefined;

export interface Invariant {
  id: string;
  clause: string;
  severity: 'must' | 'should';
  title: string;
  /** The credentials it needs spellings sent with. */
  needs: readonly Credential[];
  judge(o: Observation): Verdict;
}

const holds = (reading: string): Verdict => ({ holds: true, reading });
const broken = (code: string, what: string): Verdict => ({ holds: false, code, what });

/** How a failure names an observation: the spelling and its answer, then the canonical request's. */
export function described(o: Observation): string {
  const who = o.credential === 'none' ? ' without a key' : '';
  const canonical = o.canonicalSeen ? `, ${requestLine(o.canonical)}: ${o.canonicalSeen.status}` : '';
  return `${requestLine(o.transformed.request)}${who} (${o.transformed.name}): ${o.seen.status}${canonical}`;
}

const isJson = (s: Seen) => isJsonMediaType(s.headers['content-type']);
const hasErrorBody = (s: Seen) => {
  const parsed = tryParseJson(s.text);
  return isJson(s) && parsed.ok && ApiError.safeParse(parsed.value).success;
};

/** Authentication: an answer that serves an operation's data went to a request with a valid key. */
export const AUTH_INVARIANT: Invariant = {
  id: 'relations.auth',
  clause: 'Authentication',
  severity: 'must',
  title: 'No spelling of a request without a key is served',
  needs: ['none'],
  judge(o) {
    if (o.credential !== 'none') return undefined;
    return isAccepted(o.seen) ? broken('served-without-key', described(o)) : holds(`${o.seen.status}`);
  },
};

/**
 * Same meaning: a spelling the server accepts is answered as the canonical request (the same
 * status and, but for HEAD, the same body), or refused with a 4xx and an Error body; a spelling the
 * interface does not describe may also be redirected. Never a 5xx.
 */
export const SAME_MEANING_INVARIANT: Invariant = {
  id: 'relations.same-meaning',
  clause: 'Operations',
  severity: 'must',
  title: 'A spelling is answered as the request it stands for, or refused',
  needs: ['key'],
  judge(o) {
    if (o.credential !== 'key' || !o.canonicalSeen) return undefined;
    const { seen, canonicalSeen } = o;
    if (isServerError(seen)) return broken('server-error', described(o));
    // A 429 is the key's quota speaking (its body is not shown): the one-quota invariant's to judge.
    if (seen.status === 429) return undefined;
    if (seen.status >= 300 && seen.status < 400) return o.transformed.keeps === 'nothing' ? holds('redirected') : broken('redirected', described(o));
    // A refusal of HEAD has no body to carry an Error (RFC 9110 §9.3.2): its status alone speaks.
    const head = o.transformed.request.method === 'HEAD';
    if (seen.status >= 400) return hasErrorBody(seen) || (head && seen.text === '') ? holds(`refused with ${seen.status}`) : broken('refused-without-error-body', described(o));
    if (!isAccepted(canonicalSeen) || seen.status !== canonicalSeen.status) return broken('other-status', described(o));
    if (head) return seen.text === '' ? holds('answered as the canonical request') : broken('head-with-body', described(o));
    return seen.text === canonicalSeen.text ? holds('answered as the canonical request') : broken('other-meaning', described(o));
  },
};

/**
 * Representation: whatever was asked, an answer with a body is JSON under application/json (or a
 * 406), strictly parsable; as responses.json-media-type, a 429's body aside (it is not shown).
 */
export const REPRESENTATION_INVARIANT: Invariant = {
  id: 'relations.representation',
  clause: 'Responses',
  severity: 'must',
  title: 'Every answer with a body is strict JSON under application/json',
  needs: ['key', 'none'],
  judge(o) {
    if (o.seen.text === '' || o.seen.status === 406 || o.seen.status === 429 || (o.seen.status >= 300 && o.seen.status < 400)) return undefined;
    if (!isJson(o.seen)) return broken('not-json-media-type', `${described(o)} under ${o.seen.headers['content-type'] ?? 'no Content-Type'}`);
    return tryParseJson(o.seen.text).ok ? holds('JSON') : broken('not-strict-json', described(o));
  },
};

export const INVARIANTS: readonly Invariant[] = [AUTH_INVARIANT, SAME_MEANING_INVARIANT, REPRESENTATION_INVARIANT];

/**
 * One invariant over every observation: the first broken one fails it, its message naming the
 * spelling and the canonical request; otherwise it passes, saying which legal answers were seen and
 * on how many spellings of how many families. Nothing judged is a skip.
 */
export function judgeInvariant(invariant: Invariant, observations: readonly Observation[]): Finding {
  const readings = new Map<string, number>();
  const families = new Set<string>();
  for (const o of observations) {
    const verdict = invariant.judge(o);
    if (verdict === undefined) continue;
    if (!verdict.holds) return fail(verdict.code, verdict.what);
    families.add(o.transformed.family);
    readings.set(verdict.reading, (readings.get(verdict.reading) ?? 0) + 1);
  }
  const judged = [...readings.values()].reduce((a, b) => a + b, 0);
  if (judged === 0) return skip(`no spelling sent had an answer ${invariant.id} judges`);
  const seen = [...readings].map(([reading, n]) => `${reading} ×${n}`).join(', ');
  return pass(`${judged} spellings of ${families.size} families: ${seen}`);
}
