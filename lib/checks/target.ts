// The target itself, before any suite: is anything answering HTTP at its base URL.
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

export const TARGET_CHECKS = [reachable] as const;
