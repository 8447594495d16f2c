// Every check the harness has, each once. Its ids are the CheckId type: reports, baselines of
// known failures and `--list-checks` name checks by these ids.
import { AUTH_CHECKS } from './auth.ts';
import { AUTH_CARRIER_CHECKS } from './auth-carriers.ts';
import { CONCURRENCY_CHECKS } from './concurrency.ts';
import { CREATE_PET_CHECKS } from './create-pet.ts';
import type { CheckDef } from './define.ts';
import { GET_PET_CHECKS } from './get-pet.ts';
import { HARNESS_CHECKS } from './harness.ts';
import { IDS_CHECKS } from './ids.ts';
import { TARGET_CHECKS } from './target.ts';
import { LIST_PETS_CHECKS } from './list-pets.ts';
import { PACED_KEY_CHECKS, thresholds } from './load.ts';
import { RATE_LIMIT_CHECKS } from './rate-limit.ts';
import { RELATIONS_CHECKS } from './invariants.ts';
import { ROUTES_CHECKS } from './routes.ts';
import { RUN_CHECKS } from './run-level.ts';
import { STATEFUL_CHECKS } from './stateful.ts';

export const CHECKS = [
  ...TARGET_CHECKS,
  ...HARNESS_CHECKS,
  ...AUTH_CHECKS,
  ...AUTH_CARRIER_CHECKS,
  ...CONCURRENCY_CHECKS,
  ...CREATE_PET_CHECKS,
  ...GET_PET_CHECKS,
  ...IDS_CHECKS,
  ...LIST_PETS_CHECKS,
  ...PACED_KEY_CHECKS,
  thresholds,
  ...RATE_LIMIT_CHECKS,
  ...RELATIONS_CHECKS,
  ...ROUTES_CHECKS,
  ...STATEFUL_CHECKS,
  ...RUN_CHECKS,
] as const;

export type CheckId = (typeof CHECKS)[number]['id'];

const BY_ID: ReadonlyMap<string, CheckDef> = (() => {
  const map = new Map<string, CheckDef>();
  for (const c of CHECKS) {
    if (map.has(c.id)) throw new Error(`check id ${c.id} is defined twice`);
    map.set(c.id, c);
  }
  return map;
})();

export function isCheckId(id: string): id is CheckId {
  return BY_ID.has(id);
}

export function checkById(id: string): CheckDef | undefined {
  return BY_ID.get(id);
}

/** What `--list-checks` prints and other tools read: every field but the judging function. */
export interface CheckListing {
  id: CheckId;
  clause: string;
  severity: CheckDef['severity'];
  suite: CheckDef['suite'];
  title: string;
  /** A should's standard (define.ts); absent for musts and infos. */
  standard?: string;
}

export function listChecks(): CheckListing[] {
  return CHECKS.map(({ id, clause, severity, suite, title, standard }) => ({ id, clause, severity, suite, title, ...(standard ? { standard } : {}) }));
}
