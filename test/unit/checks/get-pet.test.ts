// lib/checks/get-pet.ts: getPet returns the animal as listed, 404 with an Error body when missing,
// never 2xx for a non-numeric id; the deprecation headers are only recorded.
import { describe, expect, it } from 'vitest';
import { describeDeprecation, found, judgeFound, judgeNonNumeric, judgeNotFound, nonNumericNo5xx } from '../../../lib/checks/get-pet.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import { INT64_MAX } from '../../../lib/models.ts';
import { errorBody, expectFinding, type Outcome, pet, seen } from './_seen.ts';

type Case = { title: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string };

/** The outcome and mentions asked for; a failure also of the code asked for (every failing case names one). */
function expectJudged(finding: Finding, { outcome, mentions, code }: Omit<Case, 'title' | 'seen'>): void {
  expectFinding(finding, outcome, mentions);
  if (outcome === 'fail') expect(finding).toMatchObject({ outcome: 'fail', code: code ?? '(the case names no code)' });
}

describe('judgeFound', () => {
  const listed = pet(2n ** 53n + 1n, 'available', 'Rex', INT64_MAX);

  it.each<Case>([
    { title: 'the same animal passes', seen: seen(200, listed), outcome: 'pass' },
    { title: 'the same animal with an extra field passes', seen: seen(200, { ...listed, tags: [] }), outcome: 'pass' },
    { title: 'another id fails naming id', seen: seen(200, { ...listed, id: 2n ** 53n }), outcome: 'fail', code: 'id-differs', mentions: ['id 9007199254740992 is not 9007199254740993'] },
    { title: 'another name fails naming name', seen: seen(200, { ...listed, name: 'rex' }), outcome: 'fail', code: 'name-differs', mentions: ['name "rex" is not "Rex"'] },
    { title: 'another categoryId fails naming categoryId', seen: seen(200, { ...listed, categoryId: 1n }), outcome: 'fail', code: 'category-id-differs', mentions: ['categoryId 1 is not 9223372036854775807'] },
    { title: 'another status fails naming status', seen: seen(200, { ...listed, status: 'sold' }), outcome: 'fail', code: 'status-differs', mentions: ['status "sold" is not "available"'] },
    { title: 'status missing fails naming status', seen: seen(200, { id: listed.id, name: 'Rex', categoryId: INT64_MAX }), outcome: 'fail', code: 'status-differs', mentions: ['status absent'] },
    { title: '404 fails naming the id and 404', seen: seen(404, errorBody(404)), outcome: 'fail', code: 'not-200', mentions: ['getPet(9007199254740993) got 404'] },
    { title: 'a body that is not a Pet fails', seen: seen(200, {}), outcome: 'fail', code: 'invalid-pet', mentions: ['Pet.'] },
    { title: 'an empty body fails', seen: seen(200, ''), outcome: 'fail', code: 'empty-body' },
    { title: 'a body that is not JSON fails', seen: seen(200, 'OK', { 'content-type': 'text/plain' }), outcome: 'fail', code: 'not-json', mentions: ["got 'O' at position 0", '"text/plain"'] },
    { title: 'the same animal without Content-Type fails saying so', seen: seen(200, listed, {}), outcome: 'fail', code: 'no-content-type' },
    { title: 'the same animal as text/plain fails naming it', seen: seen(200, listed, { 'content-type': 'text/plain' }), outcome: 'fail', code: 'not-json-media-type', mentions: ['"text/plain"'] },
    { title: 'another name as text/plain fails on the name first', seen: seen(200, { ...listed, name: 'rex' }, { 'content-type': 'text/plain' }), outcome: 'fail', code: 'name-differs', mentions: ['name "rex"', '"text/plain"'] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(judgeFound(listed, s), c);
  });

  it('decides get-pet.found by the first animal not found as listed', () => {
    const other = pet(3, 'sold');
    expectJudged(found.judge([{ listed, seen: seen(200, listed) }, { listed: other, seen: seen(404, errorBody(404)) }]), { outcome: 'fail', code: 'not-200', mentions: ['getPet(3) got 404'] });
  });
});

describe('judgeNotFound', () => {
  it.each<Case>([
    { title: '404 with an Error body passes', seen: seen(404, errorBody(404)), outcome: 'pass' },
    { title: '200 with {} fails naming the id and 200', seen: seen(200, {}), outcome: 'fail', code: 'not-404', mentions: ['getPet(987654321)', '200', 'not 404'] },
    { title: '400 fails naming 400', seen: seen(400, errorBody(400)), outcome: 'fail', code: 'not-404', mentions: ['400', 'not 404'] },
    // A 404's body is errors.error-body's (judged once over the run): the status is this check's.
    { title: '404 without a body passes, leaving the body to errors.error-body', seen: seen(404, ''), outcome: 'pass', mentions: ["getPet(987654321) of a missing animal: 404; its body is errors.error-body's to judge: body is empty"] },
    { title: '404 with an HTML page passes, naming its Content-Type for errors.error-body', seen: seen(404, '<h1>Not Found</h1>', { 'content-type': 'text/html' }), outcome: 'pass', mentions: ['text/html'] },
    { title: '404 whose Error.status is 400 passes, naming it for errors.error-body', seen: seen(404, errorBody(400)), outcome: 'pass', mentions: ['Error.status is 400'] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(judgeNotFound(987654321n, s), c);
  });

});

describe('judgeNonNumeric', () => {
  it.each<Case>([
    { title: '400 passes', seen: seen(400, errorBody(400)), outcome: 'pass' },
    { title: '404 passes', seen: seen(404, errorBody(404)), outcome: 'pass' },
    { title: 'a 5xx passes here (judged by the no-5xx check)', seen: seen(500, ''), outcome: 'pass' },
    { title: '200 fails naming the path, the reason and 200', seen: seen(200, pet(1)), outcome: 'fail', code: 'accepted', mentions: ['GET /pets/abc', 'letters', '200'] },
    { title: '204 fails', seen: seen(204, '', {}), outcome: 'fail', code: 'accepted', mentions: ['204'] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(judgeNonNumeric('abc', 'letters', s), c);
  });
});

describe('get-pet.non-numeric-no-5xx', () => {
  it('fails on a 5xx naming it, passes on a 4xx', () => {
    expectJudged(nonNumericNo5xx.judge('GET /pets/abc (letters)', seen(500, '')), { outcome: 'fail', code: 'server-error', mentions: ['GET /pets/abc (letters): got 500'] });
    expectFinding(nonNumericNo5xx.judge('GET /pets/abc (letters)', seen(404, errorBody(404))), 'pass');
  });
});

describe('describeDeprecation', () => {
  it.each<{ title: string; seen: Seen; mentions: string[] }>([
    { title: 'no headers: recorded as absent', seen: seen(200, pet(1)), mentions: ['no Deprecation or Sunset header'] },
    {
      title: 'Deprecation and Sunset: both recorded',
      seen: seen(200, pet(1), { 'content-type': 'application/json', deprecation: '@1700000000', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }),
      mentions: ['Deprecation: @1700000000', 'Sunset: Thu, 05 Dec 2030 00:00:00 GMT'],
    },
    { title: 'Sunset only: Deprecation recorded as absent', seen: seen(404, errorBody(404), { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }), mentions: ['Deprecation: absent', 'Sunset: Thu'] },
    {
      title: 'a Link to the deprecation policy is recorded',
      seen: seen(200, pet(1), { deprecation: 'true', link: '<https://example.test/policy>; rel="deprecation"' }),
      mentions: ['Deprecation: true', 'Link names a deprecation'],
    },
    { title: 'a 500 with a wrong date still never fails', seen: seen(500, '', { sunset: 'soon' }), mentions: ['Sunset: soon'] },
  ])('$title', ({ seen: s, mentions }) => {
    expectFinding(describeDeprecation(s), 'pass', mentions);
  });
});
