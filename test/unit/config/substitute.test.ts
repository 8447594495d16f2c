import { describe, expect, it } from 'vitest';
import { fieldPath, substitute, SubstitutionSyntaxError } from '../../../lib/config/substitute.ts';

describe('substitute', () => {
  it.each([
    ['a set variable', '${HOST}', { HOST: 'example.com' }, 'example.com'],
    ['a variable inside text', 'https://${HOST}/v1', { HOST: 'example.com' }, 'https://example.com/v1'],
    ['two variables in one value', '${A}-${B}', { A: 'x', B: 'y' }, 'x-y'],
    ['a default when unset', '${PROXY:-none}', {}, 'none'],
    ['a default when set to empty', '${PROXY:-none}', { PROXY: '' }, 'none'],
    ['the value over the default when set', '${PROXY:-none}', { PROXY: 'http://p' }, 'http://p'],
    ['an empty default', '${PROXY:-}', {}, ''],
    ['a default holding ":" and "/"', '${URL:-http://127.0.0.1:4010/v1}', {}, 'http://127.0.0.1:4010/v1'],
    ['an empty value for ${VAR} (set counts as given)', '${KEY}', { KEY: '' }, ''],
    ['text without references unchanged', 'plain $HOME text', { HOME: '/root' }, 'plain $HOME text'],
  ])('replaces %s', (_name, input, env, expected) => {
    const result = substitute({ field: input }, env);
    expect(result.value).toEqual({ field: expected });
    expect(result.missing).toEqual([]);
  });

  it('reports each unset variable with the field that wanted it', () => {
    const result = substitute({ baseUrl: '${URL}', keys: [{ key: '${K1}' }, { key: '${K2}' }] }, { K1: 'one' });
    expect(result.missing).toEqual([
      { variable: 'URL', field: 'baseUrl' },
      { variable: 'K2', field: 'keys[1].key' },
    ]);
  });

  it('does not read the environment into substituted values twice (a value holding ${X} stays literal)', () => {
    const result = substitute({ a: '${A}' }, { A: '${B}', B: 'leak' });
    expect(result.value).toEqual({ a: '${B}' });
  });

  it('leaves numbers, booleans and null as they are', () => {
    const tree = { n: 5, b: true, z: null, list: [1, false] };
    expect(substitute(tree, {}).value).toEqual(tree);
  });

  it('records the variable of a field whose whole value is one reference', () => {
    const result = substitute({ keys: [{ key: '${FREE_KEY}' }, { key: 'literal' }, { key: 'x${PART}' }], p: '${P:-d}' }, { FREE_KEY: 'k', PART: 'y', P: '' });
    expect([...result.sources]).toEqual([
      ['keys[0].key', 'FREE_KEY'],
      ['p', 'P'],
    ]);
  });

  it.each(['${bad-name}', '${}', '${1ABC}', '${A:+x}'])('throws SubstitutionSyntaxError naming the field for %s', (expression) => {
    expect(() => substitute({ http: { proxy: expression } }, {})).toThrow(SubstitutionSyntaxError);
    expect(() => substitute({ http: { proxy: expression } }, {})).toThrow(/^http\.proxy: /);
  });
});

describe('fieldPath', () => {
  it.each([
    [[], '(root)'],
    [['baseUrl'], 'baseUrl'],
    [['keys', 2, 'plan'], 'keys[2].plan'],
    [['windows', 'day'], 'windows.day'],
  ] as const)('writes %j as %s', (path, expected) => {
    expect(fieldPath(path)).toBe(expected);
  });
});
