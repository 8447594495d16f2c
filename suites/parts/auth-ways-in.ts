// One way in, for the auth suite (auth.suite.ts calls oneWayIn()): a configured key by every other
// carrier that frameworks, auth libraries and gateways accept (lib/generators/key-carriers.ts), the
// cookies the server set on an authenticated answer sent back alone, and bearer tokens named like
// built-in object members. Each must get 401 with an Error body.
//
// Requests, with one key, on a conforming server: listPets 7 schemes one at a time, then the other
// headers, the query parameters and the cookies, each family in one request (10); createPet the
// JSON and the form body (2, where writes are allowed); the cookies 2 (an authenticated listPets,
// then its cookies alone); the object members 19. A family's request that is not refused is
// followed by its carriers one at a time, to name the one the server accepted.
import { describe } from 'vitest';
import { cookieNotCredential, cookieSentBack, objectMemberKey, otherCarrier, parseSetCookie, type WayCase } from '../../lib/checks/auth-carriers.ts';
import type { ApiRequest } from '../../lib/client/client.ts';
import {
  COOKIE_CARRIERS,
  carrierName,
  FORM_BODY_CARRIERS,
  familyOf,
  HEADER_CARRIERS,
  JSON_BODY_CARRIERS,
  type KeyCarrier,
  QUERY_CARRIERS,
  SCHEME_CARRIERS,
} from '../../lib/generators/key-carriers.ts';
import { objectMemberKeys } from '../../lib/generators/object-member-keys.ts';
import { stringifyJson } from '../../lib/json.ts';
import type { Finding } from '../../lib/checks/types.ts';
import { check, sendEach } from '../../lib/suite-kit/vitest-adapter.ts';
import { CREATED_NAME_PREFIX } from '../../lib/config/run-context.ts';

const LIST: Omit<ApiRequest, 'auth'> = { method: 'GET', path: '/pets' };
const PROBE_NAME = `${CREATED_NAME_PREFIX}auth probe`;

/**
 * Sends each group (one request for its items), in order; a group of several that is not refused
 * is followed by each of its items alone, to name the one that was not. Stops at the first
 * request that decides the check: a failing target costs no more requests than the verdict needs.
 */
async function sendGroups<T>(groups: readonly (readonly T[])[], send: (items: readonly T[]) => Promise<WayCase>, one: (c: WayCase) => Finding): Promise<WayCase[]> {
  const cases: WayCase[] = [];
  for (const group of groups) {
    const together = await send(group);
    cases.push(together);
    if (one(together).outcome === 'pass') continue;
    if (group.length === 1) return cases;
    for (const item of group) {
      const alone = await send([item]);
      cases.push(alone);
      if (one(alone).outcome !== 'pass') return cases;
    }
  }
  return cases;
}

export function oneWayIn(): void {
  describe('One way in', () => {
    check(otherCarrier, { subject: 'listPets GET /pets' }, async (ctx) => {
      const { key } = ctx.auth();
      const send = async (carriers: readonly KeyCarrier[]): Promise<WayCase> => ({
        carriers: carriers.map(carrierName),
        family: familyOf(carriers[0]!),
        operation: 'listPets',
        seen: await ctx.client.send({ ...LIST, auth: { carrierOf: key, carriers } }),
      });
      // Through a proxy, Proxy-Authorization is the proxy's: it takes the header for itself.
      const headers = ctx.run.target.http.proxy ? HEADER_CARRIERS.filter((c) => c.name !== 'Proxy-Authorization') : HEADER_CARRIERS;
      const groups = [...SCHEME_CARRIERS.map((c) => [c]), headers, QUERY_CARRIERS, COOKIE_CARRIERS];
      return otherCarrier.judge(await sendGroups(groups, send, otherCarrier.judge.one));
    });

    // A valid NewPet with the key beside it: a server that took it would create an animal.
    check(otherCarrier, { subject: 'createPet POST /pets', requires: 'writes' }, async (ctx) => {
      const { key } = ctx.auth();
      const bodies: [readonly KeyCarrier[], string][] = [
        [JSON_BODY_CARRIERS, stringifyJson({ name: PROBE_NAME, categoryId: 1 })],
        [FORM_BODY_CARRIERS, new URLSearchParams({ name: PROBE_NAME, categoryId: '1' }).toString()],
      ];
      const bodyOf = new Map(bodies.flatMap(([carriers, body]) => carriers.map((c) => [c, body] as const)));
      const send = async (carriers: readonly KeyCarrier[]): Promise<WayCase> => ({
        carriers: carriers.map(carrierName),
        family: familyOf(carriers[0]!),
        operation: 'createPet',
        ...(carriers[0]!.place === 'form-body' ? { unreadableBody: true } : {}),
        seen: await ctx.client.send({ method: 'POST', path: '/pets', body: bodyOf.get(carriers[0]!)!, auth: { carrierOf: key, carriers } }),
      });
      return otherCarrier.judge(await sendGroups(bodies.map(([carriers]) => carriers), send, otherCarrier.judge.one));
    });

    // The cookies of an authenticated answer asked for now (the client keeps no cookie jar, so a
    // server with sessions sets one on every answer), sent back as a browser would, all at once.
    check(cookieNotCredential, { subject: 'listPets GET /pets' }, async (ctx) => {
      const answer = await ctx.client.send({ ...LIST, auth: ctx.auth() });
      const cookies = parseSetCookie(answer.headers['set-cookie']);
      const setOn = 'listPets';
      if (cookies.length === 0) return cookieNotCredential.judge({ setOn, cookies: [], sent: [] });
      const send = async (sent: readonly { name: string; value: string }[]): Promise<WayCase> => ({
        carriers: sent.map((c) => c.name),
        family: 'set-cookie',
        operation: 'listPets',
        seen: await ctx.client.send({ ...LIST, auth: { none: true }, headers: { cookie: sent.map((c) => `${c.name}=${c.value}`).join('; ') } }),
      });
      const sent = await sendGroups([cookies], send, cookieSentBack);
      return cookieNotCredential.judge({ setOn, cookies: cookies.map((c) => c.name), sent });
    });

    check(objectMemberKey, { subject: 'listPets GET /pets' }, async (ctx) => {
      const members = objectMemberKeys(ctx.run.target.keys.map((k) => k.key));
      const send = async ({ token, language }: { token: string; language: string }) => ({
        token,
        language,
        operation: 'listPets',
        seen: await ctx.client.send({ ...LIST, auth: { header: `Bearer ${token}` } }),
      });
      return objectMemberKey.judge(await sendEach(members, send, objectMemberKey.judge));
    });
  });
}
