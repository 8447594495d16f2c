// Requests that arrive together. POSTs sent at once, identical bodies among them, must each create
// their own animal: a read-then-write id counter gives two of them one id. (Two requests released
// together at the last request of a quota are the rate-limit suite's: rate-limit.boundary-race.)
import { describe } from 'vitest';
import * as concurrency from '../lib/checks/concurrency.ts';
import { readPet } from '../lib/checks/pets.ts';
import { stringifyJson } from '../lib/json.ts';
import type { NewPet } from '../lib/models.ts';
import { check } from '../lib/worker/vitest-adapter.ts';
import { CREATED_NAME_PREFIX } from '../lib/worker/run-context.ts';

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
      const lookups = await Promise.all(ids.map(async (id) => ({ id, seen: await ctx.client.send({ method: 'GET', path: `/pets/${id}`, auth: ctx.auth() }) })));
      rounds.push({ creates, lookups });
      const finding = concurrency.parallelCreates.judge(rounds);
      if (finding.outcome !== 'pass') return finding;
    }
    return concurrency.parallelCreates.judge(rounds);
  });
});
