// lib/checks/pets.ts: what of a Pet is compared (the members the interface names), and what is only recorded.
import { describe, expect, it } from 'vitest';
import { notingOtherMembers, otherMembers, PET_MEMBERS, readPet } from '../../../lib/checks/pets.ts';
import { fail, pass } from '../../../lib/checks/types.ts';
import { seen } from './_seen.ts';

describe('otherMembers', () => {
  it('names the members of Pet the interface names, from the model', () => {
    expect([...PET_MEMBERS].sort()).toEqual(['categoryId', 'id', 'name', 'status']);
  });

  it('names the members of an object the interface does not name, in their order', () => {
    const links = { self: { href: '/v1/pets/9007199254740993' } };
    expect(otherMembers({ id: 9007199254740993n, name: 'Rex', categoryId: 1, createdAt: '2030-01-01T00:00:00Z', _links: links, status: null })).toEqual(['createdAt', '_links']);
    expect(otherMembers({ id: 1, name: 'Rex', categoryId: 1 })).toEqual([]);
  });

  it.each([null, undefined, 7, 'Rex', [{ id: 1 }]])('%j has no members', (value) => {
    expect(otherMembers(value)).toEqual([]);
  });
});

describe('readPet', () => {
  it('reads a Pet with other members as the Pet the interface names, naming the others', () => {
    const read = readPet(seen(200, '{"id":9223372036854775807,"name":"Rex","categoryId":1,"createdAt":"2030-01-01T00:00:00Z","_links":{"self":{"href":"/v1/pets/9223372036854775807"}}}'));
    expect(read).toEqual({ value: { id: 9223372036854775807n, name: 'Rex', categoryId: 1n }, problems: [], others: ['createdAt', '_links'] });
  });
});

describe('notingOtherMembers', () => {
  it('adds the other members to a pass, each once, after what it said', () => {
    expect(notingOtherMembers(pass('found'), ['createdAt', '_links', 'createdAt'])).toEqual(pass('found; members the interface does not name, not compared: createdAt, _links'));
    expect(notingOtherMembers(pass(), ['etag'])).toEqual(pass('members the interface does not name, not compared: etag'));
  });

  it('leaves a pass without other members, and any failure, unchanged', () => {
    expect(notingOtherMembers(pass(), [])).toEqual(pass());
    const failed = fail('name-differs', 'name "a" is not "b"');
    expect(notingOtherMembers(failed, ['createdAt'])).toBe(failed);
  });
});
