// getPet (deprecated): existing animals come back as listed, missing ones get 404, malformed ids
// and ids beyond int64 never succeed nor crash; how the deprecation is announced is recorded, and
// what its headers state is held to the interface (Sunset names 5 December 2030) and their RFCs.
import { describe } from 'vitest';
import * as get from '../lib/checks/get-pet.ts';
import * as ids from '../lib/checks/ids.ts';
import { readPet, readPets } from '../lib/checks/pets.ts';
import { type Finding, skip } from '../lib/checks/types.ts';
import type { ApiResponse } from '../lib/client/client.ts';
import type { Exchange } from '../lib/result/exchange.ts';
import { idAliases } from '../lib/generators/id-aliases.ts';
import { nonNumericPetId, PET_IDS_BEYOND_INT64 } from '../lib/generators/non-numeric-pet-id.ts';
import { petIdSpellings } from '../lib/generators/pet-id-spellings.ts';
import { stringifyJson } from '../lib/json.ts';
import { type CheckContext, check, sendEach } from '../lib/suite-kit/vitest-adapter.ts';
import { property } from '../lib/suite-kit/property-engine.ts';
import { CREATED_NAME_PREFIX } from '../lib/config/run-context.ts';
import { MISSING_PET_IDS } from './parts/shared.ts';
import { readPagesBeforeWrites } from '../lib/suite-kit/pages-before-writes.ts';

const subject = 'GET /pets/{petId}';

/** Every getPet answer of the suite: the deprecation checks judge what each one's headers state. */
const answers: ApiResponse[] = [];

async function getPet(ctx: CheckContext, id: bigint | string) {
  const res = await ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() });
  answers.push(res);
  return res;
}

/**
 * An animal created with the run's key, named with the run's seed (the same seed sends the same
 * requests); undefined unless the POST got 201 with a Pet.
 */
async function createdAnimal(ctx: CheckContext, what: string): Promise<ids.KnownAnimal | undefined> {
  const { key } = ctx.auth();
  const sent = { name: `${CREATED_NAME_PREFIX}${what} ${ctx.run.seed}`, categoryId: 17n, status: 'pending' };
  const res = await ctx.client.send({ method: 'POST', path: '/pets', auth: { key }, body: stringifyJson(sent) });
  const pet = res.status === 201 ? readPet(res).value : undefined;
  return pet && { pet, source: 'created', by: key.label };
}

/** The first `limit` animals listPets shows the run's key. */
async function listedAnimals(ctx: CheckContext, limit: number): Promise<ids.KnownAnimal[]> {
  const { key } = ctx.auth();
  const pets = readPets(await ctx.client.send({ method: 'GET', path: '/pets', query: { limit }, auth: { key } })).value ?? [];
  return pets.map((pet) => ({ pet, source: 'listed', by: key.label }));
}

// listPets of each status before anything is written (list-pets.empty-page), unless a suite before this one read them.
readPagesBeforeWrites();

describe('getPet', () => {
  check(get.found, { subject }, async (ctx) => {
    let pets = readPets(await ctx.client.send({ method: 'GET', path: '/pets', query: { limit: 5 }, auth: ctx.auth() })).value ?? [];
    let created = false;
    if (pets.length === 0 && ctx.run.allowWrites) {
      const res = await ctx.client.send({ method: 'POST', path: '/pets', auth: ctx.auth(), body: stringifyJson({ name: `${CREATED_NAME_PREFIX}get target`, categoryId: 5n }) });
      const pet = readPet(res).value;
      if (pet) [pets, created] = [[pet], true];
    }
    // An animal created just now is read again (bounded) while not found: a store's reads may lag its writes.
    const read = (id: bigint) => (created ? ctx.readBack.until(() => getPet(ctx, id), (res) => res.status !== 404) : getPet(ctx, id));
    return get.found.judge(await sendEach(pets, async (listed) => ({ listed, seen: await read(listed.id) }), get.found.judge));
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

  // Other spellings of one known animal's id X (X.0, 0x…, %20X, +X, 0X, Xe0, Xabc): 7 requests,
  // judged by get-pet.non-numeric (never another animal, never a 2xx for what is no int64) and by
  // get-pet.canonical-id (a `should`: not animal X either, a petId being written one way).
  // The exchanges are kept with the answers: the second check to judge them shows them too.
  let spelled: Promise<{ lookups: get.SpelledLookup[]; exchanges: Exchange[] }> | undefined;
  const spelledLookups = (ctx: CheckContext) =>
    (spelled ??= (async () => {
      const exchanges: Exchange[] = [];
      const stop = ctx.client.subscribe((e) => exchanges.push(e));
      try {
        const known = (ctx.run.allowWrites ? await createdAnimal(ctx, 'spelled id') : undefined) ?? (await listedAnimals(ctx, 1))[0];
        if (!known) return { lookups: [], exchanges };
        const lookups = await sendEach(petIdSpellings(known.pet.id), async ({ raw, reason }) => ({ raw, reason, seen: await getPet(ctx, raw) }), get.judgeSpellings);
        return { lookups, exchanges };
      } finally {
        stop();
      }
    })());
  const withExchanges = (finding: Finding, exchanges: Exchange[]): Finding => (finding.outcome === 'fail' && !finding.exchanges ? { ...finding, exchanges } : finding);
  check(get.nonNumeric, { subject: `${subject}, other spellings of a known id` }, async (ctx) => {
    const { lookups, exchanges } = await spelledLookups(ctx);
    return withExchanges(get.judgeSpellings(lookups), exchanges);
  });
  check(get.canonicalId, { subject }, async (ctx) => {
    const { lookups, exchanges } = await spelledLookups(ctx);
    return withExchanges(get.canonicalId.judge(lookups), exchanges);
  });

  property(get.nonNumericNo5xx, { subject, arbitrary: nonNumericPetId(), examples: PET_IDS_BEYOND_INT64, coverEach: (c) => c.reason, predicate: async (c, ctx) => get.nonNumericNo5xx.judge(`GET /pets/${c.raw} (${c.reason})`, await getPet(ctx, c.raw)) });

  // The deprecation is recorded from one answer; what the headers state is judged on every getPet
  // answer of the suite (no request more: one is sent only when a check runs alone).
  let deprecated: Promise<ApiResponse> | undefined;
  const deprecatedAnswer = (ctx: CheckContext) => (deprecated ??= getPet(ctx, MISSING_PET_IDS[0]));

  check(get.deprecation, { subject }, async (ctx) => get.deprecation.judge(await deprecatedAnswer(ctx)));
  check(get.sunsetDate, { subject }, async (ctx) => {
    await deprecatedAnswer(ctx);
    return get.sunsetDate.judge(answers);
  });
  check(get.deprecationForm, { subject }, async (ctx) => {
    await deprecatedAnswer(ctx);
    return get.deprecationForm.judge(answers);
  });

  // One animal (created where writes are allowed, else the first listed), looked for at each id a
  // sign, index, wrap or integer-width mistake maps onto its id: about 30 requests.
  check(ids.ownIdOnly, { subject }, async (ctx) => {
    const known = (ctx.run.allowWrites ? await createdAnimal(ctx, 'own id') : undefined) ?? (await listedAnimals(ctx, 1))[0];
    if (!known) return ids.ownIdOnly.judge([]);
    return ids.ownIdOnly.judge(await sendEach(idAliases(known.pet.id), async (alias) => ({ known, alias, seen: await getPet(ctx, alias.id) }), ids.ownIdOnly.judge));
  });

  // Two animals (one created where writes are allowed, one listed), each looked up with up to
  // three configured keys (disposable ones left for the ban probe), the run's own key first: at
  // most 8 requests. Keys other than the run's are not retried after a 429 (a banned key is not
  // waited for), nor sent with again (no early retries): not judged.
  check(ids.sameForEveryKey, { subject }, async (ctx) => {
    const { key: main } = ctx.auth();
    const keys = [main, ...ctx.run.target.keys.filter((k) => !k.disposable && k.label !== main.label)].slice(0, 3);
    if (keys.length < 2) return skip(`only one key that is not disposable is configured (${main.label}): nothing to compare across keys`);
    const candidates = [...(ctx.run.allowWrites ? [await createdAnimal(ctx, 'same for every key')] : []), ...(await listedAnimals(ctx, 2))];
    const known = [...new Map(candidates.flatMap((k) => (k ? [[k.pet.id, k] as const] : []))).values()].slice(0, 2);
    if (known.length === 0) return skip('no animal to look up: the store lists none, and writes are not allowed to create one');
    const lookups: ids.KeyedLookup[] = [];
    const refused = new Set<string>();
    for (const k of known) {
      for (const key of keys.filter((key) => !refused.has(key.label))) {
        const send = () => ctx.client.send({ method: 'GET', path: `/pets/${k.pet.id}`, auth: { key }, retry: key.label === main.label });
        // The animal created just now, with its own key first: read again (bounded) while not found, for a store whose reads lag its writes.
        const lookup = { known: k, key: key.label, seen: k.source === 'created' && key.label === k.by ? await ctx.readBack.until(send, (res) => res.status !== 404) : await send() };
        lookups.push(lookup);
        if (lookup.seen.status === 429) refused.add(key.label);
        if (ids.sameForEveryKey.judge.one(lookup).outcome !== 'pass') return ids.sameForEveryKey.judge(lookups);
        // Not found as created (or listed) even with its own key: other checks' failure, nothing to compare.
        if (key.label === k.by && !ids.foundByItsOwnKey(lookup)) break;
      }
    }
    return ids.sameForEveryKey.judge(lookups);
  });
});
