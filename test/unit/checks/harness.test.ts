// lib/checks/harness.ts: checks about the run itself.
import { describe, expect, it } from 'vitest';
import { expectedFailures, suiteError } from '../../../lib/checks/harness.ts';
import { reachable } from '../../../lib/checks/target.ts';

describe('harness.expected-failures', () => {
  it('passes when every listed check failed as expected, naming those not run', () => {
    expect(expectedFailures.judge([{ id: 'auth.missing-key', status: 'failed-as-expected' }, { id: 'get-pet.found', status: 'not-run' }])).toEqual({
      outcome: 'pass',
      message: '1 listed failure failed as expected; not run, skipped or errored, so not judged: get-pet.found',
    });
  });

  it('fails on a stale entry, naming every check that passes now', () => {
    const finding = expectedFailures.judge([{ id: 'auth.missing-key', status: 'stale' }, { id: 'auth.invalid-key', status: 'failed-as-expected' }, { id: 'get-pet.found', status: 'stale' }]);
    expect(finding).toMatchObject({ outcome: 'fail', code: 'stale-entry', actual: '2 pass now: auth.missing-key, get-pet.found' });
  });
});

describe('target.reachable and harness.suite-error', () => {
  it('are the harness\'s errors, never failures of the target', () => {
    expect(reachable.judge({ status: 401 })).toEqual({ outcome: 'pass', message: 'answered 401' });
    expect(reachable.judge({ transportError: 'ECONNREFUSED' })).toEqual({ outcome: 'error', message: 'ECONNREFUSED' });
    expect(suiteError.judge('boom')).toEqual({ outcome: 'error', message: 'boom' });
  });
});
