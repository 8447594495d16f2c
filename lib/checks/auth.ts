// Authentication: "When the key is missing or invalid, the response is 401 with an Error body."
import { errorBodyProblems } from './bodies.ts';
import { type CheckDef, describeSeen, type Finding, findingOf, pass, type Seen } from './types.ts';

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

export const emptyToken: CheckDef = {
  id: 'auth.empty-token',
  clause,
  title: 'Bearer with an empty token gets 401 with an Error body',
  severity: 'must',
};

export const keyWithoutScheme: CheckDef = {
  id: 'auth.key-without-scheme',
  clause,
  title: 'A configured key without the Bearer scheme gets 401 with an Error body',
  severity: 'must',
};

export const keyInQuery: CheckDef = {
  id: 'auth.key-in-query',
  clause,
  title: 'A configured key in the query string only (api_key, access_token, key) gets 401',
  severity: 'must',
};

export const beforeValidation: CheckDef = {
  id: 'auth.before-validation',
  clause,
  title: 'An unauthenticated invalid POST /pets gets 401, not 400: authentication comes first',
  severity: 'must',
};

export const beforeLookup: CheckDef = {
  id: 'auth.before-lookup',
  clause,
  title: 'An unauthenticated GET of an animal that does not exist gets 401, not 404',
  severity: 'must',
};

export const schemeCaseInsensitive: CheckDef = {
  id: 'auth.scheme-case-insensitive',
  clause,
  title: 'The scheme name is case-insensitive (RFC 9110 §11.1): "bearer KEY" is accepted',
  severity: 'should',
};

/** A configured key sent with the scheme in another case is accepted: anything but 401. */
export function expectAccepted(seen: Seen): Finding {
  if (seen.status === 401) return findingOf(['a valid key was refused because of the scheme\'s case'], 'not 401', describeSeen(seen));
  return pass();
}
