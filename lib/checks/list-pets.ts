// listPets: `GET /pets` returns Pets: at most `limit` animals (1..100, default 20), filtered by status.
import { petStatusIgnoringCase } from '../generators/pet-status.ts';
import { PAGE_SIZE, type Pet, type PetStatus } from '../models.ts';
import type { Exchange } from '../result/exchange.ts';
import { duplicateIds, type Page, readPage, readPet } from './pets.ts';
import { findingOfProblems, judgeNo5xx, problem, saidOf, serverError, statusAsAsked } from './bodies.ts';
import { defineCheck } from './define.ts';
import { describeSeen, eachCase, type Finding, fail, findingOf, pass, type Seen, skip } from './types.ts';
import { isServerError } from '../status.ts';

const clause = 'Endpoints / listPets';
const pageSize = 'Limits / Page size';
const suite = 'list-pets';

/** Codes: too-many-animals, and judgePage's. */
export function expectDefaultPage(seen: Seen): Finding {
  const { finding, page } = judgePage(seen, 'no limit');
  if (!page) return finding;
  const over = page.items.length > PAGE_SIZE.default ? [`${page.items.length} animals without limit, more than the default ${PAGE_SIZE.default}`] : [];
  return noted(findingOf('too-many-animals', over, `at most ${PAGE_SIZE.default} animals`, summarisePage(seen)), page);
}

/**
 * 200 and a JSON array: the page, for the checks that look further. Each list check judges only its
 * own clause (count, default, filter, bounds); an item that is not a Pet is list-pets.pet-shape's
 * failure, and the others only mention it. Codes: not-200, and readPage's (empty-body, not-json,
 * not-json-array).
 */
export function judgePage(seen: Seen, what: string): { finding: Finding; page?: Page } {
  const expected = `200 with a JSON array of Pet (${what})`;
  if (seen.status !== 200) return { finding: findingOf('not-200', [`${what}: got ${seen.status}, not 200`], expected, describeSeen(seen)) };
  const { page, problems } = readPage(seen);
  if (!page) return { finding: findingOfProblems(saidOf(what, problems), expected, describeSeen(seen)) };
  return { finding: noted(pass(), page), page };
}

/** Says, on any finding about a page, that the page also held items that are not Pets. */
function noted(finding: Finding, page: Page): Finding {
  if (page.invalid === 0) return finding;
  const note = `the page also held ${page.invalid} item${page.invalid > 1 ? 's' : ''} that ${page.invalid > 1 ? 'are' : 'is'} not a Pet (see list-pets.pet-shape)`;
  return finding.outcome === 'skip' ? finding : { ...finding, message: finding.message ? `${finding.message}; ${note}` : note };
}

/** Codes: too-many-animals, and judgePage's. */
export function judgeLimit(requested: number, seen: Seen): Finding {
  const { finding, page } = judgePage(seen, `limit=${requested}`);
  if (!page) return finding;
  const n = page.items.length;
  return noted(findingOf('too-many-animals', n > requested ? [`limit=${requested} returned ${n} animals`] : [], `at most ${requested} animals`, summarisePage(seen)), page);
}

/** Codes: duplicate-ids, and judgePage's. */
export function judgeNoDuplicates(what: string, seen: Seen): Finding {
  const { finding, page } = judgePage(seen, what);
  if (!page) return finding;
  const dups = duplicateIds(page.pets);
  return noted(findingOf('duplicate-ids', dups.length ? [`${what}: id${dups.length > 1 ? 's' : ''} ${dups.join(', ')} listed more than once`] : [], 'each animal at most once', summarisePage(seen)), page);
}

/**
 * `full` is a page with limit=100. When it holds more than 20 animals, the store holds more than
 * 20 and the default page must hold exactly 20; otherwise the default page holds them all.
 * Codes: too-many-animals, too-few-animals, and judgePage's.
 */
export function judgeDefaultLimit(full: readonly unknown[], seen: Seen): Finding {
  const { finding, page } = judgePage(seen, 'no limit');
  if (!page) return finding;
  const n = page.items.length;
  const want = Math.min(full.length, PAGE_SIZE.default);
  const code = n > PAGE_SIZE.default ? 'too-many-animals' : 'too-few-animals';
  if (full.length >= 100 || full.length > PAGE_SIZE.default) {
    return noted(findingOf(code, n !== PAGE_SIZE.default ? [`the store holds more than 20 animals but the default page has ${n}`] : [], 'exactly 20 animals', summarisePage(seen)), page);
  }
  // The interface has no delete, so the store can only have grown since the first page was read.
  const ok = n >= want && n <= PAGE_SIZE.default;
  return noted(findingOf(code, ok ? [] : [`the store held ${full.length} animals but the default page has ${n}`], `${want} to ${PAGE_SIZE.default} animals`, summarisePage(seen)), page);
}

// Items that are not Pets still show their status and id: a filter that let them through is wrong too.
const statusOf = (item: unknown): unknown => (item !== null && typeof item === 'object' ? (item as { status?: unknown }).status : undefined);
const idOf = (item: unknown): string => (item !== null && typeof item === 'object' ? String((item as { id?: unknown }).id) : '?');

/** Codes: wrong-status-listed, too-many-animals, and judgePage's. */
export function judgeStatusFilter(status: PetStatus, requested: number, seen: Seen): Finding {
  const { finding, page } = judgePage(seen, `status=${status}&limit=${requested}`);
  if (!page) return finding;
  const wrong = page.items.filter((item) => statusOf(item) !== status);
  const problems = wrong.length ? [problem('wrong-status-listed', `status=${status} listed ${wrong.length} animal(s) with another status, e.g. id ${idOf(wrong[0])} with ${String(statusOf(wrong[0]) ?? 'no status')}`)] : [];
  if (page.items.length > requested) problems.push(problem('too-many-animals', `limit=${requested} returned ${page.items.length} animals`));
  return noted(findingOfProblems(problems, `only animals with status ${status}`, summarisePage(seen)), page);
}

/** The distinct statuses of a page's items ("no status" for an item without one). */
const statusesListed = (items: readonly unknown[]): string[] => [...new Set(items.map((item) => String(statusOf(item) ?? 'no status')))];

/**
 * What an ignored status filter answers: the page listPets gives without one (the same other
 * parameters), as the ids of its items in order, when two such answers in a row agreed: the order
 * is stable, so an ignored filter gives exactly that page. Undefined when they did not agree (an
 * order of its own each time: variation shuffled-order) or no page came: an ignored filter cannot
 * then be told from another value matched by what the page holds.
 */
export type UnfilteredPage = readonly string[] | undefined;

/** The page of two unfiltered answers in a row, when they agree. */
export function unfilteredPage(first: Seen, second: Seen): UnfilteredPage {
  const ids = (seen: Seen) => (seen.status === 200 ? readPage(seen).page?.items.map(idOf) : undefined);
  const [a, b] = [ids(first), ids(second)];
  return a !== undefined && b !== undefined && a.length === b.length && a.every((id, i) => id === b[i]) ? a : undefined;
}

/** Whether a page is the unfiltered one, the filter ignored: by its ids against an unfiltered page, else (none known) by animals of several statuses. */
function ignoredFilter(items: readonly unknown[], others: readonly string[], unfiltered: UnfilteredPage): boolean {
  if (unfiltered === undefined) return others.length > 1;
  return items.length === unfiltered.length && items.every((item, i) => idOf(item) === unfiltered[i]);
}

/**
 * A status filter that is no PetStatus ("Available", "SOLD", "adopted", ""). The interface lists no
 * 400 for listPets, so two answers are legal: 400 with an Error body, or 200 listing only animals
 * whose status is exactly the value given, which no Pet has, so an empty page. Animals of one other
 * status that are not the page listPets gives without a filter mean the filter was misread as
 * another value; with no such page to compare (an order not the same twice) that is not certain,
 * and passes saying so. Two readings the interface leaves open pass here, each judged by a
 * `should`: animals of the status the value matches ignoring case ("AVAILABLE" read as available:
 * list-pets.status-case), and the filter ignored as unknown, the unfiltered page (or animals of
 * several statuses) (list-pets.unknown-status). Codes: filter-matched-other-value;
 * server-error and unexpected-status (neither 400 nor 200); for a 200, judgePage's. A 400's Error
 * body is errors.error-body's (statusAsAsked).
 */
export function judgeStatusFilterInvalid(value: string, reason: string, seen: Seen, unfiltered: UnfilteredPage): Finding {
  const what = `status=${JSON.stringify(value)} (${reason})`;
  const expected = `400 with an Error body, or 200 with no animal whose status is not exactly ${JSON.stringify(value)} (no Pet has it)`;
  if (seen.status === 400) return statusAsAsked(`${what}: refused with 400`, seen);
  if (seen.status !== 200) {
    const code = isServerError(seen) ? 'server-error' : 'unexpected-status';
    return serverError(seen, findingOf(code, [`${what}: got ${seen.status}, neither 400 nor 200${isServerError(seen) ? ' (a server error)' : ''}`], expected, describeSeen(seen)));
  }
  const { finding, page } = judgePage(seen, what);
  if (!page) return finding;
  const wrong = page.items.filter((item) => statusOf(item) !== value);
  if (wrong.length === 0) return noted(pass(`${what}: 200 with ${page.items.length === 0 ? 'no animal' : `${page.items.length} animals of exactly that status`}`), page);
  const listed = statusesListed(wrong);
  // Read ignoring case: the animals of the PetStatus it spells, a reading the interface leaves open.
  if (listed.length === 1 && listed[0] === petStatusIgnoringCase(value)) {
    return noted(pass(`${what}: 200 with ${wrong.length} animal(s) of status ${listed[0]}: read ignoring case, which the interface leaves open (list-pets.status-case judges it)`), page);
  }
  // Ignored: the unfiltered page, a reading the interface leaves open for a value it does not describe.
  if (ignoredFilter(page.items, listed, unfiltered) || listed.length > 1) return noted(pass(`${what}: 200 with animals of ${listed.join(', ')}: the filter was ignored, which the interface leaves open (list-pets.unknown-status judges it)`), page);
  // One other status, and no page without a filter to tell it from an ignored filter over a store
  // of that status (or a page of it): not certain.
  if (unfiltered === undefined) {
    return noted(pass(`${what}: 200 with ${wrong.length} animal(s) of status ${listed[0]}: another value matched or the filter ignored, which listPets without a filter could not tell apart (its order is not the same twice)`), page);
  }
  return noted(
    findingOf('filter-matched-other-value', [`${what} listed ${wrong.length} animal(s) of status ${listed[0]}, e.g. id ${idOf(wrong[0])}, not the page listPets gives without a filter: the filter matched another value`], expected, summarisePage(seen)),
    page,
  );
}

/** One status filter that is no PetStatus, and what it got. */
export interface StatusLookup {
  value: string;
  seen: Seen;
}

/**
 * A status filter is one of the three values as written: a PetStatus in another case ("Available",
 * "SOLD") gets 400 or no animal, not the animals of the value it matches ignoring case. The
 * interface lists the values in lower case and says nothing of other cases; case-insensitive
 * matching in validators reads them as the value: a `should`. Code: filter-ignores-case. Animals
 * of another value are list-pets.status-filter-invalid's, of several statuses (the filter ignored)
 * list-pets.unknown-status's.
 */
export function judgeStatusCase(lookups: readonly StatusLookup[]): Finding {
  if (lookups.length === 0) return skip('no status filter in another case was sent');
  for (const { value, seen } of lookups) {
    if (seen.status !== 200) continue;
    const folded = petStatusIgnoringCase(value);
    const wrong = (readPage(seen).page?.items ?? []).filter((item) => statusOf(item) !== value);
    if (folded === undefined || wrong.length === 0 || wrong.some((item) => statusOf(item) !== folded)) continue;
    return fail(
      'filter-ignores-case',
      `status=${JSON.stringify(value)} listed ${wrong.length} animal(s) of status ${folded}, e.g. id ${idOf(wrong[0])}: the filter ignores case; a status is ${JSON.stringify(folded)} as written`,
      `400, or 200 with no animal (no Pet has status ${JSON.stringify(value)})`,
      summarisePage(seen),
    );
  }
  return pass(`no status in another case was read ignoring case: ${lookups.map(({ value, seen }) => `status=${JSON.stringify(value)} ${seen.status}`).join(', ')}`);
}

/**
 * A status filter that is no PetStatus (an unknown word, the empty string, a blank, another case)
 * answered with the page listPets gives without a filter (with no such page known, one of animals
 * of several statuses): the filter ignored. The
 * interface lists no 400 for listPets and says nothing of a value outside the enumeration, and
 * frameworks that apply a filter only when it is known ignore the rest: a `should`. Code:
 * filter-ignored. One other status is list-pets.status-filter-invalid's (a must).
 */
export function judgeUnknownStatus(lookups: readonly StatusLookup[], unfiltered: UnfilteredPage): Finding {
  if (lookups.length === 0) return skip('no status filter that is no PetStatus was sent');
  const ignored = lookups.flatMap(({ value, seen }) => {
    const items = seen.status === 200 ? (readPage(seen).page?.items ?? []) : [];
    const listed = statusesListed(items.filter((item) => statusOf(item) !== value));
    return listed.length > 0 && ignoredFilter(items, listed, unfiltered) ? [{ value, seen, listed, n: items.length }] : [];
  });
  const [first] = ignored;
  if (first) {
    return fail(
      'filter-ignored',
      `${ignored.map(({ value, listed, n }) => `status=${JSON.stringify(value)} listed ${n} animals of ${listed.join(', ')}`).join('; ')}: the filter was ignored, not refused nor matched as written`,
      '400 with an Error body, or 200 with no animal (no Pet has the status)',
      summarisePage(first.seen),
    );
  }
  return pass(`no status filter was ignored: ${lookups.map(({ value, seen }) => `status=${JSON.stringify(value)} ${seen.status}`).join(', ')}`);
}

/** Codes: created-not-listed, and judgePage's. */
export function judgeCreatedVisible(createdPet: Pet, status: PetStatus, seen: Seen): Finding {
  const { finding, page } = judgePage(seen, `status=${status}&limit=100`);
  if (!page) return finding;
  if (page.items.length >= 100) return noted(pass(`the page for ${status} is full (100), so animal ${createdPet.id} need not be on it`), page);
  const found = page.pets.some((p) => p.id === createdPet.id);
  return noted(findingOf('created-not-listed', found ? [] : [`animal ${createdPet.id} created with status ${status} is missing from a page of ${page.items.length} (room for 100)`], `animal ${createdPet.id} listed`, summarisePage(seen)), page);
}

/** Codes: too-many-animals (more than the maximum), and judgePage's. */
export function judgeOutOfRange(raw: string, reason: string, seen: Seen): Finding {
  if (seen.status >= 400 && seen.status < 500) return pass(`limit=${raw}: rejected with ${seen.status}`);
  if (seen.status !== 200) return pass(`limit=${raw}: ${seen.status}, no animals listed`);
  const { finding, page } = judgePage(seen, `limit=${raw} (${reason})`);
  if (!page) return finding;
  const n = page.items.length;
  return noted(findingOf('too-many-animals', n > PAGE_SIZE.max ? [`limit=${raw} returned ${n} animals, more than ${PAGE_SIZE.max}`] : [], `400, or at most ${PAGE_SIZE.max} animals`, summarisePage(seen)), page);
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
        const page = s.status === 200 ? readPage(s).page : undefined;
        return `limit=${raw}: ${s.status}${page ? ` with ${page.items.length} animals` : ''}`;
      })
      .join('; '),
  );
}

function summarisePage(seen: Seen): string {
  const { page } = readPage(seen);
  if (!page) return describeSeen(seen);
  const ids = page.pets.slice(0, 10).map((p) => `${p.id}${p.status ? `:${p.status}` : ''}`);
  const invalid = page.invalid > 0 ? ` (${page.invalid} not a Pet)` : '';
  return `${seen.status}, ${page.items.length} animals${invalid}: ${ids.join(', ')}${page.pets.length > 10 ? ', …' : ''}`;
}

/**
 * listPets of one status, read once before the run wrote anything (lib/suite-kit/pages-before-writes.ts):
 * what it got, or why nothing came (a transport failure, the budget spent).
 */
export interface StatusPageRead {
  status: PetStatus;
  seen?: Seen;
  /** The recorded exchange: the evidence of a failure, the reads being no request of the check's own. */
  exchange?: Exchange;
  error?: string;
}

/** "GET /pets?status=sold". */
const readLine = (status: PetStatus) => `GET /pets?status=${status}`;

/**
 * "Pets: A JSON array of Pet": a status with no animal is an empty array, `[]`, never `null`, `{}`
 * or an empty body (what a serialiser of a missing list writes). Judges the reads of each status
 * made before the run wrote: a 200 whose body is no JSON array fails (whatever the page held); at
 * least one empty page passes; a store holding every status shows no empty page, and skips saying so.
 * Code: not-an-array.
 */
export function judgeEmptyPage(reads: readonly StatusPageRead[]): Finding {
  if (reads.length === 0) return skip('listPets was not read before the run wrote: no suite that reads it first ran');
  const offenders: { read: StatusPageRead; seen: Seen; why: string }[] = [];
  const sizes: string[] = [];
  const empty: PetStatus[] = [];
  for (const read of reads) {
    const { seen } = read;
    if (!seen) {
      sizes.push(`${read.status}: not read (${read.error ?? 'no answer'})`);
      continue;
    }
    if (seen.status !== 200) {
      sizes.push(`${read.status}: ${seen.status}, not judged`);
      continue;
    }
    const { page, problems } = readPage(seen);
    if (!page) {
      offenders.push({ read, seen, why: problems.map((p) => p.text).join('; ') });
      continue;
    }
    sizes.push(`${read.status}: ${page.items.length} animal${page.items.length === 1 ? '' : 's'}`);
    if (page.items.length === 0) empty.push(read.status);
  }
  const [first] = offenders;
  if (first) {
    const body = first.seen.text.trim() === '' ? 'an empty body' : first.seen.text.length > 80 ? `${first.seen.text.slice(0, 80)}…` : first.seen.text;
    const more = offenders.length > 1 ? ` (and ${offenders.slice(1).map((o) => `status=${o.read.status}`).join(', ')} alike)` : '';
    const finding = fail(
      'not-an-array',
      `${readLine(first.read.status)} → 200 with ${body}: ${first.why}${more}; a page with no animal is [], "A JSON array of Pet"`,
      '200 with a JSON array of Pet for each status, [] where no animal has it',
      offenders.map((o) => `${readLine(o.read.status)}: ${describeSeen(o.seen)}`).join('\n'),
    );
    const exchanges = offenders.flatMap((o) => (o.read.exchange ? [o.read.exchange] : []));
    return finding.outcome === 'fail' && exchanges.length > 0 ? { ...finding, exchanges } : finding;
  }
  if (empty.length === 0) {
    return skip(`no status had an empty page before the run wrote (${sizes.join('; ')}): the store holds animals of every status read, so an empty page was not seen`);
  }
  return pass(`before the run wrote, ${empty.map((s) => `status=${s}`).join(', ')} listed no animal and answered [] (${sizes.join('; ')})`);
}

export const emptyPage = defineCheck({
  id: 'list-pets.empty-page',
  clause: 'Resources and their fields / Pets',
  suite,
  title: 'A listPets page with no animal is an empty JSON array, [], never null, {} or an empty body (read for each status before the run writes)',
  severity: 'must',
  judge: judgeEmptyPage,
});

export const smoke = defineCheck({ id: 'list-pets.smoke', explainedBy: ['list-pets.pet-shape', 'list-pets.limit', 'list-pets.default-limit'], clause, suite, title: 'GET /pets with a valid key returns 200 and a JSON array of Pet, at most 20 without limit', severity: 'must', judge: expectDefaultPage });
export const limit = defineCheck({ id: 'list-pets.limit', explainedBy: ['list-pets.pet-shape'], clause, suite, title: 'With limit in 1..100, 200 and at most limit animals, each a Pet', severity: 'must', judge: judgeLimit });
export const noDuplicates = defineCheck({ id: 'list-pets.no-duplicates', explainedBy: ['list-pets.pet-shape', 'list-pets.limit'], clause, suite, title: 'A page lists no animal twice', severity: 'must', judge: judgeNoDuplicates });
export const defaultLimit = defineCheck({ id: 'list-pets.default-limit', explainedBy: ['list-pets.pet-shape', 'list-pets.limit'], clause: pageSize, suite, title: 'Without limit, exactly 20 animals when the store holds more', severity: 'must', judge: judgeDefaultLimit });
export const statusFilter = defineCheck({ id: 'list-pets.status-filter', explainedBy: ['list-pets.pet-shape', 'list-pets.limit'], clause, suite, title: 'With status, every animal listed has that status', severity: 'must', judge: judgeStatusFilter });
export const statusCase = defineCheck({ id: 'list-pets.status-case', explainedBy: ['list-pets.pet-shape'], clause, suite, title: 'A status filter is a PetStatus as written: one in another case ("Available", "SOLD") gets 400 or no animal, not the animals of the value it matches ignoring case', severity: 'should', standard: 'The interface writes PetStatus in lower case, and an enumeration\'s values compare exactly (JSON Schema `enum`)', judge: judgeStatusCase });
export const statusFilterInvalid = defineCheck({ id: 'list-pets.status-filter-invalid', explainedBy: ['list-pets.pet-shape', 'list-pets.status-filter'], clause, suite, title: 'A status that is not a PetStatus (an unknown word, the empty string, a blank, another case such as "Available") never lists the animals of another status, never gets a 5xx (400, no animal, the value matched ignoring case and the filter ignored all pass)', severity: 'must', judge: judgeStatusFilterInvalid });
export const unknownStatus = defineCheck({ id: 'list-pets.unknown-status', explainedBy: ['list-pets.pet-shape'], clause, suite, title: 'A status filter that is no PetStatus (an unknown word, the empty string, a blank, another case) is not ignored: 400 or no animal, not the unfiltered store', severity: 'should', standard: 'The interface\'s status "Filters by availability status", one of the PetStatus values: a filter not applied answers another question', judge: judgeUnknownStatus });
export const createdVisible = defineCheck({ id: 'list-pets.created-visible', explainedBy: ['list-pets.pet-shape', 'list-pets.status-filter', 'list-pets.limit'], clause, suite, title: 'Animals created in the run are listed under their status when the page can hold them', severity: 'must', judge: eachCase(judgeCreatedCase) });
export const outOfRange = defineCheck({ id: 'list-pets.limit-out-of-range', explainedBy: ['list-pets.limit'], clause: pageSize, suite, title: 'An out-of-range limit never returns more than 100 animals (400 and clamping both legal)', severity: 'must', judge: judgeOutOfRange });
export const outOfRangeNo5xx = defineCheck({ id: 'list-pets.limit-out-of-range-no-5xx', explainedBy: ['responses.no-5xx'], clause: pageSize, suite, title: 'An out-of-range or malformed limit never gets a 5xx', severity: 'should', standard: 'RFC 9110 §15.5 and §15.6: a request the server cannot serve as sent is a client error (4xx), not a server error', judge: judgeNo5xx });
export const outOfRangeBehaviour = defineCheck({ id: 'list-pets.limit-out-of-range-behaviour', clause: pageSize, suite, title: 'What the server does with limit 0, 101 and 500 (reject or clamp), recorded', severity: 'info', judge: describeOutOfRange });

export const LIST_PETS_CHECKS = [emptyPage, smoke, limit, noDuplicates, defaultLimit, statusFilter, createdVisible, statusFilterInvalid, statusCase, unknownStatus, outOfRange, outOfRangeNo5xx, outOfRangeBehaviour] as const;
