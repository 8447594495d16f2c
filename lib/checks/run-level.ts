// The run-level checks, all of them: rules that hold for every response of the run, whichever
// suite caused it, and every Retry-After the harness obeyed. Judged once, over the whole exchange
// log, after the suites. Pure: exchanges in, findings out.
import { answeredAtOf, type Exchange, sentAtOf } from '../result/exchange.ts';
import { readRateAnswer, rateLimitHeaderProblems, readRetryAfter } from '../rate-limit/vocabulary.ts';
import { errorBodyProblems, isJsonMediaType, type Problem, problem } from './bodies.ts';
import { invalidPetProblems, readPage } from './pets.ts';
import { defineCheck } from './define.ts';
import { fail, type Finding, type OtherFailure, pass, type Seen, skip } from './types.ts';
import { isServerErrorTo } from '../status.ts';
import { readHttpDate } from '../http-date.ts';

const suite = 'run';

const EVIDENCE_LIMIT = 3;

function seenOf(e: Exchange): Seen | undefined {
  if (e.status === undefined) return undefined;
  return { status: e.status, headers: e.responseHeaders, text: e.responseBody ?? '' };
}

/** A rule over every response of the run. */
interface Rule {
  /** Which responses the rule is about. */
  applies: (s: Seen, e: Exchange) => boolean;
  /** What is wrong with one response: each problem's code is its kind. */
  problemsOf: (s: Seen, e: Exchange) => Problem[];
  expected: string;
  /** Judges the body: a cut (or, for load bursts, unkept) body cannot be judged; headers still can. */
  readsBody: boolean;
  /** Why there was nothing to judge, when no response of the run is one the rule applies to. */
  nothing?: string;
  /** The kinds (codes) worst first, when the rule ranks them; others follow in order of first appearance. */
  worstFirst?: readonly string[];
}

/** One kind of problem the rule found: its code, and every answer showing it with what it said of that kind. */
interface Kind {
  code: string;
  offenders: { exchange: Exchange; texts: string[] }[];
}

/**
 * The offending answers grouped by kind (problem code): an answer with problems of two kinds is an
 * offender of both. Kinds in the rule's worst-first order, else in order of first appearance.
 */
function kindsOf(offenders: readonly { exchange: Exchange; problems: Problem[] }[], worstFirst: readonly string[] = []): Kind[] {
  const kinds = new Map<string, Kind>();
  for (const { exchange, problems } of offenders) {
    const texts = new Map<string, string[]>();
    for (const p of problems) texts.set(p.code, [...(texts.get(p.code) ?? []), p.text]);
    for (const [code, said] of texts) {
      const kind = kinds.get(code) ?? { code, offenders: [] };
      kind.offenders.push({ exchange, texts: said });
      kinds.set(code, kind);
    }
  }
  const rank = (code: string) => (worstFirst.includes(code) ? worstFirst.indexOf(code) : worstFirst.length);
  // Array.prototype.sort is stable: equal ranks keep their order of first appearance.
  return [...kinds.values()].sort((a, b) => rank(a.code) - rank(b.code));
}

/**
 * Judges every response the rule applies to; fails naming each kind of problem found (each code),
 * the worst first: its count, its first offenders in the server's words, kept as evidence, and
 * every offender's seq. The finding is the first kind's; every other kind is one of its `others`.
 */
function judgeAll({ applies, problemsOf, expected, readsBody, nothing, worstFirst }: Rule): (exchanges: readonly Exchange[]) => Finding {
  return (exchanges) => {
    const offenders: { exchange: Exchange; problems: Problem[] }[] = [];
    let judged = 0;
    for (const exchange of exchanges) {
      const seen = seenOf(exchange);
      if (!seen || !applies(seen, exchange)) continue;
      // A truncated body cannot be parsed; the header-only checks (media type, rate-limit headers) still judge it.
      if (readsBody && exchange.responseBodyTruncated) continue;
      judged += 1;
      const problems = problemsOf(seen, exchange);
      if (problems.length > 0) offenders.push({ exchange, problems });
    }
    if (judged === 0) return skip(nothing ?? 'no response of this kind in the run');
    if (offenders.length === 0) return { outcome: 'pass', message: `${judged} responses checked` };
    const line = (o: Kind['offenders'][number]) => `${o.exchange.method} ${pathOf(o.exchange.url)} → ${o.exchange.status}: ${o.texts.join('; ')}`;
    const said = (kind: Kind) => {
      const shown = kind.offenders.slice(0, EVIDENCE_LIMIT);
      return {
        message: `${kind.offenders.length} of ${judged} responses: ${line(kind.offenders[0]!)}`,
        actual: shown.map(line).join('\n'),
        exchanges: shown.map((o) => o.exchange),
        offenders: kind.offenders.map((o) => o.exchange.seq),
      };
    };
    const [first, ...rest] = kindsOf(offenders, worstFirst);
    const main = said(first!);
    const others: OtherFailure[] = rest.map((kind) => {
      const { message, actual, exchanges: kept, offenders: seqs } = said(kind);
      return { kind: kind.code, code: kind.code, message, expected, actual, example: line(kind.offenders[0]!), count: kind.offenders.length, offenders: seqs, exchanges: kept };
    });
    const failed = fail(first!.code, main.message, expected, main.actual);
    return { ...failed, exchanges: main.exchanges, offenders: main.offenders, ...(others.length > 0 ? { others } : {}) };
  };
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/**
 * An answer the interface leaves open: to a spelling of the relations suite whose answer it does
 * not describe (an unknown method, OPTIONS, a duplicate member). Only no-5xx judges it here; the
 * relations checks judge the rest (nothing served without a key).
 */
const leftOpen = (e: Exchange) => e.spelling?.keeps === 'anything';
/** An answer that can carry a body: not one to HEAD (RFC 9110 §9.3.2). */
const mayHaveBody = (e: Exchange) => e.method !== 'HEAD';

/** Codes: errorBodyProblems' (no-error-body, error-body-not-json, invalid-error-body, error-status-mismatch, …). */
export const errorBody = defineCheck({
  id: 'errors.error-body', explainedBy: ['responses.json-media-type'],
  clause: 'Errors',
  suite,
  title: 'Every error response (4xx, 5xx) has an Error body whose status repeats the HTTP status',
  severity: 'must',
  judge: judgeAll({
    applies: (s, e) => s.status >= 400 && s.status !== 429 && mayHaveBody(e) && !leftOpen(e),
    problemsOf: errorBodyProblems,
    expected: 'an Error body (code, message: strings; status: the HTTP status) as application/json',
    readsBody: true,
  }),
});

// The 429 body is "not shown": none at all is legal; a body, though, should be an Error. Codes: as errors.error-body.
export const rateLimitedBody = defineCheck({
  id: 'errors.429-error-body', explainedBy: ['responses.json-media-type'],
  clause: 'Errors',
  suite,
  title: 'A 429 with a body has an Error body (the interface leaves its body open; none is fine)',
  severity: 'should',
  standard: 'RFC 6585 §4 (a 429 may explain the condition in its body) with the interface\'s "Error responses use the Error body"',
  judge: judgeAll({
    applies: (s, e) => s.status === 429 && s.text.trim() !== '' && !leftOpen(e),
    problemsOf: errorBodyProblems,
    expected: 'no body, or an Error body with status 429',
    readsBody: true,
  }),
});

/** Codes: no-content-type, not-json-media-type. */
export const jsonMediaType = defineCheck({
  id: 'responses.json-media-type',
  clause: 'What the service does',
  suite,
  title: 'Every response with a body (429 aside: its body is not shown; a redirect\'s note aside) is labelled application/json, parameters allowed',
  severity: 'must',
  judge: judgeAll({
    // A redirect's body is a note for people (RFC 9110 §15.4, Go's http.Redirect writes HTML): no 3xx is an answer of the interface.
    applies: (s, e) => s.text.length > 0 && s.status !== 429 && (s.status < 300 || s.status >= 400) && !leftOpen(e),
    problemsOf: (s) => (isJsonMediaType(s.headers['content-type']) ? [] : [s.headers['content-type'] ? problem('not-json-media-type', `Content-Type is "${s.headers['content-type']}"`) : problem('no-content-type', 'Content-Type is missing')]),
    expected: 'Content-Type: application/json (parameters allowed)',
    readsBody: false,
  }),
});

/** Codes: rate-limit-header-missing, rate-limit-header-not-integer (every header there), reset-not-unix-seconds (a count of seconds, or milliseconds). */
export const rateLimitHeaders = defineCheck({
  id: 'headers.rate-limit-present',
  clause: 'Limits / Rate limit headers',
  suite,
  title: 'Every response carries X-RateLimit-Limit, -Remaining and -Reset as integers, Reset a Unix time in seconds',
  severity: 'must',
  judge: judgeAll({
    applies: (_s, e) => !leftOpen(e),
    // The worst kind first: a header missing, then one that is not an integer, then a Reset that is no Unix time in seconds.
    problemsOf: (s) => rateLimitHeaderProblems(s.headers).map((p) => problem(p.code, p.text)),
    worstFirst: ['rate-limit-header-missing', 'rate-limit-header-not-integer', 'reset-not-unix-seconds'],
    expected: 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, each a non-negative integer',
    readsBody: false,
  }),
});

// Retry-After on every 429 of the run, whichever suite met it (the rate-limit suite's bursts, the
// mix, the day, a 429 anywhere else): a header of the server's, judged once over all its 429s and
// quoting what came, not once per key. Read through the vocabulary (readRateAnswer, readRetryAfter).
const exceeding = 'Limits / Exceeding the limit';
const is429 = (s: Seen) => s.status === 429;
const retryAfterOf = (s: Seen, e: Exchange) => readRateAnswer(answeredAt(e), s.status, s.headers).retryAfter;

/** Code: absent. */
export const retryAfterPresent = defineCheck({
  id: 'rate-limit.retry-after-present',
  clause: exceeding,
  suite,
  title: 'Every 429 carries Retry-After',
  severity: 'must',
  judge: judgeAll({
    applies: is429,
    problemsOf: (s, e) => (retryAfterOf(s, e) === undefined ? [problem('absent', 'no Retry-After')] : []),
    expected: 'Retry-After on every 429 ("The response carries a Retry-After header")',
    readsBody: false,
    nothing: 'no 429 in the run',
  }),
});

/** Code: not-delta-seconds-or-imf-fixdate (a fraction, a unit, a sign, an obsolete or ISO date, …: the value quoted). */
export const retryAfterFormat = defineCheck({
  id: 'rate-limit.retry-after-format',
  clause: exceeding,
  suite,
  title: 'Retry-After is delta-seconds or an HTTP-date (RFC 9110 §10.2.3)',
  severity: 'should',
  standard: 'RFC 9110 §10.2.3: Retry-After is an HTTP-date or delta-seconds',
  judge: judgeAll({
    applies: (s, e) => is429(s) && retryAfterOf(s, e) !== undefined,
    problemsOf: (s, e) => {
      const reading = readRetryAfter(retryAfterOf(s, e), answeredAt(e), s.headers['date']);
      if (!reading || reading.legal) return [];
      const read = reading.seconds === undefined ? 'it names no moment' : `read as ${reading.form}, ${Math.round(reading.seconds * 10) / 10} s, and waited out so`;
      return [problem('not-delta-seconds-or-imf-fixdate', `Retry-After "${reading.value}" is neither delta-seconds nor an IMF-fixdate (${read})`)];
    },
    expected: 'delta-seconds (e.g. 30) or an IMF-fixdate (RFC 9110 §10.2.3, §5.6.7)',
    readsBody: false,
    nothing: 'no 429 with a Retry-After in the run',
  }),
});

/** A request to the collection, `/pets` (listPets with GET, createPet with POST). */
const onPets = (e: Exchange) => pathOf(e.url).split('?')[0]!.endsWith('/pets');
const isListPets = (e: Exchange) => e.method === 'GET' && onPets(e);

/** Every animal of every page, whichever list check asked for it; the list checks only mention it. Code: invalid-pet. */
export const petShape = defineCheck({
  id: 'list-pets.pet-shape',
  clause: 'Resources and their fields / Pet',
  suite,
  title: 'Every animal on every listPets page is a Pet (id, name, categoryId as int64, status one of three)',
  severity: 'must',
  judge: judgeAll({
    applies: (s, e) => s.status === 200 && isListPets(e),
    problemsOf: (s) => {
      const { page } = readPage(s);
      return page ? invalidPetProblems(page.items).slice(0, 5) : [];
    },
    expected: 'a JSON array of Pet: id (int64), name (string), categoryId (int64), optional status (available, pending, sold)',
    readsBody: true,
  }),
});

// No operation lists a 5xx: a server error answers nothing the interface describes, whatever the
// request (a malformed one included: that is a 4xx). A 501 to a method no operation has is HTTP's
// answer to a method the server does not implement (RFC 9110 §9.1), not a failure; to GET, HEAD or
// POST it is one. Code: server-error.
export const no5xx = defineCheck({
  id: 'responses.no-5xx',
  clause: 'Endpoints',
  suite,
  title: 'No response is a 5xx: no operation of the interface lists one',
  severity: 'must',
  judge: judgeAll({
    applies: () => true,
    problemsOf: (s, e) => (isServerErrorTo(e.method, s) ? [problem('server-error', `a server error (${s.status})`)] : []),
    expected: 'a status the operation lists: 200 or 201, 400, 401, 404, 429 (to a method no operation has, 501 too)',
    readsBody: false,
  }),
});


// Every Retry-After the harness obeyed, judged: when it waited out a 429 (in any suite: the
// client's retries, the rate-limit suite's recoveries, the day followed to its end) and sent the
// next request with that key, that request is the 429's evidence. Refused again, the 429 named a
// time at which the key was still refused: "the client retries only after the indicated time" is
// then a promise the server does not keep. Pure: the run's exchanges in, a finding out.
const SHOWN = 3;

const keyOf = (e: Exchange) => (e.auth.kind === 'key' || e.auth.kind === 'key-in-query' ? e.auth.label : undefined);
const sentAt = sentAtOf;
const answeredAt = answeredAtOf;

/** Waited out, then sent with the key and nothing else of the key in between (another request could have taken the room it was promised). */
function quiet(exchanges: readonly Exchange[], refusal: Exchange, next: Exchange): boolean {
  const key = keyOf(next);
  const [from, to] = [answeredAt(refusal), sentAt(next)];
  return !exchanges.some((e) => e !== next && e !== refusal && keyOf(e) === key && sentAt(e) > from && sentAt(e) < to);
}

const describe = (e: Exchange) => `${e.status}${e.responseHeaders['retry-after'] !== undefined ? ` (Retry-After ${e.responseHeaders['retry-after']})` : ' (no Retry-After)'}`;

export function judgeObeyedRetryAfters(exchanges: readonly Exchange[]): Finding {
  const bySeq = new Map(exchanges.map((e) => [e.seq, e]));
  let judged = 0;
  const broken: { refusal: Exchange; next: Exchange }[] = [];
  for (const next of exchanges) {
    const follows = next.followsRetryAfter;
    const refusal = follows ? bySeq.get(follows.seq) : undefined;
    // Without an answer there is nothing to judge.
    if (!refusal || next.status === undefined || keyOf(next) === undefined || !quiet(exchanges, refusal, next)) continue;
    judged += 1;
    if (next.status === 429) broken.push({ refusal, next });
  }
  if (judged === 0) return skip('no Retry-After was waited out in this run: no 429 came, or none named a time within what the harness waits');
  if (broken.length === 0) return pass(`${judged} Retry-After${judged > 1 ? 's' : ''} waited out; each time the next request was let through`);
  const line = ({ refusal, next }: (typeof broken)[number]) =>
    `${keyOf(next)}: request #${refusal.seq} got ${describe(refusal)}, until ${next.followsRetryAfter!.until}; #${next.seq}, sent ${((sentAt(next) - answeredAt(refusal)) / 1000).toFixed(1)} s later, got ${describe(next)}`;
  const shown = broken.slice(0, SHOWN);
  return {
    outcome: 'fail',
    code: 'refused-at-named-time',
    message: `${broken.length} of ${judged} Retry-Afters waited out named a time at which the key was still refused: ${line(broken[0]!)}`,
    expected: 'the request sent at the time a 429 names is let through ("the client retries only after the indicated time")',
    actual: shown.map(line).join('\n'),
    exchanges: shown.flatMap(({ refusal, next }) => [refusal, next]),
    offenders: broken.flatMap(({ refusal, next }) => [refusal.seq, next.seq]),
  };
}

export const retryAfterObeyed = defineCheck({
  id: 'rate-limit.retry-after-obeyed',
  clause: 'Limits / Exceeding the limit',
  suite: 'run',
  title: 'Every Retry-After the harness waited out named a time at which the next request was let through',
  severity: 'must',
  judge: judgeObeyedRetryAfters,
});

/** Judged once, over every exchange of the run, after the suites. */
// The interface deprecates getPet alone ("Versioning"): a Deprecation or Sunset header on listPets
// or createPet announces a deprecation it does not (a deprecation middleware mounted on the
// collection's path, say). A should: no sentence forbids the header there. Code: deprecation-on-other-operation.
const isPetsCollection = (e: Exchange) => (e.method === 'GET' || e.method === 'POST') && onPets(e);
const DEPRECATION_NAMES = { deprecation: 'Deprecation', sunset: 'Sunset' } as const;

export const onlyGetPetDeprecated = defineCheck({
  id: 'versioning.only-get-pet-deprecated',
  clause: 'Versioning',
  suite,
  title: 'Only getPet is announced as deprecated: listPets and createPet carry no Deprecation or Sunset header',
  severity: 'should',
  standard: 'RFC 9745 §2: Deprecation says the resource is deprecated, and the interface deprecates getPet only',
  judge: judgeAll({
    applies: (_s, e) => isPetsCollection(e),
    problemsOf: (s) => {
      const sent = (Object.keys(DEPRECATION_NAMES) as (keyof typeof DEPRECATION_NAMES)[]).filter((h) => s.headers[h] !== undefined);
      return sent.length === 0 ? [] : [problem('deprecation-on-other-operation', `${sent.map((h) => `${DEPRECATION_NAMES[h]}: ${s.headers[h]}`).join(', ')}, yet the interface deprecates getPet (GET /pets/{petId}) alone`)];
    },
    expected: 'no Deprecation or Sunset header on listPets and createPet: only getPet is deprecated',
    readsBody: false,
  }),
});

// Every operation requires bearer authentication: a keyed answer a shared cache (a CDN, a proxy)
// may store and serve without asking the origin would be served to a request without a key. RFC
// 9111 §3.5: a shared cache stores a response to a request with Authorization only when it says
// `public`, `s-maxage` or `must-revalidate`; `must-revalidate` still sends it to the origin once
// stale. So `public` with a freshness above zero (explicit, or heuristic: RFC 9111 §4.2.2), or
// `s-maxage` above zero, unless `private`, `no-store` or `no-cache` (unqualified: a field-name list
// keeps the rest shareable) is there too.

/** One Cache-Control directive: its name lower-cased, its value unquoted (undefined without `=`). */
interface Directive {
  name: string;
  value?: string;
}

/** Cache-Control's directives (RFC 9111 §5.2): comma-separated, names case-insensitive, values tokens or quoted strings. */
export function cacheDirectives(header: string | undefined): Directive[] {
  if (header === undefined) return [];
  const directives: Directive[] = [];
  // A comma inside a quoted value (private="a, b") does not end the directive.
  for (const [, name, quoted, token] of header.matchAll(/\s*([^=,\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*)))?\s*(?:,|$)/g)) {
    directives.push({ name: name!.toLowerCase(), ...(quoted !== undefined ? { value: quoted.replace(/\\(.)/g, '$1') } : token !== undefined ? { value: token } : {}) });
  }
  return directives;
}

/** A delta-seconds value (RFC 9111 §1.2.2), the first occurrence of the directive; anything else undefined. */
function deltaOf(directives: readonly Directive[], name: string): number | undefined {
  const value = directives.find((d) => d.name === name)?.value;
  return value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : undefined;
}

/**
 * Why a shared cache may store this answer to a keyed request and serve it, unasked, to others;
 * none when it may not. Codes: marked-s-maxage, marked-public.
 */
export function sharedCacheProblems(headers: Readonly<Record<string, string>>, answeredAt: number): Problem[] {
  const raw = headers['cache-control'];
  const directives = cacheDirectives(raw);
  const has = (name: string, unqualified = false) => directives.some((d) => d.name === name && (!unqualified || d.value === undefined));
  if (has('no-store') || has('private', true) || has('no-cache', true)) return [];
  const said = `Cache-Control "${raw}"`;
  const sMaxAge = deltaOf(directives, 's-maxage');
  if (sMaxAge !== undefined && sMaxAge > 0) {
    return [problem('marked-s-maxage', `${said}: s-maxage=${sMaxAge} lets a shared cache store this answer to a keyed request and serve it for ${sMaxAge} s without asking the origin (RFC 9111 §3.5), to requests without a key too`)];
  }
  if (!has('public')) return [];
  const maxAge = sMaxAge ?? deltaOf(directives, 'max-age');
  if (maxAge !== undefined) {
    return maxAge > 0 ? [problem('marked-public', `${said}: public with max-age=${maxAge} lets a shared cache store this answer to a keyed request and serve it for ${maxAge} s without asking the origin (RFC 9111 §3.5), to requests without a key too`)] : [];
  }
  const expires = headers['expires'];
  if (expires !== undefined) {
    // An Expires that is no date is in the past (RFC 9111 §5.3); freshness counts from Date, else from the answer.
    const at = readHttpDate(expires, answeredAt);
    const from = headers['date'] === undefined ? answeredAt : (readHttpDate(headers['date'], answeredAt) ?? answeredAt);
    return at !== undefined && at > from ? [problem('marked-public', `${said} with Expires "${expires}": public lets a shared cache store this answer to a keyed request and serve it until then without asking the origin (RFC 9111 §3.5), to requests without a key too`)] : [];
  }
  return [problem('marked-public', `${said}: public without max-age lets a shared cache store this answer to a keyed request and serve it for a heuristic freshness (RFC 9111 §3.5, §4.2.2) without asking the origin, to requests without a key too`)];
}

/** A request that carried a configured key in Authorization (a near miss of one included): RFC 9111 §3.5's request with Authorization. */
const carriedKey = (e: Exchange) => e.auth.kind === 'key';

const sharedCacheRule = judgeAll({
  applies: (_s, e) => carriedKey(e),
  problemsOf: (s, e) => sharedCacheProblems(s.headers, answeredAt(e)),
  expected: 'no Cache-Control that lets a shared cache reuse a keyed answer: no `public` (with freshness above zero) or `s-maxage` above zero, unless `private`, `no-store` or `no-cache` is there too',
  readsBody: false,
  nothing: 'no request of the run carried a key in Authorization',
});

/** Codes: marked-s-maxage, marked-public. A pass says which Cache-Control values came. */
export function judgeKeyedNotShared(exchanges: readonly Exchange[]): Finding {
  const finding = sharedCacheRule(exchanges);
  if (finding.outcome !== 'pass') return finding;
  const values = new Map<string, number>();
  for (const e of exchanges) if (e.status !== undefined && carriedKey(e)) values.set(e.responseHeaders['cache-control'] ?? '', (values.get(e.responseHeaders['cache-control'] ?? '') ?? 0) + 1);
  const seen = [...values].map(([value, n]) => `${value === '' ? 'no Cache-Control' : `"${value}"`} ×${n}`).join(', ');
  return pass(`${finding.message} (answers to requests with a key): ${seen}`);
}

export const keyedNotSharedCacheable = defineCheck({
  id: 'responses.keyed-not-shared-cacheable',
  clause: 'Authentication',
  suite,
  title: 'No answer to a request with a key is marked for shared caches (RFC 9111 §3.5): no Cache-Control public or s-maxage without private, no-store or no-cache',
  severity: 'must',
  judge: judgeKeyedNotShared,
});

export const RUN_CHECKS = [errorBody, rateLimitedBody, jsonMediaType, rateLimitHeaders, retryAfterPresent, retryAfterFormat, petShape, no5xx, retryAfterObeyed, onlyGetPetDeprecated, keyedNotSharedCacheable] as const;
