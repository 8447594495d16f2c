// lib/checks/concurrency.ts: POSTs sent together, judged from what each got and what getPet found.
import { describe, expect, it } from 'vitest';
import { judgeParallelCreates, type CreateRound } from '../../../lib/checks/concurrency.ts';
import { stringifyJson } from '../../../lib/json.ts';
import type { NewPet } from '../../../lib/models.ts';
import { expectFinding } from './_seen.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const answer = (status: number, body: unknown) => ({ status, headers: JSON_TYPE, text: stringifyJson(body) });
const pet = (id: bigint, sent: NewPet) => ({ id, ...sent });

const twin: NewPet = { name: 'twin', categoryId: 7n };
const sent: NewPet[] = [{ name: 'a', categoryId: 1n, status: 'pending' }, { name: 'b', categoryId: 2n, status: 'pending' }, twin, twin];

/** A round whose POSTs got these ids, each looked up and found as stored under that id. */
function round(ids: bigint[], stored: (id: bigint, i: number) => NewPet = (_, i) => sent[i]!): CreateRound {
  return {
    creates: sent.map((s, i) => ({ sent: s, seen: answer(201, pet(ids[i]!, s)) })),
    lookups: [...new Set(ids)].map((id) => ({ id, seen: answer(200, pet(id, stored(id, ids.lastIndexOf(id)))) })),
  };
}

describe('judgeParallelCreates', () => {
  it('passes when every POST got its own id and getPet finds each as sent', () => {
    expectFinding(judgeParallelCreates([round([11n, 12n, 13n, 14n]), round([15n, 16n, 17n, 18n])]), 'pass', ['2 rounds, 8 POSTs sent 4 at a time']);
  });

  it('fails when two POSTs sent together got one id, naming it and every id', () => {
    const finding = judgeParallelCreates([round([11n, 12n, 13n, 13n])]);
    expectFinding(finding, 'fail', ['4 POSTs sent together got 3 distinct ids', 'id 13 was given to more than one animal']);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'duplicate-ids' });
    expect(finding.outcome === 'fail' && finding.actual).toBe('ids 11, 12, 13, 13');
  });

  it('fails when one created in the crowd is not found as sent (overwritten by another)', () => {
    const overwritten = round([11n, 12n, 13n, 14n], (id, i) => (id === 11n ? sent[1]! : sent[i]!));
    const finding = judgeParallelCreates([overwritten]);
    expectFinding(finding, 'fail', ['name "b" is not the "a" sent']);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'created-changed' });
  });

  it('fails when getPet cannot find one, and a POST that got no 201 is created\'s failure too', () => {
    const lost = round([11n, 12n, 13n, 14n]);
    lost.lookups[0] = { id: 11n, seen: answer(404, { code: 'not_found', message: 'no', status: 404 }) };
    const gone = judgeParallelCreates([lost]);
    expectFinding(gone, 'fail', ['getPet(11) got 404']);
    expect(gone).toMatchObject({ outcome: 'fail', code: 'created-not-found' });
    const refused = round([11n, 12n, 13n, 14n]);
    refused.creates[2] = { sent: twin, seen: answer(500, { code: 'internal', message: 'x', status: 500 }) };
    const finding = judgeParallelCreates([refused]);
    expectFinding(finding, 'fail', ['a POST sent together with 3 others got 500']);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'not-201', explainedBy: 'create-pet.created' });
  });

  it('fails on a 201 without a Pet, apart from another status', () => {
    const empty = round([11n, 12n, 13n, 14n]);
    empty.creates[1] = { sent: sent[1]!, seen: answer(201, { id: 12 }) };
    const finding = judgeParallelCreates([empty]);
    expectFinding(finding, 'fail', ['got 201 without a Pet']);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'no-pet', explainedBy: 'create-pet.created' });
  });

  it('skips when nothing was sent', () => {
    expectFinding(judgeParallelCreates([]), 'skip', ['no POSTs were sent together']);
  });
});
