// Authentication on every operation: missing key, unknown key, a configured key under another scheme.
import { describe } from 'vitest';
import { AUTH_CHECKS, expectUnauthorized, invalidKey, missingKey, wrongScheme } from '../lib/checks/auth.ts';
import type { CheckDef } from '../lib/checks/types.ts';
import type { Auth, ApiRequest } from '../lib/client/client.ts';
import { stringifyJson } from '../lib/json.ts';
import { check, type CheckContext } from '../lib/suite/harness.ts';
import { CREATED_NAME_PREFIX } from '../lib/suite/run-context.ts';

interface Operation {
  name: string;
  request: Omit<ApiRequest, 'auth'>;
  /** createPet: a server that ignored auth would create an animal. */
  writes?: boolean;
}

const OPERATIONS: Operation[] = [
  { name: 'listPets GET /pets', request: { method: 'GET', path: '/pets' } },
  {
    name: 'createPet POST /pets',
    request: { method: 'POST', path: '/pets', body: stringifyJson({ name: `${CREATED_NAME_PREFIX}auth probe`, categoryId: 1 }) },
    writes: true,
  },
  // Auth comes before lookup, so any id will do; 1 is as good as another.
  { name: 'getPet GET /pets/{petId}', request: { method: 'GET', path: '/pets/1' } },
];

const CREDENTIALS: Record<string, (ctx: CheckContext) => Auth> = {
  [missingKey.id]: () => ({ none: true }),
  [invalidKey.id]: () => ({ header: 'Bearer not-a-key-0000000000000000' }),
  [wrongScheme.id]: (ctx) => ({ ...ctx.auth(), scheme: 'Basic' }),
};

describe('Authentication', () => {
  for (const def of AUTH_CHECKS as readonly CheckDef[]) {
    for (const op of OPERATIONS) {
      check(def, { subject: op.name, ...(op.writes ? { requires: 'writes' as const } : {}) }, async (ctx) => {
        const res = await ctx.client.send({ ...op.request, auth: CREDENTIALS[def.id]!(ctx) });
        return expectUnauthorized(res);
      });
    }
  }
});
