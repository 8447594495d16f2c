// Authentication: "When the key is missing or invalid, the response is 401 with an Error body."
import { statusAsAsked } from './bodies.ts';
import { readPage, readPet } from './pets.ts';
import { defineCheck } from './define.ts';
import { describeSeen, type EachCase, eachCase, fail, type Finding, findingOf, pass, type Seen, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const clause = 'Authentication';
const suite = 'auth';

/** 401; its Error body is errors.error-body's (statusAsAsked). Code: not-401. */
export function expectUnauthorized(seen: Seen): Finding {
  if (seen.status !== 401) {
    return findingOf('not-401', [`got ${seen.status}, not 401`], '401 with an Error body', describeSeen(seen));
  }
  return statusAsAsked('401', seen);
}

/** A configured key sent with the scheme in another case is accepted: anything but 401. Code: scheme-case-refused. */
export function expectAccepted(seen: Seen): Finding {
  if (seen.status === 401) return findingOf('scheme-case-refused', ['a valid key was refused because of the scheme\'s case'], 'not 401', describeSeen(seen));
  return pass();
}

/**
 * A way of not presenting a valid key: 401 with an Error body. When a missing key already gets
 * through, that failure explains this one.
 */
function unauthorized<const Id extends string>(id: Id, title: string) {
  return defineCheck({ id, clause, suite, title, severity: 'must', ...(id === 'auth.missing-key' ? {} : { explainedBy: ['auth.missing-key'] }), judge: eachCase(expectUnauthorized) });
}

export const missingKey = unauthorized('auth.missing-key', 'A request without Authorization gets 401 with an Error body');
export const invalidKey = unauthorized('auth.invalid-key', 'A request with an unknown bearer key gets 401 with an Error body');
export const wrongScheme = unauthorized('auth.wrong-scheme', 'A configured key under another scheme (Basic) gets 401 with an Error body');
export const emptyToken = unauthorized('auth.empty-token', 'Bearer with an empty token gets 401 with an Error body');
/**
 * The configured key with no scheme before it (`Authorization: <key>`): another spelling of the
 * credential, as the key glued to "Bearer" is (auth.credential-syntax). A server that strips a
 * leading "Bearer" (a regular expression's replace, Go's strings.TrimPrefix) reads the key out of
 * it while refusing every request without the key: a `should`. 401 and 400 pass.
 */
export const keyWithoutScheme = defineCheck({
  id: 'auth.key-without-scheme',
  explainedBy: ['auth.missing-key'],
  clause,
  suite,
  title: 'A configured key without the Bearer scheme ("Authorization: <key>") gets 401 (400 also legal), not served',
  severity: 'should',
  standard: 'RFC 6750 §2.1 and RFC 9110 §11.4: the credential is the scheme `Bearer`, one space, then the token',
  judge: eachCase((seen: Seen) => judgeCredentialSpelling({ shape: '<key>', seen })),
});
export const keyInQuery = unauthorized('auth.key-in-query', 'A configured key in the query string only (api_key, access_token, key) gets 401');
export const nearMissKey = unauthorized('auth.near-miss-key', 'A key close to a configured key (without its last character, with one more, in another case) gets 401 with an Error body');

/** A configured key spelled otherwise in the Authorization header, and what it got. */
export interface CredentialSpelling {
  /** What was sent, with `<key>` for the key: "Bearer <key>;x". */
  shape: string;
  seen: Seen;
}

/**
 * The whole configured key with something around it (`Bearer <key>;x`, `Bearer <key> <key>`,
 * `Bearer<key>`): no key of another client, but another spelling of the credential, which the
 * interface does not describe. 401 is its reading ("missing or invalid"), 400 RFC 6750's
 * (§3.1 invalid_request, a malformed credential): both pass, the reading said. A 2xx read the key
 * out of it, as a server that takes the first token after the scheme (`header.split(' ')[1]`) or
 * strips "Bearer" does while refusing every request without the key: a `should`. Codes:
 * credential-accepted (2xx), not-401 (any other status).
 */
export function judgeCredentialSpelling(c: CredentialSpelling): Finding {
  const { status } = c.seen;
  const expected = '401 with an Error body (or 400, RFC 6750 invalid_request): the credential is "Bearer <API_KEY>"';
  if (isAccepted({ status })) return fail('credential-accepted', `"${c.shape}" got ${status}: the key was read out of another spelling of the credential`, expected, describeSeen(c.seen));
  if (status === 400) return statusAsAsked(`"${c.shape}": 400 (a malformed credential, RFC 6750 §3.1)`, c.seen);
  if (status !== 401) return fail('not-401', `"${c.shape}" got ${status}, not 401 (or 400)`, expected, describeSeen(c.seen));
  return statusAsAsked(`"${c.shape}": 401`, c.seen);
}

/** Every spelling refused; the pass says which got 400, the second reading. */
function judgeCredentialSyntax(cases: readonly CredentialSpelling[]): Finding {
  if (cases.length === 0) return skip('nothing was sent to judge');
  for (const c of cases) {
    const finding = judgeCredentialSpelling(c);
    if (finding.outcome !== 'pass') return finding;
  }
  const with400 = cases.filter((c) => c.seen.status === 400).map((c) => `"${c.shape}"`);
  return pass(`${cases.length} spellings refused: ${with400.length === 0 ? 'each with 401' : `400 for ${with400.join(', ')} (RFC 6750's invalid_request), 401 for the rest`}`);
}

const credentialSyntaxJudge: EachCase<CredentialSpelling> = Object.assign(judgeCredentialSyntax, { one: judgeCredentialSpelling });

export const credentialSyntax = defineCheck({
  id: 'auth.credential-syntax',
  explainedBy: ['auth.missing-key'],
  clause,
  suite,
  title: 'A configured key spelled otherwise in the header (followed by ";x" or ",x", twice, followed by another word, glued to "Bearer") gets 401 (400 also legal), not served',
  severity: 'should',
  standard: 'RFC 6750 §2.1: the credential is `Bearer`, one space, and one b64token, nothing before or after it',
  judge: credentialSyntaxJudge,
});

/** An unauthenticated POST /pets with an invalid body, and what it got; `unreadable`: the body is not JSON at all. */
export interface UnauthenticatedBody {
  body: string;
  unreadable?: boolean;
  seen: Seen;
}

/**
 * 401 before any rule of NewPet is applied. A body that is not JSON at all may also get 400: a
 * body parser mounted before authentication (express.json(), koa-bodyparser, NestJS's) refuses
 * what it cannot read before any key is looked at, as one refuses an oversized body with 413; both
 * readings pass, the one seen said. Code: not-401.
 */
export function judgeBeforeValidation({ body, unreadable, seen }: UnauthenticatedBody): Finding {
  if (seen.status === 401) return pass();
  if (unreadable && seen.status === 400) return pass(`unauthenticated POST with body ${body} got 400: the body parser answered before authentication (legal for a body that is not JSON at all)`);
  return fail('not-401', `unauthenticated POST with body ${body} got ${seen.status}, not 401`, `401 before any validation${unreadable ? ' (or 400 from a body parser, the body not being JSON)' : ''}`, `${seen.status} ${seen.text.slice(0, 200)}`);
}

export const beforeValidation = defineCheck({
  id: 'auth.before-validation', explainedBy: ['auth.missing-key'],
  clause,
  suite,
  title: 'An unauthenticated invalid POST /pets gets 401, not 400: authentication comes first (a body that is not JSON at all may get the body parser\'s 400)',
  severity: 'must',
  judge: Object.assign(
    (cases: readonly UnauthenticatedBody[]): Finding => {
      const judged = eachCase(judgeBeforeValidation)(cases);
      // The reading seen, where a body parser answered first.
      const parser = judged.outcome === 'pass' ? cases.map(judgeBeforeValidation).find((f) => f.outcome === 'pass' && f.message) : undefined;
      return parser ?? judged;
    },
    { one: judgeBeforeValidation },
  ),
});

export const beforeLookup = defineCheck({
  id: 'auth.before-lookup', explainedBy: ['auth.missing-key'],
  clause,
  suite,
  title: 'An unauthenticated GET of an animal that does not exist gets 401, not 404',
  severity: 'must',
  judge: (seen: Seen): Finding => (seen.status === 401 ? pass() : fail('not-401', `unauthenticated GET of a missing animal got ${seen.status}, not 401`, '401 before any lookup', `${seen.status}`)),
});

export const schemeCaseInsensitive = defineCheck({
  id: 'auth.scheme-case-insensitive',
  clause,
  suite,
  title: 'The scheme name is case-insensitive (RFC 9110 §11.1): "bearer KEY" is accepted',
  severity: 'should',
  standard: 'RFC 9110 §11.1: the authentication scheme is a case-insensitive token',
  judge: eachCase(({ scheme, seen }: { scheme: string; seen: Seen }) => {
    const finding = expectAccepted(seen);
    return finding.outcome === 'fail' ? { ...finding, message: `"${scheme} <key>": ${finding.message}` } : finding;
  }),
});

/** A createPet sent without a valid key, its NewPet named uniquely, and what it got. */
export interface RefusedCreate {
  /** How it was sent, e.g. "without a key", "with a wrong key". */
  how: string;
  /** The unique name of its NewPet: what reading back looks for. */
  name: string;
  seen: Seen;
}

/** What a refused createPet was looked for with: animals created with the key just before and after it, the ids between them read, a page of 100. */
export interface ReadBack {
  refused: RefusedCreate[];
  before?: Seen;
  after?: Seen;
  /** getPet of each id between the two created animals' (idsBetween), when they are few. */
  between: { id: bigint; seen: Seen }[];
  /** listPets?limit=100. */
  page?: Seen;
}

/** At most this many ids between the animals created before and after are read one by one. */
export const MAX_IDS_BETWEEN = 8;

/** The id of a created animal (a 201 with a Pet). */
const createdId = (seen: Seen | undefined) => (seen?.status === 201 ? readPet(seen).value?.id : undefined);

/**
 * The ids strictly between the animals created just before and after the refused createPets, in
 * order, when both were created and at most `MAX_IDS_BETWEEN` lie between (ids need not be
 * sequential: a store that spreads them leaves a gap too wide to read); else the reason there are none.
 */
export function idsBetween(before: Seen | undefined, after: Seen | undefined): { ids: bigint[] } | { none: string } {
  const [a, b] = [createdId(before), createdId(after)];
  if (a === undefined || b === undefined) return { none: `the animals created with the key before and after were not both created (${before?.status ?? 'not sent'}, ${after?.status ?? 'not sent'})` };
  const [low, high] = a < b ? [a, b] : [b, a];
  const count = high - low - 1n;
  if (count > BigInt(MAX_IDS_BETWEEN)) return { none: `ids ${a} and ${b} (created with the key before and after) have ${count} ids between them, too many to read one by one` };
  return { ids: Array.from({ length: Number(count < 0n ? 0n : count) }, (_, i) => low + 1n + BigInt(i)) };
}

/**
 * "When the key is missing or invalid, the response is 401": refused, a createPet has no effect.
 * Ids need not be sequential nor listPets' order fixed, so it is read back by evidence: the
 * refused NewPets carry unique names, looked for at each id between two animals created with the key
 * just before and after (when the gap is small) and on a page of 100. Only a refused createPet
 * (401) is judged; one let in is auth.missing-key's or auth.invalid-key's. Code: refused-create-stored.
 */
export function judgeRefusedNoEffect(back: ReadBack): Finding {
  const refused = back.refused.filter((r) => r.seen.status === 401);
  const notRefused = back.refused.filter((r) => r.seen.status !== 401).map((r) => `${r.how}: ${r.seen.status}, not refused with 401 (auth.missing-key and auth.invalid-key judge it)`);
  if (refused.length === 0) return skip(`no createPet was refused with 401 to read back: ${notRefused.join('; ') || 'none was sent'}`);
  const named = new Map(refused.map((r) => [r.name, r]));
  const found: string[] = [];
  const foundNames = new Set<string>();
  const looked: string[] = [];
  const between = idsBetween(back.before, back.after);
  if ('ids' in between) {
    for (const { id, seen } of back.between) {
      const pet = seen.status === 200 ? readPet(seen).value : undefined;
      const r = pet?.name !== undefined ? named.get(pet.name) : undefined;
      if (r) {
        found.push(`GET /pets/${id} → 200 with ${JSON.stringify(r.name)}, the NewPet sent ${r.how}`);
        foundNames.add(r.name);
      }
    }
    const [a, b] = [createdId(back.before)!, createdId(back.after)!];
    const around = `${a} and ${b}, the animals created with the key just before and after`;
    looked.push(between.ids.length === 0 ? `no id lies between ${around}` : `getPet of the ${between.ids.length} id${between.ids.length === 1 ? '' : 's'} between ${around} found ${refused.length === 1 ? 'it' : 'neither'} (${back.between.map((l) => `${l.id}: ${l.seen.status}`).join(', ')})`);
  } else looked.push(between.none);
  if (back.page) {
    const page = back.page.status === 200 ? readPage(back.page).page : undefined;
    if (page) {
      for (const item of page.items) {
        const name = typeof item === 'object' && item !== null && 'name' in item ? (item as { name: unknown }).name : undefined;
        const r = typeof name === 'string' ? named.get(name) : undefined;
        if (r) {
          found.push(`GET /pets?limit=100 lists ${JSON.stringify(r.name)}, the NewPet sent ${r.how}`);
          foundNames.add(r.name);
        }
      }
      looked.push(`listPets?limit=100 (${page.items.length} animals) lists ${refused.length === 1 ? 'not its name' : 'neither name'}`);
    } else looked.push(`listPets?limit=100 could not be read (${back.page.status})`);
  }
  const sent = refused.map((r) => `POST /pets ${r.how} got 401`).join(', ');
  if (found.length > 0) {
    return fail(
      'refused-create-stored',
      `${sent}, yet ${foundNames.size === 1 ? 'a refused NewPet was' : 'the refused NewPets were'} stored: ${found.join('; ')}`,
      'a createPet refused with 401 creates no animal ("When the key is missing or invalid, the response is 401")',
      found.join('\n'),
    );
  }
  if (!('ids' in between) && !back.page) return skip(`the refused createPets (${sent}) could not be read back: ${between.none}, and no page was read`);
  return pass(`${sent}, and ${refused.length === 1 ? 'its NewPet was' : 'neither NewPet was'} stored: ${looked.join('; ')}${notRefused.length > 0 ? `; ${notRefused.join('; ')}` : ''}`);
}

export const refusedNoEffect = defineCheck({
  id: 'auth.refused-no-effect',
  clause,
  suite,
  title: 'A createPet refused with 401 (no key, a wrong key) creates no animal, read back by getPet of the ids between animals created just before and after it and by name in listPets',
  severity: 'must',
  judge: judgeRefusedNoEffect,
});

/** The checks that each way of not presenting a valid key gets 401 with an Error body. */
export const UNAUTHORIZED_CHECKS = [missingKey, invalidKey, wrongScheme, emptyToken, keyWithoutScheme, keyInQuery, nearMissKey] as const;

export const AUTH_CHECKS = [...UNAUTHORIZED_CHECKS, credentialSyntax, beforeValidation, beforeLookup, schemeCaseInsensitive, refusedNoEffect] as const;
