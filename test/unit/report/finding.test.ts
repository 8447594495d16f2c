// A failure's finding (lib/report/text.ts findingOf): what the server did, first on every report's
// line, with the subject before it only where the words do not say which request.
import { describe, expect, it } from 'vitest';
import { findingOf } from '../../../lib/report/text.ts';

describe('findingOf', () => {
  it("is the message's first line, cut", () => {
    expect(findingOf({ message: '`Bearer __proto__` got 500 on listPets\nmore' })).toBe('`Bearer __proto__` got 500 on listPets');
    expect(findingOf({ message: 'x'.repeat(200) }, 20)).toBe(`${'x'.repeat(19)}…`);
  });

  it('puts the subject first where the words name neither its operation nor its request', () => {
    expect(findingOf({ message: 'got 200, not 401', subject: 'listPets GET /pets' })).toBe('listPets GET /pets: got 200, not 401');
    expect(findingOf({ message: 'got 200, not 401', subject: 'GET /pets' })).toBe('GET /pets: got 200, not 401');
  });

  it('leaves the words alone where they name the request, or the subject is no request', () => {
    expect(findingOf({ message: '`Bearer __proto__` got 500 on listPets', subject: 'listPets GET /pets' })).toBe('`Bearer __proto__` got 500 on listPets');
    expect(findingOf({ message: 'GET /pets → 401: body is empty', subject: 'GET /pets' })).toBe('GET /pets → 401: body is empty');
    expect(findingOf({ message: 'free#1: 61 accepted', subject: 'free#1' })).toBe('free#1: 61 accepted');
    expect(findingOf({ message: '3 of 9 responses: …', subject: 'every response of the run' })).toBe('3 of 9 responses: …');
  });
});
