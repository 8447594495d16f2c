// listPets: `GET /pets` returns Pets, at most `limit` animals, 20 by default.
import { PAGE_SIZE, Pets } from '../models.ts';
import { jsonProblems, modelProblems } from './bodies.ts';
import { type CheckDef, describeSeen, type Finding, findingOf, type Seen } from './types.ts';

export const smoke: CheckDef = {
  id: 'list-pets.smoke',
  clause: 'Endpoints / listPets',
  title: 'GET /pets with a valid key returns 200 and a JSON array of Pet, at most 20 without limit',
  severity: 'must',
};

export function expectDefaultPage(seen: Seen): Finding {
  const expected = `200, application/json, an array of at most ${PAGE_SIZE.default} Pet`;
  if (seen.status !== 200) return findingOf([`got ${seen.status}, not 200`], expected, describeSeen(seen));
  const { problems, value } = jsonProblems(seen);
  if (value === undefined) return findingOf(problems, expected, describeSeen(seen));
  problems.push(...modelProblems(Pets, value, 'Pets'));
  if (Array.isArray(value) && value.length > PAGE_SIZE.default) {
    problems.push(`${value.length} animals without limit, more than the default ${PAGE_SIZE.default}`);
  }
  return findingOf(problems, expected, describeSeen(seen));
}
