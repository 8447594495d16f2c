// The relations suite's driver (issue 35): sends a plan of spellings (lib/checks/relations.ts) and
// observes each as the invariants (lib/checks/invariants.ts) need it. Before a spelling, the
// canonical request's answer with a key (taken once per operation, again when an answer differs,
// so that a store that changed in between is not read as a fault); the key's answer just before
// (one quota); the spelling again when its answer alone would break one quota; after every
// createPet spelling, the store's integrity; after a created animal with a Location, that
// Location. Reads first, writes last: an animal created by a spelling cannot change a page a read
// is compared with. The sending is a parameter: tested without a server.
import type { TargetKey } from '../config/schema.ts';
import { CREATED_NAME_PREFIX } from '../config/run-context.ts';
import type { ApiRequest, ApiResponse } from '../client/client.ts';
import { type Observation, sameMeaning, wantsAgain } from '../checks/invariants.ts';
import type { PlannedSpelling } from '../checks/relations.ts';
import type { Seen } from '../checks/types.ts';
import { parseJson, stringifyJson } from '../json.ts';
import type { PetStatus } from '../models.ts';
import type { Credential, Operation, Spelled } from '../generators/transformations.ts';
import { requestTarget } from '../generators/transformations.ts';
import { BudgetExhaustedError } from '../errors.ts';
import { isAccepted } from '../status.ts';
import { readRateAnswer, type Windows, windowMs } from '../rate-limit/vocabulary.ts';
import { answeredAtOf, type Exchange, sentAtOf } from '../result/exchange.ts';

export type Send = (req: ApiRequest) => Promise<ApiResponse>;

/**
 * The canonical requests of the interface's operations under a base path, as spellings start from
 * them: listPets with a page of 2 under a status filter (`status`: the run picks the status the
 * store holds fewest of, so that a spelling whose filter was dropped shows), getPet of an animal
 * that exists, createPet of a NewPet with every member.
 */
export function canonicalRequests(basePath: string, petId: string | undefined, writes: boolean, status: PetStatus = 'available'): Spelled[] {
  const base = basePath.split('/').filter((s) => s !== '');
  const list: Spelled = { operation: 'listPets', method: 'GET', base, path: ['pets'], query: [['limit', '2'], ['status', status]], headers: [] };
  const get: Spelled | undefined = petId === undefined ? undefined : { operation: 'getPet', method: 'GET', base, path: ['pets', petId], parameters: [1], query: [], headers: [] };
  const create: Spelled | undefined = writes
    ? { operation: 'createPet', method: 'POST', base, path: ['pets'], query: [], headers: [['Content-Type', 'application/json']], body: stringifyJson({ name: `${CREATED_NAME_PREFIX}relations`, categoryId: 1, status: 'available' }) }
    : undefined;
  return [list, ...(get ? [get] : []), ...(create ? [create] : [])];
}

/** A spelling as the client sends it: the raw target, header names lower-cased (so that one replaces the client's default), the credential's scheme. */
export function requestOf(spelled: Spelled, credential: Credential, key: TargetKey, spelling?: ApiRequest['spelling']): ApiRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of spelled.headers) headers[name.toLowerCase()] = headers[name.toLowerCase()] === undefined ? value : `${headers[name.toLowerCase()]}, ${value}`;
  // Without a key, a respelled scheme is sent alone: "Authorization: bearer".
  if (credential === 'none' && spelled.scheme !== undefined) headers.authorization = spelled.scheme;
  return {
    method: spelled.method,
    path: '',
    target: requestTarget(spelled),
    headers,
    ...(spelled.body !== undefined ? { body: spelled.body } : {}),
    ...(spelled.chunked ? { chunked: true } : {}),
    ...(spelled.headerNames ? { headerNames: { ...spelled.headerNames } } : {}),
    auth: credential === 'key' ? { key, ...(spelled.scheme !== undefined ? { scheme: spelled.scheme } : {}) } : { none: true },
    ...(spelling ? { spelling } : {}),
  };
}

const seenOf = (r: ApiResponse): Seen => ({ status: r.status, headers: r.headers, text: r.text });

/** The id of an animal in an answer's body, digits whole; undefined when there is none. */
export function idIn(text: string): string | undefined {
  try {
    const value = parseJson(text);
    const pet = Array.isArray(value) ? value[0] : value;
    const id = pet !== null && typeof pet === 'object' ? (pet as { id?: unknown }).id : undefined;
    return typeof id === 'number' || typeof id === 'bigint' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

export interface ObserveOptions {
  send: Send;
  /** The key every keyed request carries; its plan's quota, with `windows`, bounds what a limiter may give back meanwhile. */
  key: TargetKey;
  /** The target's window lengths, seconds. */
  windows: Windows;
  /** The target's base URL: a Location is followed only within its origin. */
  baseUrl: string;
  progress?: (line: string) => void;
  /** When the run sent each request of the key so far (our epoch ms): what a sliding log lets go one window later. */
  sentWithKey?: () => readonly number[];
  /**
   * Reads again (bounded) until the answer shows what was written (lib/suite-kit/read-back.ts): the
   * Location of a created animal and the canonical animal's read-back, a store's reads lagging its
   * writes. Absent: one read.
   */
  readBack?: (read: () => Promise<ApiResponse>, visible: (res: ApiResponse) => boolean) => Promise<ApiResponse>;
}

/** What was observed, and why sending stopped before the plan's end (the request budget spent), if it did. */
export interface Observed {
  observations: Observation[];
  stopped?: string;
}

/**
 * Sends every planned spelling, reads first, and returns what each invariant needs of it. A spent
 * request budget ends the sending, not the judging: what was observed is kept, and the reason said.
 */
export async function observeRelations(spellings: readonly PlannedSpelling[], options: ObserveOptions): Promise<Observed> {
  const observations: Observation[] = [];
  try {
    await observeInto(observations, spellings, options);
    return { observations };
  } catch (err) {
    if (err instanceof BudgetExhaustedError) return { observations, stopped: err.message };
    throw err;
  }
}

async function observeInto(observations: Observation[], spellings: readonly PlannedSpelling[], options: ObserveOptions): Promise<void> {
  const { send, key } = options;
  const readBack = options.readBack ?? ((read: () => Promise<ApiResponse>) => read());
  const found = (res: ApiResponse) => res.status !== 404;
  const origin = new URL(options.baseUrl).origin;
  const ordered = [...spellings.filter((s) => s.canonical.operation !== 'createPet'), ...spellings.filter((s) => s.canonical.operation === 'createPet')];
  const canonical = new Map<Operation, { seen: Seen; exchange: Exchange }>();
  let lastKeyed: Seen | undefined;
  let lastKeyedExchange: Exchange | undefined;
  // Since when the key's answers have named their X-RateLimit-Reset (our epoch ms): a Reset that
  // holds while requests come is a fixed window's end, whose window gives nothing back before it.
  let resetHeld: { reset: number; since: number } | undefined;
  const sendKeyed = async (req: ApiRequest) => {
    const res = await send(req);
    lastKeyed = seenOf(res);
    lastKeyedExchange = res.exchange;
    const { reset } = readRateAnswer(0, res.status, res.headers);
    if (reset !== undefined && reset !== resetHeld?.reset) resetHeld = { reset, since: answeredAtOf(res.exchange) };
    return res;
  };
  // What a token bucket of the window an answer's Limit names gives back, requests per ms (of an unknown Limit, the faster window's).
  const rates = { minute: key.quota.perMinute / windowMs(options.windows), day: key.quota.perDay / windowMs(options.windows, 'day') };
  const refillPerMs = (answer: Seen) => {
    const { limit } = readRateAnswer(0, answer.status, answer.headers);
    return limit === key.quota.perMinute ? rates.minute : limit === key.quota.perDay ? rates.day : Math.max(rates.minute, rates.day);
  };
  // What a sliding log of the window an answer's Limit names lets go from `from` to `to`: the key's
  // requests sent one window earlier (the server counted them between their sending and their
  // answer: the span's ends taken 100 ms wider for that). None where the key's answers have named one
  // Reset for more than a second and a half up to now: a fixed window's end (a log's, when it empties,
  // moves on with its newest request, a second later at most).
  const agedOut = (answer: Seen, from: number, to: number) => {
    const sent = options.sentWithKey?.();
    const { limit } = readRateAnswer(0, answer.status, answer.headers);
    // resetHeld is the latest answer's (the spelling's again, at `to`).
    if (sent === undefined || (resetHeld !== undefined && to - resetHeld.since > 1500)) return 0;
    const w = limit === key.quota.perDay ? windowMs(options.windows, 'day') : windowMs(options.windows);
    return sent.filter((t) => t >= from - w - 100 && t <= to - w + 100).length;
  };
  const takeCanonical = async (c: Spelled) => {
    const res = await sendKeyed(requestOf(c, 'key', key));
    const taken = { seen: seenOf(res), exchange: res.exchange };
    canonical.set(c.operation, taken);
    return taken;
  };

  // Without a key, the canonical request's own answer without one (taken once): "GET /v1/pets/7: 401" beside the spelling's.
  const canonicalWithoutKey = new Map<Operation, { seen: Seen; exchange: Exchange }>();
  const takeWithoutKey = async (c: Spelled) => {
    let taken = canonicalWithoutKey.get(c.operation);
    if (!taken) {
      const res = await send(requestOf(c, 'none', key));
      taken = { seen: seenOf(res), exchange: res.exchange };
      canonicalWithoutKey.set(c.operation, taken);
    }
    return taken;
  };

  for (const [i, s] of ordered.entries()) {
    options.progress?.(`relations: spelling ${i + 1} of ${ordered.length} (${s.transformed.family}: ${s.transformed.name})`);
    const evidence: Exchange[] = [];
    const op = s.canonical.operation;
    // The order family's spelling follows the canonical request with a key at once: a cache keyed on the URL alone shows there.
    let taken = s.transformed.family === 'order' || !canonical.has(op) ? await takeCanonical(s.canonical) : canonical.get(op)!;
    if (s.transformed.family === 'order') evidence.push(taken.exchange);
    const before = s.credential === 'key' ? lastKeyed : undefined;
    const beforeExchange = lastKeyedExchange;
    const spelling = { family: s.transformed.family, name: s.transformed.name, keeps: s.transformed.keeps };
    const req = requestOf(s.transformed.request, s.credential, key, spelling);
    const res = s.credential === 'key' ? await sendKeyed(req) : await send(req);
    const seen = seenOf(res);
    evidence.push(res.exchange);
    // An answer that differs from a canonical one taken a while ago: the canonical request again, now.
    if (s.credential === 'key' && op !== 'createPet' && isAccepted(seen) && (seen.status !== taken.seen.status || (s.transformed.request.method !== 'HEAD' && !sameMeaning(s.canonical, seen.text, taken.seen.text)))) {
      taken = await takeCanonical(s.canonical);
    }
    // The order family's spelling without a key is the canonical request itself: its canonical is the keyed one just before.
    if (s.credential === 'none' && s.transformed.family !== 'order') taken = await takeWithoutKey(s.canonical);
    if (!evidence.includes(taken.exchange)) evidence.unshift(taken.exchange);
    const o: Observation = { canonical: s.canonical, transformed: s.transformed, credential: s.credential, seen, canonicalSeen: taken.seen, ...(before ? { before } : {}) };
    if (wantsAgain(o)) {
      const again = await sendKeyed(req);
      o.again = seenOf(again);
      evidence.push(again.exchange);
      // The widest span the limiter may have counted them over: from sending the request before to this answer.
      const between = beforeExchange ? answeredAtOf(again.exchange) - sentAtOf(beforeExchange) : Number.NaN;
      if (Number.isFinite(between) && before) o.refill = Math.max(refillPerMs(before) * Math.max(0, between), agedOut(before, sentAtOf(beforeExchange!), answeredAtOf(again.exchange)));
    }
    if (op === 'createPet' && s.credential === 'key') await afterCreate(o, taken.seen, evidence);
    o.evidence = evidence;
    observations.push(o);
  }

  /** After every createPet spelling with a key: its Location followed, the store's integrity read (any body may have bent it). */
  async function afterCreate(o: Observation, created: Seen, evidence: Exchange[]): Promise<void> {
    const location = o.seen.headers['location'];
    if (o.seen.status === 201 && location !== undefined) {
      const url = new URL(location, `${origin}${requestTarget(o.transformed.request)}`);
      if (url.origin === origin) {
        const res = await readBack(() => sendKeyed({ method: 'GET', path: '', target: url.pathname + url.search, auth: { key } }), found);
        o.location = seenOf(res);
        evidence.push(res.exchange);
      }
    }
    const base = o.canonical;
    const schema = await sendKeyed(requestOf({ ...base, body: stringifyJson({ name: `${CREATED_NAME_PREFIX}relations without categoryId` }) }, 'key', key));
    evidence.push(schema.exchange);
    const id = idIn(created.text);
    const read = id === undefined ? undefined : await readBack(() => sendKeyed({ method: 'GET', path: '', target: `/${[...base.base, 'pets', id].join('/')}`, auth: { key } }), found);
    if (read) evidence.push(read.exchange);
    o.integrity = { schema: seenOf(schema), ...(read ? { readBack: seenOf(read) } : {}) };
  }
}
