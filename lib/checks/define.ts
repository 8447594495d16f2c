// A check is defined once: its stable id, the clause of the interface it enforces, its title and
// severity, the suite that drives it, and the pure function that judges what the target answered.
// Every check is listed in registry.ts; the suites call `check.judge(...)` and never build results.
import type { Severity } from '../result/model.ts';
import { SERVER_FAMILY_IDS, type ServerFamilyId } from './server-families.ts';
import type { Judgement } from './types.ts';

/**
 * Where a check's exchanges come from: a suite file in suites/ (auth.suite.ts is "auth"), the
 * reachability probe before the suites, every response of the run, or the harness itself.
 */
export const SUITE_NAMES = ['probe', 'auth', 'concurrency', 'create-pet', 'get-pet', 'list-pets', 'load', 'rate-limit', 'relations', 'routes', 'stateful', 'run', 'harness'] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

/**
 * The families a `must` of each suite was judged against, where its definition names none: those
 * whose members change what the suite's checks read (every family is composed with every other in
 * verify:legal, and every must runs on every composed server its suite runs on). None for the
 * suites verify:legal does not compose (NOT_COMPOSED says why).
 */
export const FAMILIES_BY_SUITE: Readonly<Record<SuiteName, readonly ServerFamilyId[]>> = {
  probe: ['http', 'time', 'rate-limits'],
  auth: ['routing', 'validation', 'lenient-input', 'headers', 'representation', 'rate-limits', 'time', 'http'],
  concurrency: ['representation', 'time', 'http', 'rate-limits'],
  'create-pet': ['representation', 'validation', 'headers', 'time', 'http'],
  'get-pet': ['representation', 'validation', 'routing', 'headers', 'time', 'http'],
  'list-pets': ['representation', 'validation', 'routing', 'lenient-input', 'time', 'http'],
  load: [],
  'rate-limit': ['rate-limits', 'time', 'http'],
  relations: SERVER_FAMILY_IDS,
  routes: ['routing', 'validation', 'representation', 'rate-limits', 'time', 'http'],
  stateful: ['representation', 'validation', 'time', 'http'],
  run: SERVER_FAMILY_IDS,
  harness: [],
};

/** Suites whose musts verify:legal does not run on composed servers, and why. */
export const NOT_COMPOSED: Partial<Readonly<Record<SuiteName, string>>> = {
  harness: 'none: the harness\'s own checks, of no server',
  load: 'not composed: the paced load waits out real windows (a minute and more a server); it meets the legal variations of the command catalogue\'s first group (test/e2e/fault-catalogue.test.ts) together',
};

type Judge = (...args: never[]) => Judgement;

export interface CheckDef<Id extends string = string, J extends Judge = Judge> {
  /** Stable dotted id: reports, baselines, fault catalogues and other tools key on it. */
  readonly id: Id;
  /** Section of the interface, e.g. "Authentication" or "Endpoints / listPets". */
  readonly clause: string;
  readonly title: string;
  readonly severity: Severity;
  /**
   * What a `should` rests on, since no sentence of the interface states it: the standard (an RFC
   * and its section) or the interface's intent it follows from. Every `should` names one, and a
   * run's should failure is told with it; musts and infos have none.
   */
  readonly standard?: string;
  readonly suite: SuiteName;
  /**
   * A `must`'s legal readings: the families of conforming servers (server-families.ts) it was
   * judged against, none of whose members may make it fail. Unset in a definition: its suite's
   * (FAMILIES_BY_SUITE); defineCheck fills it in. Only musts have it.
   */
  readonly judgedAgainst?: readonly ServerFamilyId[];
  /** Pure: what the target answered in, a finding out. */
  readonly judge: J;
  /**
   * Checks whose failure explains this one's: when both fail, on the same subject or through an
   * answer both show (causes.ts), reports show that one as the root and this one under it. The
   * verdict counts both.
   */
  readonly explainedBy?: readonly string[];
  /**
   * Which of the answers its failures show the check reads, when they show more (a key's load is
   * shown by a sample of its answers, lib/load/evidence.ts, 429 included): 'accepted', the 2xx only.
   * A root on another subject explains a failure only through one of these. Unset: every answer shown.
   */
  readonly restsOn?: 'accepted';
}

const ID = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$/;

export function defineCheck<const Id extends string, J extends Judge>(def: CheckDef<Id, J>): CheckDef<Id, J> {
  if (!ID.test(def.id)) throw new Error(`check id "${def.id}" is not a dotted lower-case id such as "auth.missing-key"`);
  if (def.clause.trim() === '' || def.title.trim() === '') throw new Error(`check ${def.id} needs a clause and a title`);
  if ((def.severity === 'should') !== (def.standard !== undefined && def.standard.trim() !== '')) throw new Error(`check ${def.id}: a should names the standard it rests on, and only a should`);
  if (def.severity !== 'must' && def.judgedAgainst !== undefined) throw new Error(`check ${def.id}: only a must names the families of legal servers it was judged against`);
  const judgedAgainst = def.severity === 'must' ? (def.judgedAgainst ?? FAMILIES_BY_SUITE[def.suite]) : undefined;
  if (judgedAgainst?.length === 0 && NOT_COMPOSED[def.suite] === undefined) throw new Error(`check ${def.id}: a must names the families of legal servers it was judged against`);
  const unknown = (judgedAgainst ?? []).filter((f) => !SERVER_FAMILY_IDS.includes(f));
  if (unknown.length > 0) throw new Error(`check ${def.id}: no family of legal servers is called ${unknown.join(', ')}`);
  return Object.freeze({ ...def, ...(judgedAgainst ? { judgedAgainst } : {}) });
}
