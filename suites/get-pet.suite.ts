// getPet (deprecated): existing animals come back as listed, missing ones get 404, malformed ids
// and ids beyond int64 never succeed nor crash; how the deprecation is announced is recorded.
import { describe } from 'vitest';
import * as get from '../lib/checks/get-pet.ts';
import { readPet, readPets } from '../lib/checks/pets.ts';
import { skip } from '../lib/checks/types.ts';
import { nonNumericPetId, PET_IDS_BEYOND_INT64 } from '../lib/generators/non-numeric-pet-id.ts';
import { stringifyJson } from '../lib/json.ts';
import { type CheckContext, check, sendEach } from '../lib/worker/vitest-adapter.ts';
import { property } from '../lib/worker/property-engine.ts';
import { CREATED_NAME_PREFIX } from '../lib/worker/run-context.ts';
import { MISSING_PET_IDS } from './shared.ts';

const subject = 'GET /pets/{petId}';

function getPet(ctx: CheckContext, id: bigint | string) {
  return ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() });
}

describe('getPet', () => {
  check(get.found, { subject }, async (ctx) => {
    let pets = readPets(await ctx.client.send({ method: 'GET', path: '/pets', query: { limit: 5 }, auth: ctx.auth() })).value ?? [];
    if (pets.length === 0 && ctx.run.allowWrites) {
      const res = await ctx.client.send({ method: 'POST', path: '/pets', auth: ctx.auth(), body: stringifyJson({ name: `${CREATED_NAME_PREFIX}get target`, categoryId: 5n }) });
      const created = readPet(res).value;
      if (created) pets = [created];
    }
    return get.found.judge(await sendEach(pets, async (listed) => ({ listed, seen: await getPet(ctx, listed.id) }), get.found.judge));
  });

  check(get.notFound, { subject }, async (ctx) => {
    for (const id of MISSING_PET_IDS) {
      const res = await getPet(ctx, id);
      // This id may really exist: then it proves nothing, and the next one is tried.
      if (res.status === 200 && readPet(res).value?.id === id) continue;
      return get.notFound.judge(id, res);
    }
    return skip(`every id tried exists: ${MISSING_PET_IDS.join(', ')}`);
  });

  property(get.nonNumeric, { subject, arbitrary: nonNumericPetId(), examples: PET_IDS_BEYOND_INT64, coverEach: (c) => c.reason, predicate: async (c, ctx) => get.nonNumeric.judge(c.raw, c.reason, await getPet(ctx, c.raw)) });

  property(get.nonNumericNo5xx, { subject, arbitrary: nonNumericPetId(), examples: PET_IDS_BEYOND_INT64, coverEach: (c) => c.reason, predicate: async (c, ctx) => get.nonNumericNo5xx.judge(`GET /pets/${c.raw} (${c.reason})`, await getPet(ctx, c.raw)) });

  check(get.deprecation, { subject }, async (ctx) => get.deprecation.judge(await getPet(ctx, MISSING_PET_IDS[0])));
});
