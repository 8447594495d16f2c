// list-pets.status-case and list-pets.unknown-status (should): a status filter in another case
// ("Available") read ignoring case, and one that is no PetStatus ignored, are readings the interface
// leaves open; list-pets.status-filter-invalid (must) passes them, and still fails another value matched.
import { describe, expect, it } from 'vitest';
import { judgeStatusFilterInvalid, statusCase, statusFilterInvalid, unknownStatus } from '../../../lib/checks/list-pets.ts';
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

  it('leaves animals of another value to status-filter-invalid, and of every status to unknown-status', () => {
    const ignored = page([pet(1, 'available'), pet(2, 'sold')]);
    expectFinding(statusCase.judge([{ value: 'Sold', seen: page([pet(1, 'available')]) }]), 'pass');
    expect(judgeStatusFilterInvalid('Sold', 'a PetStatus in another case', page([pet(1, 'available')]), ['7'])).toMatchObject({ outcome: 'fail', code: 'filter-matched-other-value' });
    expectFinding(statusCase.judge([{ value: 'Sold', seen: ignored }]), 'pass');
    expect(judgeStatusFilterInvalid('Sold', 'a PetStatus in another case', ignored, ['1', '2']).outcome).toBe('pass');
    expect(unknownStatus.judge([{ value: 'Sold', seen: ignored }], ['1', '2'])).toMatchObject({ outcome: 'fail', code: 'filter-ignored' });
  });

  it('skips when no status in another case was sent', () => {
    expectFinding(statusCase.judge([]), 'skip', ['no status filter in another case']);
  });
});

describe('list-pets.unknown-status', () => {
  it('is a should', () => {
    expect(unknownStatus.severity).toBe('should');
  });

  // Without a stable page from listPets without a filter: animals of several statuses are the filter ignored.
  it.each<{ title: string; value: string; seen: ReturnType<typeof seen>; outcome: 'pass' | 'fail'; mentions?: string[] }>([
    { title: 'an unknown word answered with the unfiltered store fails', value: 'adopted', seen: page([pet(1, 'available'), pet(2, 'sold'), pet(3)]), outcome: 'fail', mentions: ['status="adopted" listed 3 animals of available, sold, no status', 'the filter was ignored'] },
    { title: 'the empty string ignored fails', value: '', seen: page([pet(1, 'available'), pet(2, 'pending')]), outcome: 'fail', mentions: ['status=""'] },
    { title: 'a blank ignored fails', value: ' ', seen: page([pet(1, 'available'), pet(2, 'pending')]), outcome: 'fail' },
    { title: '400 passes', value: 'adopted', seen: seen(400, errorBody(400)), outcome: 'pass', mentions: ['status="adopted" 400'] },
    { title: 'no animal passes', value: '', seen: page([]), outcome: 'pass' },
    { title: 'animals of one other status pass here (status-filter-invalid fails them)', value: 'adopted', seen: page(pets(2, 'sold')), outcome: 'pass' },
    { title: 'a status in another case read ignoring case passes here (status-case judges it)', value: 'SOLD', seen: page(pets(2, 'sold')), outcome: 'pass' },
  ])('$title', ({ value, seen: s, outcome, mentions }) => {
    const finding = unknownStatus.judge([{ value, seen: s }], undefined);
    expectFinding(finding, outcome, mentions);
    if (outcome === 'fail') expect(finding).toMatchObject({ code: 'filter-ignored' });
  });

  it('with a stable page from listPets without a filter: that page is the filter ignored, whatever statuses it holds; another page is not', () => {
    const unfiltered = ['1', '2'];
    expect(unknownStatus.judge([{ value: 'adopted', seen: page(pets(2, 'sold')) }], unfiltered)).toMatchObject({ outcome: 'fail', code: 'filter-ignored' });
    expectFinding(unknownStatus.judge([{ value: 'adopted', seen: page([pet(3, 'sold'), pet(4, 'available')]) }], unfiltered), 'pass');
    expectFinding(unknownStatus.judge([{ value: 'adopted', seen: page([]) }], []), 'pass');
  });

  it('skips when nothing was sent', () => {
    expectFinding(unknownStatus.judge([], undefined), 'skip', ['no status filter that is no PetStatus was sent']);
  });
});
