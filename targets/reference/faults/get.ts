// Faults in getPet.
import type { FaultDefinition } from '../fault-definition.ts';
import { jsonReply } from '../http.ts';

export const GET_FAULTS = [
  {
    id: 'get-200-for-missing',
    breaks: 'getPet: a missing animal gets 200 with `{}` instead of 404 with an Error body.',
    rewrite: (reply, { operation }) =>
      operation === 'getPet' && reply.status === 404 ? jsonReply(200, {}, reply.headers) : reply,
  },
  {
    id: 'get-wrong-pet',
    breaks: 'getPet: another animal than the one asked for is returned (its neighbour in the store, or the first).',
  },
  {
    id: 'get-500-for-non-numeric',
    breaks: 'getPet: a non-numeric petId raises an unhandled exception (500) instead of a 4xx.',
  },
  {
    id: 'get-500-on-huge-id',
    breaks: 'getPet: a numeric petId beyond int64 (9223372036854775808) overflows the integer it is read into and raises an unhandled exception (500) instead of a 4xx.',
  },
] as const satisfies readonly FaultDefinition[];
