// lib/checks/run-level.ts: rules judged once over every exchange of the run: Error bodies on error
// responses, the JSON media type, and the X-RateLimit-* headers.
import { describe, expect, it } from 'vitest';
import {
  cacheDirectives,
  errorBody as errorBodyCheck,
  keyedNotSharedCacheable,
  jsonMediaType,
  rateLimitedBody,
  rateLimitHeaders,
  retryAfterFormat,
  retryAfterPresent,
  no5xx,
  petShape,
  RUN_CHECKS,
} from '../../../lib/checks/run-level.ts';
import type { Finding } from '../../../lib/checks/types.ts';
import { stringifyJson } from '../../../lib/json.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';
import { errorBody } from './_seen.ts';

const RATE_LIMIT = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1767225600' };
const GOOD_HEADERS: Record<string, string> = { 'content-type': 'application/json', ...RATE_LIMIT };

let seq = 0;

/**
 * One recorded exchange, as lib/client records it (response header names lower-case). `status`
 * undefined is a transport error. A non-string body is written as JSON. Headers default to a JSON
 * Content-Type and valid X-RateLimit-* headers, so each test varies only what it is about.
 */
function exchange(status: number | undefined, body: unknown = '', headers: Record<string, string> = GOOD_HEADERS, extra: Partial<Exchange> = {}): Exchange {
  seq += 1;
  const base: Exchange = {
    seq,
    suite: 'unit',
    method: 'GET',
    url: `http://127.0.0.1:8080/v1/pets/${seq}`,
    auth: { kind: 'none' },
    requestHeaders: { accept: 'application/json' },
    responseHeaders: status === undefined ? {} : headers,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 3,
  };
  if (status === undefined) return { ...base, transportError: 'ECONNRESET', ...extra };
  return { ...base, status, responseBody: typeof body === 'string' ? body : stringifyJson(body), ...extra };
}

const ok = () => exchange(200, []);
const err = (status: number) => exchange(status, errorBody(status));

type RunFinding = Finding;

function findingOf(def: (typeof RUN_CHECKS)[number], exchanges: Exchange[]): RunFinding {
  return def.judge(exchanges);
}

/** The exchanges a failure keeps as evidence: the first offenders. */
const offenders = (finding: RunFinding): Exchange[] => (finding.outcome === 'fail' ? (finding.exchanges ?? []) : []);

/** The outcome and mentions asked for; a failure also of the code asked for (every failing case names one). */
function expectRun(finding: RunFinding, outcome: RunFinding['outcome'], mentions: readonly string[] = [], code?: string, others: Record<string, string> = {}): void {
  expect(finding.outcome, `finding: ${finding.message}`).toBe(outcome);
  for (const m of mentions) expect(finding.message).toContain(m);
  // Every other kind (code) of problem found: its own message, quoting it.
  const kinds = finding.outcome === 'fail' ? (finding.others ?? []) : [];
  expect(Object.fromEntries(kinds.map((o) => [o.code, o.message]))).toEqual(Object.fromEntries(Object.entries(others).map(([c, m]) => [c, expect.stringContaining(m)])));
  if (finding.outcome === 'fail') {
    expect(finding).toMatchObject({ outcome: 'fail', code: code ?? '(the case names no code)' });
    expect(offenders(finding).length).toBeGreaterThan(0);
    expect(finding.expected ?? '').not.toBe('');
    expect(finding.actual ?? '').not.toBe('');
  } else expect(offenders(finding)).toEqual([]);
}

describe('RUN_CHECKS', () => {
  it('are the run-level checks, judged over every response of the run', () => {
    expect(RUN_CHECKS.map((c) => c.id)).toEqual(['errors.error-body', 'errors.429-error-body', 'responses.json-media-type', 'headers.rate-limit-present', 'rate-limit.retry-after-present', 'rate-limit.retry-after-format', 'list-pets.pet-shape', 'responses.no-5xx', 'rate-limit.retry-after-obeyed', 'versioning.only-get-pet-deprecated', 'responses.keyed-not-shared-cacheable']);
    for (const c of RUN_CHECKS) expect(c.suite).toBe('run');
  });
});

describe('responses.keyed-not-shared-cacheable', () => {
  const KEY = { kind: 'key' as const, label: 'free#1', env: 'FREE_KEY', header: 'Bearer $FREE_KEY' };
  /** A 200 to a request with a key, with this Cache-Control (and other headers). */
  const keyed = (cacheControl?: string, more: Record<string, string> = {}) => exchange(200, [], { ...GOOD_HEADERS, ...(cacheControl === undefined ? {} : { 'cache-control': cacheControl }), ...more }, { auth: KEY });
  const DATE = 'Thu, 01 Jan 2026 00:00:00 GMT';

  it.each<{ title: string; exchanges: () => Exchange[]; outcome: RunFinding['outcome']; mentions?: string[]; code?: string; others?: Record<string, string> }>([
    { title: 'passes without Cache-Control, saying so', exchanges: () => [keyed(), keyed()], outcome: 'pass', mentions: ['2 responses checked', 'no Cache-Control ×2'] },
    { title: 'passes private, max-age=60, naming the values seen', exchanges: () => [keyed('private, max-age=60'), keyed('no-store')], outcome: 'pass', mentions: ['"private, max-age=60" ×1', '"no-store" ×1'] },
    { title: 'passes public, max-age=0: no freshness, every use goes to the origin', exchanges: () => [keyed('public, max-age=0')], outcome: 'pass' },
    { title: 'passes public with s-maxage=0, whatever max-age says (a shared cache reads s-maxage)', exchanges: () => [keyed('public, max-age=600, s-maxage=0')], outcome: 'pass' },
    { title: 'passes must-revalidate alone (it revalidates at the origin)', exchanges: () => [keyed('must-revalidate')], outcome: 'pass' },
    { title: 'passes public with private, no-store or no-cache beside it, in any case', exchanges: () => [keyed('public, max-age=60, private'), keyed('PUBLIC, Max-Age=60, No-Store'), keyed('public, s-maxage=60, no-cache')], outcome: 'pass' },
    { title: 'passes public with an Expires no later than Date, or one that is no date', exchanges: () => [keyed('public', { date: DATE, expires: DATE }), keyed('public', { date: DATE, expires: '0' })], outcome: 'pass' },
    { title: 'ignores answers to requests without a key, or with a key elsewhere than Authorization', exchanges: () => [exchange(200, [], { ...GOOD_HEADERS, 'cache-control': 'public, max-age=60' }), exchange(200, [], { ...GOOD_HEADERS, 'cache-control': 'public, max-age=60' }, { auth: { kind: 'key-in-query', label: 'free#1', env: 'FREE_KEY', param: 'api_key' } }), keyed('private')], outcome: 'pass', mentions: ['1 responses checked'] },
    { title: 'skips when no request carried a key', exchanges: () => [ok(), err(401)], outcome: 'skip', mentions: ['no request of the run carried a key'] },
    { title: 'fails public, max-age=60, naming the request, the header and RFC 9111', exchanges: () => [keyed('private'), keyed('public, max-age=60')], outcome: 'fail', code: 'marked-public', mentions: ['1 of 2 responses', 'GET /v1/pets/', '→ 200', 'Cache-Control "public, max-age=60"', '60 s', 'RFC 9111 §3.5'] },
    { title: 'fails public without freshness (heuristic freshness)', exchanges: () => [keyed('public')], outcome: 'fail', code: 'marked-public', mentions: ['heuristic', '§4.2.2'] },
    { title: 'fails public with an Expires after Date', exchanges: () => [keyed('public', { date: DATE, expires: 'Thu, 01 Jan 2026 01:00:00 GMT' })], outcome: 'fail', code: 'marked-public', mentions: ['Expires "Thu, 01 Jan 2026 01:00:00 GMT"'] },
    { title: 'fails s-maxage above zero without public', exchanges: () => [keyed('s-maxage=300')], outcome: 'fail', code: 'marked-s-maxage', mentions: ['s-maxage=300', '300 s'] },
    { title: 'fails public when private or no-cache name fields only (the rest stays shareable)', exchanges: () => [keyed('public, max-age=60, private="Set-Cookie"'), keyed('public, max-age=60, no-cache="Set-Cookie, X-A"')], outcome: 'fail', code: 'marked-public', mentions: ['2 of 2 responses'] },
    { title: 'names each kind with its own count', exchanges: () => [keyed('public, max-age=60'), keyed('s-maxage=10')], outcome: 'fail', code: 'marked-public', others: { 'marked-s-maxage': '1 of 2 responses' } },
  ])('$title', ({ exchanges, outcome, mentions, code, others }) => {
    expectRun(findingOf(keyedNotSharedCacheable, exchanges()), outcome, mentions, code, others);
  });

  it('reads directives as RFC 9111 §5.2 writes them: names in any case, quoted values with commas', () => {
    expect(cacheDirectives(' Public ,MAX-AGE=60, private="Set-Cookie, X-A",no-cache')).toEqual([{ name: 'public' }, { name: 'max-age', value: '60' }, { name: 'private', value: 'Set-Cookie, X-A' }, { name: 'no-cache' }]);
    expect(cacheDirectives(undefined)).toEqual([]);
  });
});

describe('errors.error-body', () => {
  it.each<{ title: string; exchanges: () => Exchange[]; outcome: RunFinding['outcome']; mentions?: string[]; code?: string; others?: Record<string, string> }>([
    { title: 'passes when every 4xx has an Error body', exchanges: () => [ok(), err(400), err(401), err(404)], outcome: 'pass', mentions: ['3 responses checked'] },
    { title: 'fails on a 404 without an Error body, naming the request, 404 and the body', exchanges: () => [err(401), exchange(404, '')], outcome: 'fail', code: 'no-error-body', mentions: ['1 of 2', 'GET /v1/pets/', '→ 404'] },
    { title: 'fails on a 400 whose Error.status is 404', exchanges: () => [exchange(400, errorBody(404))], outcome: 'fail', code: 'error-status-mismatch', mentions: ['Error.status is 404'] },
    { title: 'fails on a 500 without an Error body', exchanges: () => [exchange(500, 'Internal Server Error', { ...RATE_LIMIT, 'content-type': 'text/plain' })], outcome: 'fail', code: 'error-body-not-json', mentions: ['→ 500', 'body is not JSON'], others: { 'error-body-not-json-media-type': '"text/plain"' } },
    { title: 'fails on a 401 whose Error lacks fields, naming them', exchanges: () => [exchange(401, { code: 'c' })], outcome: 'fail', code: 'invalid-error-body', mentions: ['Error.message', 'Error.status'] },
    { title: 'fails on an Error body without Content-Type', exchanges: () => [exchange(404, errorBody(404), RATE_LIMIT)], outcome: 'fail', code: 'error-body-no-content-type', mentions: ['→ 404'] },
    { title: 'fails on an Error body as text/plain', exchanges: () => [exchange(404, errorBody(404), { ...RATE_LIMIT, 'content-type': 'text/plain' })], outcome: 'fail', code: 'error-body-not-json-media-type', mentions: ['"text/plain"'] },
    { title: 'names the kind of the first offender first, and the other kind with its own count', exchanges: () => [exchange(400, errorBody(404)), exchange(404, '')], outcome: 'fail', code: 'error-status-mismatch', mentions: ['1 of 2', '→ 400'], others: { 'no-error-body': '1 of 2 responses: GET /v1/pets/' } },
    { title: 'ignores 2xx, whatever their body', exchanges: () => [exchange(200, 'not json'), exchange(201, {}), err(404)], outcome: 'pass', mentions: ['1 responses checked'] },
    { title: 'ignores a 429 (judged by the should check)', exchanges: () => [exchange(429, ''), err(404)], outcome: 'pass', mentions: ['1 responses checked'] },
    { title: 'skips when the run has no error response', exchanges: () => [ok(), ok()], outcome: 'skip' },
    { title: 'skips when the only error response is a 429', exchanges: () => [exchange(429, '')], outcome: 'skip' },
    { title: 'ignores transport errors (no status)', exchanges: () => [exchange(undefined), err(401)], outcome: 'pass', mentions: ['1 responses checked'] },
    { title: 'does not judge a truncated body', exchanges: () => [exchange(400, '{"code":"x","mess', GOOD_HEADERS, { responseBodyTruncated: true })], outcome: 'skip' },
  ])('$title', ({ exchanges, outcome, mentions, code, others }) => {
    expectRun(findingOf(errorBodyCheck, exchanges()), outcome, mentions, code, others);
  });
});

describe('errors.429-error-body', () => {
  it.each<{ title: string; exchanges: () => Exchange[]; outcome: RunFinding['outcome']; mentions?: string[]; code?: string; others?: Record<string, string> }>([
    { title: 'passes on a 429 with an Error body', exchanges: () => [err(429)], outcome: 'pass' },
    { title: 'accepts a 429 without a body: the interface leaves it open', exchanges: () => [exchange(429, '', { ...GOOD_HEADERS, 'retry-after': '1' })], outcome: 'skip' },
    { title: 'fails on a 429 whose body is not an Error', exchanges: () => [exchange(429, 'slow down', { ...GOOD_HEADERS, 'retry-after': '1', 'content-type': 'text/plain' })], outcome: 'fail', code: 'error-body-not-json', mentions: ['→ 429'], others: { 'error-body-not-json-media-type': '"text/plain"' } },
    { title: 'ignores every other status', exchanges: () => [exchange(404, ''), ok()], outcome: 'skip' },
  ])('$title', ({ exchanges, outcome, mentions, code, others }) => {
    const finding = findingOf(rateLimitedBody, exchanges());
    expect(rateLimitedBody.severity).toBe('should');
    expectRun(finding, outcome, mentions, code, others);
  });
});

describe('responses.json-media-type', () => {
  it.each<{ title: string; exchanges: () => Exchange[]; outcome: RunFinding['outcome']; mentions?: string[]; code?: string; others?: Record<string, string> }>([
    { title: 'passes when every body is application/json', exchanges: () => [ok(), err(404)], outcome: 'pass', mentions: ['2 responses checked'] },
    { title: 'passes with a charset parameter and any case', exchanges: () => [exchange(200, [], { ...RATE_LIMIT, 'content-type': 'Application/JSON; charset=UTF-8' })], outcome: 'pass' },
    { title: 'fails on text/plain, naming the Content-Type', exchanges: () => [ok(), exchange(200, [], { ...RATE_LIMIT, 'content-type': 'text/plain' })], outcome: 'fail', code: 'not-json-media-type', mentions: ['1 of 2', 'Content-Type is "text/plain"'] },
    { title: 'fails on a body without Content-Type, saying it is missing', exchanges: () => [exchange(200, [], RATE_LIMIT)], outcome: 'fail', code: 'no-content-type', mentions: ['→ 200'] },
    { title: 'fails on application/problem+json', exchanges: () => [exchange(400, errorBody(400), { ...RATE_LIMIT, 'content-type': 'application/problem+json' })], outcome: 'fail', code: 'not-json-media-type', mentions: ['application/problem+json'] },
    { title: 'ignores responses without a body (no Content-Type needed)', exchanges: () => [exchange(204, '', RATE_LIMIT), ok()], outcome: 'pass', mentions: ['1 responses checked'] },
    { title: 'skips when no response has a body', exchanges: () => [exchange(204, '', RATE_LIMIT), exchange(undefined)], outcome: 'skip' },
    {
      title: "leaves a redirect's note aside (RFC 9110 §15.4; Go's http.Redirect writes text/html)",
      exchanges: () => [exchange(301, '<a href="/v1/pets">Moved Permanently</a>.', { ...RATE_LIMIT, 'content-type': 'text/html; charset=utf-8', location: '/v1/pets' }), ok()],
      outcome: 'pass',
      mentions: ['1 responses checked'],
    },
    {
      title: 'judges the Content-Type of a truncated body too (it needs no body text)',
      exchanges: () => [exchange(200, '<html>', { ...RATE_LIMIT, 'content-type': 'text/html' }, { responseBodyTruncated: true })],
      outcome: 'fail',
      code: 'not-json-media-type',
      mentions: ['text/html'],
    },
  ])('$title', ({ exchanges, outcome, mentions, code }) => {
    expectRun(findingOf(jsonMediaType, exchanges()), outcome, mentions, code);
  });
});

describe('responses.no-5xx', () => {
  it.each<{ title: string; exchanges: () => Exchange[]; outcome: RunFinding['outcome']; mentions?: string[]; code?: string; others?: Record<string, string> }>([
    { title: 'passes when no response is a 5xx', exchanges: () => [ok(), err(400), err(401), err(404), err(429)], outcome: 'pass', mentions: ['5 responses checked'] },
    { title: 'fails on a 500, even with an Error body, naming the request', exchanges: () => [ok(), err(500)], outcome: 'fail', code: 'server-error', mentions: ['1 of 2', 'GET /v1/pets/', '→ 500', '(500)'] },
    { title: 'fails on a 503 (no operation lists one)', exchanges: () => [exchange(503, '', RATE_LIMIT)], outcome: 'fail', code: 'server-error', mentions: ['(503)'] },
    { title: 'ignores transport errors: no status, nothing to judge', exchanges: () => [exchange(undefined)], outcome: 'skip' },
    // RFC 9110 §9.1: 501 is HTTP's answer to a method the server does not implement; the interface has no operation for these.
    {
      title: 'passes a 501 to a method no operation has (PUT, PATCH, DELETE, OPTIONS, PROPFIND, a made-up one)',
      exchanges: () => ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'FROB', 'get'].map((method) => exchange(501, errorBody(501), GOOD_HEADERS, { method })),
      outcome: 'pass',
      mentions: ['7 responses checked'],
    },
    { title: 'fails on a 501 to GET /pets: an operation of the interface', exchanges: () => [ok(), exchange(501, errorBody(501), GOOD_HEADERS, { method: 'GET', url: 'http://127.0.0.1:8080/v1/pets' })], outcome: 'fail', code: 'server-error', mentions: ['GET /v1/pets → 501'] },
    { title: 'fails on a 501 to POST and to HEAD (every general-purpose server MUST support HEAD)', exchanges: () => ['POST', 'HEAD'].map((method) => exchange(501, errorBody(501), GOOD_HEADERS, { method })), outcome: 'fail', code: 'server-error', mentions: ['2 of 2', 'POST /v1/pets/'] },
    { title: 'fails on a 500 or a 503 to a method no operation has: only 501 says "not implemented"', exchanges: () => [exchange(500, errorBody(500), GOOD_HEADERS, { method: 'DELETE' }), exchange(503, errorBody(503), GOOD_HEADERS, { method: 'PROPFIND' })], outcome: 'fail', code: 'server-error', mentions: ['2 of 2', 'DELETE'] },
  ])('$title', ({ exchanges, outcome, mentions, code }) => {
    expect(no5xx.severity).toBe('must');
    expectRun(findingOf(no5xx, exchanges()), outcome, mentions, code);
  });

  it('keeps the first three offending requests as evidence', () => {
    const finding = findingOf(no5xx, [err(500), err(502), err(500), err(500)]);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'server-error' });
    expect(offenders(finding).map((e) => e.status)).toEqual([500, 502, 500]);
    expect(finding.message).toContain('4 of 4');
  });
});

describe('headers.rate-limit-present', () => {
  const without = (name: string) => Object.fromEntries(Object.entries(GOOD_HEADERS).filter(([n]) => n !== name));

  it.each<{ title: string; exchanges: () => Exchange[]; outcome: RunFinding['outcome']; mentions?: string[]; code?: string; others?: Record<string, string> }>([
    { title: 'passes when every response carries all three (recorded lower-case)', exchanges: () => [ok(), err(401), exchange(204, '', RATE_LIMIT)], outcome: 'pass', mentions: ['3 responses checked'] },
    { title: 'judges error responses too: a 401 without X-RateLimit-Reset fails naming it', exchanges: () => [ok(), exchange(401, errorBody(401), without('x-ratelimit-reset'))], outcome: 'fail', code: 'rate-limit-header-missing', mentions: ['1 of 2', '→ 401', 'X-RateLimit-Reset'] },
    { title: 'names every missing header', exchanges: () => [exchange(200, [], { 'content-type': 'application/json' })], outcome: 'fail', code: 'rate-limit-header-missing', mentions: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] },
    { title: '"abc" fails, naming header and value', exchanges: () => [exchange(200, [], { ...GOOD_HEADERS, 'x-ratelimit-remaining': 'abc' })], outcome: 'fail', code: 'rate-limit-header-not-integer', mentions: ['X-RateLimit-Remaining is "abc"'] },
    { title: 'a missing header is the main problem beside one that is not an integer', exchanges: () => [exchange(200, [], { 'content-type': 'application/json', 'x-ratelimit-limit': 'x', 'x-ratelimit-remaining': '5' })], outcome: 'fail', code: 'rate-limit-header-missing', mentions: ['X-RateLimit-Reset missing'], others: { 'rate-limit-header-not-integer': 'X-RateLimit-Limit is "x"' } },
    { title: 'a negative value fails, called negative', exchanges: () => [exchange(200, [], { ...GOOD_HEADERS, 'x-ratelimit-remaining': '-1' })], outcome: 'fail', code: 'rate-limit-header-not-integer', mentions: ['X-RateLimit-Remaining is "-1", negative'] },
    { title: 'a fraction fails', exchanges: () => [exchange(200, [], { ...GOOD_HEADERS, 'x-ratelimit-limit': '1.5' })], outcome: 'fail', code: 'rate-limit-header-not-integer', mentions: ['X-RateLimit-Limit is "1.5"'] },
    { title: 'an empty value fails', exchanges: () => [exchange(200, [], { ...GOOD_HEADERS, 'x-ratelimit-reset': '' })], outcome: 'fail', code: 'rate-limit-header-not-integer', mentions: ['X-RateLimit-Reset is ""'] },
    { title: 'a 0 remaining passes', exchanges: () => [exchange(429, errorBody(429), { ...GOOD_HEADERS, 'x-ratelimit-remaining': '0', 'retry-after': '30' })], outcome: 'pass' },
    { title: 'ignores transport errors (no headers at all)', exchanges: () => [exchange(undefined), ok()], outcome: 'pass', mentions: ['1 responses checked'] },
    { title: 'skips when the run has only transport errors', exchanges: () => [exchange(undefined), exchange(undefined)], outcome: 'skip' },
    { title: 'still judges a response whose body was truncated', exchanges: () => [exchange(200, '[{"id":1', { 'content-type': 'application/json' }, { responseBodyTruncated: true })], outcome: 'fail', code: 'rate-limit-header-missing', mentions: ['X-RateLimit-Limit'] },
  ])('$title', ({ exchanges, outcome, mentions, code, others }) => {
    expectRun(findingOf(rateLimitHeaders, exchanges()), outcome, mentions, code, others);
  });
});

/** A 429 as a limiter sends it: X-RateLimit-* at 0, Retry-After `retryAfter` (none when undefined). */
const refused = (retryAfter: string | undefined, extra: Partial<Exchange> = {}) => {
  const headers: Record<string, string> = { ...GOOD_HEADERS, 'x-ratelimit-remaining': '0', date: 'Thu, 01 Jan 2026 00:00:00 GMT', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) };
  return exchange(429, errorBody(429), headers, extra);
};

describe('rate-limit.retry-after-present', () => {
  it.each<{ title: string; exchanges: () => Exchange[]; outcome: RunFinding['outcome']; mentions?: string[]; code?: string; others?: Record<string, string> }>([
    { title: 'every 429 with Retry-After passes', exchanges: () => [ok(), refused('44'), refused('Thu, 01 Jan 2026 00:00:44 GMT')], outcome: 'pass', mentions: ['2 responses checked'] },
    { title: 'a 429 without Retry-After fails, naming the request', exchanges: () => [refused('44'), refused(undefined)], outcome: 'fail', code: 'absent', mentions: ['1 of 2 responses', '→ 429: no Retry-After'] },
    { title: 'every 429 of the run counts, not only the first of a key', exchanges: () => [refused('44'), refused('44'), refused(undefined), refused(undefined)], outcome: 'fail', code: 'absent', mentions: ['2 of 4'] },
    { title: 'an empty Retry-After is there (retry-after-format judges it)', exchanges: () => [refused('')], outcome: 'pass' },
    { title: 'a run without a 429: skip, saying so', exchanges: () => [ok(), err(401)], outcome: 'skip', mentions: ['no 429 in the run'] },
  ])('$title', ({ exchanges, outcome, mentions, code }) => {
    expectRun(findingOf(retryAfterPresent, exchanges()), outcome, mentions, code);
  });
});

describe('rate-limit.retry-after-format', () => {
  it.each<{ title: string; value: string; outcome: RunFinding['outcome']; mentions?: string[] }>([
    { title: 'delta-seconds "30" passes', value: '30', outcome: 'pass' },
    { title: 'delta-seconds "0" passes', value: '0', outcome: 'pass' },
    { title: 'an IMF-fixdate passes', value: 'Thu, 01 Jan 2026 00:00:45 GMT', outcome: 'pass' },
    { title: 'a fraction "1.5" fails, quoting it', value: '1.5', outcome: 'fail', mentions: ['Retry-After "1.5" is neither delta-seconds nor an IMF-fixdate (read as fraction, 1.5 s'] },
    { title: 'milliseconds with a unit "1500ms" fails', value: '1500ms', outcome: 'fail', mentions: ['"1500ms"'] },
    { title: 'seconds with a unit "30s" fails', value: '30s', outcome: 'fail' },
    { title: 'a negative number fails: it names no moment', value: '-5', outcome: 'fail', mentions: ['it names no moment'] },
    { title: 'an RFC 850 date (obsolete: senders must not generate it) fails', value: 'Thursday, 01-Jan-26 00:00:45 GMT', outcome: 'fail' },
    { title: 'an asctime date (obsolete) fails', value: 'Thu Jan  1 00:00:45 2026', outcome: 'fail' },
    { title: 'an IMF-fixdate in lower case (names are case-sensitive) fails', value: 'thu, 01 jan 2026 00:00:45 gmt', outcome: 'fail' },
    { title: 'an ISO 8601 time fails', value: '2026-01-01T00:00:45Z', outcome: 'fail' },
  ])('$title', ({ value, outcome, mentions }) => {
    expectRun(findingOf(retryAfterFormat, [refused('44'), refused(value)]), outcome, mentions, outcome === 'fail' ? 'not-delta-seconds-or-imf-fixdate' : undefined);
  });

  it('skips when no 429 carried a Retry-After; a missing one is retry-after-present\'s', () => {
    expectRun(findingOf(retryAfterFormat, [refused(undefined), ok()]), 'skip');
  });

  it('one failure for every 429 of the run, each value quoted among the first offenders', () => {
    const finding = findingOf(retryAfterFormat, [refused('3.05'), refused('2.11'), refused('44')]);
    expectRun(finding, 'fail', ['2 of 3 responses', '"3.05"'], 'not-delta-seconds-or-imf-fixdate');
    expect(finding.outcome === 'fail' && finding.actual).toContain('"2.11"');
  });
});

describe('list-pets.pet-shape', () => {
  const list = (body: unknown, extra: Partial<Exchange> = {}) => exchange(200, body, GOOD_HEADERS, { url: 'http://127.0.0.1:8080/v1/pets?limit=5', ...extra });
  const pet = (id: number, extra: Record<string, unknown> = {}) => ({ id, name: `pet ${id}`, categoryId: 7, status: 'sold', ...extra });
  it.each<{ title: string; exchanges: () => Exchange[]; outcome: RunFinding['outcome']; mentions?: string[]; code?: string; others?: Record<string, string> }>([
    { title: 'passes when every animal of every page is a Pet', exchanges: () => [list([pet(1), pet(2)]), list([])], outcome: 'pass', mentions: ['2 responses checked'] },
    { title: 'fails on one page holding a categoryId as a string, naming the item and field', exchanges: () => [list([pet(1, { categoryId: '7' }), pet(2)])], outcome: 'fail', code: 'invalid-pet', mentions: ['1 of 1', 'item 0.categoryId'] },
    { title: 'ignores getPet and other operations', exchanges: () => [exchange(200, { id: 'x' }, GOOD_HEADERS, { url: 'http://127.0.0.1:8080/v1/pets/1' })], outcome: 'skip' },
    { title: 'leaves a body that is no array to the list checks', exchanges: () => [list({ pets: [] })], outcome: 'pass' },
    { title: 'skips burst pages whose bodies were not kept', exchanges: () => [list('', { responseBodyTruncated: true })], outcome: 'skip' },
  ])('$title', ({ exchanges, outcome, mentions, code }) => {
    expectRun(findingOf(petShape, exchanges()), outcome, mentions, code);
  });
});

describe('evidence', () => {
  it('holds at most 3 offenders, the first ones, while the message counts all of them', () => {
    const bad = [1, 2, 3, 4, 5].map(() => exchange(404, ''));
    const finding = findingOf(errorBodyCheck, [err(400), ...bad, err(401)]);
    expectRun(finding, 'fail', ['5 of 7 responses', `GET /v1/pets/${bad[0]!.seq}`], 'no-error-body');
    expect(offenders(finding).map((e) => e.seq)).toEqual(bad.slice(0, 3).map((e) => e.seq));
    expect(finding.outcome === 'fail' && finding.actual!.split('\n')).toHaveLength(3);
    expect(finding.outcome === 'fail' && finding.actual).toContain('→ 404: body is empty');
  });

  it('keeps the query in the path it names', () => {
    const finding = findingOf(jsonMediaType, [exchange(200, [], RATE_LIMIT, { url: 'http://127.0.0.1:8080/v1/pets?limit=5&status=sold' })]);
    expectRun(finding, 'fail', ['GET /v1/pets?limit=5&status=sold → 200'], 'no-content-type');
  });
});
