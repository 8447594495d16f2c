// list-pets.status-case (should): a status filter in another case ("Available") read ignoring case
// is a reading the interface leaves open; list-pets.status-filter-invalid (must) passes it, and
// still fails the filter ignored or another value matched.
import { describe, expect, it } from 'vitest';
import { judgeStatusFilterInvalid, statusCase, statusFilterInvalid } from '../../../lib/checks/list-pets.ts';
import { errorBody, expectFinding, pet, pets, seen } from './_seen.ts';

const page = (items: unknown[]) => seen(200, items);

describe('list-pets.status-case', () => {
  it('is a should; status-filter-invalid stays a must', () => {
    expect(statusCase.severity).toBe('should');
    expect(statusFilterInvalid.severity).toBe('must');
  });

  it('fails when a status in another case lists the animals of the value it folds to', () => {
    const f = statusCase.judge([{ value: 'Available', seen: seen(400, errorBody(400)) }, { value: 'SOLD', seen: page(pets(2, 'sold')) }]);
    expectFinding(f, 'fail', ['status="SOLD" listed 2 animal(s) of status sold', 'e.g. id 1', 'ignores case']);
    expect(f).toMatchObject({ code: 'filter-ignores-case' });
    expect(statusCase.judge([{ value: 'ſold', seen: page(pets(1, 'sold')) }])).toMatchObject({ outcome: 'fail', code: 'filter-ignores-case' });
  });

  it('passes 400 and empty pages (both readings of a value no Pet has), naming what each got', () => {
    expectFinding(statusCase.judge([{ value: 'Available', seen: seen(400, errorBody(400)) }, { value: 'SOLD', seen: page([]) }]), 'pass', ['status="Available" 400', 'status="SOLD" 200']);
  });

  it('leaves animals of another value or of every status to status-filter-invalid', () => {
    const ignored = page([pet(1, 'available'), pet(2, 'sold')]);
    expectFinding(statusCase.judge([{ value: 'Sold', seen: page([pet(1, 'available')]) }]), 'pass');
    expect(judgeStatusFilterInvalid('Sold', 'a PetStatus in another case', ignored)).toMatchObject({ outcome: 'fail', code: 'filter-ignored' });
  });

  it('skips when no status in another case was sent', () => {
    expectFinding(statusCase.judge([]), 'skip', ['no status filter in another case']);
  });
});
