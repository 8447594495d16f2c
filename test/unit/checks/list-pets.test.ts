// lib/checks/list-pets.ts: 200 and Pets; at most `limit` (default 20, max 100); no duplicates; the
// status filter; created animals visible; out-of-range limits rejected or clamped.
import { describe, expect, it } from 'vitest';
import {
  expectDefaultPage,
  judgeCreatedVisible,
  judgeDefaultLimit,
  judgeEmptyPage,
  type StatusPageRead,
  judgeLimit,
  judgeNoDuplicates,
  judgeOutOfRange,
  judgeStatusFilter,
  judgeStatusFilterInvalid,
  unfilteredPage,
  outOfRangeNo5xx,
} from '../../../lib/checks/list-pets.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import type { Pet } from '../../../lib/models.ts';
import { errorBody, expectFinding, type Outcome, pet, pets, seen } from './_seen.ts';

/** The outcome and mentions asked for; a failure also of the code asked for (every failing case names one). */
function expectJudged(finding: Finding, { outcome, mentions, code }: { outcome: Outcome; mentions?: readonly string[]; code?: string }): void {
  expectFinding(finding, outcome, mentions);
  if (outcome === 'fail') expect(finding).toMatchObject({ outcome: 'fail', code: code ?? '(the case names no code)' });
}

/** A 200 listing these animals. */
const page = (list: readonly Pet[]): Seen => seen(200, list);

describe('judgeEmptyPage', () => {
  const read = (status: StatusPageRead['status'], s: Seen): StatusPageRead => ({ status, seen: s });
  const some = page(pets(2, 'available'));

  it.each<{ title: string; reads: StatusPageRead[]; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'passes where a status with no animal answers [], naming it and every page', reads: [read('available', some), read('pending', seen(200, '[]')), read('sold', seen(200, ' [ ] '))], outcome: 'pass', mentions: ['status=pending, status=sold listed no animal', 'available: 2 animals'] },
    { title: 'fails null for an empty page, naming the request and the body', reads: [read('available', some), read('pending', seen(200, 'null'))], outcome: 'fail', code: 'not-an-array', mentions: ['GET /pets?status=pending → 200 with null', 'not a JSON array', '[]'] },
    { title: 'fails {} and an empty body alike, naming the others', reads: [read('available', seen(200, '{}')), read('pending', seen(200, '')), read('sold', seen(200, '[]'))], outcome: 'fail', code: 'not-an-array', mentions: ['status=available → 200 with {}', 'status=pending alike'] },
    { title: 'fails a page wrapped in an object, whatever it holds', reads: [read('sold', seen(200, { items: [] }))], outcome: 'fail', code: 'not-an-array', mentions: ['{"items":[]}'] },
    { title: 'skips a store holding every status, saying so', reads: [read('available', some), read('pending', page([pet(9, 'pending')])), read('sold', page([pet(8, 'sold')]))], outcome: 'skip', mentions: ['no status had an empty page', 'every status'] },
    { title: 'does not judge a page that is not a 200, and says so', reads: [read('available', seen(429, errorBody(429))), read('pending', some)], outcome: 'skip', mentions: ['available: 429, not judged'] },
    { title: 'skips where the reads could not be sent, saying why', reads: [{ status: 'available', error: 'the request budget of 3 is spent' }], outcome: 'skip', mentions: ['not read (the request budget of 3 is spent)'] },
    { title: 'skips when nothing was read', reads: [], outcome: 'skip', mentions: ['not read before the run wrote'] },
  ])('$title', ({ reads, ...c }) => {
    expectJudged(judgeEmptyPage(reads), c);
  });
});

describe('expectDefaultPage', () => {
  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: '20 animals pass', seen: page(pets(20)), outcome: 'pass' },
    { title: 'an empty store (an empty array) passes', seen: page([]), outcome: 'pass' },
    { title: '3 animals pass', seen: page(pets(3, 'sold')), outcome: 'pass' },
    { title: 'a charset parameter passes', seen: seen(200, pets(2), { 'content-type': 'application/json; charset=utf-8' }), outcome: 'pass' },
    { title: '21 animals fail naming 21 and the default', seen: page(pets(21)), outcome: 'fail', code: 'too-many-animals', mentions: ['21 animals', 'default 20'] },
    { title: '401 fails naming 401', seen: seen(401, errorBody(401)), outcome: 'fail', code: 'not-200', mentions: ['401', 'not 200'] },
    { title: 'an object instead of an array fails', seen: seen(200, { items: [] }), outcome: 'fail', code: 'not-json-array', mentions: ['no limit: '] },
    // One cause, one failure: an item that is not a Pet is list-pets.pet-shape's, the media type responses.json-media-type's.
    { title: 'an animal without name passes, noting the item that is not a Pet', seen: seen(200, [{ id: 1, categoryId: 1 }]), outcome: 'pass', mentions: ['1 item that is not a Pet (see list-pets.pet-shape)'] },
    { title: 'text/plain still counts its animals (the media type is judged on its own)', seen: seen(200, pets(2), { 'content-type': 'text/plain' }), outcome: 'pass' },
    { title: 'a body that is not JSON fails', seen: seen(200, 'not json'), outcome: 'fail', code: 'not-json', mentions: ['no limit: '] },
    { title: 'an empty body fails', seen: seen(200, ''), outcome: 'fail', code: 'empty-body', mentions: ['no limit: '] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(expectDefaultPage(s), c);
  });
});

describe('judgeLimit', () => {
  it.each<{ title: string; limit: number; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'limit animals pass', limit: 5, seen: page(pets(5)), outcome: 'pass' },
    { title: 'fewer than limit pass', limit: 5, seen: page(pets(2)), outcome: 'pass' },
    { title: 'none pass', limit: 1, seen: page([]), outcome: 'pass' },
    { title: '100 for limit=100 pass', limit: 100, seen: page(pets(100)), outcome: 'pass' },
    { title: 'limit+1 fails naming both numbers', limit: 5, seen: page(pets(6)), outcome: 'fail', code: 'too-many-animals', mentions: ['limit=5 returned 6 animals'] },
    { title: '2 for limit=1 fails', limit: 1, seen: page(pets(2)), outcome: 'fail', code: 'too-many-animals', mentions: ['limit=1 returned 2'] },
    { title: 'a non-array fails', limit: 5, seen: seen(200, { pets: pets(2) }), outcome: 'fail', code: 'not-json-array', mentions: ['limit=5'] },
    { title: 'an item without id within the limit passes, noting it', limit: 5, seen: seen(200, [{ id: 1, name: 'a', categoryId: 1 }, { name: 'b', categoryId: 1 }]), outcome: 'pass', mentions: ['not a Pet (see list-pets.pet-shape)'] },
    { title: 'items that are not Pets count against the limit, and are noted', limit: 1, seen: seen(200, [{ id: 1, name: 'a', categoryId: 1 }, { name: 'b' }]), outcome: 'fail', code: 'too-many-animals', mentions: ['limit=1 returned 2 animals', 'not a Pet'] },
    { title: '400 for a legal limit fails naming 400', limit: 5, seen: seen(400, errorBody(400)), outcome: 'fail', code: 'not-200', mentions: ['limit=5: got 400'] },
  ])('$title', ({ limit, seen: s, ...c }) => {
    expectJudged(judgeLimit(limit, s), c);
  });
});

describe('judgeNoDuplicates', () => {
  const item = (id: string) => `{"id":${id},"name":"x","categoryId":1}`;

  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'distinct ids pass', seen: page(pets(20)), outcome: 'pass' },
    { title: 'an empty page passes', seen: page([]), outcome: 'pass' },
    { title: '9007199254740993 and 9007199254740992 are different ids: pass', seen: seen(200, `[${item('9007199254740993')},${item('9007199254740992')}]`), outcome: 'pass' },
    { title: 'int64 max and int64 max - 1 are different ids: pass', seen: seen(200, `[${item('9223372036854775807')},${item('9223372036854775806')}]`), outcome: 'pass' },
    { title: 'the same digits above 2^53 twice fail naming the id', seen: seen(200, `[${item('9007199254740993')},${item('1')},${item('9007199254740993')}]`), outcome: 'fail', code: 'duplicate-ids', mentions: ['id 9007199254740993 listed more than once'] },
    { title: 'a small id twice fails naming it', seen: page([pet(3), pet(4), pet(3)]), outcome: 'fail', code: 'duplicate-ids', mentions: ['id 3 listed'] },
    { title: 'two ids twice fail naming both', seen: page([pet(3), pet(4), pet(3), pet(4)]), outcome: 'fail', code: 'duplicate-ids', mentions: ['ids 3, 4'] },
    { title: 'a non-array fails', seen: seen(200, {}), outcome: 'fail', code: 'not-json-array', mentions: ['limit=50: '] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(judgeNoDuplicates('limit=50', s), c);
  });
});

describe('judgeDefaultLimit', () => {
  it.each<{ title: string; store: number; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'a store of more than 20 (page of 100) and exactly 20 pass', store: 100, seen: page(pets(20)), outcome: 'pass' },
    { title: 'a store of 21 and exactly 20 pass', store: 21, seen: page(pets(20)), outcome: 'pass' },
    { title: 'a store of more than 20 and 19 fail naming 19', store: 100, seen: page(pets(19)), outcome: 'fail', code: 'too-few-animals', mentions: ['more than 20', 'has 19'] },
    { title: 'a store of more than 20 and 21 fail naming 21', store: 50, seen: page(pets(21)), outcome: 'fail', code: 'too-many-animals', mentions: ['has 21'] },
    { title: 'a store of 7 and 7 pass', store: 7, seen: page(pets(7)), outcome: 'pass' },
    { title: 'a store of 20 and 20 pass', store: 20, seen: page(pets(20)), outcome: 'pass' },
    { title: 'an empty store and an empty page pass', store: 0, seen: page([]), outcome: 'pass' },
    { title: 'a store of 7 and 5 fail naming both', store: 7, seen: page(pets(5)), outcome: 'fail', code: 'too-few-animals', mentions: ['held 7 animals', 'has 5'] },
    // No delete exists, so another client may only have added animals between the two requests.
    { title: 'a store of 7 that grew to 8 before the default page passes', store: 7, seen: page(pets(8)), outcome: 'pass' },
    { title: 'a store of 7 and a default page of 21 fails', store: 7, seen: page(pets(21)), outcome: 'fail', code: 'too-many-animals', mentions: ['has 21'] },
    { title: 'a default page that is not 200 fails naming it', store: 7, seen: seen(500, errorBody(500)), outcome: 'fail', code: 'not-200', mentions: ['no limit: got 500'] },
  ])('$title', ({ store, seen: s, ...c }) => {
    expectJudged(judgeDefaultLimit(pets(store), s), c);
  });
});

describe('judgeStatusFilter', () => {
  it.each<{ title: string; limit: number; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'all with the status asked for pass', limit: 10, seen: page(pets(10, 'sold')), outcome: 'pass' },
    { title: 'an empty page passes', limit: 10, seen: page([]), outcome: 'pass' },
    { title: 'one with another status fails naming its id and status', limit: 10, seen: page([...pets(3, 'sold'), pet(77, 'available')]), outcome: 'fail', code: 'wrong-status-listed', mentions: ['status=sold', 'id 77 with available'] },
    { title: 'one without status fails naming its id', limit: 10, seen: page([...pets(3, 'sold'), pet(78)]), outcome: 'fail', code: 'wrong-status-listed', mentions: ['id 78 with no status'] },
    { title: 'more than limit fails naming both numbers', limit: 2, seen: page(pets(3, 'sold')), outcome: 'fail', code: 'too-many-animals', mentions: ['limit=2 returned 3'] },
    { title: 'another status and more than limit fail naming both, the status first', limit: 2, seen: page([...pets(2, 'sold'), pet(9, 'pending')]), outcome: 'fail', code: 'wrong-status-listed', mentions: ['id 9 with pending', 'limit=2 returned 3'] },
    { title: '400 fails naming it', limit: 2, seen: seen(400, errorBody(400)), outcome: 'fail', code: 'not-200', mentions: ['got 400'] },
  ])('$title', ({ limit, seen: s, ...c }) => {
    expectJudged(judgeStatusFilter('sold', limit, s), c);
  });
});

describe('judgeStatusFilterInvalid', () => {
  /** A page listPets gives without a filter, the same twice: none of the pages below. */
  const OTHER_PAGE = ['900', '901', '902'];
  it.each<{ title: string; value: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string; unfiltered?: readonly string[] | 'unknown' }>([
    { title: '400 with an Error body passes, saying so', value: 'Available', seen: seen(400, errorBody(400)), outcome: 'pass', mentions: ['status="Available"', 'refused with 400'] },
    { title: 'an empty page passes', value: 'Available', seen: page([]), outcome: 'pass', mentions: ['no animal'] },
    { title: 'animals of the status in another case pass: read ignoring case, left open (list-pets.status-case judges it)', value: 'AVAILABLE', seen: page(pets(3, 'available')), outcome: 'pass', mentions: ['status="AVAILABLE"', '3 animal(s) of status available', 'read ignoring case', 'list-pets.status-case'] },
    { title: '"ſold" matched to sold passes as read ignoring case', value: 'ſold', seen: page(pets(2, 'sold')), outcome: 'pass', mentions: ['status="ſold"', 'of status sold'] },
    { title: 'animals of every status pass: the filter ignored, left open (list-pets.unknown-status judges it)', value: 'adopted', seen: page([pet(1, 'available'), pet(2, 'sold'), pet(3)]), outcome: 'pass', mentions: ['animals of available, sold, no status', 'the filter was ignored', 'list-pets.unknown-status'] },
    { title: 'the empty string ignored passes here too', value: '', seen: page([pet(1, 'available'), pet(2, 'pending')]), outcome: 'pass', mentions: ['status="" (a PetStatus in another case)', 'ignored'] },
    { title: 'animals of one other status fail: another value matched', value: 'availabl', seen: page(pets(2, 'available')), outcome: 'fail', code: 'filter-matched-other-value', mentions: ['status="availabl"', 'of status available', 'not the page listPets gives without a filter'] },
    { title: 'animals of one other status that are the page without a filter pass: the filter ignored over a store (or a page) of that status', value: 'availabl', seen: page(pets(2, 'available')), unfiltered: ['1', '2'], outcome: 'pass', mentions: ['the filter was ignored', 'list-pets.unknown-status'] },
    { title: 'animals of one other status pass when listPets without a filter gave no stable page: not certain, and said', value: 'availabl', seen: page(pets(2, 'available')), unfiltered: 'unknown', outcome: 'pass', mentions: ['could not tell apart'] },
    { title: 'a 500 fails as a server error', value: 'SOLD', seen: seen(500, errorBody(500)), outcome: 'fail', code: 'server-error', mentions: ['got 500, neither 400 nor 200'] },
    { title: '422 fails (the interface has 400 for invalid values)', value: 'SOLD', seen: seen(422, errorBody(422)), outcome: 'fail', code: 'unexpected-status', mentions: ['got 422'] },
    { title: '400 without an Error body passes, leaving the body to errors.error-body', value: 'SOLD', seen: seen(400, 'bad'), outcome: 'pass', mentions: ['status="SOLD" (a PetStatus in another case): refused with 400; its body is errors.error-body\'s to judge'] },
    { title: '200 that is not an array fails', value: 'SOLD', seen: seen(200, {}), outcome: 'fail', code: 'not-json-array', mentions: ['status="SOLD"'] },
  ])('$title', ({ value, seen: s, unfiltered = OTHER_PAGE, ...c }) => {
    expectJudged(judgeStatusFilterInvalid(value, 'a PetStatus in another case', s, unfiltered === 'unknown' ? undefined : unfiltered), c);
  });
});

describe('unfilteredPage', () => {
  it('is the ids of two unfiltered answers in a row when they agree, in order; else unknown', () => {
    expect(unfilteredPage(page(pets(3)), page(pets(3)))).toEqual(['1', '2', '3']);
    expect(unfilteredPage(page([pet(1), pet(2)]), page([pet(2), pet(1)]))).toBeUndefined();
    expect(unfilteredPage(page(pets(3)), page(pets(2)))).toBeUndefined();
    expect(unfilteredPage(page(pets(3)), seen(429, errorBody(429)))).toBeUndefined();
    expect(unfilteredPage(page([]), page([]))).toEqual([]);
  });
});

describe('judgeCreatedVisible', () => {
  const created = pet(2n ** 53n + 1n, 'pending');

  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'listed among others passes', seen: page([...pets(5, 'pending'), created]), outcome: 'pass' },
    { title: 'absent from a page with room fails naming the id', seen: page(pets(5, 'pending')), outcome: 'fail', code: 'created-not-listed', mentions: ['animal 9007199254740993', 'page of 5'] },
    { title: 'only 2^53 listed (the id rounded) fails', seen: page([pet(2n ** 53n, 'pending')]), outcome: 'fail', code: 'created-not-listed', mentions: ['9007199254740993'] },
    { title: 'absent from a full page of 100 passes, saying why', seen: page(pets(100, 'pending')), outcome: 'pass', mentions: ['full (100)', '9007199254740993'] },
    { title: 'a page that is not 200 fails', seen: seen(401, errorBody(401)), outcome: 'fail', code: 'not-200', mentions: ['401'] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(judgeCreatedVisible(created, 'pending', s), c);
  });
});

describe('judgeOutOfRange', () => {
  it.each<{ title: string; raw: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: '400 (rejected) passes', raw: '500', seen: seen(400, errorBody(400)), outcome: 'pass', mentions: ['rejected with 400'] },
    { title: '422 (rejected) passes', raw: '0', seen: seen(422, errorBody(422)), outcome: 'pass' },
    { title: 'clamped: 200 with 100 passes', raw: '500', seen: page(pets(100)), outcome: 'pass' },
    { title: 'clamped: 200 with fewer passes', raw: '101', seen: page(pets(3)), outcome: 'pass' },
    { title: '200 with 101 fails naming the count and the maximum', raw: '500', seen: page(pets(101)), outcome: 'fail', code: 'too-many-animals', mentions: ['limit=500 returned 101 animals', 'more than 100'] },
    { title: 'a 5xx passes here (judged by the no-5xx check)', raw: '101', seen: seen(500, ''), outcome: 'pass', mentions: ['500'] },
    { title: '200 that is not an array fails', raw: '101', seen: seen(200, {}), outcome: 'fail', code: 'not-json-array', mentions: ['limit=101'] },
  ])('$title', ({ raw, seen: s, ...c }) => {
    expectJudged(judgeOutOfRange(raw, 'above the maximum', s), c);
  });
});

describe('list-pets.limit-out-of-range-no-5xx', () => {
  it('fails on a 5xx naming the limit and the status, passes on a 4xx', () => {
    expectJudged(outOfRangeNo5xx.judge('limit=101 (above the maximum)', seen(503, '')), { outcome: 'fail', code: 'server-error', mentions: ['limit=101 (above the maximum): got 503'] });
    expectFinding(outOfRangeNo5xx.judge('limit=101 (above the maximum)', seen(400, errorBody(400))), 'pass');
  });
});

describe('summaries of pages', () => {
  it('show the count and the first ids with every digit', () => {
    const finding = judgeLimit(1, seen(200, `[{"id":9007199254740993,"name":"a","categoryId":1,"status":"sold"},{"id":2,"name":"b","categoryId":1}]`));
    expect(finding.outcome === 'fail' && finding.actual).toBe('200, 2 animals: 9007199254740993:sold, 2');
  });
});
