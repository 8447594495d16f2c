// listPets: `GET /pets` returns Pets: at most `limit` animals (1..100, default 20), filtered by status.
import { PAGE_SIZE, type Pet, type PetStatus } from '../models.ts';
import { duplicateIds, readPets } from './pets.ts';
import { type CheckDef, describeSeen, type Finding, findingOf, pass, type Seen } from './types.ts';

const clause = 'Endpoints / listPets';

export const smoke: CheckDef = { id: 'list-pets.smoke', clause, title: 'GET /pets with a valid key returns 200 and a JSON array of Pet, at most 20 without limit', severity: 'must' };
export const limit: CheckDef = { id: 'list-pets.limit', clause, title: 'With limit in 1..100, 200 and at most limit animals, each a Pet', severity: 'must' };
export const noDuplicates: CheckDef = { id: 'list-pets.no-duplicates', clause, title: 'A page lists no animal twice', severity: 'must' };
export const defaultLimit: CheckDef = { id: 'list-pets.default-limit', clause: 'Limits / Page size', title: 'Without limit, exactly 20 animals when the store holds more', severity: 'must' };
export const statusFilter: CheckDef = { id: 'list-pets.status-filter', clause, title: 'With status, every animal listed has that status', severity: 'must' };
export const createdVisible: CheckDef = { id: 'list-pets.created-visible', clause, title: 'Animals created in the run are listed under their status when the page can hold them', severity: 'must' };
export const outOfRange: CheckDef = { id: 'list-pets.limit-out-of-range', clause: 'Limits / Page size', title: 'An out-of-range limit never returns more than 100 animals (400 and clamping both legal)', severity: 'must' };
export const outOfRangeNo5xx: CheckDef = { id: 'list-pets.limit-out-of-range-no-5xx', clause: 'Limits / Page size', title: 'An out-of-range or malformed limit never gets a 5xx', severity: 'should' };
export const outOfRangeBehaviour: CheckDef = { id: 'list-pets.limit-out-of-range-behaviour', clause: 'Limits / Page size', title: 'What the server does with limit 0, 101 and 500 (reject or clamp), recorded', severity: 'info' };

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

function summarisePage(seen: Seen): string {
  const { value } = readPets(seen);
  if (!value) return describeSeen(seen);
  const ids = value.slice(0, 10).map((p) => `${p.id}${p.status ? `:${p.status}` : ''}`);
  return `${seen.status}, ${value.length} animals: ${ids.join(', ')}${value.length > 10 ? ', …' : ''}`;
}
