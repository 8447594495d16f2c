// createPet: valid NewPets across Unicode and the whole int64 range (every edge on every run) are
// created and echoed exactly, get new ids and persist; invalid ones get 400 with an Error body (the
// boundary ones on every run), never an animal they do not describe nor one read from a value of
// another type or outside the enum, and spellings the interface does not describe (JSON5, a null
// status) are judged apart; NewPets at the edges of name and categoryId are created exactly or
// refused where the interface leaves room; a body id changes nothing. Read-backs wait (bounded)
// for a store whose reads lag its writes, and the lag seen is recorded.
import fc from 'fast-check';
import { describe } from 'vitest';
import * as create from '../lib/checks/create-pet.ts';
import { readPets } from '../lib/checks/pets.ts';
import type { ApiResponse } from '../lib/client/client.ts';
import { boundaryNewPet } from '../lib/generators/boundary-new-pet.ts';
import { type InvalidNewPetCase, invalidNewPet, invalidNewPetBoundaries } from '../lib/generators/invalid-new-pet.ts';
import { newPetWithExtraFields } from '../lib/generators/new-pet-with-extra-fields.ts';
import { newPetWithId } from '../lib/generators/new-pet-with-id.ts';
import { validNewPet, validNewPetEdges } from '../lib/generators/valid-new-pet.ts';
import { stringifyJson } from '../lib/json.ts';
import type { NewPet, Pet } from '../lib/models.ts';
import { type CheckContext, check, prepare, sendEach } from '../lib/suite-kit/vitest-adapter.ts';
import { property } from '../lib/suite-kit/property-engine.ts';
import { CREATED_NAME_PREFIX } from '../lib/config/run-context.ts';
import { isAccepted } from '../lib/status.ts';
import { readPagesBeforeWrites } from '../lib/suite-kit/pages-before-writes.ts';

const subject = 'POST /pets';
const writes = { subject, requires: 'writes' as const };
const valid = validNewPet({ namePrefix: CREATED_NAME_PREFIX });
/** Every int64 edge of categoryId, tried first on every run by created and echo. */
const edges = validNewPetEdges({ namePrefix: CREATED_NAME_PREFIX });

/** Invalid NewPets that real faults sit on: tried first by invalid-rejected on every run. */
const invalidBoundaries = invalidNewPetBoundaries({ namePrefix: CREATED_NAME_PREFIX });

/** A case as the suite sent it: its answer is an ApiResponse, whose exchange is evidence. */
type Sent<C> = C & { seen: ApiResponse };

/** Ids of every animal seen in this suite: a created id must be none of them. */
const idsSeen = new Set<bigint>();

/**
 * What invalid-rejected got for invalid NewPets that still spell one in a way the interface does
 * not describe (JSON5, a null status): create-pet.lenient-input judges them (no request more).
 * Coerced readings ("12", "SOLD") are invalid-rejected's alone.
 */
const spelled = new Map<string, Sent<create.LenientCase>>();

/** What one-new-pet got for each shape: create-pet.media-type judges those under another media type (no request more). */
let shapesSeen: Sent<create.ShapeCase>[] | undefined;

function post(ctx: CheckContext, body: string | undefined, contentType?: string): Promise<ApiResponse> {
  const type = contentType ?? (body !== undefined ? 'application/json' : undefined);
  return ctx.client.send({ method: 'POST', path: '/pets', auth: ctx.auth(), ...(body !== undefined ? { body } : {}), headers: type ? { 'content-type': type } : {} });
}

/** Whether an invalid NewPet's readings are create-pet.lenient-input's: what the interface does not describe. */
const undescribed = (c: InvalidNewPetCase): boolean => c.readings !== undefined && !c.coerced;

/** Sends an invalid NewPet; one that still spells a NewPet the interface does not describe is kept, with its answer, for create-pet.lenient-input. */
async function postInvalid(ctx: CheckContext, c: InvalidNewPetCase): Promise<ApiResponse> {
  const seen = await post(ctx, c.body, c.contentType);
  if (undescribed(c)) spelled.set(`${c.reason}\n${c.body}`, { ...c, seen });
  return seen;
}

async function createOne(ctx: CheckContext, body: string): Promise<{ res: ApiResponse; pet?: Pet }> {
  const res = await post(ctx, body);
  const { pet } = create.judgeCreated(res);
  if (pet) idsSeen.add(pet.id);
  return pet ? { res, pet } : { res };
}

/** getPet of an animal the run created: read again (bounded) while it is not found, for a store whose reads lag its writes. */
function readBack(ctx: CheckContext, id: bigint): Promise<ApiResponse> {
  return ctx.readBack.until(() => ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() }), (res) => res.status !== 404);
}

// listPets of each status before anything is written (list-pets.empty-page), unless a suite before this one read them.
readPagesBeforeWrites();

describe('createPet', () => {
  prepare(async (ctx) => {
    if (!ctx.run.allowWrites) return;
    // The animals already there: a new id must differ from theirs too.
    const res = await ctx.client.send({ method: 'GET', path: '/pets', query: { limit: 100 }, auth: ctx.auth() });
    for (const p of readPets(res).value ?? []) idsSeen.add(p.id);
  });

  property(create.created, { ...writes, arbitrary: valid, examples: edges, predicate: async (c, ctx) => create.created.judge(await post(ctx, c.body)) });

  property(create.echo, { ...writes, arbitrary: valid, examples: edges, predicate: async (c, ctx) => create.echo.judge(c.pet, await post(ctx, c.body)) });

  property(create.newId, {
    ...writes,
    arbitrary: valid,
    predicate: async (c, ctx) => {
      const before = new Set(idsSeen);
      const { res, pet } = await createOne(ctx, c.body);
      return pet ? create.newId.judge(pet, before) : create.created.judge(res);
    },
  });

  property(create.persisted, {
    ...writes,
    arbitrary: valid,
    predicate: async (c, ctx) => {
      const { res, pet } = await createOne(ctx, c.body);
      if (!pet) return create.created.judge(res);
      return create.persisted.judge(pet, await readBack(ctx, pet.id));
    },
  });

  property(create.invalidRejected, {
    ...writes,
    arbitrary: invalidNewPet({ namePrefix: CREATED_NAME_PREFIX }),
    examples: invalidBoundaries,
    coverEach: (c) => c.reason,
    predicate: async (c, ctx) => create.invalidRejected.judge(c, await postInvalid(ctx, c)),
  });

  // The answers invalid-rejected got for spellings the interface does not describe that still
  // describe a NewPet (the boundary one, a null status, is sent only when this check runs alone):
  // read as that NewPet is a `should`.
  check(create.lenientInput, writes, async (ctx) => {
    if (spelled.size === 0) for (const c of invalidBoundaries.filter(undescribed)) await postInvalid(ctx, c);
    const cases = [...spelled.values()];
    const finding = create.lenientInput.judge(cases);
    return finding.outcome === 'fail' ? { ...finding, exchanges: cases.filter((c) => create.lenientInput.judge([c]).outcome === 'fail').map((c) => c.seen.exchange) } : finding;
  });

  // One case of each edge, no more: the edges are the cases.
  property(create.boundaries, {
    ...writes,
    runs: 0,
    arbitrary: boundaryNewPet({ namePrefix: CREATED_NAME_PREFIX }),
    coverEach: (c) => c.reason,
    predicate: async (c, ctx) => create.boundaries.judge(c, await post(ctx, c.body)),
  });

  property(create.bodyIdIgnored, {
    ...writes,
    runs: 5,
    arbitrary: newPetWithId({ namePrefix: CREATED_NAME_PREFIX }),
    predicate: async (c, ctx) => {
      const existing = await createOne(ctx, stringifyJson({ name: `${CREATED_NAME_PREFIX}id target`, categoryId: 7n, status: 'pending' }));
      if (!existing.pet) return create.created.judge(existing.res);
      const res = await post(ctx, stringifyJson({ ...c.pet, id: existing.pet.id }));
      const after = await readBack(ctx, existing.pet.id);
      return create.bodyIdIgnored.judge(existing.pet, res, after);
    },
  });

  check(create.extraFields, writes, async (ctx) => {
    const [sample] = fc.sample(newPetWithExtraFields({ namePrefix: CREATED_NAME_PREFIX }), { seed: ctx.run.seed, numRuns: 1 });
    return create.extraFields.judge(Object.keys(sample!.extra), await post(ctx, sample!.body));
  });

  // One NewPet per request, as one JSON object: arrays and envelopes are refused; another media type
  // is refused or read as the NewPet it describes (sent first, so that media-type has them to judge).
  check(create.oneNewPet, writes, async (ctx) => {
    const pet = (what: string) => ({ name: `${CREATED_NAME_PREFIX}one new pet: ${what}`, categoryId: 11n });
    const form = pet('form-encoded');
    const text = pet('as text/plain');
    const shapes: { shape: string; kind: create.BodyShape; body: string; mediaType?: string; describes?: NewPet }[] = [
      { shape: 'a NewPet form-encoded', kind: 'form', body: new URLSearchParams({ name: form.name, categoryId: String(form.categoryId) }).toString(), mediaType: 'application/x-www-form-urlencoded', describes: form },
      { shape: 'a NewPet as text/plain', kind: 'text', body: stringifyJson(text), mediaType: 'text/plain', describes: text },
      { shape: 'an array of one NewPet', kind: 'array', body: stringifyJson([pet('array of one')]) },
      { shape: 'an array of two NewPets', kind: 'array', body: stringifyJson([pet('array of two, first'), pet('array of two, second')]) },
      { shape: 'a NewPet wrapped in {"pet": …}', kind: 'wrapper', body: stringifyJson({ pet: pet('wrapped in pet') }) },
      { shape: 'a NewPet wrapped in {"data": …}', kind: 'wrapper', body: stringifyJson({ data: pet('wrapped in data') }) },
    ];
    const send = async ({ body, ...s }: (typeof shapes)[number]): Promise<Sent<create.ShapeCase>> => ({ ...s, seen: await post(ctx, body, s.mediaType) });
    shapesSeen = await sendEach(shapes, send, create.oneNewPet.judge);
    return create.oneNewPet.judge(shapesSeen);
  });

  // The answers one-new-pet got under another media type (sent only when this check runs alone).
  check(create.mediaType, writes, async (ctx) => {
    if (!shapesSeen) {
      const pet = { name: `${CREATED_NAME_PREFIX}media type: text/plain`, categoryId: 11n };
      shapesSeen = [{ shape: 'a NewPet as text/plain', kind: 'text', mediaType: 'text/plain', describes: pet, seen: await post(ctx, stringifyJson(pet), 'text/plain') }];
    }
    const finding = create.mediaType.judge(shapesSeen);
    return finding.outcome === 'fail' ? { ...finding, exchanges: shapesSeen.filter((c) => isAccepted(c.seen)).map((c) => c.seen.exchange) } : finding;
  });

  check(create.statusDefault, writes, async (ctx) => create.statusDefault.judge(await post(ctx, stringifyJson({ name: `${CREATED_NAME_PREFIX}no status`, categoryId: 3n }))));

  // What the read-backs of the run so far saw of read-after-write (no request).
  check(create.readAfterWriteLag, writes, async (ctx) => create.readAfterWriteLag.judge(ctx.readBack.seen()));
});
