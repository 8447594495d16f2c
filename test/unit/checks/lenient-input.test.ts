// create-pet.lenient-input and create-pet.media-type (should): spellings of a NewPet the interface
// does not describe (JSON5, a null status), and a NewPet under another media type, read as the
// NewPet they describe are legal beside a refusal but not what the interface describes;
// create-pet.invalid-rejected and create-pet.one-new-pet (must) pass them and still fail an animal
// the body does not describe. Values of another type or outside the enum ("12", "SOLD": coerced)
// are invalid-rejected's alone.
import { describe, expect, it } from 'vitest';
import { invalidRejected, judgeMediaType, lenientInput, type LenientCase, mediaType, oneNewPet, type ShapeCase } from '../../../lib/checks/create-pet.ts';
import type { Seen } from '../../../lib/checks/types.ts';
import type { NewPet } from '../../../lib/models.ts';
import { errorBody, expectFinding, type Outcome, pet, seen } from './_seen.ts';

const spelled = (reason: string, body: string, readings: NewPet[], s: Seen, coerced?: true): LenientCase => ({ reason, body, readings, seen: s, ...(coerced ? { coerced } : {}) });
const nullStatus = (s: Seen) => spelled('status is null', '{"name":"Rex","categoryId":12,"status":null}', [{ name: 'Rex', categoryId: 12n }], s);
const trailingComma = (s: Seen) => spelled('malformed JSON: trailing comma', '{"name":"Rex","categoryId":12,}', [{ name: 'Rex', categoryId: 12n }], s);
const numeric = (s: Seen) => spelled('categoryId is a numeric string', '{"name":"Rex","categoryId":"12"}', [{ name: 'Rex', categoryId: 12n }], s, true);
const upper = (s: Seen) => spelled('status is a PetStatus in another case', '{"name":"Rex","categoryId":12,"status":"SOLD"}', [{ name: 'Rex', categoryId: 12n, status: 'sold' }], s, true);

describe('create-pet.lenient-input', () => {
  it('is a should of NewPet; invalid-rejected stays a must', () => {
    expect([lenientInput.severity, lenientInput.clause, lenientInput.suite]).toEqual(['should', 'Resources and their fields / NewPet', 'create-pet']);
    expect(invalidRejected.severity).toBe('must');
  });

  it('says in its title what it judges: JSON5 syntax and a null status, read as none by many clients', () => {
    expect(lenientInput.title).toContain('JSON5');
    expect(lenientInput.title).toContain('a null status, no PetStatus but read as none by many clients');
    expect(lenientInput.title).not.toContain('"12"');
  });

  it.each<{ title: string; cases: LenientCase[]; outcome: Outcome; code?: string; mentions?: string[] }>([
    { title: 'every spelling refused passes, counting the statuses', cases: [nullStatus(seen(400, errorBody(400))), trailingComma(seen(400, errorBody(400)))], outcome: 'pass', mentions: ['2 spellings the interface does not describe that still describe a NewPet, none created as it: 400 ×2'] },
    { title: 'a 422 is a refusal too (its status is invalid-rejected\'s)', cases: [trailingComma(seen(422, errorBody(422)))], outcome: 'pass', mentions: ['422 ×1'] },
    {
      title: 'a null status created as none fails, naming the spelling and the animal',
      cases: [nullStatus(seen(201, pet(152, undefined, 'Rex', 12))), trailingComma(seen(400, errorBody(400)))],
      outcome: 'fail',
      code: 'read-leniently',
      mentions: ['1 of 2 spellings the interface does not describe were accepted as the NewPet they spell', 'status is null ("{\\"name\\":\\"Rex\\",\\"categoryId\\":12,\\"status\\":null}") as pet 152'],
    },
    { title: 'a trailing comma created as the NewPet fails', cases: [trailingComma(seen(201, pet(9, undefined, 'Rex', 12)))], outcome: 'fail', code: 'read-leniently', mentions: ['as pet 9'] },
    { title: 'created as another animal passes here: it is invalid-rejected\'s', cases: [trailingComma(seen(201, pet(3, undefined, 'Rex', 0)))], outcome: 'pass', mentions: ["1 accepted as another animal: create-pet.invalid-rejected's"] },
    { title: 'a 2xx without a Pet passes here: invalid-rejected fails it', cases: [nullStatus(seen(201, ''))], outcome: 'pass' },
    { title: 'coerced readings created are not judged here: invalid-rejected fails them', cases: [numeric(seen(201, pet(7, undefined, 'Rex', 12))), upper(seen(201, pet(8, 'sold', 'Rex', 12))), nullStatus(seen(400, errorBody(400)))], outcome: 'pass', mentions: ['1 spelling the interface does not describe that still describes a NewPet, none created as it: 400 ×1'] },
  ])('$title', ({ cases, outcome, code, mentions }) => {
    const finding = lenientInput.judge(cases);
    expectFinding(finding, outcome, mentions);
    if (outcome === 'fail') expect(finding).toMatchObject({ code });
  });

  it('skips when no spelling the interface does not describe was sent, saying so', () => {
    const reason = 'no invalid NewPet whose reading the interface does not describe (JSON5 syntax, a null status) was sent';
    expectFinding(lenientInput.judge([]), 'skip', [reason]);
    expectFinding(lenientInput.judge([{ reason: 'name missing', body: '{}', seen: seen(201, pet(1)) }]), 'skip');
    // Only coerced readings sent, accepted: invalid-rejected's failures, nothing to judge here.
    expectFinding(lenientInput.judge([numeric(seen(201, pet(7, undefined, 'Rex', 12))), upper(seen(201, pet(8, 'sold', 'Rex', 12)))]), 'skip', [reason]);
  });

  it('the same answer to a null status or a trailing comma: a must pass and a should failure, one judge each', () => {
    for (const c of [nullStatus(seen(201, pet(152, undefined, 'Rex', 12))), trailingComma(seen(201, pet(153, undefined, 'Rex', 12)))]) {
      expect(invalidRejected.judge(c, c.seen).outcome).toBe('pass');
      expect(lenientInput.judge([c]).outcome).toBe('fail');
    }
  });

  it('the same answer to "12" or "SOLD": a must failure (coerced), and nothing for the should', () => {
    for (const c of [numeric(seen(201, pet(7, undefined, 'Rex', 12))), upper(seen(201, pet(8, 'sold', 'Rex', 12)))]) {
      expect(invalidRejected.judge(c, c.seen)).toMatchObject({ outcome: 'fail', code: 'coerced' });
      expect(lenientInput.judge([c]).outcome).toBe('skip');
    }
  });
});

const form: NewPet = { name: 'cf-form', categoryId: 11n };
const text: NewPet = { name: 'cf-text', categoryId: 11n };
const formCase = (s: Seen): ShapeCase => ({ shape: 'a NewPet form-encoded', kind: 'form', mediaType: 'application/x-www-form-urlencoded', describes: form, seen: s });
const textCase = (s: Seen): ShapeCase => ({ shape: 'a NewPet as text/plain', kind: 'text', mediaType: 'text/plain', describes: text, seen: s });

describe('create-pet.one-new-pet under another media type', () => {
  it.each<{ title: string; c: ShapeCase; outcome: Outcome; code?: string; mentions?: string[] }>([
    { title: 'text/plain created as the NewPet it holds passes, naming media-type', c: textCase(seen(201, pet(152, undefined, 'cf-text', 11))), outcome: 'pass', mentions: ['a NewPet as text/plain was accepted as pet 152, the NewPet it describes (201): create-pet.media-type judges the media type'] },
    { title: 'a form created as its fields (categoryId from digits) passes', c: formCase(seen(201, pet(153, undefined, 'cf-form', 11))), outcome: 'pass' },
    { title: 'a form created with categoryId 0 fails: another animal', c: formCase(seen(201, pet(153, undefined, 'cf-form', 0))), outcome: 'fail', code: 'other-media-type-misread', mentions: ['accepted as { id: 153, name: "cf-form", categoryId: 0 } (201), not the NewPet it describes, { name: "cf-form", categoryId: 11 }'] },
    { title: 'text/plain created under another name fails', c: textCase(seen(201, pet(7, undefined, 'text', 11))), outcome: 'fail', code: 'other-media-type-misread' },
    { title: 'accepted without a Pet to compare passes (media-type judges it)', c: formCase(seen(200, '')), outcome: 'pass', mentions: ['no Pet in the answer to compare'] },
    { title: 'refused with 415 passes', c: textCase(seen(415, errorBody(415))), outcome: 'pass' },
  ])('$title', ({ c, outcome, code, mentions }) => {
    const finding = oneNewPet.judge.one(c);
    expectFinding(finding, outcome, mentions);
    if (outcome === 'fail') expect(finding).toMatchObject({ code });
  });

  it('passes the whole set saying which were created as they describe', () => {
    const finding = oneNewPet.judge([textCase(seen(201, pet(152, undefined, 'cf-text', 11))), formCase(seen(400, errorBody(400))), { shape: 'an array of one NewPet', kind: 'array', seen: seen(400, errorBody(400)) }]);
    expectFinding(finding, 'pass', ['2 bodies refused, none created', 'a NewPet as text/plain created as pet 152, the NewPet it describes']);
  });

  it('still fails an array or a wrapper accepted', () => {
    expect(oneNewPet.judge([textCase(seen(201, pet(152, undefined, 'cf-text', 11))), { shape: 'an array of one NewPet', kind: 'array', seen: seen(201, pet(1)) }])).toMatchObject({ outcome: 'fail', code: 'array-accepted' });
  });
});

describe('create-pet.media-type', () => {
  it('is a should of createPet', () => {
    expect([mediaType.severity, mediaType.clause]).toEqual(['should', 'Endpoints / createPet']);
  });

  it('fails naming each media type accepted and as which pet', () => {
    const finding = judgeMediaType([formCase(seen(201, pet(153, undefined, 'cf-form', 11))), textCase(seen(201, pet(152, undefined, 'cf-text', 11)))]);
    expectFinding(finding, 'fail', ['accepted: application/x-www-form-urlencoded (pet 153), text/plain (pet 152)']);
    expect(finding).toMatchObject({ code: 'other-media-type-accepted' });
    expect(finding).not.toHaveProperty('explainedBy');
    expectFinding(judgeMediaType([textCase(seen(200, ''))]), 'fail', ['text/plain (200, no Pet in the answer)']);
  });

  it('names one-new-pet as the root when the body was read as another animal', () => {
    expect(judgeMediaType([formCase(seen(201, pet(153, undefined, 'cf-form', 0)))])).toMatchObject({ outcome: 'fail', code: 'other-media-type-accepted', explainedBy: 'create-pet.one-new-pet' });
  });

  it('passes saying the statuses seen; judges only the other media types', () => {
    expectFinding(judgeMediaType([formCase(seen(400, errorBody(400))), textCase(seen(415, errorBody(415))), { shape: 'an array', kind: 'array', seen: seen(201, pet(1)) }]), 'pass', ['refused: application/x-www-form-urlencoded 400, text/plain 415']);
  });

  it('skips when no NewPet was sent under another media type', () => {
    expectFinding(judgeMediaType([]), 'skip', ['no NewPet was sent under another media type']);
    expectFinding(judgeMediaType([{ shape: 'an array', kind: 'array', seen: seen(400, errorBody(400)) }]), 'skip');
  });
});
