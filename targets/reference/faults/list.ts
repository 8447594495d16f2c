// Faults in listPets.
import type { FaultDefinition } from '../fault-definition.ts';
import { withoutField } from '../http.ts';

/** A listed Pet with its categoryId written as a string ("7"). */
function categoryIdAsString(pet: unknown): unknown {
  if (typeof pet !== 'object' || pet === null || !('categoryId' in pet)) return pet;
  return { ...pet, categoryId: String(pet.categoryId) };
}

export const LIST_FAULTS = [
  {
    id: 'list-ignores-limit',
    breaks: 'listPets: `limit` is ignored and every animal is returned.',
    caught: { check: 'list-pets.limit', code: 'too-many-animals' },
  },
  {
    id: 'list-default-limit-50',
    breaks: 'listPets / Page size: without `limit`, up to 50 animals are returned instead of 20.',
    caught: { check: 'list-pets.default-limit', code: 'too-many-animals' },
  },
  {
    id: 'list-wrong-status-filter',
    breaks: 'listPets: the `status` filter is ignored.',
    caught: { check: 'list-pets.status-filter', code: 'wrong-status-listed' },
  },
  {
    id: 'list-pet-missing-id',
    breaks: 'Pet: listed animals lack the required `id`.',
    caught: { check: 'list-pets.pet-shape', code: 'invalid-pet' },
    rewrite: (reply, { operation }) =>
      operation === 'listPets' && reply.status === 200 && Array.isArray(reply.json)
        ? { ...reply, json: reply.json.map((pet) => withoutField(pet, 'id')) }
        : reply,
  },
  {
    id: 'list-limit-off-by-one',
    breaks: 'listPets: `limit` is the maximum returned, but limit + 1 animals come back when more are stored.',
    caught: { check: 'list-pets.limit', code: 'too-many-animals' },
  },
  {
    id: 'list-duplicates',
    breaks: 'Pets / unique ids: a page repeats its first animal at the end (or in place of its last).',
    caught: { check: 'list-pets.no-duplicates', code: 'duplicate-ids' },
  },
  {
    id: 'list-500-on-bad-limit',
    breaks: 'listPets: a non-integer `limit` ("abc", "1.5") raises an unhandled exception (500).',
    // Every 5xx is a must failure (responses.no-5xx), so no --strict is needed for it.
    caught: { check: 'responses.no-5xx', code: 'server-error' },
  },
  {
    id: 'list-accepts-limit-over-100',
    breaks: 'Page size maximum 100: a limit up to 1000 is honoured, so more than 100 animals come back.',
    caught: { check: 'list-pets.limit-out-of-range', code: 'too-many-animals' },
  },
  {
    id: 'list-rejects-limit-100',
    breaks: 'Page size maximum 100 is inclusive: limit=100 is refused with 400 (the bound is checked with `<` instead of `<=`); 99 works.',
    caught: { check: 'list-pets.limit', code: 'not-200' },
  },
  {
    id: 'list-status-case-insensitive',
    breaks: 'listPets status is one of `available`, `pending`, `sold`: the filter is matched ignoring case, so `AVAILABLE` lists the available animals instead of none or a 400.',
    caught: { check: 'list-pets.status-case', code: 'filter-ignores-case' },
  },
  {
    id: 'list-empty-status-ignored',
    breaks: 'listPets status is one of `available`, `pending`, `sold`: `status=` (the empty string) is taken for no filter (`if (query.status)`), so every animal comes back; other values still get 400.',
    // A filter that is no PetStatus ignored: a reading the interface leaves open (a should).
    caught: { check: 'list-pets.unknown-status', code: 'filter-ignored' },
  },
  {
    id: 'list-limit-ignored-with-status',
    breaks: 'listPets takes limit and status together: with a status filter, limit is ignored and every animal of that status comes back (limit alone, and status alone, work).',
    caught: { check: 'stateful.store-model', code: 'too-many-animals' },
  },
  {
    id: 'list-filter-ignored-with-limit',
    breaks: 'listPets takes limit and status together: with a limit, the status filter is ignored (status alone, and limit alone, work).',
    caught: { check: 'stateful.store-model', code: 'wrong-status-listed' },
  },
  {
    id: 'list-filter-misses-new',
    breaks: 'listPets with a status filter lists every animal of that status: filtered listings read an index built at start, so animals created since are missing (unfiltered listings have them).',
    caught: { check: 'stateful.store-model', code: 'known-animal-missing' },
  },
  {
    id: 'list-filter-wrong-status',
    breaks: 'listPets: with a `status` filter, animals of the other statuses are returned (the filter is inverted).',
    caught: { check: 'list-pets.status-filter', code: 'wrong-status-listed' },
  },
  {
    id: 'list-null-when-empty',
    breaks:
      'Pets is "A JSON array of Pet": a page with no animal is written `null` (Go\'s encoding/json writes a nil slice, ' +
      '`var pets []Pet` never appended to, as null); pages with animals are arrays.',
    caught: { check: 'list-pets.empty-page', code: 'not-an-array' },
    rewrite: (reply, { operation }) =>
      operation === 'listPets' && reply.status === 200 && Array.isArray(reply.json) && reply.json.length === 0 ? { ...reply, json: null } : reply,
  },
  {
    id: 'list-one-invalid-pet',
    breaks: 'Pet categoryId is an integer: the first animal of every non-empty page has it as a string ("7").',
    caught: { check: 'list-pets.pet-shape', code: 'invalid-pet' },
    rewrite: (reply, { operation }) =>
      operation === 'listPets' && reply.status === 200 && Array.isArray(reply.json) && reply.json.length > 0
        ? { ...reply, json: [categoryIdAsString(reply.json[0]), ...reply.json.slice(1)] }
        : reply,
  },
] as const satisfies readonly FaultDefinition[];
