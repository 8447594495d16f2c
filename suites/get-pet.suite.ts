// getPet (deprecated): existing animals come back as listed, missing ones get 404, malformed ids
// never succeed nor crash; how the deprecation is announced is recorded.
import { describe } from 'vitest';
import * as get from '../lib/checks/get-pet.ts';
import { readPet, readPets } from '../lib/checks/pets.ts';
import { type Finding, pass } from '../lib/checks/types.ts';
import { nonNumericPetId } from '../lib/generators/non-numeric-pet-id.ts';
import { judgeNo5xx } from '../lib/checks/bodies.ts';
import { stringifyJson } from '../lib/json.ts';
import { type CheckContext, check, property } from '../lib/suite/harness.ts';
import { CREATED_NAME_PREFIX } from '../lib/suite/run-context.ts';
import { MISSING_PET_IDS } from './shared.ts';

const subject = 'GET /pets/{petId}';

function getPet(ctx: CheckContext, id: bigint | string) {
  return ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() });
}

describe('getPet', () => {
  check(get.found, { subject }, async (ctx): Promise<Finding> => {
    let pets = readPets(await ctx.client.send({ method: 'GET', path: '/pets', query: { limit: 5 }, auth: ctx.auth() })).value ?? [];
    if (pets.length === 0 && ctx.run.allowWrites) {
      const res = await ctx.client.send({ method: 'POST', path: '/pets', auth: ctx.auth(), body: stringifyJson({ name: `${CREATED_NAME_PREFIX}get target`, categoryId: 5n }) });
      const created = readPet(res).value;
      if (created) pets = [created];
    }
    if (pets.length === 0) return { outcome: 'skip', message: 'the store lists no animal, and writes are not allowed to create one' };
    for (const pet of pets) {
      const finding = get.judgeFound(pet, await getPet(ctx, pet.id));
      if (finding.outcome === 'fail') return finding;
    }
    return pass(`${pets.length} animals came back as listed`);
  });

  check(get.notFound, { subject }, async (ctx): Promise<Finding> => {
    for (const id of MISSING_PET_IDS) {
      const res = await getPet(ctx, id);
      // This id may really exist: then it proves nothing, and the next one is tried.
      if (res.status === 200 && readPet(res).value?.id === id) continue;
      return get.judgeNotFound(id, res);
    }
    return { outcome: 'skip', message: `every id tried exists: ${MISSING_PET_IDS.join(', ')}` };
  });

  property(get.nonNumeric, { subject, arbitrary: nonNumericPetId(), coverEach: (c) => c.reason, predicate: async (c, ctx) => get.judgeNonNumeric(c.raw, c.reason, await getPet(ctx, c.raw)) });

  property(get.nonNumericNo5xx, { subject, arbitrary: nonNumericPetId(), coverEach: (c) => c.reason, predicate: async (c, ctx) => judgeNo5xx(`GET /pets/${c.raw} (${c.reason})`, await getPet(ctx, c.raw)) });

  check(get.deprecation, { subject }, async (ctx) => get.describeDeprecation(await getPet(ctx, MISSING_PET_IDS[0])));
});
