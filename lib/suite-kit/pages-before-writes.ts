// The store as it was before the run wrote anything: listPets of each status, read once per run
// with a key, before the first suite that may write (concurrency and create-pet run early, and the
// auth suite's refused createPets would write on a faulty server). Each suite file that writes or
// lists calls readPagesBeforeWrites() at its top, before its own work: whichever runs first (in a
// whole run, with `--suite X`, or run by vitest alone) reads; the others find it done. The reads go
// through the session's client like every request of the suites: counted against the budget,
// recorded, in the key's ledger, a 429 waited out as the retry rule says. list-pets.empty-page
// judges them (pagesBeforeWrites()).
import type { StatusPageRead } from '../checks/list-pets.ts';
import { describeError } from '../errors.ts';
import { PET_STATUSES } from '../models.ts';
import { type CheckContext, prepare } from './vitest-adapter.ts';

let reads: Promise<StatusPageRead[]> | undefined;

/** Registers, at the top of a suite file, the reads before its own work; the first such file of the run does them. */
export function readPagesBeforeWrites(): void {
  prepare(async (ctx) => {
    await (reads ??= readEachStatus(ctx));
  });
}

/** One request a status, in the interface's order; a request that could not be sent stops the rest (the budget spent, the run's time up, the target gone). */
async function readEachStatus(ctx: CheckContext): Promise<StatusPageRead[]> {
  const out: StatusPageRead[] = [];
  for (const status of PET_STATUSES) {
    try {
      const res = await ctx.client.send({ method: 'GET', path: '/pets', query: { status }, auth: ctx.auth() });
      out.push({ status, seen: res, exchange: res.exchange });
    } catch (err) {
      out.push({ status, error: describeError(err) });
      break;
    }
  }
  return out;
}

/** The reads made before the run wrote; none when no suite that makes them has run. */
export async function pagesBeforeWrites(): Promise<StatusPageRead[]> {
  return reads ? await reads : [];
}
