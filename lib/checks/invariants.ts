// Invariants (issue 35): what every answer to every spelling of a request must satisfy, each with
// its clause of the interface and a severity that follows from the clause, never from the family
// that made the request. Crossed with the families (lib/generators/transformations.ts): an
// invariant judges every family's spellings, and a family's spellings meet every invariant. Each is
// a check of the relations suite (ids relations.*). Pure: observations in, a finding out.
import { parseJson, stringifyJson, tryParseJson } from '../json.ts';
import { ApiError, listedBody, OPERATIONS, Pet, Pets, type ResponseBody } from '../models.ts';
import { readRateAnswer } from '../rate-limit/vocabulary.ts';
import type { Exchange } from '../result/exchange.ts';
import { isAccepted, isServerErrorTo } from '../status.ts';
import { type Credential, type Operation, requestLine, type Spelled, type Transformed } from '../generators/transformations.ts';
import { isJsonMediaType } from './bodies.ts';
import { otherMembers } from './pets.ts';
import { type CheckDef, defineCheck } from './define.ts';
import { type Finding, type OtherFailure, pass, type Seen, skip } from './types.ts';

/** One spelling sent, its answer, and what the suite saw around it. */
export interface Observation {
  canonical: Spelled;
  transformed: Transformed;
  credential: Credential;
  seen: Seen;
  /**
   * The canonical request's answer: with a key, taken close before the spelling (again after it,
   * when the two differ); without a key, its own answer without one (for the order family, the
   * keyed answer right before).
   */
  canonicalSeen?: Seen;
  /** The key's answer just before this one, nothing of the key in between (one quota). */
  before?: Seen;
  /** The same spelling sent once more, right after (one quota's confirmation). */
  again?: Seen;
  /**
   * Requests a limiter of the key's plan may give back between the answer before and the spelling
   * sent again: refilling at the faster of its windows' rates (a token bucket), or letting go the
   * key's requests sent one window earlier (a sliding log: as many as were sent then, several at
   * once after a burst). One or more, and a Remaining that did not fall tells nothing.
   */
  refill?: number;
  /** After a body the interface leaves open: a NewPet without categoryId, and the animal the canonical request created, read back. */
  integrity?: { schema?: Seen; readBack?: Seen };
  /** The answer to a GET of the Location the spelling's answer named. */
  location?: Seen;
  /** The exchanges that show it (a failure keeps them as evidence). */
  evidence?: readonly Exchange[];
}

/** What an invariant made of one observation: it holds (and which legal answer was seen), it is broken, or it says nothing of it. */
export type Verdict = { holds: true; reading: string } | { holds: false; code: string; what: string } | undefined;

export interface Invariant<Id extends string = string> {
  id: Id;
  clause: string;
  severity: 'must' | 'should';
  /** A should's standard (define.ts). */
  standard?: string;
  title: string;
  /** The credentials it needs spellings sent with. */
  needs: readonly Credential[];
  /** Checks whose failure explains this one's (define.ts `explainedBy`). */
  explainedBy?: readonly string[];
  judge(o: Observation): Verdict;
}

const holds = (reading: string): Verdict => ({ holds: true, reading });
const broken = (code: string, what: string): Verdict => ({ holds: false, code, what });

/**
 * How a failure names an observation: the spelling and its answer (with what is wrong in it, when
 * that is more than its status), then the canonical request's: "HEAD /v1/pets/7 without a key
 * (HEAD for GET): 200, GET /v1/pets/7: 401".
 */
export function described(o: Observation, detail?: string): string {
  const who = o.credential === 'none' ? ' without a key' : '';
  const canonical = o.canonicalSeen ? `, ${requestLine(o.canonical)}: ${o.canonicalSeen.status}` : '';
  return `${requestLine(o.transformed.request)}${who} (${o.transformed.name}): ${o.seen.status}${detail ? ` ${detail}` : ''}${canonical}`;
}

const isJson = (s: Seen) => isJsonMediaType(s.headers['content-type']);
const isRedirect = (s: Seen) => s.status >= 300 && s.status < 400;
const parsed = (s: Seen) => (isJson(s) || s.text.trimStart().startsWith('{') || s.text.trimStart().startsWith('[') ? tryParseJson(s.text) : undefined);
const hasErrorBody = (s: Seen) => {
  const p = tryParseJson(s.text);
  return isJson(s) && p.ok && ApiError.safeParse(p.value).success;
};
/** The request's Accept, when it names no JSON type a server could answer with (a 406 is then legal, with any body). */
const acceptsNoJson = (r: Spelled) => {
  const accept = r.headers.find(([name]) => name.toLowerCase() === 'accept')?.[1];
  return accept !== undefined && !/application\/json|application\/\*|\*\/\*/i.test(accept);
};

/** JSON text with members in one order, bigints whole: two bodies that mean the same give the same text. */
function normalised(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sort(x)])) : v;
  return stringifyJson(sort(value));
}

/**
 * What the interface names of a body: a Pet (or each Pet of a list) as Pet reads it, which keeps
 * its id, name, categoryId and status only (ids exact, a null status as none); any other value as
 * it is. Members the interface does not name (`createdAt`, `_links`) are not part of it.
 */
function namedOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(namedOf);
  const pet = Pet.safeParse(value);
  return pet.success ? pet.data : value;
}

/** Members of the Pets in an answer's body that the interface does not name, sorted: recorded, never compared. */
export function unnamedMembers(text: string): string[] {
  const p = tryParseJson(text);
  if (!p.ok) return [];
  const pets = Array.isArray(p.value) ? p.value : [p.value];
  const names = pets.flatMap((pet) => (Pet.safeParse(pet).success ? otherMembers(pet) : []));
  return [...new Set(names)].sort();
}

/**
 * Two answers to a request mean the same: for getPet and createPet, the same content (sameContent);
 * for listPets, whose order and page the interface does not fix (a store may list in any order,
 * and another animal may come first), the same page size and, under a status filter, only animals
 * of that status: "same filter applied, same page size".
 */
export function sameMeaning(canonical: Spelled, a: string, b: string): boolean {
  if (canonical.operation !== 'listPets') return sameContent(canonical.operation, a, b);
  if (a === b) return true;
  try {
    const [x, y] = [parseJson(a), parseJson(b)];
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    const status = canonical.query.find(([name]) => name === 'status')?.[1];
    return status === undefined || x.every((pet) => pet !== null && typeof pet === 'object' && (pet as { status?: unknown }).status === status);
  } catch {
    return false;
  }
}

/**
 * Two bodies say the same of an operation: what the interface names of them is equal (namedOf:
 * a Pet's id, name, categoryId and status; order of members and whitespace aside); for createPet,
 * the created animal's id aside (each request creates its own animal).
 */
export function sameContent(operation: Operation, a: string, b: string): boolean {
  if (a === b) return true;
  try {
    const [x, y] = [namedOf(parseJson(a)), namedOf(parseJson(b))];
    const drop = (v: unknown) => (operation === 'createPet' && v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'id')) : v);
    return normalised(drop(x)) === normalised(drop(y));
  } catch {
    return false;
  }
}

/** "answered as the canonical request", and the members the interface does not name that the answer has (recorded, not compared). */
function answeredAsCanonical(seen: Seen, how = 'answered as the canonical request'): Verdict {
  const others = unnamedMembers(seen.text);
  return holds(others.length === 0 ? how : `${how} (members the interface does not name, not compared: ${others.join(', ')})`);
}

/** An answer that serves the operation's data: a 2xx to a spelling that keeps a meaning, or any 2xx whose body is a Pet or Pets. */
function serves(o: Observation): boolean {
  if (!isAccepted(o.seen)) return false;
  if (o.transformed.keeps !== 'anything') return true;
  const p = parsed(o.seen);
  return p !== undefined && p.ok && (Pet.safeParse(p.value).success || (Pets.safeParse(p.value).success && (p.value as unknown[]).length > 0));
}

export function defineInvariant<const Id extends string>(invariant: Invariant<Id>): Invariant<Id> {
  return Object.freeze({ ...invariant });
}

/** Authentication: an answer that serves an operation's data went to a request with a valid key. */
export const AUTH_INVARIANT = defineInvariant({
  id: 'relations.auth',
  clause: 'Authentication',
  severity: 'must',
  title: 'No spelling of a request without a key is served',
  needs: ['none'],
  judge(o) {
    if (o.credential !== 'none') return undefined;
    return serves(o) ? broken('served-without-key', described(o)) : holds(`${o.seen.status}`);
  },
});

/**
 * Same meaning: a spelling the server accepts is answered as the canonical request (the same
 * status and, but for HEAD, the same meaning: sameMeaning), or refused with a 4xx and an Error body; a spelling
 * the interface does not describe may also be redirected, and one whose answer it leaves open may
 * get any answer. Never a 5xx (but a 501 to a method no operation has: HTTP's answer to a method
 * the server does not implement). Which legal answer came is recorded.
 */
export const SAME_MEANING_INVARIANT = defineInvariant({
  id: 'relations.same-meaning',
  clause: 'Endpoints',
  severity: 'must',
  title: 'A spelling is answered as the request it stands for (the same message always; others may be refused with a 4xx and an Error body); never a 5xx',
  needs: ['key'],
  judge(o) {
    if (o.credential !== 'key') return undefined;
    const { seen, canonicalSeen } = o;
    // A 501 to a method no operation has (PROPFIND, OPTIONS) is HTTP's answer to a method not implemented (RFC 9110 §9.1).
    if (isServerErrorTo(o.transformed.request.method, seen)) return broken('server-error', described(o));
    // A 429 is the key's quota speaking (its body is not shown): the one-quota invariant's to judge.
    if (seen.status === 429) return undefined;
    const keeps = o.transformed.keeps;
    if (keeps === 'anything') return holds(`${seen.status} where the interface leaves the answer open`);
    if (keeps === 'message') {
      // The same message by the standards: answered as the canonical request was, whatever that was.
      if (!canonicalSeen || canonicalSeen.status === 429) return undefined;
      if (seen.status !== canonicalSeen.status) return broken(seen.status >= 400 ? 'same-message-refused' : 'other-status', described(o));
      if (!isAccepted(seen)) return holds(`refused as the canonical request (${seen.status})`);
      return sameMeaning(o.canonical, seen.text, canonicalSeen.text) ? answeredAsCanonical(seen, 'answered as the canonical request (the same message)') : broken('other-meaning', described(o));
    }
    if (isRedirect(seen)) return keeps === 'nothing' ? holds('redirected') : broken('redirected', described(o));
    const request = o.transformed.request;
    // A refusal of HEAD has no body to carry an Error (RFC 9110 §9.3.2); a 406 to an Accept without JSON need not be JSON.
    if (seen.status === 406 && acceptsNoJson(request)) return holds('406 for an Accept without JSON');
    const head = request.method === 'HEAD';
    if (seen.status >= 400) return hasErrorBody(seen) || (head && seen.text === '') ? holds(`refused with ${seen.status}`) : broken('refused-without-error-body', described(o));
    if (!canonicalSeen || canonicalSeen.status === 429) return undefined;
    if (!isAccepted(canonicalSeen) || seen.status !== canonicalSeen.status) return broken('other-status', described(o));
    if (head) return seen.text === '' ? holds('answered as the canonical request') : broken('head-with-body', described(o));
    return sameMeaning(o.canonical, seen.text, canonicalSeen.text) ? answeredAsCanonical(seen) : broken('other-meaning', described(o));
  },
});

/**
 * Listed statuses carry listed bodies: whatever the spelling (its class included: a body the
 * interface leaves open answered 201 must still carry a Pet), an answer to the operation's method
 * whose status its responses table lists carries that status's body: 200 Pets (listPets) or a Pet
 * (getPet), 201 a Pet, 400, 401 and 404 an Error. 429's body is not shown; HEAD has none; another
 * method is no operation's.
 */
/** Each body a responses table lists: its model, how a message names it, the code of an answer without it. */
const LISTED_BODIES: Readonly<Record<ResponseBody, { model: typeof Pet | typeof Pets | typeof ApiError; said: string; code: string }>> = {
  Pet: { model: Pet, said: 'a Pet', code: 'not-a-pet' },
  Pets: { model: Pets, said: 'Pets', code: 'not-pets' },
  Error: { model: ApiError, said: 'an Error', code: 'not-an-error' },
};

export const LISTED_BODY_INVARIANT = defineInvariant({
  id: 'relations.listed-body',
  clause: 'Endpoints',
  severity: 'must',
  title: 'Whatever the spelling, a status the operation lists carries its listed body: 200 and 201 a Pet or Pets, 400, 401 and 404 an Error',
  needs: ['key', 'none'],
  // An answer that is not JSON at all is representation's failure first.
  explainedBy: ['relations.representation'],
  judge(o) {
    const { seen } = o;
    if (o.transformed.request.method !== OPERATIONS[o.canonical.operation].method) return undefined;
    const body = listedBody(o.canonical.operation, seen.status);
    if (body === undefined) return undefined;
    const { model, said, code } = LISTED_BODIES[body];
    const p = tryParseJson(seen.text);
    if (p.ok && model.safeParse(p.value).success) return holds(`${seen.status} with ${said}`);
    return broken(code, described(o, `whose body is not ${said}: ${seen.text === '' ? '(empty)' : seen.text.slice(0, 200)}`));
  },
});

const INTERFACE_METHODS = new Set(['GET', 'HEAD', 'POST']);

/**
 * Representation: whatever the request asked, an answer with a body is JSON under application/json
 * (or a 406), strictly parsable (RFC 8259), a list an array and an animal an object. As
 * responses.json-media-type, a 429's body aside (it is not shown); answers to methods the interface
 * has no operation for are routes'.
 */
export const REPRESENTATION_INVARIANT = defineInvariant({
  id: 'relations.representation',
  clause: 'What the service does',
  severity: 'must',
  title: 'Whatever was asked, every answer with a body is strict JSON under application/json, a list an array',
  needs: ['key', 'none'],
  judge(o) {
    const { seen } = o;
    if (!INTERFACE_METHODS.has(o.transformed.request.method) || seen.text === '' || seen.status === 406 || seen.status === 429 || isRedirect(seen)) return undefined;
    if (!isJson(seen)) return broken('not-json-media-type', described(o, `under ${seen.headers['content-type'] ?? 'no Content-Type'}`));
    const p = tryParseJson(seen.text);
    if (!p.ok) return broken('not-strict-json', described(o));
    if (isAccepted(seen) && o.transformed.keeps !== 'anything') {
      const list = o.canonical.operation === 'listPets';
      if (list !== Array.isArray(p.value)) return broken(list ? 'list-not-array' : 'animal-not-object', described(o));
    }
    return holds('JSON');
  },
});

/**
 * One quota: every request of a key, however spelled, draws on the key's one quota. Judged on
 * spellings served with a key whose answer and the key's answer before carry X-RateLimit-* of the
 * same window (same Limit and Reset): Remaining must fall. When it does not, the spelling is sent
 * once more, and judged only where a limiter of the plan could not give a request back meanwhile:
 * a token bucket of a large quota refills faster than requests come, and a sliding log lets go as
 * many as the key sent one window earlier (after a burst, several at once): then nothing is told.
 */
export const ONE_QUOTA_INVARIANT = defineInvariant({
  id: 'relations.one-quota',
  clause: 'Limits / Request rate by plan',
  severity: 'must',
  title: 'Every spelling of a request with a key draws on the key\'s one quota',
  needs: ['key'],
  judge(o) {
    const drop = quotaDrop(o);
    if (drop === undefined) return undefined;
    if (drop.fell) return holds('counted');
    if (o.again === undefined) return undefined;
    // Two requests of the key since the answer before: a sliding window ages out one at most, so
    // Remaining is below that answer's. (Against the spelling's own first answer, a bucket of its
    // own, new, would look counted.)
    const again = quotaDrop({ ...o, seen: o.again });
    if (again === undefined || again.fell) return holds('counted');
    // Two counted requests, with less than one request a limiter could give back meanwhile, leave Remaining below.
    if (o.refill === undefined || o.refill >= 1) return undefined;
    return broken('not-counted', described(o, `(X-RateLimit-Remaining ${drop.from} before it, ${drop.to} after it, ${again.to} after it again)`));
  },
});

/** Whether Remaining fell from the key's answer before to this one, in one window; undefined when it cannot be told. */
export function quotaDrop(o: Pick<Observation, 'credential' | 'seen' | 'before'>): { fell: boolean; from: number; to: number } | undefined {
  if (o.credential !== 'key' || !o.before || !isAccepted(o.seen)) return undefined;
  const [b, s] = [readRateAnswer(0, o.before.status, o.before.headers), readRateAnswer(0, o.seen.status, o.seen.headers)];
  if (b.remaining === undefined || s.remaining === undefined || b.limit !== s.limit || b.reset === undefined || b.reset !== s.reset) return undefined;
  return { fell: s.remaining < b.remaining, from: b.remaining, to: s.remaining };
}

/** The suite sends a spelling again when its first answer alone would break one quota. */
export const wantsAgain = (o: Observation): boolean => quotaDrop(o)?.fell === false;

/**
 * Store integrity: after any createPet spelling (the bodies the interface leaves open among them:
 * members of another type, duplicate members, members named after object internals, deep nesting,
 * large bodies), the store still refuses a NewPet without categoryId, and the animal the canonical
 * request created reads back unchanged. (What a spelling's 201 carries is listed-body's.)
 */
export const STORE_INTEGRITY_INVARIANT = defineInvariant({
  id: 'relations.store-integrity',
  clause: 'Resources and their fields / NewPet',
  severity: 'must',
  title: 'After any body, the store still enforces NewPet and the run\'s animals read back unchanged',
  needs: ['key'],
  judge(o) {
    if (o.credential !== 'key' || o.canonical.operation !== 'createPet') return undefined;
    const { schema, readBack } = o.integrity ?? {};
    if (schema && isAccepted(schema)) return broken('schema-not-enforced', `${described(o)}; then a NewPet without categoryId: ${schema.status}`);
    if (readBack && o.canonicalSeen && readBack.status !== 429 && (readBack.status !== 200 || !sameContent('getPet', readBack.text, o.canonicalSeen.text))) {
      return broken('animal-changed', `${described(o)}; then the animal the canonical request created reads back ${readBack.status} ${readBack.text.slice(0, 200)}`);
    }
    return schema || readBack ? holds('store intact') : undefined;
  },
});

/**
 * Headers that state facts: a Location on a created animal leads to it (RFC 9110 §10.2.2), and the
 * X-RateLimit-* of one answer describe one window (Remaining at most Limit). A should: the
 * interface names no Location, and a Remaining above Limit contradicts no one sentence alone.
 */
export const HEADER_FACTS_INVARIANT = defineInvariant({
  id: 'relations.header-facts',
  clause: 'Limits / Rate limit headers',
  severity: 'should',
  standard: 'RFC 9110 §10.2.2 (a 201\'s Location names the created resource) and the X-RateLimit-* convention that Remaining counts down from Limit',
  title: 'Headers state facts: a Location leads to the created animal, Remaining is at most Limit',
  needs: ['key', 'none'],
  // Where the rate-limit suite ran, a Remaining above Limit is its must's (one window in every answer): shown under it.
  explainedBy: ['rate-limit.headers-one-window'],
  judge(o) {
    const rate = readRateAnswer(0, o.seen.status, o.seen.headers);
    if (rate.limit !== undefined && rate.remaining !== undefined && rate.remaining > rate.limit) {
      return broken('remaining-above-limit', described(o, `(X-RateLimit-Remaining ${rate.remaining} above X-RateLimit-Limit ${rate.limit})`));
    }
    if (o.location) {
      const ok = o.location.status === 200 && sameContent('getPet', o.location.text, o.seen.text);
      return ok ? holds('Location leads to the animal') : broken('location-elsewhere', described(o, `(its Location ${o.seen.headers['location']} answers ${o.location.status})`));
    }
    return rate.limit !== undefined && rate.remaining !== undefined ? holds('Remaining within Limit') : undefined;
  },
});

export const INVARIANTS = [AUTH_INVARIANT, ONE_QUOTA_INVARIANT, SAME_MEANING_INVARIANT, LISTED_BODY_INVARIANT, REPRESENTATION_INVARIANT, STORE_INTEGRITY_INVARIANT, HEADER_FACTS_INVARIANT] as const;

/** Broken observations shown in a failure's evidence, of each kind. */
const SHOWN = 3;

/**
 * One invariant over every observation: the broken ones fail it, each kind named: a code in a
 * family ("server-error (query)": a layer that misreads one family's spellings is one kind), in
 * order of first appearance. The first kind's first spelling is the message (the spelling and the
 * canonical request), its count and first few in `actual`; every other kind is one of its
 * `others`, with its own count, first few and exchanges; every kind names the spellings' answers
 * that showed it (`offenders`). Otherwise it passes, saying which legal answers were seen on how
 * many spellings of which families. Nothing judged is a skip.
 */
export function judgeInvariant(invariant: Invariant, observations: readonly Observation[]): Finding {
  const readings = new Map<string, number>();
  const families = new Set<string>();
  const kinds = new Map<string, { code: string; family: string; broken: { o: Observation; what: string }[] }>();
  let judged = 0;
  for (const o of observations) {
    const verdict = invariant.judge(o);
    if (verdict === undefined) continue;
    judged += 1;
    const family = o.transformed.family;
    families.add(family);
    if (verdict.holds) {
      readings.set(verdict.reading, (readings.get(verdict.reading) ?? 0) + 1);
      continue;
    }
    const kind = `${verdict.code} (${family})`;
    const seen = kinds.get(kind) ?? { code: verdict.code, family, broken: [] };
    seen.broken.push({ o, what: verdict.what });
    kinds.set(kind, seen);
  }
  if (judged === 0) return skip(`no spelling sent had an answer ${invariant.id} judges`);
  if (kinds.size > 0) {
    const said = (code: string, broken: readonly { o: Observation; what: string }[]) => {
      const shown = broken.slice(0, SHOWN);
      return {
        message: broken.length === 1 ? broken[0]!.what : `${broken[0]!.what} (and ${broken.length - 1} more of ${judged} spellings)`,
        actual: shown.map((b) => `${code}: ${b.what}`).join('\n'),
        exchanges: shown.flatMap((b) => b.o.evidence ?? []),
        offenders: broken.flatMap((b) => (b.o.evidence ?? []).filter((e) => e.spelling !== undefined).map((e) => e.seq)),
      };
    };
    const [first, ...rest] = [...kinds];
    const [, main] = first!;
    const m = said(main.code, main.broken);
    const others: OtherFailure[] = rest.map(([kind, k]) => ({ kind, code: k.code, ...said(k.code, k.broken), expected: invariant.title, example: k.broken[0]!.what, count: k.broken.length }));
    return {
      outcome: 'fail',
      code: main.code,
      message: m.message,
      expected: invariant.title,
      actual: m.actual,
      exchanges: m.exchanges,
      ...(m.offenders.length > 0 ? { offenders: m.offenders } : {}),
      ...(others.length > 0 ? { others } : {}),
    };
  }
  const seen = [...readings].map(([reading, n]) => `${reading} ×${n}`).join(', ');
  return pass(`${judged} spellings of ${families.size} families (${[...families].sort().join(', ')}): ${seen}`);
}

/** An invariant as a check of the relations suite. */
function invariantCheck<const Id extends string>(invariant: Invariant<Id>): CheckDef<Id, (observations: readonly Observation[]) => Finding> {
  return defineCheck({
    id: invariant.id,
    clause: invariant.clause,
    title: invariant.title,
    severity: invariant.severity,
    ...(invariant.standard ? { standard: invariant.standard } : {}),
    suite: 'relations',
    ...(invariant.explainedBy ? { explainedBy: invariant.explainedBy } : {}),
    judge: (observations: readonly Observation[]) => judgeInvariant(invariant, observations),
  });
}

export const RELATIONS_CHECKS = [
  invariantCheck(AUTH_INVARIANT),
  invariantCheck(ONE_QUOTA_INVARIANT),
  invariantCheck(SAME_MEANING_INVARIANT),
  invariantCheck(LISTED_BODY_INVARIANT),
  invariantCheck(REPRESENTATION_INVARIANT),
  invariantCheck(STORE_INTEGRITY_INVARIANT),
  invariantCheck(HEADER_FACTS_INVARIANT),
] as const;
