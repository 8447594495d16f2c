// getPet (deprecated): `GET /pets/{petId}` returns the Pet, 404 with an Error body when missing.
import type { Pet } from '../models.ts';
import { errorBodyProblems, findingOfProblems, problem } from './bodies.ts';
import { readPet, sameAnimalProblems } from './pets.ts';
import { judgeNo5xx } from './bodies.ts';
import { defineCheck } from './define.ts';
import { describeSeen, eachCase, explainedBy, type Finding, findingOf, pass, type Seen, skip } from './types.ts';

const clause = 'Endpoints / getPet';
const suite = 'get-pet';

/**
 * The animal as listed. Codes: not-200; id-differs, name-differs, category-id-differs,
 * status-differs; readPet's (invalid-pet, empty-body, not-json, no-content-type, not-json-media-type).
 */
export function judgeFound(listed: Pet, seen: Seen): Finding {
  const expected = `200 with ${listed.id} as listed`;
  if (seen.status !== 200) return findingOf('not-200', [`getPet(${listed.id}) got ${seen.status}, not 200`], expected, describeSeen(seen));
  const { value, problems } = readPet(seen);
  if (!value) return findingOfProblems(problems, expected, describeSeen(seen));
  return findingOfProblems([...sameAnimalProblems(listed, value), ...problems], expected, describeSeen(seen));
}

/** Codes: not-404, and errorBodyProblems' (no-error-body, invalid-error-body, …). */
export function judgeNotFound(id: bigint, seen: Seen): Finding {
  const expected = '404 with an Error body';
  if (seen.status !== 404) return findingOf('not-404', [`getPet(${id}) of a missing animal got ${seen.status}, not 404`], expected, describeSeen(seen));
  return explainedBy(findingOfProblems(errorBodyProblems(seen), expected, describeSeen(seen)), 'errors.error-body');
}

/** Code: accepted (a 2xx). */
export function judgeNonNumeric(raw: string, reason: string, seen: Seen): Finding {
  return findingOfProblems(seen.status >= 200 && seen.status < 300 ? [problem('accepted', `GET /pets/${raw} (${reason}) got ${seen.status}`)] : [], '400 or 404', describeSeen(seen));
}

export function describeDeprecation(seen: Seen): Finding {
  const d = seen.headers.deprecation;
  const s = seen.headers.sunset;
  const link = /deprecation|sunset/i.test(seen.headers.link ?? '');
  if (d === undefined && s === undefined) return pass('no Deprecation or Sunset header');
  return pass(`Deprecation: ${d ?? 'absent'}; Sunset: ${s ?? 'absent'}${link ? '; Link names a deprecation or sunset resource' : ''}`);
}

export const found = defineCheck({ id: 'get-pet.found', clause, suite, title: 'getPet returns an existing animal exactly as listPets shows it', severity: 'must', judge: eachCase(({ listed, seen }: { listed: Pet; seen: Seen }) => judgeFound(listed, seen), {
    none: skip('the store lists no animal, and writes are not allowed to create one'),
    all: (n) => pass(`${n} animals came back as listed`),
  }) });
export const notFound = defineCheck({ id: 'get-pet.not-found', clause, suite, title: 'An id that does not exist gets 404 with an Error body', severity: 'must', judge: judgeNotFound });
export const nonNumeric = defineCheck({ id: 'get-pet.non-numeric', clause, suite, title: 'A non-numeric petId never gets 2xx (400 and 404 both legal)', severity: 'must', judge: judgeNonNumeric });
export const nonNumericNo5xx = defineCheck({ id: 'get-pet.non-numeric-no-5xx', explainedBy: ['responses.no-5xx'], clause, suite, title: 'A non-numeric petId never gets a 5xx', severity: 'should', judge: judgeNo5xx });
export const deprecation = defineCheck({ id: 'get-pet.deprecation', clause: 'Versioning', suite, title: 'How the deprecation of getPet is announced (Deprecation, Sunset headers), recorded', severity: 'info', judge: describeDeprecation });

export const GET_PET_CHECKS = [found, notFound, nonNumeric, nonNumericNo5xx, deprecation] as const;
