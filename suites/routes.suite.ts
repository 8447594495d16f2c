// Requests outside the three operations, which no other suite sends: unknown paths under the base
// URL, other methods on the interface's paths, bodies the parser refuses on POST /pets, and
// GET /store/orders with a key. Each without a key and with one: nothing is served without a key,
// nothing answers a 5xx, and every answer carries X-RateLimit-* ("Every response carries"). Nothing
// here can change an animal: DELETE goes only to an id that getPet has just answered 404 for, never
// to /pets; so do PUT and PATCH, but for an empty PUT and PATCH on /pets where writes are allowed,
// as the POSTs are.
import { describe } from 'vitest';
import * as routes from '../lib/checks/routes.ts';
import type { OutsideCase } from '../lib/checks/routes.ts';
import { skip } from '../lib/checks/types.ts';
import type { ApiRequest } from '../lib/client/client.ts';
import { stringifyJson } from '../lib/json.ts';
import { type CheckContext, check, sendEach } from '../lib/suite-kit/vitest-adapter.ts';
import { CREATED_NAME_PREFIX } from '../lib/config/run-context.ts';
import { MISSING_PET_ID, MISSING_PET_IDS } from './parts/shared.ts';
import { readPagesBeforeWrites } from '../lib/suite-kit/pages-before-writes.ts';

/** A request to send without a key and with one, named as the reader sees it. */
interface Outside {
  request: string;
  send: Omit<ApiRequest, 'auth'>;
  alsoWithoutKey?: readonly number[];
  /** Sent only without a key, or only with one. */
  only?: 'without-key' | 'with-key';
}

const named = (send: Omit<ApiRequest, 'auth'>, label = ''): Outside => ({ request: `${send.method} ${send.path}${label}`, send });

/** Paths under the base URL that no operation has: a typo, another case, a trailing slash, a segment more. */
const UNKNOWN_PATHS = ['/unknown-conformance-path', `/pets/${MISSING_PET_ID}/extra`, '/petz', '/Pets', '/pets/'];

/**
 * Just over 1 MiB (nginx's default client_max_body_size), and no NewPet even when read whole:
 * without categoryId it cannot be created.
 */
const OVERSIZED_BYTES = Math.ceil(1.1 * 1024 * 1024);
function oversizedBody(): string {
  const head = `{"name":"${CREATED_NAME_PREFIX}oversized body `;
  const tail = '"}';
  return head + 'x'.repeat(OVERSIZED_BYTES - head.length - tail.length) + tail;
}

const NEW_PET = { name: `${CREATED_NAME_PREFIX}outside createPet`, categoryId: 1n };

/** Sends each request (without a key first), stopping at the first answer the check does not pass. */
async function sendOutside(ctx: CheckContext, requests: readonly Outside[], judge: typeof routes.unknownPath.judge): Promise<OutsideCase[]> {
  const cases = [...requests.filter((r) => r.only !== 'with-key').map((r) => ({ r, keyed: false })), ...requests.filter((r) => r.only !== 'without-key').map((r) => ({ r, keyed: true }))];
  return sendEach(
    cases,
    async ({ r, keyed }) => ({
      request: r.request,
      keyed,
      seen: await ctx.client.send({ ...r.send, auth: keyed ? ctx.auth() : { none: true } }),
      ...(r.alsoWithoutKey ? { alsoWithoutKey: r.alsoWithoutKey } : {}),
    }),
    judge,
  );
}

/** An id getPet has just answered 404 for: the only id other methods are sent to. */
async function missingId(ctx: CheckContext): Promise<bigint | undefined> {
  for (const id of MISSING_PET_IDS) {
    if ((await ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() })).status === 404) return id;
  }
  return undefined;
}

// listPets of each status before anything is written (list-pets.empty-page), unless a suite before this one read them.
readPagesBeforeWrites();

describe('Outside the operations', () => {
  check(routes.unknownPath, {}, async (ctx) =>
    routes.unknownPath.judge(await sendOutside(ctx, UNKNOWN_PATHS.map((path) => named({ method: 'GET', path })), routes.unknownPath.judge)),
  );

  check(routes.otherMethod, {}, async (ctx) => {
    const id = await missingId(ctx);
    if (id === undefined) return skip(`getPet did not answer 404 for any of ${MISSING_PET_IDS.join(', ')}: no id is known to belong to no animal, so no other method is sent`);
    const onId = (['PUT', 'PATCH', 'DELETE'] as const).map((method) => named({ method, path: `/pets/${id}` }));
    // An empty PUT or PATCH on the collection changes nothing on a conforming server; still, only where writes are allowed.
    const onCollection = ctx.run.allowWrites ? (['PUT', 'PATCH'] as const).map((method) => named({ method, path: '/pets', body: '' }, ' (empty body)')) : [];
    return routes.otherMethod.judge(await sendOutside(ctx, [...onId, ...onCollection], routes.otherMethod.judge));
  });

  check(routes.refusedBody, { requires: 'writes' }, async (ctx) => {
    const newPet = stringifyJson(NEW_PET);
    const form = new URLSearchParams({ name: NEW_PET.name, categoryId: String(NEW_PET.categoryId) }).toString();
    const oversized: Outside = { ...named({ method: 'POST', path: '/pets', body: oversizedBody() }, ` (${OVERSIZED_BYTES} bytes)`), alsoWithoutKey: [413] };
    return routes.refusedBody.judge(
      await sendOutside(
        ctx,
        [
          { ...named({ method: 'POST', path: '/pets', body: newPet, headers: { 'content-type': 'text/plain' } }, ' (a NewPet as text/plain)'), only: 'without-key' },
          // No JSON at all: a JSON body parser before authentication may refuse it with 400 (auth.before-validation's reading).
          { ...named({ method: 'POST', path: '/pets', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, ' (a NewPet form-encoded)'), only: 'without-key', alsoWithoutKey: [400] },
          oversized,
          { ...named({ method: 'POST', path: '/pets', body: `{"name":"${CREATED_NAME_PREFIX}malformed","categoryId":1` }, ' (malformed JSON)'), only: 'with-key' },
        ],
        routes.refusedBody.judge,
      ),
    );
  });

  // Its payloads are not shown: no query, no body, any status; but never a 5xx, and its headers.
  check(routes.orders, {}, async (ctx) => routes.orders.judge(await sendOutside(ctx, [{ ...named({ method: 'GET', path: '/store/orders' }), only: 'with-key' }], routes.orders.judge)));
});
