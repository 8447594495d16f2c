// listPets: limits 1..100 (both ends on every run) and the default 20, no duplicates, the status
// filter, animals created in the run visible under their status, status filters that are no
// PetStatus (the empty string, a blank and two in another case on every run), and out-of-range
// limits handled without harm.
import fc from 'fast-check';
import { describe } from 'vitest';
import * as list from '../lib/checks/list-pets.ts';
import type { CreatedCase } from '../lib/checks/list-pets.ts';
import { readPage, readPet } from '../lib/checks/pets.ts';
import { outOfRangeLimit } from '../lib/generators/out-of-range-limit.ts';
import { PAGE_LIMIT_ENDS, pageLimit } from '../lib/generators/page-limit.ts';
import type { OutOfRangeLimitCase } from '../lib/generators/out-of-range-limit.ts';
import { type NotAPetStatusCase, notAPetStatus, petStatus } from '../lib/generators/pet-status.ts';
import type { ApiResponse } from '../lib/client/client.ts';
import { stringifyJson } from '../lib/json.ts';
import { PAGE_SIZE, PET_STATUSES, type PetStatus } from '../lib/models.ts';
import { type CheckContext, check, sendEach } from '../lib/suite-kit/vitest-adapter.ts';
import { property } from '../lib/suite-kit/property-engine.ts';
import { CREATED_NAME_PREFIX } from '../lib/config/run-context.ts';
import { pagesBeforeWrites, readPagesBeforeWrites } from '../lib/suite-kit/pages-before-writes.ts';

const subject = 'GET /pets';

/** The out-of-range limits the interface's bounds make interesting, tried on every run. */
const NAMED_LIMITS: OutOfRangeLimitCase[] = [
  { raw: '0', reason: 'below the minimum 1' },
  { raw: '101', reason: 'above the maximum 100' },
  { raw: '500', reason: 'far above the maximum 100' },
  { raw: '-1', reason: 'negative' },
  { raw: '1.5', reason: 'a fraction' },
  { raw: 'ten', reason: 'not a number' },
  { raw: 'Infinity', reason: 'not a number: Infinity' },
  { raw: '1e400', reason: 'exponent notation beyond any double' },
  { raw: '9223372036854775808', reason: 'beyond int64' },
];

/** Status filters that are no PetStatus, tried on every run: two in another case, one unknown word, the empty string and a blank. */
const NAMED_STATUSES: NotAPetStatusCase[] = [
  { value: 'Available', reason: 'a PetStatus in another case' },
  { value: 'SOLD', reason: 'a PetStatus in another case' },
  { value: 'adopted', reason: 'not a PetStatus in any case' },
  { value: '', reason: 'empty or whitespace only' },
  { value: ' ', reason: 'empty or whitespace only' },
];

/**
 * What list-pets.status-filter-invalid got for each status that is no PetStatus: list-pets.status-case
 * judges those in another case, list-pets.unknown-status all of them.
 */
const lookups = new Map<string, NotAPetStatusCase & { seen: ApiResponse }>();

/** The page an ignored status filter gives: listPets without one, twice (its order stable or not), asked once per run. */
let unfiltered: Promise<list.UnfilteredPage> | undefined;
const unfilteredOnce = (ctx: CheckContext) => (unfiltered ??= (async () => list.unfilteredPage(await get(ctx, {}), await get(ctx, {})))());

function get(ctx: CheckContext, query: Record<string, string | number>) {
  return ctx.client.send({ method: 'GET', path: '/pets', query, auth: ctx.auth() });
}

// listPets of each status before anything is written (list-pets.empty-page), unless a suite before this one read them.
readPagesBeforeWrites();

describe('listPets', () => {
  // Read before the run wrote anything, by the first suite that writes or lists (this one, run alone): no request here.
  check(list.emptyPage, { subject: 'GET /pets?status=… before any write' }, async () => list.emptyPage.judge(await pagesBeforeWrites()));
  check(list.smoke, { subject }, async (ctx) => list.smoke.judge(await ctx.client.send({ method: 'GET', path: '/pets', auth: ctx.auth() })));

  property(list.limit, { subject, arbitrary: pageLimit(), examples: PAGE_LIMIT_ENDS, predicate: async (n, ctx) => list.limit.judge(n, await get(ctx, { limit: n })) });

  property(list.noDuplicates, { subject, arbitrary: pageLimit(), predicate: async (n, ctx) => list.noDuplicates.judge(`limit=${n}`, await get(ctx, { limit: n })) });

  check(list.defaultLimit, { subject }, async (ctx) => {
    const full = list.judgePage(await get(ctx, { limit: 100 }), 'limit=100');
    if (!full.page) return full.finding;
    return list.defaultLimit.judge(full.page.items, await get(ctx, {}));
  });

  property(list.statusFilter, {
    subject,
    arbitrary: fc.tuple(petStatus(), pageLimit()),
    predicate: async ([status, n], ctx) => list.statusFilter.judge(status, n, await get(ctx, { status, limit: n })),
  });

  check(list.createdVisible, { subject, requires: 'writes' }, async (ctx) => {
    const send = async (status: PetStatus): Promise<CreatedCase> => {
      const created = await ctx.client.send({ method: 'POST', path: '/pets', auth: ctx.auth(), body: stringifyJson({ name: `${CREATED_NAME_PREFIX}listed ${status}`, categoryId: 11n, status }) });
      const pet = created.status === 201 ? readPet(created).value : undefined;
      if (!pet) return { status, created };
      // Listed again (bounded) while the page has room and lacks it: a store's reads may lag its writes.
      const shows = (res: ApiResponse) => {
        const page = res.status === 200 ? readPage(res).page : undefined;
        return !page || page.items.length >= PAGE_SIZE.max || page.pets.some((p) => p.id === pet.id);
      };
      return { status, created, listed: await ctx.readBack.until(() => get(ctx, { status, limit: PAGE_SIZE.max }), shows) };
    };
    return list.createdVisible.judge(await sendEach(PET_STATUSES, send, list.createdVisible.judge));
  });

  // After created-visible, so that (writes allowed) the store holds an animal of every status.
  // Without limit: a refused limit would hide what the server does with the status.
  property(list.statusFilterInvalid, {
    subject,
    runs: 4,
    arbitrary: notAPetStatus(),
    examples: NAMED_STATUSES,
    coverEach: (c) => c.reason,
    predicate: async (c, ctx) => {
      const page = await unfilteredOnce(ctx);
      const seen = await get(ctx, { status: c.value });
      lookups.set(c.value, { ...c, seen });
      return list.statusFilterInvalid.judge(c.value, c.reason, seen, page);
    },
  });

  // The answers status-filter-invalid got (no request more; the named ones are sent only when
  // these checks run alone): read ignoring case, and ignored, are each a `should`.
  const judged = async (ctx: CheckContext, which: (c: NotAPetStatusCase) => boolean) => {
    if (lookups.size === 0) for (const c of NAMED_STATUSES) lookups.set(c.value, { ...c, seen: await get(ctx, { status: c.value }) });
    return [...lookups.values()].filter(which);
  };
  check(list.statusCase, { subject }, async (ctx) => {
    const seen = await judged(ctx, (c) => c.reason === 'a PetStatus in another case');
    const finding = list.statusCase.judge(seen);
    return finding.outcome === 'fail' ? { ...finding, exchanges: seen.map((l) => l.seen.exchange) } : finding;
  });
  check(list.unknownStatus, { subject }, async (ctx) => {
    const seen = await judged(ctx, () => true);
    const page = await unfilteredOnce(ctx);
    const finding = list.unknownStatus.judge(seen, page);
    return finding.outcome === 'fail' ? { ...finding, exchanges: seen.filter((l) => list.unknownStatus.judge([l], page).outcome === 'fail').map((l) => l.seen.exchange) } : finding;
  });

  property(list.outOfRange, {
    subject,
    arbitrary: outOfRangeLimit(),
    examples: NAMED_LIMITS,
    // Each reason a limit is out of range (zero, a fraction, …) is its own kind of failure.
    coverEach: (c) => c.reason,
    predicate: async (c, ctx) => list.outOfRange.judge(c.raw, c.reason, await get(ctx, { limit: c.raw })),
  });

  property(list.outOfRangeNo5xx, {
    subject,
    arbitrary: outOfRangeLimit(),
    examples: NAMED_LIMITS,
    // Each reason a limit is out of range (zero, a fraction, …) is its own kind of failure.
    coverEach: (c) => c.reason,
    predicate: async (c, ctx) => list.outOfRangeNo5xx.judge(`limit=${c.raw} (${c.reason})`, await get(ctx, { limit: c.raw })),
  });

  check(list.outOfRangeBehaviour, { subject }, async (ctx) => {
    const seen = [];
    for (const raw of ['0', '101', '500']) seen.push({ raw, seen: await get(ctx, { limit: raw }) });
    return list.outOfRangeBehaviour.judge(seen);
  });
});
