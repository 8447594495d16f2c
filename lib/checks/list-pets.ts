// listPets: `GET /pets` returns Pets: at most `limit` animals (1..100, default 20), filtered by status.
import { PAGE_SIZE, type Pet, type PetStatus } from '../models.ts';
import { duplicateIds, readPet, readPets } from './pets.ts';
import { judgeNo5xx } from './bodies.ts';
import { defineCheck } from './define.ts';
import { describeSeen, eachCase, type Finding, findingOf, pass, type Seen, skip } from './types.ts';

const clause = 'Endpoints / listPets';
const pageSize = 'Limits / Page size';
const suite = 'list-pets';

export function expectDefaultPage(seen: Seen): Finding {
  const { finding, pets } = judgePage(seen, 'no limit');
  if (!pets || finding.outcome === 'fail') return finding;
  const over = pets.length > PAGE_SIZE.default ? [`${pets.length} animals without limit, more than the default ${PAGE_SIZE.default}`] : [];
  return findingOf(over, `at most ${PAGE_SIZE.default} animals`, summarisePage(seen));
}

/** 200 and Pets; the animals, for the checks that look further. */
export function judgePage(seen: Seen, what: string): { finding: Finding; pets?: Pet[] } {
  const expected = `200 with a JSON array of Pet (${what})`;
  if (seen.status !== 200) return { finding: findingOf([`${what}: got ${seen.status}, not 200`], expected, describeSeen(seen)) };
  const { value, problems } = readPets(seen);
  const finding = findingOf(problems.map((p) => `${what}: ${p}`), expected, summarisePage(seen));
  return value ? { finding, pets: value } : { finding };
}

export function judgeLimit(requested: number, seen: Seen): Finding {
  const { finding, pets } = judgePage(seen, `limit=${requested}`);
  if (!pets || finding.outcome === 'fail') return finding;
  return findingOf(pets.length > requested ? [`limit=${requested} returned ${pets.length} animals`] : [], `at most ${requested} animals`, summarisePage(seen));
}

export function judgeNoDuplicates(what: string, seen: Seen): Finding {
  const { finding, pets } = judgePage(seen, what);
  if (!pets || finding.outcome === 'fail') return finding;
  const dups = duplicateIds(pets);
  return findingOf(dups.length ? [`${what}: id${dups.length > 1 ? 's' : ''} ${dups.join(', ')} listed more than once`] : [], 'each animal at most once', summarisePage(seen));
}

/**
 * `full` is a page with limit=100. When it holds more than 20 animals, the store holds more than
 * 20 and the default page must hold exactly 20; otherwise the default page holds them all.
 */
export function judgeDefaultLimit(full: Pet[], seen: Seen): Finding {
  const { finding, pets } = judgePage(seen, 'no limit');
  if (!pets || finding.outcome === 'fail') return finding;
  const want = Math.min(full.length, PAGE_SIZE.default);
  if (full.length >= 100 || full.length > PAGE_SIZE.default) {
    return findingOf(pets.length !== PAGE_SIZE.default ? [`the store holds more than 20 animals but the default page has ${pets.length}`] : [], 'exactly 20 animals', summarisePage(seen));
  }
  // The interface has no delete, so the store can only have grown since the first page was read.
  const ok = pets.length >= want && pets.length <= PAGE_SIZE.default;
  return findingOf(ok ? [] : [`the store held ${full.length} animals but the default page has ${pets.length}`], `${want} to ${PAGE_SIZE.default} animals`, summarisePage(seen));
}

export function judgeStatusFilter(status: PetStatus, requested: number, seen: Seen): Finding {
  const { finding, pets } = judgePage(seen, `status=${status}&limit=${requested}`);
  if (!pets || finding.outcome === 'fail') return finding;
  const wrong = pets.filter((p) => p.status !== status);
  const problems = wrong.length ? [`status=${status} listed ${wrong.length} animal(s) with another status, e.g. id ${wrong[0]!.id} with ${wrong[0]!.status ?? 'no status'}`] : [];
  if (pets.length > requested) problems.push(`limit=${requested} returned ${pets.length} animals`);
  return findingOf(problems, `only animals with status ${status}`, summarisePage(seen));
}

export function judgeCreatedVisible(createdPet: Pet, status: PetStatus, seen: Seen): Finding {
  const { finding, pets } = judgePage(seen, `status=${status}&limit=100`);
  if (!pets || finding.outcome === 'fail') return finding;
  if (pets.length >= 100) return pass(`the page for ${status} is full (100), so animal ${createdPet.id} need not be on it`);
  const found = pets.some((p) => p.id === createdPet.id);
  return findingOf(found ? [] : [`animal ${createdPet.id} created with status ${status} is missing from a page of ${pets.length} (room for 100)`], `animal ${createdPet.id} listed`, summarisePage(seen));
}

export function judgeOutOfRange(raw: string, reason: string, seen: Seen): Finding {
  if (seen.status >= 400 && seen.status < 500) return pass(`limit=${raw}: rejected with ${seen.status}`);
  if (seen.status !== 200) return pass(`limit=${raw}: ${seen.status}, no animals listed`);
  const { finding, pets } = judgePage(seen, `limit=${raw} (${reason})`);
  if (!pets || finding.outcome === 'fail') return finding;
  return findingOf(pets.length > PAGE_SIZE.max ? [`limit=${raw} returned ${pets.length} animals, more than ${PAGE_SIZE.max}`] : [], `400, or at most ${PAGE_SIZE.max} animals`, summarisePage(seen));
}

/** An animal created with a status, then looked for on that status's page (when it was created). */
export interface CreatedCase {
  status: PetStatus;
  created: Seen;
  listed?: Seen;
}

const judgeCreatedCase = (c: CreatedCase): Finding => {
  const pet = c.created.status === 201 ? readPet(c.created).value : undefined;
  if (!pet || !c.listed) return skip(`could not create an animal with status ${c.status} (${c.created.status}); create-pet checks judge that`);
  return judgeCreatedVisible(pet, c.status, c.listed);
};

/** What the server does with limits outside 1..100: recorded, never judged. */
export function describeOutOfRange(seen: readonly { raw: string; seen: Seen }[]): Finding {
  return pass(
    seen
      .map(({ raw, seen: s }) => {
        const pets = s.status === 200 ? readPets(s).value : undefined;
        return `limit=${raw}: ${s.status}${pets ? ` with ${pets.length} animals` : ''}`;
      })
      .join('; '),
  );
}

function summarisePage(seen: Seen): string {
  const { value } = readPets(seen);
  if (!value) return describeSeen(seen);
  const ids = value.slice(0, 10).map((p) => `${p.id}${p.status ? `:${p.status}` : ''}`);
  return `${seen.status}, ${value.length} animals: ${ids.join(', ')}${value.length > 10 ? ', …' : ''}`;
}

export const smoke = defineCheck({ id: 'list-pets.smoke', clause, suite, title: 'GET /pets with a valid key returns 200 and a JSON array of Pet, at most 20 without limit', severity: 'must', judge: expectDefaultPage });
export const limit = defineCheck({ id: 'list-pets.limit', clause, suite, title: 'With limit in 1..100, 200 and at most limit animals, each a Pet', severity: 'must', judge: judgeLimit });
export const noDuplicates = defineCheck({ id: 'list-pets.no-duplicates', clause, suite, title: 'A page lists no animal twice', severity: 'must', judge: judgeNoDuplicates });
export const defaultLimit = defineCheck({ id: 'list-pets.default-limit', clause: pageSize, suite, title: 'Without limit, exactly 20 animals when the store holds more', severity: 'must', judge: judgeDefaultLimit });
export const statusFilter = defineCheck({ id: 'list-pets.status-filter', clause, suite, title: 'With status, every animal listed has that status', severity: 'must', judge: judgeStatusFilter });
export const createdVisible = defineCheck({ id: 'list-pets.created-visible', clause, suite, title: 'Animals created in the run are listed under their status when the page can hold them', severity: 'must', judge: eachCase(judgeCreatedCase) });
export const outOfRange = defineCheck({ id: 'list-pets.limit-out-of-range', clause: pageSize, suite, title: 'An out-of-range limit never returns more than 100 animals (400 and clamping both legal)', severity: 'must', judge: judgeOutOfRange });
export const outOfRangeNo5xx = defineCheck({ id: 'list-pets.limit-out-of-range-no-5xx', clause: pageSize, suite, title: 'An out-of-range or malformed limit never gets a 5xx', severity: 'should', judge: judgeNo5xx });
export const outOfRangeBehaviour = defineCheck({ id: 'list-pets.limit-out-of-range-behaviour', clause: pageSize, suite, title: 'What the server does with limit 0, 101 and 500 (reject or clamp), recorded', severity: 'info', judge: describeOutOfRange });

export const LIST_PETS_CHECKS = [smoke, limit, noDuplicates, defaultLimit, statusFilter, createdVisible, outOfRange, outOfRangeNo5xx, outOfRangeBehaviour] as const;
