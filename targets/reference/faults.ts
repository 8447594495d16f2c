// The catalogue of deliberate faults. Each one is a small, realistic deviation from the interface
// that the harness must catch, and each names the check that must (`caught`: the check and the
// code of its failure; the harness's tests hold every fault to it); config `faults: [...]`
// switches them on.
//
// A fault takes one of two forms. A *rewrite* fault changes the finished Reply (status, headers,
// body) and needs no code in the handler: most faults about what a response looks like belong
// here; its context carries the operation and the rate decision. A *flag* fault has no rewrite;
// the handler asks `faults.has(id)` at the one point where the behaviour lives (the auth gate, the
// list query, the create path, the limiter's wiring). Adding a fault means adding an entry to the
// area's file under faults/ and, for a flag, one `has` at its hook point; FaultId makes a
// misspelt id a type error.
import type { FaultDefinition } from './fault-definition.ts';
import { Switches } from './switches.ts';
import { AUTH_FAULTS } from './faults/auth.ts';
import { BODY_FAULTS } from './faults/bodies.ts';
import { CREATE_FAULTS } from './faults/create.ts';
import { GET_FAULTS } from './faults/get.ts';
import { SPELLING_FAULTS } from './faults/pet-id-spelling.ts';
import { ID_FAULTS } from './faults/ids.ts';
import { LIST_FAULTS } from './faults/list.ts';
import { RATE_LIMIT_FAULTS } from './faults/rate-limit.ts';
import { DAY_COUNT_FAULTS } from './faults/day-count.ts';
import { ROUTE_FAULTS } from './faults/routes.ts';
import { RELATIONS_FAULTS } from './faults/relations.ts';
import { DELIVERY_FAULTS, ERROR_FAULTS, HEADER_FAULTS } from './faults/responses.ts';

export const FAULT_CATALOGUE = [
  ...AUTH_FAULTS,
  ...ERROR_FAULTS,
  ...LIST_FAULTS,
  ...CREATE_FAULTS,
  ...BODY_FAULTS,
  ...GET_FAULTS,
  ...SPELLING_FAULTS,
  ...ID_FAULTS,
  ...ROUTE_FAULTS,
  ...HEADER_FAULTS,
  ...RATE_LIMIT_FAULTS,
  ...DAY_COUNT_FAULTS,
  ...DELIVERY_FAULTS,
  ...RELATIONS_FAULTS,
] as const satisfies readonly FaultDefinition[];

export type FaultId = (typeof FAULT_CATALOGUE)[number]['id'];

export const FAULT_IDS: readonly FaultId[] = FAULT_CATALOGUE.map((fault) => fault.id);

export function isFaultId(name: string): name is FaultId {
  return (FAULT_IDS as readonly string[]).includes(name);
}

/** The faults switched on for one server. Empty for a conforming server. */
export class Faults extends Switches<FaultId> {
  constructor(ids: Iterable<FaultId> = []) {
    super(FAULT_CATALOGUE, ids);
  }
}
