// Concurrency: what a server does with requests that arrive together. Pure: what was sent and
// answered in, a finding out. The suite (suites/concurrency.suite.ts) sends them.
import type { NewPet, Pet } from '../models.ts';
import { defineCheck } from './define.ts';
import { echoProblems, notingOtherMembers, readPet } from './pets.ts';
import { describeSeen, explainedBy, fail, type Finding, pass, type Seen, skip } from './types.ts';

/** One POST of a round sent together, and what it got. */
export interface ParallelCreate {
  sent: NewPet;
  seen: Seen;
}

/** getPet of an id a round's POST returned, after the round. */
export interface CreatedLookup {
  id: bigint;
  seen: Seen;
}

export interface CreateRound {
  creates: ParallelCreate[];
  lookups: CreatedLookup[];
}

const show = (ids: readonly bigint[]) => ids.map(String).join(', ');

/**
 * N POSTs sent together (some with identical bodies) must create N animals: each 201 with its own
 * id, and each found by getPet as it was sent. A read-then-write id counter hands two of them one
 * id, and the second overwrites the first. Codes: not-201, no-pet (a 201 without a Pet),
 * duplicate-ids, created-not-found (getPet finds no Pet), created-changed (not as sent).
 */
export function judgeParallelCreates(rounds: readonly CreateRound[]): Finding {
  if (rounds.length === 0 || rounds.every((r) => r.creates.length === 0)) return skip('no POSTs were sent together');
  for (const [i, round] of rounds.entries()) {
    const n = round.creates.length;
    const created: { sent: NewPet; pet: Pet }[] = [];
    for (const c of round.creates) {
      const pet = c.seen.status === 201 ? readPet(c.seen).value : undefined;
      if (!pet) {
        const failed = fail(c.seen.status === 201 ? 'no-pet' : 'not-201', `round ${i + 1}: a POST sent together with ${n - 1} others got ${c.seen.status}${c.seen.status === 201 ? ' without a Pet' : ''}`, '201 with the created Pet, for each of them', describeSeen(c.seen));
        return explainedBy(failed, 'create-pet.created');
      }
      created.push({ sent: c.sent, pet });
    }
    const ids = created.map((c) => c.pet.id);
    const repeated = ids.filter((id, k) => ids.indexOf(id) !== k);
    if (repeated.length > 0) {
      return fail(
        'duplicate-ids',
        `round ${i + 1}: ${n} POSTs sent together got ${new Set(ids).size} distinct ids: id ${show([...new Set(repeated)])} was given to more than one animal (the id is read, then written)`,
        `${n} distinct ids`,
        `ids ${show(ids)}`,
      );
    }
    for (const c of created) {
      const lookup = round.lookups.find((l) => l.id === c.pet.id);
      if (!lookup) continue;
      const found = lookup.seen.status === 200 ? readPet(lookup.seen).value : undefined;
      const problems = found ? echoProblems(c.sent, found).map((p) => p.text) : [`getPet(${c.pet.id}) got ${lookup.seen.status}`];
      if (problems.length > 0) {
        return fail(found ? 'created-changed' : 'created-not-found', `round ${i + 1}: an animal created together with ${n - 1} others is not there as created: ${problems.join('; ')}`, `getPet(${c.pet.id}) returns it as sent`, describeSeen(lookup.seen));
      }
    }
  }
  const total = rounds.reduce((sum, r) => sum + r.creates.length, 0);
  const others = rounds.flatMap((r) => [...r.creates.map((c) => c.seen), ...r.lookups.map((l) => l.seen)].filter((seen) => seen.status === 201 || seen.status === 200).flatMap((seen) => readPet(seen).others));
  return notingOtherMembers(pass(`${rounds.length} rounds, ${total} POSTs sent ${rounds[0]!.creates.length} at a time (identical bodies among them): every one created with its own id and found by getPet`), others);
}

export const parallelCreates = defineCheck({
  id: 'concurrency.parallel-creates',
  clause: 'Endpoints / createPet',
  suite: 'concurrency',
  title: 'POSTs sent together (identical bodies among them) each create their own animal: distinct ids, each found by getPet as sent',
  severity: 'must',
  explainedBy: ['create-pet.created', 'responses.no-5xx'],
  judge: judgeParallelCreates,
});

export const CONCURRENCY_CHECKS = [parallelCreates] as const;
