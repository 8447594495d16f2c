// Authentication on every operation: each way of not presenting a valid bearer key (keys close to a
// configured key included) gets 401 with an Error body; the configured key spelled otherwise in the
// header gets 401 or 400 (a should); authentication comes before validation and lookup; the scheme
// is case-insensitive. GET /store/orders is an operation too ("Every operation requires bearer
// authentication"); its payloads are not shown, so only its 401s are judged, and that a valid key
// is not refused.
import { describe } from 'vitest';
import * as auth from '../lib/checks/auth.ts';
import type { ApiRequest } from '../lib/client/client.ts';
import type { Auth } from '../lib/client/credentials.ts';
import { type NearMissKey, nearMissKeys } from '../lib/generators/near-miss-key.ts';
import { stringifyJson, tryParseJson } from '../lib/json.ts';
import { type CheckContext, check, sendEach } from '../lib/suite-kit/vitest-adapter.ts';
import { CREATED_NAME_PREFIX } from '../lib/config/run-context.ts';
import { oneWayIn } from './parts/auth-ways-in.ts';
import { MISSING_PET_ID } from './parts/shared.ts';
import { readPagesBeforeWrites } from '../lib/suite-kit/pages-before-writes.ts';

interface Operation {
  name: string;
  request: Omit<ApiRequest, 'auth'>;
  /** createPet: a server that ignored auth would create an animal. */
  writes?: boolean;
}

const OPERATIONS: Operation[] = [
  { name: 'listPets GET /pets', request: { method: 'GET', path: '/pets' } },
  {
    name: 'createPet POST /pets',
    request: { method: 'POST', path: '/pets', body: stringifyJson({ name: `${CREATED_NAME_PREFIX}auth probe`, categoryId: 1 }) },
    writes: true,
  },
  // Authentication comes before lookup, so any id will do.
  { name: 'getPet GET /pets/{petId}', request: { method: 'GET', path: `/pets/${MISSING_PET_ID}` } },
  // Its parameters and payloads are not shown: no query, no body.
  { name: 'listOrders GET /store/orders', request: { method: 'GET', path: '/store/orders' } },
];

/** Each way of failing to authenticate, as the credentials to send (one request each). */
const CASES: [(typeof auth.UNAUTHORIZED_CHECKS)[number], (ctx: CheckContext) => Auth[]][] = [
  [auth.missingKey, () => [{ none: true }]],
  [auth.invalidKey, () => [{ header: 'Bearer not-a-key-0000000000000000' }]],
  [auth.wrongScheme, (ctx) => [{ ...ctx.auth(), scheme: 'Basic' }]],
  [auth.emptyToken, () => [{ header: 'Bearer ' }, { header: 'Bearer' }]],
  [auth.keyWithoutScheme, (ctx) => [{ ...ctx.auth(), scheme: '' }]],
  [auth.keyInQuery, (ctx) => ['api_key', 'access_token', 'key'].map((param) => ({ keyInQuery: ctx.auth().key, param }))],
  [
    auth.nearMissKey,
    (ctx) => {
      const { key } = ctx.auth();
      const otherKeys = ctx.run.target.keys.map((k) => k.key);
      return nearMissKeys(key.key, { otherKeys })
        .filter((nearMiss) => !nearMiss.wholeKey)
        .map((nearMiss) => ({ nearMissOf: key, nearMiss }));
    },
  ],
];

// listPets of each status before anything is written (list-pets.empty-page), unless a suite before this one read them.
readPagesBeforeWrites();

describe('Authentication', () => {
  for (const [def, credentials] of CASES) {
    for (const op of OPERATIONS) {
      check(def, { subject: op.name, ...(op.writes ? { requires: 'writes' as const } : {}) }, async (ctx) =>
        def.judge(await sendEach(credentials(ctx), (credential) => ctx.client.send({ ...op.request, auth: credential }), def.judge)),
      );
    }
  }

  // The whole key spelled otherwise in the header: refused (401 or 400) is the interface's reading.
  for (const op of OPERATIONS) {
    check(auth.credentialSyntax, { subject: op.name, ...(op.writes ? { requires: 'writes' as const } : {}) }, async (ctx) => {
      const { key } = ctx.auth();
      const otherKeys = ctx.run.target.keys.map((k) => k.key);
      const spellings = nearMissKeys(key.key, { otherKeys }).filter((nearMiss) => nearMiss.wholeKey);
      const send = async (nearMiss: NearMissKey) => ({ shape: nearMiss.shape, seen: await ctx.client.send({ ...op.request, auth: { nearMissOf: key, nearMiss } }) });
      return auth.credentialSyntax.judge(await sendEach(spellings, send, auth.credentialSyntax.judge));
    });
  }

  // An invalid body: a server that validates first answers 400, and nothing is created either way;
  // still a POST, so only where writes are allowed (production promises none).
  check(auth.beforeValidation, { subject: 'createPet POST /pets', requires: 'writes' }, async (ctx) => {
    const send = async (body: string) => ({ body, unreadable: !tryParseJson(body).ok, seen: await ctx.client.send({ method: 'POST', path: '/pets', body, auth: { none: true } }) });
    return auth.beforeValidation.judge(await sendEach(['{}', '{"name": 1}', 'not json'], send, auth.beforeValidation.judge));
  });

  // A refused createPet has no effect: NewPets named uniquely, sent without a key and with a wrong
  // key between two animals created with the key, then looked for at the ids between those two
  // (when few) and by name on a page of 100. At most 13 requests.
  check(auth.refusedNoEffect, { subject: 'createPet POST /pets', requires: 'writes' }, async (ctx) => {
    const tag = `${ctx.run.seed}`;
    const create = (name: string, credential: Auth) => ctx.client.send({ method: 'POST', path: '/pets', body: stringifyJson({ name, categoryId: 1n }), auth: credential });
    const before = await create(`${CREATED_NAME_PREFIX}read back ${tag}, before`, ctx.auth());
    const refused: auth.RefusedCreate[] = [];
    for (const [how, credential] of [['without a key', { none: true }], ['with a wrong key', { header: 'Bearer not-a-key-0000000000000000' }]] as const) {
      const name = `${CREATED_NAME_PREFIX}refused ${how} ${tag}`;
      refused.push({ how, name, seen: await create(name, credential) });
    }
    const after = await create(`${CREATED_NAME_PREFIX}read back ${tag}, after`, ctx.auth());
    // Nothing must be found: a store whose reads lag its writes would hide a refused create stored
    // anyway. Where the run has seen reads lag, the largest lag seen is waited out first; where it
    // has not (every write visible at once, or nothing read back yet: this suite runs first), no
    // wait, so that targets whose reads do not lag pay nothing (ReadBack.settle).
    await ctx.readBack.settle();
    const gap = auth.idsBetween(before, after);
    const between = [];
    for (const id of 'ids' in gap ? gap.ids : []) between.push({ id, seen: await ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() }) });
    const page = await ctx.client.send({ method: 'GET', path: '/pets', query: { limit: 100 }, auth: ctx.auth() });
    return auth.refusedNoEffect.judge({ refused, before, after, between, page });
  });

  check(auth.beforeLookup, { subject: 'getPet GET /pets/{petId}' }, async (ctx) =>
    auth.beforeLookup.judge(await ctx.client.send({ method: 'GET', path: `/pets/${MISSING_PET_ID}`, auth: { none: true } })),
  );

  // GET /store/orders too: whatever its payloads, a valid key must not get 401 there (only the
  // status is judged; the run-wide checks see its answer like any other).
  for (const op of OPERATIONS.filter((o) => !o.writes)) {
    check(auth.schemeCaseInsensitive, { subject: op.name }, async (ctx) => {
      const send = async (scheme: string) => ({ scheme, seen: await ctx.client.send({ ...op.request, auth: { ...ctx.auth(), scheme } }) });
      return auth.schemeCaseInsensitive.judge(await sendEach(['bearer', 'BEARER'], send, auth.schemeCaseInsensitive.judge));
    });
  }
});

// A key by any other carrier, the server's cookies alone, object-member tokens: parts/auth-ways-in.ts.
oneWayIn();
