// One id per animal ("Pet": id, int64, "Unique identifier, assigned by the service on creation";
// getPet: petId, "Identifier of the animal to retrieve"). An animal is found at its own id only,
// ids are unique across keys and connections, and every key finds an animal with the same fields.
// Pure: what was sent and answered in, a finding out. The get-pet and concurrency suites send.
import type { IdAlias } from '../generators/id-aliases.ts';
import type { NewPet, Pet } from '../models.ts';
import { findingOfProblems, saidOf } from './bodies.ts';
import { defineCheck } from './define.ts';
import { readPet, sameAnimalProblems } from './pets.ts';
import { describeSeen, type EachCase, explainedBy, fail, type Finding, pass, type Seen, skip } from './types.ts';
import { isAccepted } from '../status.ts';

/** An animal whose id X is known: created by the check (with a name of its own), or listed. */
export interface KnownAnimal {
  pet: Pet;
  source: 'created' | 'listed';
  /** The label of the key that created or listed it. */
  by: string;
}

const describeKnown = (k: KnownAnimal) => `pet ${k.pet.id} (${k.source === 'created' ? 'created' : 'listed'} with ${k.by})`;

const sameFields = (a: Pet, b: Pet) => a.name === b.name && a.categoryId === b.categoryId && a.status === b.status;

/** `id` is 0 or of the other sign than `x`: where a service that gave `x` does not give ids, counting from `x`'s side. */
const acrossZero = (x: bigint, id: bigint) => id === 0n || (x > 0n ? id < 0n : x < 0n && id > 0n);

/** getPet of one alias of X, and what it answered. */
export interface AliasLookup {
  known: KnownAnimal;
  alias: IdAlias;
  seen: Seen;
}


/**
 * An alias of X must not find X. 400 and 404 are fine, and so is a 2xx with the animal whose id is
 * exactly the one asked for (a real animal there). A 5xx is responses.no-5xx's, a 2xx body that is
 * no Pet get-pet.not-found's or get-pet.non-numeric's. X found there, by its id, or (for an animal
 * the check created, at an alias of 0 or across zero from X) by its fields under the id asked for, fails with
 * served-at-<kind>-id (negated, adjacent, wrapped, edge); another animal than the one asked for
 * with wrong-animal-served.
 */
export function judgeAliasLookup({ known, alias, seen }: AliasLookup): Finding {
  if (!isAccepted(seen)) return pass();
  const got = readPet(seen).value;
  if (!got) return pass();
  const x = known.pet;
  const expected = `404 (or 400), or the animal whose id is ${alias.id}`;
  const code = `served-at-${alias.kind}-id`;
  if (got.id === x.id) return fail(code, `pet ${x.id} is also served at ${alias.id} (${alias.why})`, expected, describeSeen(seen));
  if (got.id === alias.id) {
    // Only at an id no animal can have been given before (0, or across zero from X: a service
    // counting from X's side does not reach it): an animal left by an earlier run with the same seed
    // has the same fields, and may sit at an alias on X's side, X - 1 say (X + 1 where ids are
    // negative and count down).
    if (known.source === 'created' && acrossZero(x.id, alias.id) && sameFields(got, x)) {
      return fail(code, `pet ${x.id} is also served at ${alias.id}, under the id asked for but with its name, categoryId and status (${alias.why})`, expected, describeSeen(seen));
    }
    return pass();
  }
  return fail('wrong-animal-served', `getPet(${alias.id}) answered pet ${got.id}, not the animal with that id (${alias.why})`, expected, describeSeen(seen));
}

const byStatus = (lookups: readonly AliasLookup[]) => {
  const counts = new Map<number, number>();
  for (const l of lookups) counts.set(l.seen.status, (counts.get(l.seen.status) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status} ×${n}`).join(', ');
};

export const judgeOwnIdOnly: EachCase<AliasLookup> = Object.assign(
  (lookups: readonly AliasLookup[]): Finding => {
    if (lookups.length === 0) return skip('no animal to look for: the store lists none, and writes are not allowed to create one');
    for (const l of lookups) {
      const finding = judgeAliasLookup(l);
      if (finding.outcome !== 'pass') return finding;
    }
    const knowns = [...new Map(lookups.map((l) => [l.known.pet.id, l.known])).values()];
    const real = lookups.filter((l) => isAccepted(l.seen) && readPet(l.seen).value?.id === l.alias.id).map((l) => String(l.alias.id));
    return pass(
      `${knowns.map(describeKnown).join(', ')}: not served at any of the ${lookups.length} ids a sign, index, wrap or width mistake maps onto it (${byStatus(lookups)})` +
        (real.length > 0 ? `; ${real.length} of them ${real.length === 1 ? 'holds' : 'hold'} an animal of its own (${real.join(', ')}), as ${real.length === 1 ? 'it' : 'they'} may` : ''),
    );
  },
  { one: judgeAliasLookup },
);

/** A POST of a round sent together, with the key and the connection (numbered from 1) it went over. */
export interface KeyedCreate {
  key: string;
  connection: number;
  sent: NewPet;
  seen: Seen;
}

const where = (c: KeyedCreate) => `${c.key} on connection ${c.connection}`;

/**
 * POSTs sent together with different keys, each key over connections of its own (or one key over
 * several connections), must get distinct ids. A 429 leaves its POST out (the limiter's, not
 * judged here). Codes: not-201, no-pet (both explained by create-pet.created when it fails too),
 * repeated-across-connections (two POSTs of one key, on different connections, got one id: a
 * counter per connection or per process), repeated-across-keys (a counter per key or tenant).
 */
export function judgeIdsAcrossKeys(creates: readonly KeyedCreate[]): Finding {
  const judged = creates.filter((c) => c.seen.status !== 429);
  const created: { create: KeyedCreate; pet: Pet }[] = [];
  for (const c of judged) {
    const pet = c.seen.status === 201 ? readPet(c.seen).value : undefined;
    if (!pet) {
      const failed = fail(c.seen.status === 201 ? 'no-pet' : 'not-201', `a POST sent with ${where(c)}, together with ${creates.length - 1} others, got ${c.seen.status}${c.seen.status === 201 ? ' without a Pet' : ''}`, '201 with the created Pet', describeSeen(c.seen));
      return explainedBy(failed, 'create-pet.created');
    }
    created.push({ create: c, pet });
  }
  const refused = creates.length - judged.length;
  const keys = new Set(created.map((c) => c.create.key));
  const connections = new Set(created.map((c) => `${c.create.key}@${c.create.connection}`));
  if (created.length < 2 || connections.size < 2) {
    return skip(`only ${created.length} of ${creates.length} POSTs sent together created an animal (${refused} refused with 429): too few to compare ids across keys or connections`);
  }
  const pairs: [KeyedCreate, KeyedCreate, bigint][] = [];
  for (let i = 0; i < created.length; i++) {
    for (let j = i + 1; j < created.length; j++) {
      if (created[i]!.pet.id === created[j]!.pet.id) pairs.push([created[i]!.create, created[j]!.create, created[i]!.pet.id]);
    }
  }
  const ids = created.map((c) => `${c.pet.id} (${where(c.create)})`).join(', ');
  const expected = `${created.length} distinct ids`;
  const sameKey = pairs.find(([a, b]) => a.key === b.key);
  if (sameKey) {
    const [a, b, id] = sameKey;
    return fail('repeated-across-connections', `id ${id} was given to two animals created with ${a.key}, one on connection ${a.connection}, one on connection ${b.connection} (sent together): ids are counted per connection or per process, not once for the service`, expected, `ids ${ids}`);
  }
  const [first] = pairs;
  if (first) {
    const [a, b, id] = first;
    return fail('repeated-across-keys', `id ${id} was given to two animals, one created with ${a.key} (connection ${a.connection}), one with ${b.key} (connection ${b.connection}), sent together: ids are counted per key, not once for the service`, expected, `ids ${ids}`);
  }
  const how = keys.size > 1 ? `with ${[...keys].join(', ')}, each over connections of its own` : `with ${[...keys][0]} over ${connections.size} connections of their own`;
  return pass(`${created.length} POSTs sent together ${how}: ${created.length} distinct ids${refused > 0 ? ` (${refused} more refused with 429, not judged)` : ''}`);
}

/** getPet of a known animal with one configured key. */
export interface KeyedLookup {
  known: KnownAnimal;
  key: string;
  seen: Seen;
}

/**
 * What one key sees of a known animal, against the fields it was created (or listed) with. A 429 is
 * not judged. Codes: missing-for-key (404), not-200-for-key, readPet's (invalid-pet, …), and
 * sameAnimalProblems' (id-differs, name-differs, category-id-differs, status-differs).
 */
function keyedProblem({ known, key, seen }: KeyedLookup): Finding {
  const x = known.pet;
  const expected = `200 with pet ${x.id} as it was ${known.source} with ${known.by}`;
  if (seen.status === 429) return pass();
  if (seen.status === 404) return fail('missing-for-key', `${describeKnown(known)} gets 404 with ${key}: the animal exists, so every key finds it`, expected, describeSeen(seen));
  if (seen.status !== 200) return explainedBy(fail('not-200-for-key', `${describeKnown(known)} gets ${seen.status} with ${key}`, expected, describeSeen(seen)), 'responses.no-5xx');
  const { value, problems } = readPet(seen);
  if (!value) return explainedBy(findingOfProblems(saidOf(`${describeKnown(known)} with ${key}`, problems), expected, describeSeen(seen)), 'get-pet.found');
  const differs = sameAnimalProblems(x, value);
  const [first] = differs;
  return first ? fail(first.code, `${describeKnown(known)} as ${key} sees it: ${differs.map((p) => p.text).join('; ')}`, expected, describeSeen(seen)) : pass();
}

/**
 * Whether the key that created (or listed) the animal finds it as created (or listed): only then
 * is there something to compare the other keys with. When it does not, that is create-pet.persisted's
 * or get-pet.found's failure, not a difference between keys: the animal is not judged here.
 */
export function foundByItsOwnKey(lookup: KeyedLookup): boolean {
  return lookup.key === lookup.known.by && lookup.seen.status !== 429 && keyedProblem(lookup).outcome === 'pass';
}

/** One lookup by a key other than the animal's own: it must see what the animal's own key sees. */
export function judgeKeyedLookup(lookup: KeyedLookup): Finding {
  return lookup.key === lookup.known.by ? pass() : keyedProblem(lookup);
}

/**
 * Every key finds a known animal at its id with the same fields. Each animal is judged only when
 * its own key (the one that created or listed it) finds it as created or listed, and compared over
 * at least two keys; a 429 is not judged.
 */
export const judgeSameForEveryKey: EachCase<KeyedLookup> = Object.assign(
  (lookups: readonly KeyedLookup[]): Finding => {
    const animals = [...new Map(lookups.map((l) => [l.known.pet.id, l.known])).values()];
    const compared: KnownAnimal[] = [];
    const notJudged: string[] = [];
    const keys = new Set<string>();
    const refused = new Set<string>();
    for (const known of animals) {
      const of = lookups.filter((l) => l.known.pet.id === known.pet.id);
      const own = of.find((l) => l.key === known.by);
      if (!own || !foundByItsOwnKey(own)) {
        notJudged.push(`${describeKnown(known)} is not found as ${known.source} even with ${known.by}${own?.seen.status === 429 ? ' (429)' : ''}`);
        continue;
      }
      for (const l of of) {
        const finding = judgeKeyedLookup(l);
        if (finding.outcome !== 'pass') return finding;
        (l.seen.status === 429 ? refused : keys).add(l.key);
      }
      if (of.some((l) => l.key !== known.by && l.seen.status !== 429)) compared.push(known);
    }
    const unjudged = [...(refused.size > 0 ? [`refused with 429, not judged: ${[...refused].join(', ')}`] : []), ...notJudged].join('; ');
    if (compared.length === 0) return skip(`no animal could be compared across two keys${unjudged ? ` (${unjudged})` : ''}`);
    return pass(`${compared.map(describeKnown).join(', ')}: found with the same fields by ${[...keys].join(', ')}${unjudged ? ` (${unjudged})` : ''}`);
  },
  { one: judgeKeyedLookup },
);

export const ownIdOnly = defineCheck({
  id: 'get-pet.own-id-only',
  clause: 'Endpoints / getPet',
  suite: 'get-pet',
  title: 'An animal is found at its own id only: the ids a sign, index, wrap or integer-width mistake maps onto its id get 404 (or 400), or the animal of that id',
  severity: 'must',
  explainedBy: ['get-pet.found', 'responses.no-5xx'],
  judge: judgeOwnIdOnly,
});

export const sameForEveryKey = defineCheck({
  id: 'get-pet.same-for-every-key',
  clause: 'Endpoints / getPet',
  suite: 'get-pet',
  title: 'Every configured key finds an animal at its id with the same fields',
  severity: 'must',
  explainedBy: ['get-pet.found', 'responses.no-5xx'],
  judge: judgeSameForEveryKey,
});

export const idsAcrossKeys = defineCheck({
  id: 'concurrency.ids-across-keys',
  clause: 'Resources and their fields / Pet',
  suite: 'concurrency',
  title: 'POSTs sent together with different keys, over connections of their own, get distinct ids: an id is unique across the service',
  severity: 'must',
  explainedBy: ['create-pet.created', 'responses.no-5xx'],
  judge: judgeIdsAcrossKeys,
});

export const IDS_CHECKS = [ownIdOnly, sameForEveryKey, idsAcrossKeys] as const;
