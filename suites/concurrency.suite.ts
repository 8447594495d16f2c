// Requests that arrive together. POSTs sent at once, identical bodies among them, must each create
// their own animal: a read-then-write id counter gives two of them one id. (Two requests released
// together at the last request of a quota are the rate-limit suite's: rate-limit.boundary-race.)
import { describe } from 'vitest';
import * as concurrency from '../lib/checks/concurrency.ts';
import * as ids from '../lib/checks/ids.ts';
import { readPet } from '../lib/checks/pets.ts';
import { stringifyJson } from '../lib/json.ts';
import type { NewPet } from '../lib/models.ts';
import { check } from '../lib/suite-kit/vitest-adapter.ts';
import { CREATED_NAME_PREFIX } from '../lib/config/run-context.ts';
import { readPagesBeforeWrites } from '../lib/suite-kit/pages-before-writes.ts';

/** Rounds of POSTs sent together: a race that shows only sometimes gets more than one chance. */
const ROUNDS = 2;
const DISTINCT = 3;
const IDENTICAL = 3;

function bodies(seed: number, round: number): NewPet[] {
  const tag = `${seed}-${round}`;
  const distinct: NewPet[] = Array.from({ length: DISTINCT }, (_, i) => ({ name: `${CREATED_NAME_PREFIX}together ${tag}.${i}`, categoryId: BigInt(100 + i), status: 'pending' }));
  const same: NewPet = { name: `${CREATED_NAME_PREFIX}together ${tag} twin`, categoryId: 7n };
  return [...distinct, ...Array.from({ length: IDENTICAL }, () => same)];
}

// listPets of each status before anything is written (list-pets.empty-page), unless a suite before this one read them.
readPagesBeforeWrites();

describe('Concurrency', () => {
  check(concurrency.parallelCreates, { subject: 'POST /pets', requires: 'writes' }, async (ctx) => {
    const rounds: concurrency.CreateRound[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const creates = await Promise.all(
        bodies(ctx.run.seed, round).map(async (sent) => ({
          sent,
          seen: await ctx.client.send({ method: 'POST', path: '/pets', auth: ctx.auth(), body: stringifyJson(sent), headers: { 'content-type': 'application/json' } }),
        })),
      );
      const ids = [...new Set(creates.flatMap((c) => (c.seen.status === 201 ? [readPet(c.seen).value?.id] : [])).filter((id) => id !== undefined))];
      // Each read again (bounded) while not found, for a store whose reads lag its writes.
      const lookup = (id: bigint) => ctx.readBack.until(() => ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() }), (res) => res.status !== 404);
      const lookups = await Promise.all(ids.map(async (id) => ({ id, seen: await lookup(id) })));
      rounds.push({ creates, lookups });
      const finding = concurrency.parallelCreates.judge(rounds);
      if (finding.outcome !== 'pass') return finding;
    }
    return concurrency.parallelCreates.judge(rounds);
  });

  // POSTs sent together, each over a connection of its own: with up to three keys (disposable ones
  // left for the ban probe), two connections each; with one key, four connections. At most 6
  // requests. Keys other than the run's are not retried after a 429: that POST is not judged.
  check(ids.idsAcrossKeys, { subject: 'POST /pets', requires: 'writes' }, async (ctx) => {
    const { key: main } = ctx.auth();
    const keys = [main, ...ctx.run.target.keys.filter((k) => !k.disposable && k.label !== main.label)].slice(0, 3);
    const lanes = keys.length > 1 ? keys.flatMap((k) => [k, k]) : [main, main, main, main];
    const connections = lanes.map(() => ctx.client.ownConnection());
    try {
      const creates = await Promise.all(
        lanes.map(async (key, i) => {
          const sent: NewPet = { name: `${CREATED_NAME_PREFIX}one id ${ctx.run.seed}.${i + 1}`, categoryId: BigInt(200 + i), status: 'available' };
          const seen = await ctx.client.send({ method: 'POST', path: '/pets', auth: { key }, body: stringifyJson(sent), connection: connections[i]!, retry: key.label === main.label });
          return { key: key.label, connection: i + 1, sent, seen };
        }),
      );
      return ids.idsAcrossKeys.judge(creates);
    } finally {
      for (const c of connections) c.close();
    }
  });
});
