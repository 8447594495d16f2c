import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../targets/reference/target.ts';

/** What the handler would have read of `new URL(target, origin)`. */
function byUrl(target: string): { pathname: string; params: [string, string][] } | undefined {
  try {
    const url = new URL(target, 'http://reference.invalid');
    return { pathname: url.pathname, params: [...url.searchParams] };
  } catch {
    return undefined;
  }
}

function read(target: string): { pathname: string; params: [string, string][] } | undefined {
  const parsed = parseTarget(target);
  return parsed && { pathname: parsed.pathname, params: [...parsed.searchParams] };
}

/** Pieces a target is made of, the ones the URL parser treats specially among them. */
const PIECES = [
  '/', '?', '&', '=', '.', '..', '%', '%2e', '%2E', '%3F', '%zz', '#', '\\', ' ', '\t', '\n', '+', "'", '"', '<', '>', '`',
  '{', '}', '^', '|', '~', '!', '$', '(', ')', '*', ',', ';', ':', '@', '[', ']', 'a', 'Z', '0', '-', '_', 'é', '😀', '\u0000',
  'v1', 'pets', 'limit', 'status', 'http:', '//',
];

describe('request targets', () => {
  it.each([
    '/v1/pets?limit=1',
    '/v1/pets',
    '/v1/pets?',
    '/v1/pets??limit=1',
    '/v1/pets?limit=1#x',
    '/v1/pets?limit=%31&status=a+b',
    '/v1/./pets',
    '/v1/pets/%2e%2e',
    '//x/v1/pets',
    '/v1\\pets',
    'http://h/v1/pets',
    '*',
    '',
  ])('reads %j as the URL parser does', (target) => {
    expect(read(target)).toEqual(byUrl(target));
  });

  it('reads any target as the URL parser does', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }), (slash, pieces) => {
        const target = (slash ? '/' : '') + pieces.join('');
        expect(read(target)).toEqual(byUrl(target));
      }),
      { numRuns: 20_000 },
    );
  });
});
