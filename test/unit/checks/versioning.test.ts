// lib/checks/run-level.ts, versioning.only-get-pet-deprecated: over every response of the run, listPets
// and createPet carry no Deprecation or Sunset header (the interface deprecates getPet alone).
import { describe, expect, it } from 'vitest';
import { onlyGetPetDeprecated } from '../../../lib/checks/run-level.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';

const DEPRECATED = { deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' };

let seq = 0;
function answer(method: 'GET' | 'POST', path: string, status: number, headers: Record<string, string> = {}): Exchange {
  seq += 1;
  return {
    seq,
    suite: 'unit',
    method,
    url: `http://127.0.0.1:8080/v1${path}`,
    auth: { kind: 'none' },
    requestHeaders: {},
    status,
    responseHeaders: { 'content-type': 'application/json', ...headers },
    responseBody: '[]',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 3,
  };
}

describe('versioning.only-get-pet-deprecated (should)', () => {
  it('is a run-level should of the Versioning clause', () => {
    expect(onlyGetPetDeprecated).toMatchObject({ severity: 'should', clause: 'Versioning', suite: 'run' });
  });

  it('passes when only getPet carries the deprecation headers', () => {
    const finding = onlyGetPetDeprecated.judge([answer('GET', '/pets?limit=5', 200), answer('POST', '/pets', 201), answer('GET', '/pets/7', 200, DEPRECATED), answer('GET', '/pets/999', 404, DEPRECATED)]);
    expect(finding).toEqual({ outcome: 'pass', message: '2 responses checked' });
  });

  it('fails on a listPets or createPet answer with Deprecation or Sunset, naming the operation and the headers', () => {
    const list = answer('GET', '/pets?limit=5', 200, DEPRECATED);
    const create = answer('POST', '/pets', 400, { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' });
    const finding = onlyGetPetDeprecated.judge([answer('GET', '/pets/7', 200, DEPRECATED), list, create]);
    expect(finding).toMatchObject({
      outcome: 'fail',
      code: 'deprecation-on-other-operation',
      message: '2 of 2 responses: GET /v1/pets?limit=5 → 200: Deprecation: true, Sunset: Thu, 05 Dec 2030 00:00:00 GMT, yet the interface deprecates getPet (GET /pets/{petId}) alone',
      exchanges: [list, create],
    });
  });

  it('other methods and paths are not judged here (the routes checks judge them)', () => {
    const finding = onlyGetPetDeprecated.judge([answer('GET', '/pets/7', 200, DEPRECATED), answer('GET', '/store/orders', 200, DEPRECATED)]);
    expect(finding).toEqual({ outcome: 'skip', message: 'no response of this kind in the run' });
  });
});
