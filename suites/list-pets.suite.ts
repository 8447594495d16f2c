// listPets smoke: the default page against the zod models. The full listPets suite builds on it.
import { describe } from 'vitest';
import { expectDefaultPage, smoke } from '../lib/checks/list-pets.ts';
import { check } from '../lib/suite/harness.ts';

describe('listPets', () => {
  check(smoke, { subject: 'GET /pets' }, async (ctx) => {
    const res = await ctx.client.send({ method: 'GET', path: '/pets', auth: ctx.auth() });
    return expectDefaultPage(res);
  });
});
