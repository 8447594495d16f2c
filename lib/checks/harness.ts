// Checks about the run itself rather than one operation: is anything answering at the base URL,
// and did every suite run to its end.
import { defineCheck } from './define.ts';
import { fail, type Judgement, pass } from './types.ts';

export const reachable = defineCheck({
  id: 'target.reachable',
  clause: 'What the service does',
  suite: 'probe',
  title: 'The target answers HTTP at its base URL',
  severity: 'must',
  /** Any HTTP status means yes (a conforming server says 401); no response at all is the harness's error. */
  judge: (answer: { status: number } | { transportError: string }): Judgement =>
    'status' in answer ? pass(`answered ${answer.status}`) : { outcome: 'error', message: answer.transportError },
});

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

export const HARNESS_CHECKS = [reachable, suiteError, expectedFailures] as const;
