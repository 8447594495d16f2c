// Answers outside the interface's three operations: unknown paths under the base URL, other methods
// on its paths, bodies the parser refuses on POST /pets, and GET /store/orders with a key. The
// interface describes none of these answers, but two of its sentences hold for every one of them:
// "Every operation requires bearer authentication" (nothing is served without a key), and no
// operation lists a 5xx; these name the request that broke the rule (a 5xx shown under
// responses.no-5xx, which judges every answer of the run, by the answer they share). "Every response carries"
// X-RateLimit-Limit, -Remaining and -Reset is headers.rate-limit-present's (run.ts), which judges
// these answers with every other: one cause in the headers, one failure, quoting what was sent.
import { serverError } from './bodies.ts';
import { defineCheck } from './define.ts';
import { describeSeen, type EachCase, fail, type Finding, pass, type Seen, skip } from './types.ts';
import { isAccepted, isNotImplementedMethod, isServerError } from '../status.ts';

const suite = 'routes';

/** One request outside the operations and its answer. */
export interface OutsideCase {
  /** The request as a reader names it, its method first: "DELETE /pets/9223372036853775804", "POST /pets (text/plain)". */
  request: string;
  /** Sent with a configured key; else with no credential at all. */
  keyed: boolean;
  seen: Seen;
  /** Statuses also legal without a key for this request (413 for an oversized body: a proxy's size limit may come first). */
  alsoWithoutKey?: readonly number[];
}

/** What a check accepts of the answers to its requests. */
interface Policy {
  /** Statuses legal without a key: 401 (authentication first) and, where the interface is silent, the router's. */
  withoutKey: readonly number[];
  /** Redirects (3xx) are legal without a key: a redirect to the canonical path serves nothing. */
  redirectWithoutKey?: boolean;
  /** A 2xx with a key fails too: a body the parser must refuse, accepted. */
  refusedWithKey?: boolean;
  /** Why the statuses other than 401 are legal without a key, for the pass message. */
  otherReading?: string;
}

const isRedirect = (status: number) => status >= 300 && status < 400;
const who = (c: OutsideCase) => (c.keyed ? 'with a key' : 'without a key');
/** The request's method: the first word of how it is named. */
const methodOf = (c: OutsideCase) => c.request.split(' ', 1)[0]!;
/**
 * A 501 to a method no operation has: HTTP's answer to a method the server does not implement
 * (RFC 9110 §9.1), legal with a key and, as a server answers it before looking at the key (Go,
 * Jetty, nginx), without one; it serves nothing.
 */
const notImplemented = (c: OutsideCase) => isNotImplementedMethod(methodOf(c), c.seen);

/**
 * One answer: no 5xx; without a key nothing served (no 2xx) and a status of the policy; with a key
 * (where the body must be refused) no 2xx. Codes: server-error, served-without-key, accepted, not-401.
 */
function judgeOne(policy: Policy, c: OutsideCase): Finding {
  const { status } = c.seen;
  const allowed = [...policy.withoutKey, ...(c.alsoWithoutKey ?? [])];
  const legalWithoutKey = `${allowed.join(' or ')}${policy.redirectWithoutKey ? ' (or a redirect)' : ''}`;
  const expected = c.keyed ? `no 5xx${policy.refusedWithKey ? ' and no 2xx (the body is refused)' : ''}` : `${legalWithoutKey}, never a 2xx`;
  const actual = describeSeen(c.seen);
  if (notImplemented(c)) return pass();
  if (isServerError(status)) return serverError(c.seen, fail('server-error', `${c.request} ${who(c)} got ${status}`, expected, actual));
  if (!c.keyed && isAccepted(status)) return fail('served-without-key', `${c.request} without a key was served: ${status}`, expected, actual);
  if (c.keyed && policy.refusedWithKey && isAccepted(status)) return fail('accepted', `${c.request} with a key was accepted: ${status}`, expected, actual);
  if (!c.keyed && !allowed.includes(status) && !(policy.redirectWithoutKey && isRedirect(status))) {
    return fail('not-401', `${c.request} without a key got ${status}, not ${legalWithoutKey}`, expected, actual);
  }
  return pass();
}

/** "401 ×5" or "404 ×4, 200 ×1 (GET /Pets)": the statuses seen, a 2xx naming its requests. */
function statusesOf(cases: readonly OutsideCase[]): string {
  const byStatus = new Map<number, string[]>();
  for (const c of cases) byStatus.set(c.seen.status, [...(byStatus.get(c.seen.status) ?? []), c.request]);
  return [...byStatus]
    .map(([status, requests]) => `${status} ×${requests.length}${isAccepted(status) && requests.length <= 3 ? ` (${requests.join(', ')})` : ''}`)
    .join(', ');
}

/** Every answer judged in order, the first that does not pass deciding; a pass says which reading was seen. */
function outsideJudge(policy: Policy): EachCase<OutsideCase> {
  const one = (c: OutsideCase) => judgeOne(policy, c);
  const judge = (cases: readonly OutsideCase[]): Finding => {
    if (cases.length === 0) return skip('nothing was sent to judge');
    for (const c of cases) {
      const finding = one(c);
      if (finding.outcome !== 'pass') return finding;
    }
    const withoutKey = cases.filter((c) => !c.keyed);
    const withKey = cases.filter((c) => c.keyed);
    const reading =
      withoutKey.length === 0
        ? ''
        : withoutKey.every((c) => c.seen.status === 401)
          ? ' (authentication first)'
          : withoutKey.every((c) => c.seen.status === 401 || notImplemented(c))
            ? ` (${NOT_IMPLEMENTED_FIRST})`
            : policy.otherReading
              ? ` (${policy.otherReading})`
              : '';
    const parts = [
      ...(withoutKey.length > 0 ? [`without a key ${statusesOf(withoutKey)}${reading}`] : []),
      ...(withKey.length > 0 ? [`with a key ${statusesOf(withKey)}`] : []),
    ];
    return pass(`${cases.length === 1 ? '1 answer' : `${cases.length} answers`}: ${parts.join('; ')} (their X-RateLimit-* are headers.rate-limit-present's)`);
  };
  return Object.assign(judge, { one });
}

const routedFirst = 'the router answered before authentication: legal, the interface describes no authentication for what is not an operation';
const NOT_IMPLEMENTED_FIRST = 'a method no operation has got 501 before authentication: HTTP\'s answer to a method the server does not implement (RFC 9110 §9.1), serving nothing';

export const unknownPath = defineCheck({
  id: 'routes.unknown-path',
  clause: 'Endpoints',
  suite,
  title: 'Unknown paths under the base URL (/petz, /Pets, /pets/, /pets/{id}/extra, …): never served without a key (401, 404 or 405 both legal), never a 5xx',
  severity: 'must',
  judge: outsideJudge({ withoutKey: [401, 404, 405], redirectWithoutKey: true, otherReading: routedFirst }),
});

export const otherMethod = defineCheck({
  id: 'routes.other-method',
  clause: 'Endpoints',
  suite,
  title: "Other methods on the interface's paths (PUT, PATCH, DELETE on /pets/{id} of no animal; PUT, PATCH on /pets): never served without a key (401, 404, 405 or 501 all legal), never a 5xx but 501 (RFC 9110 §9.1: a method not implemented)",
  severity: 'must',
  judge: outsideJudge({ withoutKey: [401, 404, 405], otherReading: routedFirst }),
});

export const refusedBody = defineCheck({
  id: 'routes.refused-body',
  clause: 'Endpoints / createPet',
  suite,
  title: 'Bodies the parser refuses on POST /pets (text/plain, form encoding, malformed JSON, over 1 MiB): 401 without a key (413 also legal for the oversized one, 400 for the form, which is no JSON), never accepted, never a 5xx',
  severity: 'must',
  judge: outsideJudge({ withoutKey: [401], refusedWithKey: true, otherReading: 'a size limit or a body parser answered before authentication: legal for an oversized body, and for one that is not JSON at all (as auth.before-validation allows)' }),
});

export const orders = defineCheck({
  id: 'routes.orders',
  clause: 'Endpoints / Other endpoints',
  suite,
  title: 'GET /store/orders with a key: any status (its payloads are not shown), but never a 5xx',
  severity: 'must',
  judge: outsideJudge({ withoutKey: [401] }),
});

export const ROUTES_CHECKS = [unknownPath, otherMethod, refusedBody, orders] as const;
