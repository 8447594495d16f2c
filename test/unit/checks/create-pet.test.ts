// lib/checks/create-pet.ts: 201 with the Pet, exact echo, new ids, persistence, 400 for bad input,
// and a body id that changes nothing.
import { readPet } from '../../../lib/checks/pets.ts';
import { describe, expect, it } from 'vitest';
import {
  describeNewPet,
  describePet,
  describeStatusDefault,
  type InvalidCase,
  judgeBodyId,
  judgeBoundary,
  judgeCreated,
  judgeEcho,
  judgeInvalidRejected,
  judgeNewId,
  judgePersisted,
} from '../../../lib/checks/create-pet.ts';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import { INT64_MAX, INT64_MIN, type NewPet, type Pet } from '../../../lib/models.ts';
import { errorBody, expectFinding, type Outcome, pet, seen } from './_seen.ts';

const TWO_53 = 2n ** 53n;

/** The outcome and mentions asked for; a failure also of the code asked for (every failing case names one). */
function expectJudged(finding: Finding, { outcome, mentions, code }: { outcome: Outcome; mentions?: readonly string[]; code?: string }): void {
  expectFinding(finding, outcome, mentions);
  if (outcome === 'fail') expect(finding).toMatchObject({ outcome: 'fail', code: code ?? '(the case names no code)' });
}

describe('judgeCreated', () => {
  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string; id?: bigint }>([
    { title: '201 with a Pet passes and returns it', seen: seen(201, { id: 1, name: 'Rex', categoryId: 2 }), outcome: 'pass', id: 1n },
    { title: '201 with a Pet and a status passes', seen: seen(201, { id: 5, name: 'Rex', categoryId: 2, status: 'sold' }), outcome: 'pass', id: 5n },
    { title: '201 with a charset passes', seen: seen(201, { id: 5, name: 'Rex', categoryId: 2 }, { 'content-type': 'application/json;charset=utf-8' }), outcome: 'pass', id: 5n },
    { title: '201 with extra fields passes (the interface does not forbid them)', seen: seen(201, { id: 5, name: 'Rex', categoryId: 2, createdAt: 'now' }), outcome: 'pass', id: 5n },
    { title: '201 with an id above 2^53 written as digits passes with the exact bigint', seen: seen(201, '{"id":9007199254740993,"name":"Rex","categoryId":2}'), outcome: 'pass', id: TWO_53 + 1n },
    { title: '201 with id int64 max passes', seen: seen(201, '{"id":9223372036854775807,"name":"Rex","categoryId":2}'), outcome: 'pass', id: INT64_MAX },
    { title: '201 with a negative int64 id passes', seen: seen(201, '{"id":-9223372036854775808,"name":"Rex","categoryId":2}'), outcome: 'pass', id: INT64_MIN },
    { title: '200 fails naming 200', seen: seen(200, { id: 1, name: 'Rex', categoryId: 2 }), outcome: 'fail', code: 'not-201', mentions: ['200', 'not 201'] },
    { title: '400 fails naming 400', seen: seen(400, errorBody(400)), outcome: 'fail', code: 'not-201', mentions: ['400', 'not 201'] },
    { title: '201 without id fails naming id', seen: seen(201, { name: 'Rex', categoryId: 2 }), outcome: 'fail', code: 'invalid-pet', mentions: ['Pet.id'] },
    { title: '201 with id as a fraction fails naming id', seen: seen(201, '{"id":1.5,"name":"Rex","categoryId":2}'), outcome: 'fail', code: 'invalid-pet', mentions: ['Pet.id'] },
    { title: '201 with id as a string fails naming id', seen: seen(201, { id: '12', name: 'Rex', categoryId: 2 }), outcome: 'fail', code: 'invalid-pet', mentions: ['Pet.id'] },
    { title: '201 with id above int64 fails naming id', seen: seen(201, '{"id":9223372036854775808,"name":"Rex","categoryId":2}'), outcome: 'fail', code: 'invalid-pet', mentions: ['Pet.id', 'int64'] },
    { title: '201 without categoryId fails naming it', seen: seen(201, { id: 1, name: 'Rex' }), outcome: 'fail', code: 'invalid-pet', mentions: ['Pet.categoryId'] },
    { title: '201 with a status outside PetStatus fails naming status', seen: seen(201, { id: 1, name: 'Rex', categoryId: 2, status: 'adopted' }), outcome: 'fail', code: 'invalid-pet', mentions: ['Pet.status'] },
    { title: '201 with an empty body fails', seen: seen(201, ''), outcome: 'fail', code: 'empty-body' },
    { title: '201 with a body that is not JSON fails', seen: seen(201, 'Created'), outcome: 'fail', code: 'not-json', mentions: ["got 'C' at position 0"] },
    { title: '201 with a Pet without Content-Type fails saying so', seen: seen(201, { id: 1, name: 'Rex', categoryId: 2 }, {}), outcome: 'fail', code: 'no-content-type', id: 1n },
    { title: '201 without id as text/plain fails on the Pet first', seen: seen(201, { name: 'Rex', categoryId: 2 }, { 'content-type': 'text/plain' }), outcome: 'fail', code: 'invalid-pet', mentions: ['Pet.id', '"text/plain"'] },
    { title: '201 with a Pet labelled text/plain fails naming the Content-Type', seen: seen(201, { id: 1, name: 'Rex', categoryId: 2 }, { 'content-type': 'text/plain' }), outcome: 'fail', code: 'not-json-media-type', mentions: ['Content-Type is "text/plain"'], id: 1n },
  ])('$title', ({ seen: s, outcome, mentions, code, id }) => {
    const { finding, pet: created } = judgeCreated(s);
    expectJudged(finding, { outcome, mentions, code });
    if (id === undefined) expect(created).toBeUndefined();
    else {
      expect(typeof created?.id).toBe('bigint');
      expect(created?.id).toBe(id);
    }
  });
});

describe('judgeEcho', () => {
  /** The 201 a server that echoes `body` (plus an id) answers. */
  const created = (body: Record<string, unknown>) => seen(201, { id: 10n, ...body });

  it.each<{ title: string; sent: NewPet; seen: Seen }>([
    { title: 'a plain name and categoryId echoed pass', sent: { name: 'Rex', categoryId: 3n }, seen: created({ name: 'Rex', categoryId: 3n }) },
    { title: 'emoji (surrogate pairs, ZWJ sequence, flag) echoed pass', sent: { name: '🐶👩‍👩‍👧🇫🇷', categoryId: 3n }, seen: created({ name: '🐶👩‍👩‍👧🇫🇷', categoryId: 3n }) },
    { title: 'combining marks echoed unnormalised pass', sent: { name: 'Ame\u0301lie', categoryId: 3n }, seen: created({ name: 'Ame\u0301lie', categoryId: 3n }) },
    { title: 'leading and trailing whitespace echoed pass', sent: { name: '  Rex\t ', categoryId: 3n }, seen: created({ name: '  Rex\t ', categoryId: 3n }) },
    { title: 'a name echoed with \\u escapes is the same string and passes', sent: { name: 'é🐶', categoryId: 3n }, seen: seen(201, '{"id":10,"name":"\\u00e9\\ud83d\\udc36","categoryId":3}') },
    { title: 'categoryId int64 max echoed with every digit passes', sent: { name: 'Rex', categoryId: INT64_MAX }, seen: seen(201, '{"id":10,"name":"Rex","categoryId":9223372036854775807}') },
    { title: 'categoryId int64 min echoed passes', sent: { name: 'Rex', categoryId: INT64_MIN }, seen: seen(201, '{"id":10,"name":"Rex","categoryId":-9223372036854775808}') },
    { title: 'status sent and echoed passes', sent: { name: 'Rex', categoryId: 3n, status: 'pending' }, seen: created({ name: 'Rex', categoryId: 3n, status: 'pending' }) },
    { title: 'status not sent, none returned passes', sent: { name: 'Rex', categoryId: 3n }, seen: created({ name: 'Rex', categoryId: 3n }) },
    { title: 'status not sent, "available" returned passes (the default is not shown)', sent: { name: 'Rex', categoryId: 3n }, seen: created({ name: 'Rex', categoryId: 3n, status: 'available' }) },
    { title: 'status not sent, "pending" returned passes', sent: { name: 'Rex', categoryId: 3n }, seen: created({ name: 'Rex', categoryId: 3n, status: 'pending' }) },
    { title: 'status not sent, "sold" returned passes', sent: { name: 'Rex', categoryId: 3n }, seen: created({ name: 'Rex', categoryId: 3n, status: 'sold' }) },
    { title: 'fields in another order pass', sent: { name: 'Rex', categoryId: 3n, status: 'sold' }, seen: seen(201, '{"status":"sold","categoryId":3,"id":10,"name":"Rex"}') },
  ])('$title', ({ sent, seen: s }) => {
    expectFinding(judgeEcho(sent, s), 'pass');
  });

  it('members the interface does not name (createdAt, _links) are not compared, and the pass names them', () => {
    const s = created({ name: 'Rex', categoryId: 3n, createdAt: '2030-01-01T00:00:00.000Z', _links: { self: { href: '/v1/pets/10' } } });
    expectFinding(judgeEcho({ name: 'Rex', categoryId: 3n }, s), 'pass', ['members the interface does not name, not compared: createdAt, _links']);
    expectFinding(judgePersisted(pet(10n, undefined, 'Rex', 3n), seen(200, { id: 10n, name: 'Rex', categoryId: 3n, createdAt: 'now' })), 'pass', ['not compared: createdAt']);
  });

  it.each<{ title: string; sent: NewPet; seen: Seen; mentions: string[]; code: string }>([
    { title: 'a trimmed name fails naming name', sent: { name: '  Rex ', categoryId: 3n }, seen: created({ name: 'Rex', categoryId: 3n }), code: 'name-not-echoed', mentions: ['name "Rex"', '"  Rex "'] },
    { title: 'a name normalised to NFC fails naming name', sent: { name: 'Ame\u0301lie', categoryId: 3n }, seen: created({ name: 'Amélie', categoryId: 3n }), code: 'name-not-echoed', mentions: ['name "Amélie"'] },
    { title: 'an emoji replaced by U+FFFD fails naming name', sent: { name: 'Rex🐶', categoryId: 3n }, seen: created({ name: 'Rex\uFFFD', categoryId: 3n }), code: 'name-not-echoed', mentions: ['name "Rex\uFFFD"'] },
    {
      title: 'categoryId 9223372036854775807 returned as 9223372036854775808 (precision loss) fails naming categoryId',
      sent: { name: 'Rex', categoryId: INT64_MAX },
      seen: seen(201, '{"id":10,"name":"Rex","categoryId":9223372036854775808}'),
      code: 'invalid-pet',
      mentions: ['Pet.categoryId'],
    },
    {
      title: 'categoryId 9223372036854775807 returned as 9223372036854775800 (rounded) fails naming both values',
      sent: { name: 'Rex', categoryId: INT64_MAX },
      seen: seen(201, '{"id":10,"name":"Rex","categoryId":9223372036854775800}'),
      code: 'category-id-not-echoed',
      mentions: ['categoryId 9223372036854775800', '9223372036854775807 sent'],
    },
    {
      title: 'categoryId 2^53+1 returned as 2^53 fails naming both values',
      sent: { name: 'Rex', categoryId: TWO_53 + 1n },
      seen: seen(201, '{"id":10,"name":"Rex","categoryId":9007199254740992}'),
      code: 'category-id-not-echoed',
      mentions: ['categoryId 9007199254740992', '9007199254740993 sent'],
    },
    { title: 'categoryId returned as a string fails naming categoryId', sent: { name: 'Rex', categoryId: 3n }, seen: created({ name: 'Rex', categoryId: '3' }), code: 'invalid-pet', mentions: ['Pet.categoryId'] },
    { title: 'status sent but missing fails naming status', sent: { name: 'Rex', categoryId: 3n, status: 'sold' }, seen: created({ name: 'Rex', categoryId: 3n }), code: 'status-not-echoed', mentions: ['status absent', '"sold" sent'] },
    { title: 'status sent but another returned fails naming both', sent: { name: 'Rex', categoryId: 3n, status: 'sold' }, seen: created({ name: 'Rex', categoryId: 3n, status: 'available' }), code: 'status-not-echoed', mentions: ['status "available"', '"sold" sent'] },
    { title: 'name and status both changed fail naming both, the code the first\'s', sent: { name: 'Rex', categoryId: 3n, status: 'sold' }, seen: created({ name: 'rex', categoryId: 3n, status: 'available' }), code: 'name-not-echoed', mentions: ['name "rex"', 'status "available"'] },
    { title: 'not created (400) fails with created\'s code, naming the status', sent: { name: 'Rex', categoryId: 3n }, seen: seen(400, errorBody(400)), code: 'not-201', mentions: ['got 400, not 201'] },
    { title: 'a 201 that is not a Pet fails with created\'s code', sent: { name: 'Rex', categoryId: 3n }, seen: seen(201, ''), code: 'empty-body', mentions: [] },
  ])('$title', ({ sent, seen: s, mentions, code }) => {
    expectJudged(judgeEcho(sent, s), { outcome: 'fail', mentions, code });
  });
});

describe('judgeNewId', () => {
  it.each<{ title: string; id: bigint; before: bigint[]; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'an id not seen before passes', id: 4n, before: [1n, 2n, 3n], outcome: 'pass' },
    { title: 'the first id of an empty store passes', id: 1n, before: [], outcome: 'pass' },
    { title: 'an id already taken fails naming it', id: 2n, before: [1n, 2n, 3n], outcome: 'fail', code: 'id-taken', mentions: ['id 2'] },
    { title: '2^53+1 is not 2^53: passes', id: TWO_53 + 1n, before: [TWO_53], outcome: 'pass' },
    { title: 'a taken id above 2^53 fails naming every digit', id: TWO_53 + 1n, before: [TWO_53 + 1n], outcome: 'fail', code: 'id-taken', mentions: ['9007199254740993'] },
  ])('$title', ({ id, before, ...c }) => {
    expectJudged(judgeNewId(pet(id), new Set(before)), c);
  });
});

describe('judgePersisted', () => {
  const createdPet = pet(TWO_53 + 1n, 'pending', 'Rex ', INT64_MAX);

  // The getPet response's own body problems have codes of their own (get-…): the suite's predicate
  // also returns judgeCreated's (not-201, invalid-pet, …) for the POST, under the same check.
  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'the same Pet passes', seen: seen(200, createdPet), outcome: 'pass' },
    { title: 'the same Pet with fields in another order passes', seen: seen(200, '{"status":"pending","categoryId":9223372036854775807,"name":"Rex ","id":9007199254740993}'), outcome: 'pass' },
    { title: '404 fails naming the id and 404', seen: seen(404, errorBody(404)), outcome: 'fail', code: 'get-not-200', mentions: ['getPet(9007199254740993)', '404'] },
    { title: 'another name fails naming name', seen: seen(200, { ...createdPet, name: 'Rex' }), outcome: 'fail', code: 'name-differs', mentions: ['name "Rex"'] },
    { title: 'another categoryId fails naming categoryId', seen: seen(200, { ...createdPet, categoryId: INT64_MAX - 7n }), outcome: 'fail', code: 'category-id-differs', mentions: ['categoryId 9223372036854775800'] },
    { title: 'another status fails naming status', seen: seen(200, { ...createdPet, status: 'sold' }), outcome: 'fail', code: 'status-differs', mentions: ['status "sold"'] },
    { title: 'another id (rounded to 2^53) fails naming id', seen: seen(200, { ...createdPet, id: TWO_53 }), outcome: 'fail', code: 'id-differs', mentions: ['id 9007199254740992 is not 9007199254740993'] },
    { title: 'a body that is not JSON fails', seen: seen(200, 'OK'), outcome: 'fail', code: 'get-not-json', mentions: ["got 'O' at position 0"] },
    { title: 'a body that is not a Pet fails', seen: seen(200, { id: 1 }), outcome: 'fail', code: 'get-invalid-pet', mentions: ['Pet.name'] },
    { title: 'the same Pet as text/plain fails on the Content-Type', seen: seen(200, createdPet, { 'content-type': 'text/plain' }), outcome: 'fail', code: 'get-not-json-media-type', mentions: ['"text/plain"'] },
    { title: 'another name as text/plain fails on the name first', seen: seen(200, { ...createdPet, name: 'Rex' }, { 'content-type': 'text/plain' }), outcome: 'fail', code: 'name-differs', mentions: ['name "Rex"', '"text/plain"'] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(judgePersisted(createdPet, s), c);
  });
});

describe('judgeInvalidRejected', () => {
  const reason = 'categoryId has a fraction';
  const fraction = { reason, contentType: 'application/json' };

  it.each<{ title: string; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: '400 with an Error body passes', seen: seen(400, errorBody(400)), outcome: 'pass' },
    // A 400's body is errors.error-body's (judged once over the run): the status is this check's.
    { title: '400 without a body passes, naming the reason and what errors.error-body will find', seen: seen(400, ''), outcome: 'pass', mentions: [`${reason}: 400; its body is errors.error-body's to judge: body is empty`] },
    { title: '400 whose Error.status is 422 passes, naming it for errors.error-body', seen: seen(400, errorBody(422)), outcome: 'pass', mentions: [reason, 'Error.status is 422'] },
    { title: '201 fails as accepted', seen: seen(201, { id: 1, name: 'Rex', categoryId: 1 }), outcome: 'fail', code: 'accepted', mentions: [reason, '201'] },
    { title: '200 fails as accepted', seen: seen(200, {}), outcome: 'fail', code: 'accepted', mentions: ['200'] },
    { title: '500 fails as a server error', seen: seen(500, errorBody(500)), outcome: 'fail', code: 'server-error', mentions: [reason, '500'] },
    { title: '503 fails as a server error', seen: seen(503, ''), outcome: 'fail', code: 'server-error', mentions: ['503'] },
    { title: '422 fails naming 422 (the interface says 400)', seen: seen(422, errorBody(422)), outcome: 'fail', code: 'not-400', mentions: ['422', 'not 400'] },
  ])('$title', ({ seen: s, ...c }) => {
    expectJudged(judgeInvalidRejected(fraction, s), c);
  });

  // "12" for categoryId 12, "SOLD" or " sold" for sold: values of another type or outside the enum,
  // which the interface calls invalid; created as their reading fails (coerced), anything else
  // created is not what the body spells (accepted). A null status and JSON5 are readings of what the
  // interface does not describe: created as the reading passes (create-pet.lenient-input's).
  const json = 'application/json';
  const numeric = { reason: 'categoryId is a numeric string', contentType: json, body: '{"name":"Rex","categoryId":"12"}', readings: [{ name: 'Rex', categoryId: 12n }], coerced: true };
  const upper = { reason: 'status is a PetStatus in another case', contentType: json, body: '{"name":"Rex","categoryId":12,"status":"SOLD"}', readings: [{ name: 'Rex', categoryId: 12n, status: 'sold' as const }], coerced: true };
  const padded = { reason: 'status is a PetStatus with whitespace at its ends', contentType: json, readings: [{ name: 'Rex', categoryId: 12n, status: 'sold' as const }], coerced: true };
  const numberName = { reason: 'name is a number', contentType: json, body: '{"name":42,"categoryId":12}', readings: [{ name: '42', categoryId: 12n }], coerced: true };
  const twice = { reason: 'string instead of object', contentType: json, body: JSON.stringify('{"name":"Rex","categoryId":12}'), readings: [{ name: 'Rex', categoryId: 12n }], coerced: true };
  const nullStatus = { reason: 'status is null', contentType: json, body: '{"name":"Rex","categoryId":12,"status":null}', readings: [{ name: 'Rex', categoryId: 12n }] };
  const trailingComma = { reason: 'malformed JSON: trailing comma', contentType: json, body: '{"name":"Rex","categoryId":12,}', readings: [{ name: 'Rex', categoryId: 12n }] };
  it.each<{ title: string; c: InvalidCase; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    {
      title: '"12" created as 12 fails as coerced, naming the value as written and as stored',
      c: numeric,
      seen: seen(201, pet(7, undefined, 'Rex', 12)),
      outcome: 'fail',
      code: 'coerced',
      mentions: ['categoryId is a numeric string, written "12": got 201, created pet 7 with categoryId 12: a value the interface calls invalid was read as another'],
    },
    { title: 'without the body, the message names the field as stored', c: { ...numeric, body: undefined }, seen: seen(201, pet(7, undefined, 'Rex', 12)), outcome: 'fail', code: 'coerced', mentions: ['categoryId is a numeric string: got 201, created pet 7 with categoryId 12: a value the interface calls invalid'] },
    { title: '"SOLD" created and stored as "sold" fails as coerced', c: upper, seen: seen(201, pet(8, 'sold', 'Rex', 12)), outcome: 'fail', code: 'coerced', mentions: ['status is a PetStatus in another case, written "SOLD": got 201, created pet 8 with status "sold"'] },
    { title: 'a padded status read as that status fails as coerced', c: padded, seen: seen(201, pet(5, 'sold', 'Rex', 12)), outcome: 'fail', code: 'coerced' },
    { title: '42 for a name stored as "42" fails as coerced', c: numberName, seen: seen(201, pet(9, undefined, '42', 12)), outcome: 'fail', code: 'coerced', mentions: ['name is a number, written 42: got 201, created pet 9 with name "42"'] },
    { title: 'a NewPet JSON-encoded twice created as it fails as coerced, quoting the body', c: twice, seen: seen(201, pet(10, undefined, 'Rex', 12)), outcome: 'fail', code: 'coerced', mentions: ['string instead of object ("', 'created { id: 10, name: "Rex", categoryId: 12 }'] },
    { title: 'created as another number fails as accepted, saying what was created', c: numeric, seen: seen(201, pet(3, undefined, 'Rex', 0)), outcome: 'fail', code: 'accepted', mentions: ['created { id: 3, name: "Rex", categoryId: 0 }', 'not what the body spells'] },
    { title: 'created under another name fails as accepted', c: numeric, seen: seen(201, pet(3, undefined, 'Rex ', 12)), outcome: 'fail', code: 'accepted' },
    { title: 'a 2xx without a Pet fails as accepted: nothing says what was created', c: numeric, seen: seen(201, ''), outcome: 'fail', code: 'accepted', mentions: ['no Pet came back'] },
    { title: 'a padded status stored as another fails as accepted', c: padded, seen: seen(201, pet(5, 'available', 'Rex', 12)), outcome: 'fail', code: 'accepted' },
    { title: 'a padded status stored as none fails as accepted', c: padded, seen: seen(201, pet(5, undefined, 'Rex', 12)), outcome: 'fail', code: 'accepted' },
    {
      title: 'a null status read as none passes, whatever status the server gives by default, naming the check that judges it',
      c: nullStatus,
      seen: seen(201, pet(4, 'available', 'Rex', 12)),
      outcome: 'pass',
      mentions: ['read leniently as { name: "Rex", categoryId: 12 } (pet 4), which the interface does not describe', "create-pet.lenient-input's to judge"],
    },
    { title: 'a trailing comma read as the NewPet passes', c: trailingComma, seen: seen(201, pet(11, undefined, 'Rex', 12)), outcome: 'pass', mentions: ['read leniently'] },
    { title: 'a trailing comma read as another animal fails as accepted', c: trailingComma, seen: seen(201, pet(11, undefined, 'Rex', 1)), outcome: 'fail', code: 'accepted' },
    { title: 'the empty status (no reading) created without status fails, saying what was created', c: { reason: 'status is the empty string', contentType: json }, seen: seen(201, pet(6, undefined, 'Rex', 12)), outcome: 'fail', code: 'accepted', mentions: ['status is the empty string: got 201 (accepted), not 400: created { id: 6, name: "Rex", categoryId: 12 }'] },
    { title: 'refused with 400 passes', c: numeric, seen: seen(400, errorBody(400)), outcome: 'pass' },
    { title: 'a null status refused with 400 passes', c: nullStatus, seen: seen(400, errorBody(400)), outcome: 'pass' },
  ])('readings: $title', ({ c, seen: s, ...expected }) => {
    expectJudged(judgeInvalidRejected(c, s), expected);
  });

  // Spring and ASP.NET Core answer 415 to a body they would bind that comes without Content-Type.
  it.each<{ title: string; c: InvalidCase; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'no body without Content-Type: 415 passes, saying why', c: { reason: 'no body' }, seen: seen(415, errorBody(415)), outcome: 'pass', mentions: ['no body: 415 (sent without Content-Type'] },
    { title: 'no body without Content-Type: 400 passes', c: { reason: 'no body' }, seen: seen(400, errorBody(400)), outcome: 'pass' },
    { title: 'no body without Content-Type: 422 fails, naming both legal statuses', c: { reason: 'no body' }, seen: seen(422, errorBody(422)), outcome: 'fail', code: 'not-400', mentions: ['not 400 or 415'] },
    { title: 'a JSON body: 415 fails (its media type was right)', c: { reason: 'empty body', contentType: json }, seen: seen(415, errorBody(415)), outcome: 'fail', code: 'not-400', mentions: ['got 415 (415), not 400'] },
  ])('media type: $title', ({ c, seen: s, ...expected }) => {
    expectJudged(judgeInvalidRejected(c, s), expected);
  });
});

describe('a 5xx where another status was expected', () => {
  it('is responses.no-5xx\'s failure first: the finding names it as its root', () => {
    expect(judgeInvalidRejected({ reason: 'categoryId has a fraction', contentType: 'application/json' }, seen(500, ''))).toMatchObject({ outcome: 'fail', code: 'server-error', explainedBy: 'responses.no-5xx' });
    expect(judgeBoundary({ pet: { name: 'x'.repeat(10_000), categoryId: 5n }, reason: 'name of 10,000 characters', mayRefuseWith: [400, 413] }, seen(503, ''))).toMatchObject({ code: 'server-error', explainedBy: 'responses.no-5xx' });
    // Another wrong status names no such root.
    expect(judgeInvalidRejected({ reason: 'categoryId has a fraction', contentType: 'application/json' }, seen(422, errorBody(422)))).not.toHaveProperty('explainedBy');
  });
});

describe('judgeBoundary', () => {
  const mustCreate = { pet: { name: 'cf-e\u0301', categoryId: 5n }, reason: 'name with combining characters', mayRefuseWith: [] };
  const mayRefuse = { pet: { name: '', categoryId: 5n, status: 'sold' as const }, reason: 'name empty', mayRefuseWith: [400] };
  const longest = { pet: { name: 'x'.repeat(10_000), categoryId: 5n }, reason: 'name of 10,000 characters', mayRefuseWith: [400, 413] };
  const minusZero = { pet: { name: 'cf-categoryId -0', categoryId: 0n }, reason: 'categoryId written -0', mayRefuseWith: [400] };
  const created = (p: NewPet, id = 9) => seen(201, { id, ...p });

  it.each<{ title: string; c: typeof mustCreate | typeof mayRefuse | typeof longest | typeof minusZero; seen: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'created exactly passes', c: mustCreate, seen: created(mustCreate.pet), outcome: 'pass' },
    { title: 'an empty name created exactly passes', c: mayRefuse, seen: created(mayRefuse.pet), outcome: 'pass' },
    { title: 'an empty name refused with 400 and an Error body passes, saying so', c: mayRefuse, seen: seen(400, errorBody(400)), outcome: 'pass', mentions: ['name empty: refused with 400'] },
    { title: 'the longest name refused with 413 passes', c: longest, seen: seen(413, errorBody(413)), outcome: 'pass', mentions: ['refused with 413'] },
    { title: '-0 created as categoryId 0 passes', c: minusZero, seen: seen(201, '{"id":3,"name":"cf-categoryId -0","categoryId":0}'), outcome: 'pass' },
    { title: 'a name that must be created refused with 400 fails', c: mustCreate, seen: seen(400, errorBody(400)), outcome: 'fail', code: 'not-201', mentions: ['name with combining characters: got 400'] },
    { title: 'a 413 where only 400 is allowed fails', c: mayRefuse, seen: seen(413, errorBody(413)), outcome: 'fail', code: 'unexpected-status', mentions: ['got 413', 'neither 201 nor 400'] },
    { title: 'a 500 fails as a server error, even where a refusal is allowed', c: longest, seen: seen(500, errorBody(500)), outcome: 'fail', code: 'server-error', mentions: ['name of 10,000 characters: got 500'] },
    { title: 'a normalised name fails naming both', c: mustCreate, seen: created({ name: 'cf-\u00e9', categoryId: 5n }), outcome: 'fail', code: 'name-not-echoed', mentions: ['name "cf-\u00e9" is not the "cf-e\u0301" sent'] },
    { title: 'a long name cut short fails without quoting it whole', c: longest, seen: created({ name: 'x'.repeat(4096), categoryId: 5n }), outcome: 'fail', code: 'name-not-echoed', mentions: ['a name of 10000 UTF-16 code units came back with 4096, differing from index 4096'] },
    { title: 'another categoryId fails naming it', c: mayRefuse, seen: created({ ...mayRefuse.pet, categoryId: 6n }), outcome: 'fail', code: 'category-id-not-echoed', mentions: ['categoryId 6 is not the 5 sent'] },
    { title: 'a status dropped fails', c: mayRefuse, seen: created({ name: '', categoryId: 5n }), outcome: 'fail', code: 'status-not-echoed', mentions: ['status absent is not the "sold" sent'] },
    { title: 'a refusal without an Error body passes, leaving the body to errors.error-body', c: mayRefuse, seen: seen(400, ''), outcome: 'pass', mentions: ["name empty: refused with 400; its body is errors.error-body's to judge"] },
    { title: 'a 201 that is not a Pet fails', c: mustCreate, seen: seen(201, { name: 'x' }), outcome: 'fail', code: 'invalid-pet', mentions: ['name with combining characters'] },
    { title: 'a 201 with an empty body fails, apart from a refusal without one', c: mayRefuse, seen: seen(201, ''), outcome: 'fail', code: 'empty-body', mentions: ['name empty: '] },
    { title: 'a refusal whose Error.status is another passes, naming both for errors.error-body', c: longest, seen: seen(413, errorBody(400)), outcome: 'pass', mentions: ['Error.status is 400', 'HTTP status is 413'] },
  ])('$title', ({ c, seen: s, ...expected }) => {
    expectJudged(judgeBoundary(c, s), expected);
  });


  it('keeps the message short for long names', () => {
    const finding = judgeBoundary(longest, created({ name: 'y'.repeat(10_000), categoryId: 5n }));
    expect(finding.outcome === 'fail' && finding.message.length).toBeLessThan(300);
  });
});

describe('judgeBodyId', () => {
  const existing: Pet = pet(42, 'pending', 'cf-id target', 7n);
  const intact = seen(200, existing);

  it.each<{ title: string; create: Seen; after: Seen; outcome: Outcome; mentions?: string[]; code?: string }>([
    { title: 'a new animal with another id, the existing one intact, passes', create: seen(201, pet(43, 'sold', 'Other')), after: intact, outcome: 'pass' },
    { title: 'a 400 rejection, the existing one intact, passes', create: seen(400, errorBody(400)), after: intact, outcome: 'pass' },
    { title: 'a 409 rejection, the existing one intact, passes', create: seen(409, errorBody(409)), after: intact, outcome: 'pass' },
    { title: 'the new animal took the existing id fails naming it', create: seen(201, pet(42, 'sold', 'Other')), after: intact, outcome: 'fail', code: 'took-existing-id', mentions: ['took id 42'] },
    {
      title: 'the existing animal overwritten fails naming the field',
      create: seen(201, pet(43, 'sold', 'Other')),
      after: seen(200, { ...existing, name: 'Other' }),
      outcome: 'fail',
      code: 'existing-name-differs',
      mentions: ['name "Other"'],
    },
    { title: 'the existing animal gone fails naming it and the status', create: seen(201, pet(43)), after: seen(404, errorBody(404)), outcome: 'fail', code: 'existing-gone', mentions: ['existing animal 42', '404'] },
    { title: 'a 500 for the POST fails naming it', create: seen(500, errorBody(500)), after: intact, outcome: 'fail', code: 'neither-created-nor-rejected', mentions: ['500'] },
    { title: 'a 200 for the POST fails naming it', create: seen(200, pet(43)), after: intact, outcome: 'fail', code: 'neither-created-nor-rejected', mentions: ['got 200'] },
    { title: 'the existing animal\'s status changed fails naming it', create: seen(400, errorBody(400)), after: seen(200, { ...existing, status: 'sold' }), outcome: 'fail', code: 'existing-status-differs', mentions: ['status "sold" is not "pending"'] },
  ])('$title', ({ create, after, ...c }) => {
    expectJudged(judgeBodyId(existing, create, after), c);
  });
});

describe('describeStatusDefault', () => {
  it('records the status an animal created without one comes back with', () => {
    expectFinding(describeStatusDefault(seen(201, pet(1, 'available'))), 'pass', ['status "available"']);
    expectFinding(describeStatusDefault(seen(201, pet(1))), 'pass', ['without status']);
    // What an animal without status holds is "not shown": null is a spelling of none, said as seen.
    expectFinding(describeStatusDefault(seen(201, { ...pet(1), status: null })), 'pass', ['with "status": null']);
  });

  it('a null status is no failure of the Pet (read as none), but another value still is', () => {
    expect(readPet(seen(201, { ...pet(3), status: null }))).toMatchObject({ problems: [], value: { id: 3n, status: undefined } });
    expect(readPet(seen(201, { ...pet(3), status: 'adopted' })).problems.map((p) => p.code)).toEqual(['invalid-pet']);
  });

  it('fails when the animal was not created, naming the status', () => {
    expectJudged(describeStatusDefault(seen(400, errorBody(400))), { outcome: 'fail', code: 'not-created', mentions: ['400'] });
    expectJudged(describeStatusDefault(seen(201, { name: 'x' })), { outcome: 'fail', code: 'not-created', mentions: ['201'] });
  });
});

describe('describeNewPet / describePet', () => {
  it('write int64 values with every digit', () => {
    expect(describeNewPet({ name: 'Rex', categoryId: INT64_MAX, status: 'sold' })).toBe('{ name: "Rex", categoryId: 9223372036854775807, status: sold }');
    expect(describePet(pet(TWO_53 + 1n, undefined, 'Rex', 1n))).toBe('{ id: 9007199254740993, name: "Rex", categoryId: 1 }');
  });
});
