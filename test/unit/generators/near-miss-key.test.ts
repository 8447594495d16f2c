// nearMissKeys: credentials close to a configured key, none of which is a configured key.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearMissKeys } from '../../../lib/generators/near-miss-key.ts';

const KEY = 'sk-live-NearMiss-7f3a9c';

/** What `sh` makes of `"Authorization: <shell text>"` with the key in $UNIT_KEY. */
function shellValue(shellText: string, key: string): string {
  return execFileSync('sh', ['-c', `printf '%s' "${shellText}"`], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', UNIT_KEY: key }, encoding: 'utf8' });
}

const byName = (key: string) => new Map(nearMissKeys(key).map((c) => [c.name, c.header]));

describe('nearMissKeys', () => {
  it('gives each near miss of a mixed-case key, in order, with its header', () => {
    expect(nearMissKeys(KEY).map((c) => [c.name, c.header])).toEqual([
      ['prefix', 'Bearer sk-live-NearMiss-7f3a9'],
      ['suffix', 'Bearer sk-live-NearMiss-7f3a9cx'],
      ['upper-case', 'Bearer SK-LIVE-NEARMISS-7F3A9C'],
      ['lower-case', 'Bearer sk-live-nearmiss-7f3a9c'],
      ['trailing-semicolon', 'Bearer sk-live-NearMiss-7f3a9c;x'],
      ['trailing-comma', 'Bearer sk-live-NearMiss-7f3a9c,x'],
      ['two-tokens', 'Bearer sk-live-NearMiss-7f3a9c sk-live-NearMiss-7f3a9c'],
      ['two-tokens-other', 'Bearer sk-live-NearMiss-7f3a9c other'],
      ['no-space', 'Bearersk-live-NearMiss-7f3a9c'],
    ]);
  });

  it('tells other keys (a must) from the whole key spelled otherwise (a should), each with its shape, never the key', () => {
    const cases = nearMissKeys(KEY);
    expect(cases.map((c) => [c.name, c.wholeKey, c.shape])).toEqual([
      ['prefix', false, 'Bearer <key without its last character>'],
      ['suffix', false, 'Bearer <key>x'],
      ['upper-case', false, 'Bearer <key in upper case>'],
      ['lower-case', false, 'Bearer <key in lower case>'],
      ['trailing-semicolon', true, 'Bearer <key>;x'],
      ['trailing-comma', true, 'Bearer <key>,x'],
      ['two-tokens', true, 'Bearer <key> <key>'],
      ['two-tokens-other', true, 'Bearer <key> other'],
      ['no-space', true, 'Bearer<key>'],
    ]);
    for (const c of cases) expect(c.shape).not.toContain('NearMiss');
  });

  it('gives another case only when it changes the key', () => {
    expect([...byName('local-free-key-1').keys()]).not.toContain('lower-case');
    expect(byName('local-free-key-1').get('upper-case')).toBe('Bearer LOCAL-FREE-KEY-1');
    expect([...byName('ABC-123').keys()]).not.toContain('upper-case');
    expect(byName('ABC-123').get('lower-case')).toBe('Bearer abc-123');
    const names = [...byName('0123-4567').keys()];
    expect(names).not.toContain('upper-case');
    expect(names).not.toContain('lower-case');
  });

  it('adds a character of the same kind as the last one', () => {
    expect(byName('key-1').get('suffix')).toBe('Bearer key-10');
    expect(byName('KEY-A').get('suffix')).toBe('Bearer KEY-AX');
    expect(byName('key-a').get('suffix')).toBe('Bearer key-ax');
  });

  it('gives no prefix for a one-character key (that would be the empty token)', () => {
    expect([...byName('k').keys()]).not.toContain('prefix');
    expect(byName('k').get('suffix')).toBe('Bearer kx');
  });

  it('leaves out a near miss that is another configured key', () => {
    const names = nearMissKeys('key-1', { otherKeys: ['key-1', 'key-', 'key-10', 'KEY-1'] }).map((c) => c.name);
    expect(names).toEqual(['trailing-semicolon', 'trailing-comma', 'two-tokens', 'two-tokens-other', 'no-space']);
  });

  it('never gives the key itself nor an empty credential, and names each case once', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,40}$/), (key) => {
        const cases = nearMissKeys(key);
        expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
        for (const c of cases) {
          expect(c.header).not.toBe(`Bearer ${key}`);
          expect(c.header.replace(/^Bearer ?/, '')).not.toBe('');
        }
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('rebuilds every header in the shell, inside double quotes, from the key\'s variable, without the key', () => {
    // Shell-special characters a key may hold (not " $ ` \, which are not valid in a bearer token).
    for (const key of [KEY, 'local-free-key-1', 'ABC-123', "k!e'y;*?&|<>(){}#~=+/.", 'k']) {
      for (const c of nearMissKeys(key)) {
        const text = c.shell('UNIT_KEY');
        if (key.length > 3) expect(text, c.name).not.toContain(key.slice(0, -1));
        expect(shellValue(text, key), `${c.name} of ${key}`).toBe(c.header);
      }
    }
  });
});
