// Faults in createPet.
import type { FaultDefinition } from '../fault-definition.ts';
import { withoutField } from '../http.ts';

export const CREATE_FAULTS = [
  {
    id: 'create-500-on-bad-input',
    breaks: 'createPet: an invalid NewPet raises an unhandled exception (500) instead of a 400.',
    caught: { check: 'create-pet.invalid-rejected', code: 'server-error' },
  },
  {
    id: 'create-accepts-missing-name',
    breaks: 'createPet: a NewPet without `name` is created (201) instead of answered 400.',
    caught: { check: 'create-pet.invalid-rejected', code: 'accepted' },
  },
  {
    id: 'create-truncates-int64',
    breaks: 'NewPet categoryId int64: the value passes through a double, so digits beyond 2^53 are lost.',
    caught: { check: 'create-pet.echo', code: 'category-id-not-echoed' },
  },
  {
    id: 'create-uses-body-id',
    breaks: 'Pet id is assigned by the service: an `id` in the request body is used instead.',
    caught: { check: 'create-pet.body-id-ignored', code: 'took-existing-id' },
  },
  {
    id: 'create-returns-200',
    breaks: 'createPet: a successful create answers 200 instead of 201.',
    caught: { check: 'create-pet.created', code: 'not-201' },
    rewrite: (reply, { operation }) => (operation === 'createPet' && reply.status === 201 ? { ...reply, status: 200 } : reply),
  },
  {
    id: 'create-201-without-id',
    breaks: 'createPet 201 is the created Pet "with its assigned id": the body lacks `id` (the animal is stored with one).',
    caught: { check: 'create-pet.created', code: 'invalid-pet' },
    rewrite: (reply, { operation }) =>
      operation === 'createPet' && reply.status === 201 ? { ...reply, json: withoutField(reply.json, 'id') } : reply,
  },
  {
    id: 'create-drops-status',
    breaks: 'createPet: the `status` given is not stored; the Pet comes back without it, in getPet and listPets too.',
    caught: { check: 'create-pet.echo', code: 'status-not-echoed' },
  },
  {
    id: 'create-trims-name',
    breaks: 'createPet: leading and trailing whitespace of `name` is trimmed when stored.',
    caught: { check: 'create-pet.echo', code: 'name-not-echoed' },
  },
  {
    id: 'create-mangles-unicode',
    breaks: 'createPet: `name` is stored without its characters outside the BMP (emoji lost, a utf8mb3 column).',
    caught: { check: 'create-pet.echo', code: 'name-not-echoed' },
  },
  {
    id: 'create-accepts-fraction',
    breaks: 'NewPet categoryId is an integer: 1.5 is accepted and truncated (201) instead of answered 400.',
    caught: { check: 'create-pet.invalid-rejected', code: 'accepted' },
  },
  {
    id: 'create-accepts-empty-status',
    breaks: 'NewPet status is a PetStatus: `status: ""` is taken for no status (`if (body.status)`), so the animal is created (201) without one instead of answered 400.',
    caught: { check: 'create-pet.invalid-rejected', code: 'accepted' },
  },
  {
    id: 'create-accepts-string-category',
    breaks: 'NewPet categoryId is an integer: a numeric string ("12") is accepted (201) and stored as that integer instead of answered 400.',
    // A value of another type read as the one it spells: a value the interface calls invalid (a must).
    caught: { check: 'create-pet.invalid-rejected', code: 'coerced' },
  },
  {
    id: 'create-accepts-status-any-case',
    breaks: 'NewPet status is one of available, pending, sold: a status in another case or with whitespace at its ends ("SOLD", " available") is accepted (201) and stored lower-cased and trimmed instead of answered 400.',
    caught: { check: 'create-pet.invalid-rejected', code: 'coerced' },
  },
  {
    id: 'create-accepts-number-name',
    breaks: 'NewPet name is a string: a number (42) is accepted (201) and stored as its text ("42") instead of answered 400.',
    caught: { check: 'create-pet.invalid-rejected', code: 'coerced' },
  },
  {
    id: 'create-accepts-many-invalid',
    breaks: 'createPet: any JSON object is created (201), fields missing or invalid taken as name "" and categoryId 0; only non-objects get 400.',
    caught: { check: 'create-pet.invalid-rejected', code: 'accepted' },
  },
  {
    id: 'create-rejects-category-zero',
    breaks: 'NewPet categoryId is any int64: a categoryId of 0 is taken for a missing one (`if (!body.categoryId)`) and answered 400.',
    caught: { check: 'create-pet.created', code: 'not-201' },
  },
  {
    id: 'create-500-on-long-name',
    breaks: 'NewPet name is any string: a name longer than 4,096 characters overflows the column it is stored in and raises an unhandled exception (500).',
    caught: { check: 'create-pet.boundaries', code: 'server-error' },
  },
  {
    id: 'create-id-race',
    breaks: 'createPet gives each animal its own id: the next id is read, the store awaited (5 ms), then the animal written under the id read, so POSTs arriving together get one id and the last write wins.',
    caught: { check: 'concurrency.parallel-creates', code: 'duplicate-ids' },
  },
  {
    id: 'create-dedupes-identical',
    breaks: 'createPet adds an animal each time: a NewPet identical to an animal already stored gets that animal back (201, its id) instead of a new one.',
    caught: { check: 'concurrency.parallel-creates', code: 'duplicate-ids' },
  },
  {
    id: 'create-not-persisted',
    breaks: 'createPet: 201 is answered but the animal is not stored (getPet 404, not listed).',
    caught: { check: 'create-pet.persisted', code: 'get-not-200' },
  },
] as const satisfies readonly FaultDefinition[];
