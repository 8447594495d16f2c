// Faults in getPet.
import type { FaultDefinition } from '../fault-definition.ts';
import { DEPRECATION_HEADERS, jsonReply } from '../http.ts';

export const GET_FAULTS = [
  {
    id: 'get-200-for-missing',
    breaks: 'getPet: a missing animal gets 200 with `{}` instead of 404 with an Error body.',
    caught: { check: 'get-pet.not-found', code: 'not-404' },
    rewrite: (reply, { operation }) =>
      operation === 'getPet' && reply.status === 404 ? jsonReply(200, {}, reply.headers) : reply,
  },
  {
    id: 'get-wrong-pet',
    breaks: 'getPet: another animal than the one asked for is returned (its neighbour in the store, or the first).',
    caught: { check: 'get-pet.found', code: 'id-differs' },
  },
  {
    id: 'get-500-for-non-numeric',
    breaks: 'getPet: a non-numeric petId raises an unhandled exception (500) instead of a 4xx.',
    caught: { check: 'get-pet.non-numeric-no-5xx', code: 'server-error' },
  },
  {
    id: 'get-500-on-huge-id',
    breaks: 'getPet: a numeric petId beyond int64 (9223372036854775808) overflows the integer it is read into and raises an unhandled exception (500) instead of a 4xx.',
    caught: { check: 'responses.no-5xx', code: 'server-error' },
  },
  {
    id: 'sunset-wrong-date',
    breaks: 'Versioning: getPet is announced for removal on 5 December 2030, but its Sunset header names 5 December 2026 (Sat, 05 Dec 2026 00:00:00 GMT).',
    caught: { check: 'get-pet.sunset-date', code: 'sunset-wrong-date' },
    rewrite: (reply) => (reply.headers.Sunset === undefined ? reply : { ...reply, headers: { ...reply.headers, Sunset: 'Sat, 05 Dec 2026 00:00:00 GMT' } }),
  },
  {
    id: 'deprecation-malformed',
    breaks: 'Deprecation is a structured-field Date (RFC 9745, `@1735689600`) or, in earlier drafts, `true`: getPet sends `Deprecation: yes`.',
    caught: { check: 'get-pet.deprecation-form', code: 'deprecation-malformed' },
    rewrite: (reply) => (reply.headers.Deprecation === undefined ? reply : { ...reply, headers: { ...reply.headers, Deprecation: 'yes' } }),
  },
  {
    id: 'deprecation-on-collection',
    breaks:
      'Versioning: only getPet is deprecated, but listPets and createPet carry its Deprecation and Sunset headers too ' +
      '(a deprecation middleware mounted on /pets instead of /pets/{petId}).',
    caught: { check: 'versioning.only-get-pet-deprecated', code: 'deprecation-on-other-operation' },
    rewrite: (reply, { operation }) =>
      operation === 'listPets' || operation === 'createPet' ? { ...reply, headers: { ...reply.headers, ...DEPRECATION_HEADERS } } : reply,
  },
] as const satisfies readonly FaultDefinition[];
