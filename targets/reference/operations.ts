// The four operations. Each first validates and looks up, returning either a rejection or a
// `proceed` step that does the work; the split is what lets fault auth-after-validation move the
// key check between the two without touching the operations. Flag faults and variations that
// change an operation are consulted here, each at the one line where its behaviour lives.
import type { IncomingMessage } from 'node:http';
import { PAGE_SIZE } from '../../lib/models.ts';
import { bodyFormat, newPetOf, parseForm } from './body-shapes.ts';
import type { Faults } from './faults.ts';
import { errorReply, jsonReply, readBody, type Reply } from './http.ts';
import type { OperationId } from './routes.ts';
import { petJson, type AnimalStore, type StoredPet } from './store.ts';
import type { Target } from './target.ts';
import { bodyId, checkLimit, checkNewPet, checkPetId, checkStatusFilter, isNumericPetId } from './validation.ts';
import { faultyPetId } from './faults/pet-id-spelling.ts';
import { locationOf, parseBody } from './spelling-variations.ts';
import type { Variations } from './variations.ts';

/**
 * An operation's first half: refused (`unreadable`: the body could not be read as its media type,
 * before any rule of the interface was applied), or ready to proceed.
 */
export type Prepared = { reject: Reply; unreadable?: true } | { proceed: () => Reply | Promise<Reply> };
/**
 * Synchronous unless it has something to wait for (createPet reads the body). `caller` is the
 * label of the key the request came with (only faults look at it).
 */
export type Operation = (req: IncomingMessage, url: Target, params: string[], caller: string) => Prepared | Promise<Prepared>;

export interface OperationDeps {
  store: AnimalStore;
  faults: Faults;
  variations: Variations;
  maxBodyBytes: number;
}

export const badRequest = (message: string): Reply => errorReply(400, 'invalid_request', message);
const reject = (reply: Reply): Prepared => ({ reject: reply });
/** A body the parser could not read (too large, not UTF-8, cut short, malformed JSON): what a body parser mounted before anything else refuses. */
const unreadable = (reply: Reply): Prepared => ({ reject: reply, unreadable: true });
/**
 * A `proceed` step, unchanged. Passed through a call, a closure made per request stays nameless:
 * written straight into `{ proceed: ... }`, tsx (esbuild's keepNames) names each one with
 * Object.defineProperty as it is made, a cost on every request.
 */
const step = (run: () => Reply | Promise<Reply>): (() => Reply | Promise<Reply>) => run;

const OUTSIDE_BMP = /[\u{10000}-\u{10FFFF}]/gu;
/** Fault create-id-race: how long the store is awaited between reading the next id and writing (long enough that requests sent together on a busy machine all read the same id). */
const ID_RACE_GAP_MS = 50;
/** Fault create-500-on-long-name: the width of the column a name is stored in, in UTF-16 code units. */
const NAME_COLUMN_LENGTH = 4096;
/** Fault create-id-per-connection: each connection's number (the worker process that serves it). */
const connectionNumbers = new WeakMap<object, number>();
let connectionsSeen = 0;
function connectionOf(req: IncomingMessage): string {
  let n = connectionNumbers.get(req.socket);
  if (n === undefined) connectionNumbers.set(req.socket, (n = ++connectionsSeen));
  return `connection ${n}`;
}

export function createOperations({ store, faults, variations, maxBodyBytes }: OperationDeps): Record<OperationId, Operation> {
  // The switches are fixed for the server's life: listPets, the hot path, reads them once here.
  const limitOptions = {
    fallback: faults.has('list-default-limit-50') ? 50 : PAGE_SIZE.default,
    max: faults.has('list-accepts-limit-over-100') ? 1000 : faults.has('list-rejects-limit-100') ? PAGE_SIZE.max - 1 : PAGE_SIZE.max,
    clamp: variations.has('limit-clamp'),
  };
  const statusOptions = {
    ignoreCase: faults.has('list-status-case-insensitive') || variations.has('lenient-values'),
    ignoreUnknown: variations.has('unknown-filter-ignored'),
    ignoreEmpty: faults.has('list-empty-status-ignored'),
  };
  const compiledParser = faults.has('body-compiled-parser-500');
  /** Fault create-shared-defaults: the one object every createPet body is merged into, for the server's life. */
  const sharedDefaults: Record<string, unknown> | undefined = faults.has('create-shared-defaults') ? {} : undefined;
  const duplicates = faults.has('order-duplicate-post-empty') ? new DuplicateGuard() : undefined;
  /** Fault body-proto-pollutes-defaults: what `__proto__` members merged into every object's prototype, for the server's life. */
  const polluted: Record<string, unknown> | undefined = faults.has('body-proto-pollutes-defaults') ? {} : undefined;
  const chunkedReadAsEmpty = faults.has('body-chunked-read-as-empty');
  const nestingLimit = faults.has('body-nesting-500') ? NESTING_LIMIT : undefined;
  const firstWinsEcho = faults.has('body-duplicate-first-wins-echo');
  const list = {
    failOnBadLimit: faults.has('list-500-on-bad-limit'),
    ignoresLimit: faults.has('list-ignores-limit'),
    limitIgnoredWithStatus: faults.has('list-limit-ignored-with-status'),
    offByOne: faults.has('list-limit-off-by-one') ? 1 : 0,
    wrongStatusFilter: faults.has('list-wrong-status-filter'),
    filterIgnoredWithLimit: faults.has('list-filter-ignored-with-limit'),
    invertStatus: faults.has('list-filter-wrong-status'),
    shuffled: variations.has('shuffled-order'),
    missesNew: faults.has('list-filter-misses-new'),
    duplicates: faults.has('list-duplicates'),
    repeatedStatusIgnored: faults.has('query-repeated-status-unfiltered'),
  };
  // Variations location-absolute and duplicate-member-last-wins (spelling-variations.ts).
  const absoluteLocation = variations.has('location-absolute');
  const lastMemberWins = variations.has('duplicate-member-last-wins');
  // Variation pet-extra-members: every Pet answered with createdAt and _links.self.
  const extraMembers = variations.has('pet-extra-members');
  const asJson = (pet: StoredPet) => petJson(pet, extraMembers);

  return {
    listPets(_req, url) {
      const query = url.searchParams;
      if (list.failOnBadLimit) {
        const rawLimit = query.get('limit');
        if (rawLimit !== null && !/^-?[0-9]+$/.test(rawLimit)) throw new SyntaxError(`Cannot convert ${rawLimit} to an integer`);
      }
      const limit = checkLimit(query, limitOptions);
      if (!limit.ok) return reject(badRequest(limit.message));
      // Fault query-repeated-status-unfiltered: a repeated status arrives as an array the filter does not recognise, and ignores.
      const status = list.repeatedStatusIgnored && query.getAll('status').length > 1 ? ({ ok: true, value: undefined } as const) : checkStatusFilter(query, statusOptions);
      if (!status.ok) return reject(badRequest(status.message));
      return {
        proceed: step(() => {
          const pets = store.list({
            limit: list.ignoresLimit || (list.limitIgnoredWithStatus && status.value !== undefined) ? undefined : limit.value + list.offByOne,
            status: list.wrongStatusFilter || (list.filterIgnoredWithLimit && query.has('limit')) ? undefined : status.value,
            invertStatus: list.invertStatus,
            shuffled: list.shuffled,
            preloadedOnly: list.missesNew && status.value !== undefined,
          });
          return jsonReply(200, (list.duplicates ? withDuplicate(pets, limit.value) : pets).map(asJson));
        }),
      };
    },

    async createPet(req, _url, _params, caller) {
      const read = bodyFormat(req.headers['content-type'], faults, variations);
      if ('refuse' in read) return reject(read.refuse);
      const body = await readBody(req, maxBodyBytes);
      if (!body.ok) {
        if (body.reason === 'too-large') {
          // The unread rest is not taken for the next request: node:http discards what is left of a
          // request's body once its answer is written (its Content-Length or chunks say where it ends),
          // and the connection stays open. Closing it while the client still sends would reset it
          // before the client reads the 413 (RFC 9112 §9.6 asks for a lingering close).
          return unreadable(errorReply(413, 'payload_too_large', `request body exceeds ${maxBodyBytes} bytes`));
        }
        return unreadable(badRequest(body.reason === 'not-utf8' ? 'request body is not valid UTF-8' : 'request body incomplete'));
      }
      // Fault body-chunked-read-as-empty: Content-Length bytes read, none for a chunked body.
      if (chunkedReadAsEmpty && req.headers['content-length'] === undefined) body.text = '';
      // Fault body-compiled-parser-500: a parser generated from the NewPet schema, fed Content-Length bytes.
      if (compiledParser) compiledNewPetParse(req, body.text);
      // Fault body-nesting-500: the parser's nesting limit, thrown past.
      if (nestingLimit !== undefined && nestingDepth(body.text) > nestingLimit) throw new RangeError(`JSON nesting exceeds ${nestingLimit} levels`);
      if (body.text.trim() === '') return reject(badRequest('request body is required (NewPet)'));
      const parsed = read.format === 'form' ? parseForm(body.text) : parseBody(body.text, lastMemberWins || firstWinsEcho ? 'last' : 'refuse');
      if (!parsed.ok) return unreadable(badRequest(`malformed JSON: ${parsed.error}`));
      // Fault create-shared-defaults: every body merged into one defaults object the handler keeps (Object.assign(DEFAULTS, body)).
      if (sharedDefaults && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) parsed.value = Object.assign(sharedDefaults, parsed.value);
      // Fault body-proto-pollutes-defaults: a `__proto__` member merged into the prototype every later object inherits.
      if (polluted && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
        const proto = Object.hasOwn(parsed.value, '__proto__') ? (parsed.value as Record<string, unknown>)['__proto__'] : undefined;
        if (proto !== null && typeof proto === 'object' && !Array.isArray(proto)) Object.assign(polluted, proto);
        parsed.value = { ...polluted, ...Object.fromEntries(Object.entries(parsed.value).filter(([k]) => k !== '__proto__')) };
      }
      const pet = checkNewPet(newPetOf(parsed.value, faults), {
        nameOptional: faults.has('create-accepts-missing-name'),
        zeroCategoryIdMissing: faults.has('create-rejects-category-zero'),
        truncateFractions: faults.has('create-accepts-fraction'),
        numericStrings: faults.has('create-accepts-string-category'),
        coerceFields: faults.has('create-accepts-many-invalid'),
        emptyStatusAbsent: faults.has('create-accepts-empty-status'),
        statusAnyCase: faults.has('create-accepts-status-any-case'),
        numberName: faults.has('create-accepts-number-name'),
        nullStatusAbsent: variations.has('lenient-values'),
        rejectUnknownFields: variations.has('extra-fields-rejected'),
      });
      if (!pet.ok) {
        if (faults.has('create-500-on-bad-input')) throw new TypeError(`cannot read NewPet: ${pet.message}`);
        return reject(badRequest(pet.message));
      }
      return {
        proceed: step(async () => {
          let { name, categoryId, status } = pet.value;
          if (faults.has('create-truncates-int64')) categoryId = BigInt(Number(categoryId));
          if (faults.has('create-drops-status')) status = undefined;
          if (faults.has('create-trims-name')) name = name?.trim();
          if (faults.has('create-mangles-unicode')) name = name?.replace(OUTSIDE_BMP, '');
          if (faults.has('create-500-on-long-name') && name !== undefined && name.length > NAME_COLUMN_LENGTH) {
            throw new RangeError(`value too long for type character varying(${NAME_COLUMN_LENGTH})`);
          }
          const input = { name, categoryId, status };
          // Fault order-duplicate-post-empty: the key's previous POST again is answered from what the guard kept, its status.
          if (duplicates && duplicates.repeated(caller, req.url ?? '', body.text)) return jsonReply(201, {});
          const id = faults.has('create-uses-body-id') ? bodyId(parsed.value) : undefined;
          const origin = {
            ...(faults.has('get-only-by-creator') ? { creator: caller } : {}),
            ...(faults.has('create-id-per-key') ? { idCounter: caller } : faults.has('create-id-per-connection') ? { idCounter: connectionOf(req) } : {}),
          };
          let created;
          const same = faults.has('create-dedupes-identical') ? store.findSame(input) : undefined;
          if (same) created = same;
          else if (faults.has('create-id-race') && id === undefined) {
            // Read the next id, await the store, then write under the id read: requests in between
            // read the same id, and the last write wins.
            const next = store.peekNextId();
            await new Promise((resolve) => setTimeout(resolve, ID_RACE_GAP_MS));
            store.skipId();
            created = store.create(input, next);
          } else created = faults.has('create-not-persisted') ? store.draft(input, id, origin) : store.create(input, id, origin);
          const answered = firstWinsEcho ? { ...asJson(created), ...firstWins(body.text, parsed.value) } : asJson(created);
          return jsonReply(201, answered, { Location: locationOf(req, created.id, absoluteLocation) });
        }),
      };
    },

    getPet(_req, _url, [segment = ''], caller) {
      const misread = faults.has('get-coerces-id') ? faultyPetId(segment, 'number') : faults.has('get-parses-id-prefix') ? faultyPetId(segment, 'prefix') : undefined;
      const id = misread === undefined ? checkPetId(segment) : { ok: true as const, value: misread };
      if (!id.ok) {
        if (isNumericPetId(segment) && faults.has('get-500-on-huge-id')) throw new RangeError(`value "${segment}" is out of range for type bigint`);
        if (!isNumericPetId(segment)) {
          if (faults.has('get-500-for-non-numeric')) throw new SyntaxError(`Cannot convert ${segment} to a BigInt`);
          if (variations.has('non-numeric-id-404')) return reject(errorReply(404, 'not_found', `no animal with id ${segment}`));
        }
        return reject(badRequest(id.message));
      }
      const sought = faults.has('get-id-wraps-32') ? BigInt.asUintN(32, id.value) : faults.has('get-id-sign-ignored') && id.value < 0n ? -id.value : id.value;
      const pet = store.get(sought);
      if (pet === undefined || (faults.has('get-only-by-creator') && pet.creator !== undefined && pet.creator !== caller)) {
        return reject(errorReply(404, 'not_found', `no animal with id ${id.value}`));
      }
      const answered = faults.has('get-wrong-pet') ? (store.neighbour(pet.id) ?? pet) : pet;
      // Fault get-id-sign-ignored fills the id in from the path: the animal comes back under the id asked for.
      const shown = faults.has('get-id-sign-ignored') && sought !== id.value ? { ...answered, id: id.value } : answered;
      return { proceed: step(() => jsonReply(200, asJson(shown))) };
    },

    // Orders are "not shown" by the interface: the endpoint exists and answers an empty list.
    listOrders() {
      return { proceed: step(() => jsonReply(200, [])) };
    },
  };
}

/** Fault body-nesting-500: the parser's depth limit. */
const NESTING_LIMIT = 512;

/** How deep arrays and objects nest in a JSON text, strings aside. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const ch of text.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
    if (ch === '[' || ch === '{') deepest = Math.max(deepest, ++depth);
    else if (ch === ']' || ch === '}') depth -= 1;
  }
  return deepest;
}

/**
 * Fault body-duplicate-first-wins-echo: the NewPet members a first-wins reader takes otherwise than
 * the last-wins one that validated the body (`validated`): a member given twice, its first value.
 */
function firstWins(text: string, validated: unknown): Record<string, unknown> {
  const first = parseBody(text, 'first');
  if (!first.ok || typeof first.value !== 'object' || first.value === null || typeof validated !== 'object' || validated === null) return {};
  const [a, b] = [first.value as Record<string, unknown>, validated as Record<string, unknown>];
  return Object.fromEntries([...NEW_PET_MEMBERS].filter((k) => a[k] !== b[k]).map((k) => [k, a[k]]));
}

/** Fault body-compiled-parser-500: the NewPet members the generated parser has slots for. */
const NEW_PET_MEMBERS = new Set(['name', 'categoryId', 'status']);

/**
 * Fault body-compiled-parser-500: what a parser generated from the NewPet schema cannot read, it
 * throws on: no Content-Length (a chunked body: nothing read), whitespace between tokens, a member
 * it has no slot for or one given twice. Strings are skipped whole; members are read at any depth,
 * as its state machine meets them.
 */
function compiledNewPetParse(req: IncomingMessage, text: string): void {
  if (req.headers['content-length'] === undefined) throw new SyntaxError('Unexpected end of JSON input');
  const strings = /"(?:[^"\\]|\\.)*"/g;
  if (/\s/.test(text.replace(strings, '""'))) throw new SyntaxError('Unexpected token in JSON: whitespace');
  const seen = new Set<string>();
  for (const [, member] of text.matchAll(/"((?:[^"\\]|\\.)*)":/g)) {
    if (!NEW_PET_MEMBERS.has(member!) || seen.has(member!)) throw new TypeError(`Cannot set properties of undefined (setting '${member}')`);
    seen.add(member!);
  }
}

/** Fault order-duplicate-post-empty: each key's previous POST, and when it came. */
class DuplicateGuard {
  private readonly last = new Map<string, { target: string; body: string; at: number }>();

  /** Whether this POST repeats the key's previous one (same target and body) within the guard's window; it becomes the previous one. */
  repeated(caller: string, target: string, body: string): boolean {
    const now = Date.now();
    const before = this.last.get(caller);
    this.last.set(caller, { target, body, at: now });
    return before !== undefined && before.target === target && before.body === body && now - before.at < DUPLICATE_WINDOW_MS;
  }
}

/** Fault order-duplicate-post-empty: how long a POST is remembered. */
const DUPLICATE_WINDOW_MS = 10_000;

/** Fault list-duplicates: the first animal again at the end, or in place of the last on a full page. */
function withDuplicate(pets: StoredPet[], limit: number): StoredPet[] {
  if (pets.length < 2) return pets;
  return pets.length < limit ? [...pets, pets[0]!] : [...pets.slice(0, -1), pets[0]!];
}
