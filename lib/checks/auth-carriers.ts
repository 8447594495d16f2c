// One way in ("Authentication": every operation requires the header `Authorization: Bearer
// <API_KEY>`; when the key is missing or invalid, the response is 401 with an Error body). A
// request without that header has no key, whatever else it carries: a configured key in another
// scheme, header, query parameter, cookie or body field (lib/generators/key-carriers.ts), or the
// cookies the server set on an authenticated answer, sent back alone. A bearer token named like a
// member every object has (lib/generators/object-member-keys.ts) is an invalid key. Each gets 401.
import { expectUnauthorized } from './auth.ts';
import { defineCheck } from './define.ts';
import { type EachCase, eachCase, type Finding, pass, type Seen, skip } from './types.ts';
import { isAccepted } from '../status.ts';

const clause = 'Authentication';
const suite = 'auth';
const explainedBy = ['auth.missing-key'];

/**
 * One request of "another way in": what carried the credential (one carrier, or several at once),
 * the operation and the answer. `family` names the code of an acceptance ("<family>-key-accepted").
 */
export interface WayCase {
  carriers: readonly string[];
  family: string;
  operation: string;
  seen: Seen;
  /**
   * The body is not JSON (a form body): a JSON body parser mounted before authentication (express.json()
   * reading every media type, koa-bodyparser) may refuse it with 400 before any key is looked at,
   * the reading auth.before-validation allows. It serves nothing.
   */
  unreadableBody?: boolean;
}


/** "the key in the X-API-Key header", "the key as "Authorization: Token <key>"", "the key in 3 carriers at once (…)". */
function keySubject(carriers: readonly string[]): string {
  if (carriers.length > 1) return `the key in ${carriers.length} carriers at once (${carriers.join(', ')})`;
  const [name = 'another carrier'] = carriers;
  return name.includes(': ') ? `the key as "${name}"` : `the key in the ${name}`;
}

/**
 * 401 (its Error body is errors.error-body's), or a failure that names what was sent: "<subject>
 * was accepted on listPets (200)" (code `<family>-key-accepted`), "<subject> got 403 on listPets,
 * not 401" (not-401).
 */
function refused(c: WayCase, subject: string, acceptedCode: string): Finding {
  const finding = expectUnauthorized(c.seen);
  if (finding.outcome !== 'fail') return finding;
  return isAccepted(c.seen)
    ? { ...finding, code: acceptedCode, message: `${subject} was accepted on ${c.operation} (${c.seen.status})` }
    : { ...finding, message: `${subject} got ${c.seen.status} on ${c.operation}, not 401` };
}

/**
 * Judges requests each of one or several carriers. A request of several that is not refused is
 * decided by its carriers sent alone afterwards, when they were: the first of them not refused
 * fails the check, naming it; when each was sent alone and refused, the request of several stands
 * excused (a server may refuse many credentials at once with 400, as RFC 6750 §3.1 allows, and
 * still refuse each alone with 401). Otherwise the first request not refused fails the check.
 */
function judgeWays(subject: (carriers: readonly string[]) => string, acceptedCode: (c: WayCase) => string, what: string): EachCase<WayCase> & ((cases: readonly WayCase[]) => Finding) {
  const one = (c: WayCase) =>
    c.unreadableBody && c.seen.status === 400
      ? pass(`${subject(c.carriers)} got 400 on ${c.operation}: a body parser answered before authentication (legal for a body that is not JSON at all, as auth.before-validation allows)`)
      : refused(c, subject(c.carriers), acceptedCode(c));
  const judge = (cases: readonly WayCase[]): Finding => {
    if (cases.length === 0) return skip('nothing was sent to judge');
    const alone = new Map(cases.filter((c) => c.carriers.length === 1).map((c) => [`${c.operation}\u0000${c.carriers[0]}`, c]));
    const excused: WayCase[] = [];
    for (const c of cases) {
      const finding = one(c);
      if (finding.outcome === 'pass') continue;
      if (c.carriers.length > 1) {
        const singles = c.carriers.map((name) => alone.get(`${c.operation}\u0000${name}`));
        const failing = singles.find((s) => s !== undefined && one(s).outcome !== 'pass');
        if (failing) return one(failing);
        if (singles.every((s) => s !== undefined)) {
          excused.push(c);
          continue;
        }
      }
      return finding;
    }
    const carriers = new Set(cases.flatMap((c) => c.carriers.map((name) => `${c.operation}\u0000${name}`))).size;
    const operations = [...new Set(cases.map((c) => c.operation))].join(' and ');
    const note = excused.map((c) => `; all ${c.carriers.length} at once got ${c.seen.status}, each alone 401`).join('');
    const parsedFirst = cases.some((c) => c.unreadableBody && c.seen.status === 400) ? '; a form body got 400 from a body parser before authentication' : '';
    return pass(`${carriers} ${what} refused on ${operations}, in ${cases.length} request${cases.length === 1 ? '' : 's'}${note}${parsedFirst}`);
  };
  return Object.assign(judge, { one });
}

export const otherCarrier = defineCheck({
  id: 'auth.other-carrier',
  clause,
  suite,
  // A key in a body that the server validates before it authenticates gets that body's 400.
  explainedBy: [...explainedBy, 'auth.before-validation'],
  title:
    'A configured key presented any other way than "Authorization: Bearer" (Basic, Token, ApiKey or JWT schemes; X-API-Key and other headers; ' +
    'query parameters; cookies; body fields) gets 401 with an Error body',
  severity: 'must',
  judge: judgeWays(keySubject, (c) => `${c.family}-key-accepted`, 'ways of carrying the key'),
});

/** One cookie of a Set-Cookie header: its name and value (attributes dropped). */
export interface SetCookie {
  name: string;
  value: string;
}

/**
 * The cookies of a Set-Cookie header as the client reads it (several joined with ", "): split
 * before each "name=" that follows a comma, so the comma of an Expires date stays inside.
 * Cookies with an empty value (deletions) are left out.
 */
export function parseSetCookie(header: string | undefined): SetCookie[] {
  if (header === undefined || header.trim() === '') return [];
  const cookies: SetCookie[] = [];
  for (const part of header.split(/,\s*(?=[^;,\s=]+=)/)) {
    const [pair = ''] = part.split(';');
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (name !== '' && value !== '') cookies.push({ name, value });
  }
  return cookies;
}

/** What auth.cookie-not-credential saw: the cookies set on an authenticated answer, and the answers when they were sent back alone. */
export interface CookiesSentBack {
  /** The operation whose authenticated answer set them. */
  setOn: string;
  /** Their names. */
  cookies: readonly string[];
  sent: readonly WayCase[];
}

const cookieWays = judgeWays(
  (names) => `the cookie${names.length === 1 ? '' : 's'} ${names.join(', ')} set on an authenticated answer, sent back without Authorization,`,
  () => 'set-cookie-accepted',
  'cookies the server set',
);

export const cookieNotCredential = defineCheck({
  id: 'auth.cookie-not-credential',
  clause,
  suite,
  explainedBy,
  title: 'The cookies the server sets on an authenticated answer, sent back without Authorization, get 401 with an Error body',
  severity: 'must',
  judge: ({ setOn, cookies, sent }: CookiesSentBack): Finding => {
    if (cookies.length === 0) return skip(`the server set no cookie on an authenticated answer to ${setOn}: none to send back`);
    if (sent.length === 0) return skip(`the cookies set on ${setOn} (${cookies.join(', ')}) were not sent back`);
    const finding = cookieWays(sent);
    return finding.outcome === 'pass' ? pass(`the cookie${cookies.length === 1 ? '' : 's'} ${cookies.join(', ')} set on an authenticated answer to ${setOn}, sent back without Authorization, got 401`) : finding;
  },
});

/** The one-case judge of the cookies sent back, for the suite to stop at the first that decides. */
export const cookieSentBack = cookieWays.one;

export const objectMemberKey = defineCheck({
  id: 'auth.object-member-key',
  clause,
  suite,
  explainedBy,
  title: 'A bearer token named like a built-in object member (constructor, __proto__, toString, __class__, get, to_s, hashCode…) gets 401 with an Error body',
  severity: 'must',
  judge: eachCase(
    ({ token, language, operation, seen }: { token: string; language: string; operation: string; seen: Seen }) =>
      refused({ carriers: [], family: 'member', operation, seen }, `"Bearer ${token}" (an object member in ${language})`, 'member-key-accepted'),
    { all: (n) => pass(`${n} tokens named like object members refused with 401`) },
  ),
});

export const AUTH_CARRIER_CHECKS = [otherCarrier, cookieNotCredential, objectMemberKey] as const;
