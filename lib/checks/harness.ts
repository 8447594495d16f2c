// Checks about the harness's own run: did every suite run to its end, and does every entry of the
// baseline of known failures still fail.
import { defineCheck } from './define.ts';
import { fail, type Judgement, pass } from './types.ts';

export const suiteError = defineCheck({
  id: 'harness.suite-error',
  clause: 'Harness',
  suite: 'harness',
  title: 'A suite could not run to the end',
  severity: 'must',
  judge: (message: string): Judgement => ({ outcome: 'error', message }),
});

export const expectedFailures = defineCheck({
  id: 'harness.expected-failures',
  clause: 'Harness',
  suite: 'harness',
  title: 'Every entry of the --expected-failures baseline still fails',
  severity: 'must',
  /** A listed check that passes now is a stale entry (code stale-entry): the baseline must shrink as fixes land. */
  judge: (entries: readonly { id: string; status: 'failed-as-expected' | 'stale' | 'not-run' }[]): Judgement => {
    const stale = entries.filter((e) => e.status === 'stale');
    if (stale.length > 0) return fail('stale-entry', stale.map((e) => `stale entry: ${e.id} passes now, remove it`).join('; '), 'every listed check fails', `${stale.length} pass now: ${stale.map((e) => e.id).join(', ')}`);
    const expected = entries.filter((e) => e.status === 'failed-as-expected').length;
    const notRun = entries.filter((e) => e.status === 'not-run').map((e) => e.id);
    return pass(`${expected} listed failure${expected === 1 ? '' : 's'} failed as expected${notRun.length ? `; not run, skipped or errored, so not judged: ${notRun.join(', ')}` : ''}`);
  },
});

export const HARNESS_CHECKS = [suiteError, expectedFailures] as const;
