// lib/checks/stateful.ts: each step of a sequence judged against a model of the store, and the
// first step that disagrees as the failure of stateful.store-model (its kind: the step's code).
import { describe, expect, it } from 'vitest';
import { judgeCreateStep, judgeGetStep, judgeListStep, judgeSequence, type StoreModel } from '../../../lib/checks/stateful.ts';
import type { Pet } from '../../../lib/models.ts';
import { errorBody, expectFinding, pet, seen } from './_seen.ts';

function model(known: Pet[] = []): StoreModel {
  return { known: new Map(known.map((p) => [p.id, p])), writes: true };
}

const rex = pet(7, 'sold', 'Rex', 3n);

describe('judgeCreateStep', () => {
  it('agrees with a 201 of the Pet as sent, and learns it', () => {
    expect(judgeCreateStep(model(), { name: 'Rex', categoryId: 3n, status: 'sold' }, seen(201, rex))).toEqual({ problems: [], learned: rex });
  });

  it.each([
    { title: 'a 400', seen: seen(400, errorBody(400)), code: 'create-not-201', text: 'got 400, not 201' },
    { title: 'a 500', seen: seen(500, errorBody(500)), code: 'server-error', text: 'got 500 (a server error)' },
    { title: 'a 201 that is not a Pet', seen: seen(201, { id: 7 }), code: 'create-not-a-pet', text: 'Pet.name' },
    { title: 'a 201 with an empty body', seen: seen(201, ''), code: 'create-not-a-pet', text: 'body is empty' },
    { title: 'a name not as sent', seen: seen(201, { ...rex, name: 'rex' }), code: 'name-not-echoed', text: 'name "rex" is not the "Rex" sent' },
    { title: 'a categoryId not as sent', seen: seen(201, { ...rex, categoryId: 4n }), code: 'category-id-not-echoed', text: 'categoryId 4 is not the 3 sent' },
    { title: 'a status not as sent', seen: seen(201, { ...rex, status: 'pending' }), code: 'status-not-echoed', text: 'status "pending" is not the "sold" sent' },
  ])('disagrees with $title, coded $code', ({ seen: s, code, text }) => {
    const step = judgeCreateStep(model(), { name: 'Rex', categoryId: 3n, status: 'sold' }, s);
    expect(step.code).toBe(code);
    expect(step.problems.join('; ')).toContain(text);
  });

  it('disagrees with an id another animal has, naming it', () => {
    const step = judgeCreateStep(model([pet(7, 'available', 'Fido')]), { name: 'Rex', categoryId: 3n, status: 'sold' }, seen(201, rex));
    expect(step).toMatchObject({ code: 'id-taken', problems: ['the new animal got id 7, which "Fido" already has'] });
  });
});

describe('judgeListStep', () => {
  it('agrees with a page that holds the known animals, and learns them', () => {
    const step = judgeListStep(model([rex]), {}, seen(200, [rex]));
    expect(step).toEqual({ problems: [], learned: [rex] });
  });

  it.each([
    { title: 'a 404', known: [], query: {}, seen: seen(404, errorBody(404)), code: 'list-not-200', text: 'got 404, not 200' },
    { title: 'a 503', known: [], query: {}, seen: seen(503, ''), code: 'server-error', text: 'got 503 (a server error)' },
    { title: 'a body that is no array', known: [], query: {}, seen: seen(200, {}), code: 'list-not-a-page', text: 'not a JSON array' },
    { title: 'more than the limit', known: [], query: { limit: 1 }, seen: seen(200, [pet(1), pet(2)]), code: 'too-many-animals', text: 'holds 2 animals, more than limit 1' },
    { title: 'another status on a filtered page', known: [], query: { status: 'sold' as const }, seen: seen(200, [pet(1, 'pending')]), code: 'wrong-status-listed', text: 'animal 1 has status "pending"' },
    { title: 'an animal twice', known: [], query: {}, seen: seen(200, [pet(1), pet(1)]), code: 'listed-twice', text: 'animal 1 is listed twice' },
    { title: 'a known animal missing from a page with room', known: [rex], query: {}, seen: seen(200, [pet(1)]), code: 'known-animal-missing', text: 'animal 7 ("Rex", sold) is not on it' },
    { title: 'a known animal listed differently', known: [rex], query: {}, seen: seen(200, [{ ...rex, name: 'Max' }]), code: 'listed-differently', text: 'animal 7 is listed differently from before: name "Max" is not "Rex"' },
  ])('disagrees with $title, coded $code', ({ known, query, seen: s, code, text }) => {
    const step = judgeListStep(model(known), query, s);
    expect(step.code).toBe(code);
    expect(step.problems.join('; ')).toContain(text);
  });

  it('names the first problem\'s code when there are several', () => {
    const step = judgeListStep(model(), { limit: 1, status: 'sold' }, seen(200, [pet(1, 'pending'), pet(2, 'sold')]));
    expect(step.code).toBe('too-many-animals');
    expect(step.problems).toHaveLength(2);
  });
});

describe('judgeGetStep', () => {
  it('agrees with the known animal', () => {
    expect(judgeGetStep(model([rex]), 7n, seen(200, rex))).toEqual({ problems: [], learned: rex });
  });

  it.each([
    { title: 'a 404', seen: seen(404, errorBody(404)), code: 'get-not-200', text: 'getPet(7) of a known animal got 404, not 200' },
    { title: 'a 500', seen: seen(500, errorBody(500)), code: 'server-error', text: 'getPet(7) of a known animal got 500 (a server error)' },
    { title: 'a body that is not a Pet', seen: seen(200, 'OK'), code: 'get-not-a-pet', text: 'body is not JSON' },
    { title: 'another name', seen: seen(200, { ...rex, name: 'Max' }), code: 'name-differs', text: 'name "Max" is not "Rex"' },
    { title: 'another status', seen: seen(200, { ...rex, status: 'pending' }), code: 'status-differs', text: 'status "pending" is not "sold"' },
  ])('disagrees with $title, coded $code', ({ seen: s, code, text }) => {
    const step = judgeGetStep(model([rex]), 7n, s);
    expect(step.code).toBe(code);
    expect(step.problems.join('; ')).toContain(text);
  });
});

describe('judgeSequence', () => {
  const failure = { steps: ['Create({"name":"Rex"})', 'List(limit=1)'], problems: ['the page holds 2 animals, more than limit 1'], seen: seen(200, [pet(1), pet(2)]) };

  it('passes without a failing step, counting the steps', () => {
    expectFinding(judgeSequence(undefined, 5), 'pass', ['5 steps']);
  });

  it('fails with the failing step\'s code, naming the steps before it and its problems', () => {
    const finding = judgeSequence({ ...failure, code: 'too-many-animals' }, 2);
    expectFinding(finding, 'fail', ['after 1 step, List(limit=1)', 'holds 2 animals, more than limit 1']);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'too-many-animals' });
    expect(finding).not.toHaveProperty('explainedBy');
  });

  it('without the step\'s code, still tells a server error apart and links it to responses.no-5xx', () => {
    expect(judgeSequence(failure, 2)).toMatchObject({ outcome: 'fail', code: 'disagrees-with-model' });
    const crashed = judgeSequence({ steps: ['Get(7)'], problems: ['getPet(7) of a known animal got 500 (a server error)'], seen: seen(500, '') }, 1);
    expect(crashed).toMatchObject({ outcome: 'fail', code: 'server-error', explainedBy: 'responses.no-5xx' });
  });

  it('links a step coded server-error to responses.no-5xx', () => {
    const finding = judgeSequence({ steps: ['Create({})'], problems: ['got 502 (a server error)'], code: 'server-error', seen: seen(502, '') }, 1);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'server-error', explainedBy: 'responses.no-5xx' });
  });

  it('does not take a name that reads "a server error" for one', () => {
    const named = { steps: ['List()'], problems: ['the page holds 0 animals, fewer than 20, so it is every animal, but animal 7 ("a server error", sold) is not on it'], code: 'known-animal-missing', seen: seen(200, []) };
    expect(judgeSequence(named, 1)).not.toHaveProperty('explainedBy');
    expect(judgeSequence({ ...named, code: undefined }, 1)).not.toHaveProperty('explainedBy');
  });
});
