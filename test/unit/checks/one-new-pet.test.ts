// lib/checks/create-pet.ts, create-pet.one-new-pet: "A body that is not one JSON object (an array, an
// object wrapping a NewPet) gets 400 with an Error body" and creates nothing; 415 is a second legal
// reading for another Content-Type. A NewPet under another media type read as what it describes:
// lenient-input.test.ts.
import { describe, expect, it } from 'vitest';
import { type BodyShape, judgeOneNewPetCase, oneNewPet, type ShapeCase } from '../../../lib/checks/create-pet.ts';
import type { Seen } from '../../../lib/checks/types.ts';
import { errorBody, expectFinding, type Outcome, pet, seen } from './_seen.ts';

const shape = (kind: BodyShape, s: Seen, what?: string): ShapeCase => ({ shape: what ?? `a ${kind}`, kind, seen: s });

describe('create-pet.one-new-pet, case by case', () => {
  it.each<{ title: string; c: ShapeCase; outcome: Outcome; code?: string; mentions?: string[] }>([
    { title: 'an array refused with 400 and an Error body passes', c: shape('array', seen(400, errorBody(400))), outcome: 'pass' },
    { title: 'a form refused with 415 and an Error body passes (another Content-Type)', c: shape('form', seen(415, errorBody(415))), outcome: 'pass' },
    { title: 'text/plain refused with 415 passes', c: shape('text', seen(415, errorBody(415))), outcome: 'pass' },
    {
      title: 'an array of one NewPet created fails, naming the pet created',
      c: shape('array', seen(201, pet(42)), 'an array of one NewPet'),
      outcome: 'fail',
      code: 'array-accepted',
      mentions: ['an array of one NewPet was accepted as pet 42 (201)'],
    },
    { title: 'an array answered with an array of Pets names them all', c: shape('array', seen(201, [pet(7), pet(8)]), 'an array of two NewPets'), outcome: 'fail', code: 'array-accepted', mentions: ['accepted as pets 7, 8 (201)'] },
    { title: 'a wrapped NewPet created fails', c: shape('wrapper', seen(201, pet(3)), 'a NewPet wrapped in {"pet": …}'), outcome: 'fail', code: 'wrapper-accepted', mentions: ['was accepted as pet 3'] },
    { title: 'a 415 for a JSON body (an array) fails: the media type was right', c: shape('array', seen(415, errorBody(415))), outcome: 'fail', code: 'not-400', mentions: ['got 415, not 400'] },
    { title: 'a 422 fails: createPet lists 400', c: shape('wrapper', seen(422, errorBody(422))), outcome: 'fail', code: 'not-400', mentions: ['not 400'] },
    { title: 'a 500 fails as a server error', c: shape('form', seen(500, errorBody(500))), outcome: 'fail', code: 'server-error', mentions: ['not 400 or 415'] },
    { title: 'a 400 without an Error body passes: the body is errors.error-body\'s', c: shape('array', seen(400, '')), outcome: 'pass', mentions: ["its body is errors.error-body's to judge: body is empty"] },
  ])('$title', ({ c, outcome, code, mentions }) => {
    const finding = judgeOneNewPetCase(c);
    expectFinding(finding, outcome, mentions);
    if (outcome === 'fail') expect(finding).toMatchObject({ code });
  });

});

describe('create-pet.one-new-pet', () => {
  it('is a must check of createPet', () => {
    expect([oneNewPet.severity, oneNewPet.clause, oneNewPet.suite]).toEqual(['must', 'Endpoints / createPet', 'create-pet']);
  });

  it('passes when every shape is refused, saying where 415 was seen', () => {
    const finding = oneNewPet.judge([shape('array', seen(400, errorBody(400))), shape('form', seen(415, errorBody(415)), 'a NewPet form-encoded')]);
    expectFinding(finding, 'pass', ['2 bodies refused, none created', '415 seen for a NewPet form-encoded']);
    expectFinding(oneNewPet.judge([shape('array', seen(400, errorBody(400)))]), 'pass', ['each with 400']);
  });

  it('fails on the first shape accepted', () => {
    const finding = oneNewPet.judge([shape('array', seen(400, errorBody(400))), shape('wrapper', seen(201, pet(9))), shape('form', seen(201, pet(10)))]);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'wrapper-accepted' });
  });

  it('skips when nothing was sent', () => {
    expectFinding(oneNewPet.judge([]), 'skip');
  });
});
