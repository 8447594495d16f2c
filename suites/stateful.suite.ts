// The store over a sequence of operations: fast-check's model-based commands create animals, list
// with any combination of limit and status, and get known animals, each step judged against a
// model of what the store must hold. A failing sequence is shrunk to the shortest one, shown with
// its seed and path. Without writes, the sequence only lists and gets, learning from what it reads.
import { describe } from 'vitest';
import * as stateful from '../lib/checks/stateful.ts';
import { runSequence, type StoreApi, storeCommands } from '../lib/suite-kit/store-commands.ts';
import { stringifyJson } from '../lib/json.ts';
import { type CheckContext } from '../lib/suite-kit/vitest-adapter.ts';
import { property } from '../lib/suite-kit/property-engine.ts';
import { CREATED_NAME_PREFIX } from '../lib/config/run-context.ts';
import { session } from '../lib/suite-kit/session.ts';
import { readPagesBeforeWrites } from '../lib/suite-kit/pages-before-writes.ts';

/** Commands per sequence, sequences per run (at most --runs), and shrinking steps: a request each. */
const MAX_COMMANDS = 8;
const MAX_SEQUENCES = 10;
const MAX_SHRINKS = 20;

function api(ctx: CheckContext): StoreApi {
  return {
    create: (pet) => ctx.client.send({ method: 'POST', path: '/pets', auth: ctx.auth(), body: stringifyJson(pet), headers: { 'content-type': 'application/json' } }),
    list: (query) => ctx.client.send({ method: 'GET', path: '/pets', auth: ctx.auth(), query: { limit: query.limit, status: query.status } }),
    get: (id) => ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() }),
    readBack: (read, visible) => ctx.readBack.until(read, visible),
  };
}

// listPets of each status before anything is written (list-pets.empty-page), unless a suite before this one read them.
readPagesBeforeWrites();

describe('A sequence of operations', () => {
  const { run } = session();
  const writes = run.allowWrites;
  property(stateful.storeModel, {
    subject: 'GET /pets',
    stateful: true,
    runs: Math.min(run.runs, MAX_SEQUENCES),
    arbitrary: storeCommands({ namePrefix: CREATED_NAME_PREFIX, writes, maxCommands: MAX_COMMANDS, maxShrinks: MAX_SHRINKS }),
    predicate: async (commands, ctx) => {
      const { failure, steps } = await runSequence(commands, api(ctx), writes);
      return stateful.storeModel.judge(failure, steps);
    },
  });
});
