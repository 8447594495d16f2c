// lib/runner/vitest-settings.ts suiteOrder and lib/runner/vitest-run.ts listSuites: the suites run by
// name, by code unit (the same order in every locale), the paced load and the rate-limit suite
// after the others, and the relations suite (which takes what they left) after all.
import { describe, expect, it } from 'vitest';
import { listSuites } from '../../../lib/runner/vitest-run.ts';
import { suiteOrder } from '../../../lib/runner/vitest-settings.ts';

describe('suiteOrder', () => {
  it('orders names by code unit, with load then rate-limit then relations last whatever the names', () => {
    expect(['stateful', 'relations', 'rate-limit', 'load', 'auth', 'zeta', 'create-pet', 'concurrency', 'Zulu'].sort(suiteOrder)).toEqual(['Zulu', 'auth', 'concurrency', 'create-pet', 'stateful', 'zeta', 'load', 'rate-limit', 'relations']);
  });

  it('lists the suites in suites/ in that order', () => {
    const suites = listSuites();
    expect(suites.slice(-2)).toEqual(['rate-limit', 'relations']);
    expect(suites).toEqual([...suites].sort(suiteOrder));
    expect(suites).toContain('auth');
  });
});
