// Checks about the run itself rather than one operation: is anything answering at the base URL,
// and did every suite run to its end.
import { defineCheck } from './define.ts';
import { type Judgement, pass } from './types.ts';

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

export const HARNESS_CHECKS = [reachable, suiteError] as const;
