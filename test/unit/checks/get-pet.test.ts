// lib/checks/get-pet.ts: getPet returns the animal as listed, 404 with an Error body when missing,
// never 2xx for a non-numeric id; the deprecation headers are only recorded.
import { describe, it } from 'vitest';
import { describeDeprecation, judgeFound, judgeNonNumeric, judgeNotFound } from '../../../lib/checks/get-pet.ts';
import type { Seen } from '../../../lib/checks/types.ts';
import { INT64_MAX } from '../../../lib/models.ts';
import { errorBody, expectFinding, type Outcome, pet, seen } from './_seen.ts';

describe('judgeFound', () => {
  const listed = pet(2n ** 53n + 1n, 'available', 'Rex', INT64_MAX);

  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[] }>([
    { title: 'the same animal passes', seen: seen(200, listed), outcome: 'pass' },
    { title: 'the same animal with an extra field passes', seen: seen(200, { ...listed, tags: [] }), outcome: 'pass' },
    { title: 'another id fails naming id', seen: seen(200, { ...listed, id: 2n ** 53n }), outcome: 'fail', mentions: ['id 9007199254740992 is not 9007199254740993'] },
    { title: 'another name fails naming name', seen: seen(200, { ...listed, name: 'rex' }), outcome: 'fail', mentions: ['name "rex" is not "Rex"'] },
    { title: 'another categoryId fails naming categoryId', seen: seen(200, { ...listed, categoryId: 1n }), outcome: 'fail', mentions: ['categoryId 1 is not 9223372036854775807'] },
    { title: 'another status fails naming status', seen: seen(200, { ...listed, status: 'sold' }), outcome: 'fail', mentions: ['status "sold" is not "available"'] },
    { title: 'status missing fails naming status', seen: seen(200, { id: listed.id, name: 'Rex', categoryId: INT64_MAX }), outcome: 'fail', mentions: ['status absent'] },
    { title: '404 fails naming the id and 404', seen: seen(404, errorBody(404)), outcome: 'fail', mentions: ['getPet(9007199254740993) got 404'] },
    { title: 'a body that is not a Pet fails', seen: seen(200, {}), outcome: 'fail', mentions: ['Pet.'] },
  ])('$title', ({ seen: s, outcome, mentions }) => {
    expectFinding(judgeFound(listed, s), outcome, mentions);
  });
});

describe('judgeNotFound', () => {
  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[] }>([
    { title: '404 with an Error body passes', seen: seen(404, errorBody(404)), outcome: 'pass' },
    { title: '200 with {} fails naming the id and 200', seen: seen(200, {}), outcome: 'fail', mentions: ['getPet(987654321)', '200', 'not 404'] },
    { title: '400 fails naming 400', seen: seen(400, errorBody(400)), outcome: 'fail', mentions: ['400', 'not 404'] },
    { title: '404 without a body fails naming the body', seen: seen(404, ''), outcome: 'fail', mentions: ['body is empty'] },
    { title: '404 with an HTML page fails', seen: seen(404, '<h1>Not Found</h1>', { 'content-type': 'text/html' }), outcome: 'fail', mentions: ['text/html', 'not JSON'] },
    { title: '404 whose Error.status is 400 fails naming it', seen: seen(404, errorBody(400)), outcome: 'fail', mentions: ['Error.status is 400'] },
  ])('$title', ({ seen: s, outcome, mentions }) => {
    expectFinding(judgeNotFound(987654321n, s), outcome, mentions);
  });
});

describe('judgeNonNumeric', () => {
  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[] }>([
    { title: '400 passes', seen: seen(400, errorBody(400)), outcome: 'pass' },
    { title: '404 passes', seen: seen(404, errorBody(404)), outcome: 'pass' },
    { title: 'a 5xx passes here (judged by the no-5xx check)', seen: seen(500, ''), outcome: 'pass' },
    { title: '200 fails naming the path, the reason and 200', seen: seen(200, pet(1)), outcome: 'fail', mentions: ['GET /pets/abc', 'letters', '200'] },
    { title: '204 fails', seen: seen(204, '', {}), outcome: 'fail', mentions: ['204'] },
  ])('$title', ({ seen: s, outcome, mentions }) => {
    expectFinding(judgeNonNumeric('abc', 'letters', s), outcome, mentions);
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
