// lib/checks/ids.ts: one id per animal, judged from what getPet answered at its aliases, what
// POSTs sent together with several keys got, and what each key found.
import { describe, expect, it } from 'vitest';
import { type AliasLookup, foundByItsOwnKey, judgeAliasLookup, judgeIdsAcrossKeys, judgeKeyedLookup, judgeOwnIdOnly, judgeSameForEveryKey, type KeyedCreate, type KnownAnimal, type KeyedLookup } from '../../../lib/checks/ids.ts';
import { idAliases, type IdAlias } from '../../../lib/generators/id-aliases.ts';
import type { NewPet } from '../../../lib/models.ts';
import { errorBody, expectFinding, pet, seen } from './_seen.ts';

const seven = pet(7, 'pending', 'conformance-harness own id 1-abc', 17);
const created: KnownAnimal = { pet: seven, source: 'created', by: 'pro#1' };
const listed: KnownAnimal = { pet: seven, source: 'listed', by: 'pro#1' };
const aliasOf = (id: bigint): IdAlias => idAliases(7n).find((a) => a.id === id)!;
const notFound = seen(404, errorBody(404));

/** Every alias of 7 answered 404, but those given. */
function lookups(known: KnownAnimal, answers: Map<bigint, ReturnType<typeof seen>> = new Map()): AliasLookup[] {
  return idAliases(known.pet.id).map((alias) => ({ known, alias, seen: answers.get(alias.id) ?? notFound }));
}

describe('get-pet.own-id-only', () => {
  it('passes when every alias gets 404 or 400, saying how many were tried', () => {
    const answers = new Map([[-7n, seen(400, errorBody(400))]]);
    const finding = judgeOwnIdOnly(lookups(created, answers));
    expectFinding(finding, 'pass', ['pet 7 (created with pro#1)', `${idAliases(7n).length} ids`, '400 ×1', '404 ×']);
  });

  it('fails when the animal is served at X + 2^32, naming both ids and the mistake', () => {
    const finding = judgeAliasLookup({ known: listed, alias: aliasOf(4_294_967_303n), seen: seen(200, seven) });
    expectFinding(finding, 'fail', ['pet 7 is also served at 4294967303', 'kept in 32 bits']);
    expect(finding).toMatchObject({ code: 'served-at-wrapped-id' });
  });

  it('names the kind of mistake in the code: the sign, a neighbour, an edge', () => {
    expect(judgeAliasLookup({ known: listed, alias: aliasOf(-7n), seen: seen(200, seven) })).toMatchObject({ outcome: 'fail', code: 'served-at-negated-id' });
    expect(judgeAliasLookup({ known: listed, alias: aliasOf(6n), seen: seen(200, seven) })).toMatchObject({ outcome: 'fail', code: 'served-at-adjacent-id' });
    expect(judgeAliasLookup({ known: listed, alias: aliasOf(0n), seen: seen(200, seven) })).toMatchObject({ outcome: 'fail', code: 'served-at-edge-id' });
  });

  it('accepts an alias that is a real animal with that very id (ids may be sparse), also beyond 2^53', () => {
    const next = pet(7n + 2n ** 32n, 'sold', 'another', 3);
    expectFinding(judgeAliasLookup({ known: created, alias: aliasOf(4_294_967_303n), seen: seen(200, next) }), 'pass');
    const big = pet(2n ** 53n + 1n, 'pending');
    const bigAlias = idAliases(big.id).find((a) => a.id === 2n ** 53n + 2n)!;
    // The neighbour: a double would round both to one number; the digits tell them apart.
    expectFinding(judgeAliasLookup({ known: { pet: big, source: 'listed', by: 'free#1' }, alias: bigAlias, seen: seen(200, `{"id":9007199254740994,"name":"pet other","categoryId":7,"status":"pending"}`) }), 'pass');
    expectFinding(judgeAliasLookup({ known: { pet: big, source: 'listed', by: 'free#1' }, alias: bigAlias, seen: seen(200, `{"id":9007199254740993,"name":"pet x","categoryId":7}`) }), 'fail', ['pet 9007199254740993 is also served at 9007199254740994']);
  });

  it('fails when an animal the check created comes back under the id asked for, with all its fields', () => {
    const copy = { ...seven, id: -7n };
    const finding = judgeAliasLookup({ known: created, alias: aliasOf(-7n), seen: seen(200, copy) });
    expectFinding(finding, 'fail', ['pet 7 is also served at -7, under the id asked for']);
    expect(finding).toMatchObject({ code: 'served-at-negated-id' });
    // A listed animal may have a twin with the same fields: then only its id tells.
    expectFinding(judgeAliasLookup({ known: listed, alias: aliasOf(-7n), seen: seen(200, copy) }), 'pass');
  });

  it('takes a twin at a positive alias for what it is: an animal an earlier run with the same seed left there', () => {
    // The name carries the seed only (the same seed sends the same requests), so X - 1 may hold its twin.
    expectFinding(judgeAliasLookup({ known: created, alias: aliasOf(6n), seen: seen(200, { ...seven, id: 6n }) }), 'pass');
    expectFinding(judgeAliasLookup({ known: created, alias: aliasOf(4_294_967_303n), seen: seen(200, { ...seven, id: 4_294_967_303n }) }), 'pass');
  });

  it('where ids are negative, takes a twin at a negative alias for an earlier run\'s animal, and still fails one across zero', () => {
    // Ids -1, -2, … (a legal assignment): an earlier run's twin sits on the negative side, at X + 1 or at an edge such as -2^7.
    const minus7 = pet(-7, 'pending', 'conformance-harness own id 1-abc', 17);
    const mine: KnownAnimal = { pet: minus7, source: 'created', by: 'pro#1' };
    const aliasOfMinus7 = (id: bigint) => idAliases(-7n).find((a) => a.id === id)!;
    expectFinding(judgeAliasLookup({ known: mine, alias: aliasOfMinus7(-6n), seen: seen(200, { ...minus7, id: -6n }) }), 'pass');
    expectFinding(judgeAliasLookup({ known: mine, alias: aliasOfMinus7(-128n), seen: seen(200, { ...minus7, id: -128n }) }), 'pass');
    expectFinding(judgeAliasLookup({ known: mine, alias: aliasOfMinus7(-1n), seen: seen(200, { ...minus7, id: -1n }) }), 'pass');
    // Across zero no earlier animal sits: its fields under 7 or 0 are the animal itself, the sign or the id dropped.
    expect(judgeAliasLookup({ known: mine, alias: aliasOfMinus7(7n), seen: seen(200, { ...minus7, id: 7n }) })).toMatchObject({ outcome: 'fail', code: 'served-at-negated-id' });
    expect(judgeAliasLookup({ known: mine, alias: aliasOfMinus7(0n), seen: seen(200, { ...minus7, id: 0n }) })).toMatchObject({ outcome: 'fail', code: 'served-at-edge-id' });
    // And served by its own id at an alias, whatever the sign.
    expect(judgeAliasLookup({ known: mine, alias: aliasOfMinus7(-6n), seen: seen(200, minus7) })).toMatchObject({ outcome: 'fail', code: 'served-at-adjacent-id' });
  });

  it('fails when another animal than the one asked for comes back', () => {
    const finding = judgeAliasLookup({ known: listed, alias: aliasOf(2n ** 32n - 1n), seen: seen(200, pet(1, 'sold')) });
    expectFinding(finding, 'fail', ['getPet(4294967295) answered pet 1', 'high end of uint32']);
    expect(finding).toMatchObject({ code: 'wrong-animal-served' });
  });

  it('leaves a 5xx, a 401 and a 2xx without a Pet to the checks they belong to', () => {
    for (const answer of [seen(500, errorBody(500)), seen(401, errorBody(401)), seen(200, {}), seen(200, 'not json')]) {
      expectFinding(judgeAliasLookup({ known: listed, alias: aliasOf(-7n), seen: answer }), 'pass');
    }
  });

  it('judges the first failure of a run of aliases, and skips without an animal', () => {
    const answers = new Map([[7n + 2n ** 32n, seen(200, seven)], [7n - 2n ** 32n, seen(200, seven)]]);
    expect(judgeOwnIdOnly(lookups(listed, answers))).toMatchObject({ outcome: 'fail', code: 'served-at-wrapped-id', message: expect.stringContaining('4294967303') });
    expectFinding(judgeOwnIdOnly([]), 'skip', ['writes are not allowed']);
  });

  it('says which aliases held animals of their own', () => {
    const answers = new Map([[7n + 2n ** 32n, seen(200, pet(7n + 2n ** 32n, 'sold', 'other'))]]);
    expectFinding(judgeOwnIdOnly(lookups(created, answers)), 'pass', ['1 of them holds an animal of its own (4294967303)']);
  });
});

const sentBy = (i: number): NewPet => ({ name: `n${i}`, categoryId: BigInt(i), status: 'available' });
const keyed = (key: string, connection: number, id: bigint | undefined, status = 201): KeyedCreate => ({
  key,
  connection,
  sent: sentBy(connection),
  seen: id === undefined ? seen(status, errorBody(status)) : seen(status, { id, ...sentBy(connection) }),
});

describe('concurrency.ids-across-keys', () => {
  it('passes when every POST, over every key and connection, got its own id', () => {
    const creates = [keyed('pro#1', 1, 61n), keyed('pro#1', 2, 62n), keyed('free#1', 3, 63n), keyed('free#1', 4, 64n)];
    expectFinding(judgeIdsAcrossKeys(creates), 'pass', ['4 POSTs sent together with pro#1, free#1', '4 distinct ids']);
    expectFinding(judgeIdsAcrossKeys([keyed('free#1', 1, 1n), keyed('free#1', 2, 2n)]), 'pass', ['with free#1 over 2 connections']);
  });

  it('fails when two keys got one id, naming the id and both keys by label', () => {
    const finding = judgeIdsAcrossKeys([keyed('pro#1', 1, 61n), keyed('pro#1', 2, 62n), keyed('free#1', 3, 61n), keyed('free#1', 4, 62n)]);
    expectFinding(finding, 'fail', ['id 61 was given to two animals, one created with pro#1 (connection 1), one with free#1 (connection 3)']);
    expect(finding).toMatchObject({ code: 'repeated-across-keys' });
  });

  it('fails apart when one key got one id over two connections', () => {
    const finding = judgeIdsAcrossKeys([keyed('pro#1', 1, 61n), keyed('pro#1', 2, 61n), keyed('free#1', 3, 61n), keyed('free#1', 4, 61n)]);
    expectFinding(finding, 'fail', ['id 61 was given to two animals created with pro#1, one on connection 1, one on connection 2']);
    expect(finding).toMatchObject({ code: 'repeated-across-connections' });
  });

  it('leaves out POSTs refused with 429, and skips when too few created an animal', () => {
    expectFinding(judgeIdsAcrossKeys([keyed('pro#1', 1, 61n), keyed('pro#1', 2, 62n), keyed('free#1', 3, undefined, 429)]), 'pass', ['1 more refused with 429']);
    expectFinding(judgeIdsAcrossKeys([keyed('pro#1', 1, 61n), keyed('free#1', 2, undefined, 429)]), 'skip', ['only 1 of 2 POSTs']);
    expectFinding(judgeIdsAcrossKeys([]), 'skip');
  });

  it('fails a POST that got no 201 as create-pet.created explains it', () => {
    const finding = judgeIdsAcrossKeys([keyed('pro#1', 1, 61n), keyed('free#1', 2, undefined, 400)]);
    expectFinding(finding, 'fail', ['free#1 on connection 2', 'got 400']);
    expect(finding).toMatchObject({ code: 'not-201', explainedBy: 'create-pet.created' });
  });
});

const other: KnownAnimal = { pet: pet(3, 'sold', 'listed one', 2), source: 'listed', by: 'pro#1' };
const look = (known: KnownAnimal, key: string, answer = seen(200, known.pet)): KeyedLookup => ({ known, key, seen: answer });

describe('get-pet.same-for-every-key', () => {
  it('passes when every key finds each animal with the same fields, naming the keys', () => {
    const finding = judgeSameForEveryKey([look(created, 'pro#1'), look(created, 'free#1'), look(other, 'pro#1'), look(other, 'free#1')]);
    expectFinding(finding, 'pass', ['pet 7 (created with pro#1), pet 3 (listed with pro#1)', 'by pro#1, free#1']);
  });

  it('fails when another key gets 404, naming the key and the creator', () => {
    const finding = judgeKeyedLookup(look(created, 'free#2', notFound));
    expectFinding(finding, 'fail', ['pet 7 (created with pro#1) gets 404 with free#2']);
    expect(finding).toMatchObject({ code: 'missing-for-key' });
  });

  it('fails when another key sees another field, naming the key and the field', () => {
    const finding = judgeKeyedLookup(look(created, 'free#1', seen(200, { ...seven, status: 'sold' })));
    expectFinding(finding, 'fail', ['as free#1 sees it: status "sold" is not "pending"']);
    expect(finding).toMatchObject({ code: 'status-differs' });
  });

  it('fails another status, and a 2xx without a Pet', () => {
    expect(judgeKeyedLookup(look(created, 'free#1', seen(403, errorBody(403))))).toMatchObject({ outcome: 'fail', code: 'not-200-for-key' });
    expect(judgeKeyedLookup(look(created, 'free#1', seen(200, {})))).toMatchObject({ outcome: 'fail', code: 'invalid-pet', explainedBy: 'get-pet.found' });
  });

  it('does not judge an animal its own key does not find as created: that is not a difference between keys', () => {
    const gone = look(created, 'pro#1', notFound);
    expect(foundByItsOwnKey(gone)).toBe(false);
    expect(foundByItsOwnKey(look(created, 'pro#1'))).toBe(true);
    // Another key's 404 then says nothing either; the listed animal is still compared.
    const finding = judgeSameForEveryKey([gone, look(created, 'free#1', notFound), look(other, 'pro#1'), look(other, 'free#1')]);
    expectFinding(finding, 'pass', ['pet 3 (listed with pro#1): found with the same fields by pro#1, free#1', 'pet 7 (created with pro#1) is not found as created even with pro#1']);
    expectFinding(judgeSameForEveryKey([gone]), 'skip', ['no animal could be compared across two keys']);
    // The one key alone: nothing compared.
    expectFinding(judgeSameForEveryKey([look(created, 'pro#1')]), 'skip', ['no animal could be compared across two keys']);
  });

  it('leaves 429s unjudged, and skips when fewer than two keys could look', () => {
    expectFinding(judgeSameForEveryKey([look(created, 'pro#1'), look(created, 'free#1', seen(429, errorBody(429)))]), 'skip', ['no animal could be compared across two keys (refused with 429, not judged: free#1)']);
    expectFinding(judgeSameForEveryKey([look(created, 'pro#1'), look(created, 'free#1'), look(created, 'free#2', seen(429, errorBody(429)))]), 'pass', ['by pro#1, free#1 (refused with 429, not judged: free#2)']);
  });
});
