// Faults in what an id means: an animal found at ids that are not its own, ids repeated across keys
// or connections, an animal that only its creator's key finds. All flags: operations.ts asks
// `faults.has(id)` where getPet looks an id up and where createPet draws an id (store.ts keeps the
// counters and the creator).
import type { FaultDefinition } from '../fault-definition.ts';

export const ID_FAULTS = [
  {
    id: 'get-id-wraps-32',
    breaks: 'getPet looks petId up modulo 2^32 (an id read into 32 bits): 4294967303 finds pet 7, and answers it as pet 7.',
    caught: { check: 'get-pet.own-id-only', code: 'served-at-wrapped-id' },
  },
  {
    id: 'get-id-sign-ignored',
    breaks: 'getPet looks a negative petId up without its sign and fills the id in from the path: -7 answers pet 7\'s name, categoryId and status as pet -7.',
    caught: { check: 'get-pet.own-id-only', code: 'served-at-negated-id' },
  },
  {
    id: 'create-id-per-key',
    breaks:
      'createPet draws ids from a counter per key (a sequence per tenant) over one table: two keys get the same ids, and an ' +
      'animal created under a repeated id replaces the one stored there, for every key.',
    caught: { check: 'concurrency.ids-across-keys', code: 'repeated-across-keys' },
  },
  {
    id: 'create-id-per-connection',
    breaks:
      'createPet draws ids from a counter per connection (an in-memory counter in each worker process, a connection served by ' +
      'one worker): creates over two connections get the same ids, and the later replaces the earlier, for every key.',
    caught: { check: 'concurrency.ids-across-keys', code: 'repeated-across-connections' },
  },
  {
    id: 'get-only-by-creator',
    breaks: 'getPet finds an animal created through the API only with the key that created it (a tenant filter on reads): any other key gets 404, though listPets shows it to all.',
    caught: { check: 'get-pet.same-for-every-key', code: 'missing-for-key' },
  },
] as const satisfies readonly FaultDefinition[];
