// The configured key a request carried, read in one place: the run's ledger, the client and the
// politeness count agree on which requests are a key's. A leaf (types only from model.ts): the
// model imports politeness.ts, which reads this.
import type { AuthUsed } from './model.ts';

/** The configured key a request carried in some form (its own, in the query, a near miss, other carriers), by label. */
export function keyLabelOf(auth: AuthUsed): string | undefined {
  return auth.kind === 'none' || auth.kind === 'literal' ? undefined : auth.label;
}
