// Authentication: "When the key is missing or invalid, the response is 401 with an Error body."
import { errorBodyProblems } from './bodies.ts';
import { type CheckDef, describeSeen, type Finding, findingOf, type Seen } from './types.ts';

const clause = 'Authentication';

export const missingKey: CheckDef = {
  id: 'auth.missing-key',
  clause,
  title: 'A request without Authorization gets 401 with an Error body',
  severity: 'must',
};

export const invalidKey: CheckDef = {
  id: 'auth.invalid-key',
  clause,
  title: 'A request with an unknown bearer key gets 401 with an Error body',
  severity: 'must',
};

export const wrongScheme: CheckDef = {
  id: 'auth.wrong-scheme',
  clause,
  title: 'A configured key under another scheme (Basic) gets 401 with an Error body',
  severity: 'must',
};

export const AUTH_CHECKS = [missingKey, invalidKey, wrongScheme] as const;

/** 401 and an Error body whose status is 401. */
export function expectUnauthorized(seen: Seen): Finding {
  if (seen.status !== 401) {
    return findingOf([`got ${seen.status}, not 401`], '401 with an Error body', describeSeen(seen));
  }
  return findingOf(errorBodyProblems(seen), '401 with an Error body (code, message, status 401), application/json', describeSeen(seen));
}
