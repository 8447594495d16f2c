// The one way a judged check becomes the report's CheckResult: the definition's id, clause, title
// and severity, the judgement's outcome and message, and for a failure or an error the evidence
// (expected, actual, the exchanges and commands that reproduce them). Pure.
import { curlCommand } from '../result/curl.ts';
import type { CheckResult } from '../result/model.ts';
import type { Exchange } from '../result/exchange.ts';
import type { CheckDef } from './define.ts';
import type { Judgement, OtherFailure } from './types.ts';

/** "reset-not-unix-seconds ×12": another kind of failure, with how many answers showed it when counted. */
const kindCounted = (o: OtherFailure) => (o.count !== undefined ? `${o.kind} ×${o.count}` : o.kind);

export interface ResultContext {
  /** What the check was applied to, e.g. "GET /pets" or a key's label. */
  subject?: string;
  durationMs: number;
  /** The exchanges the check sent: the evidence, unless the finding names its own. */
  exchanges: readonly Exchange[];
  /** For a property failure: the command that replays its cases. */
  replay?: string;
}

export function toCheckResult(def: CheckDef, judgement: Judgement, ctx: ResultContext): CheckResult {
  const failed = judgement.outcome === 'fail' ? judgement : undefined;
  const property = failed?.property;
  const exchanges = [...(failed?.exchanges ?? ctx.exchanges)];
  const reproduce = exchanges.map(curlCommand);
  if (property && ctx.replay) reproduce.push(ctx.replay);
  const showEvidence = judgement.outcome === 'fail' || judgement.outcome === 'error';
  const others = failed?.others ?? [];
  return {
    id: def.id,
    ...(ctx.subject ? { subject: ctx.subject } : {}),
    clause: def.clause,
    title: def.title,
    severity: def.severity,
    ...(def.standard ? { standard: def.standard } : {}),
    outcome: judgement.outcome,
    ...(failed ? { code: failed.code } : judgement.outcome === 'error' && judgement.code ? { code: judgement.code } : {}),
    message: others.length > 0 ? `${judgement.message} (and ${others.length} more kind${others.length > 1 ? 's' : ''} of failure: ${others.map(kindCounted).join('; ')})` : (judgement.message ?? def.title),
    suite: def.suite,
    // Provisional: linkCauses keeps it only when that check failed too.
    ...(failed?.explainedBy ? { causedBy: { id: failed.explainedBy } } : {}),
    durationMs: ctx.durationMs,
    evidence: showEvidence
      ? {
          ...(failed?.expected !== undefined ? { expected: failed.expected } : {}),
          ...(failed?.actual !== undefined ? { actual: failed.actual } : {}),
          exchanges,
          ...(failed?.offenders ? { offenders: failed.offenders } : {}),
          reproduce,
          ...(property ? { counterexample: property.counterexample, seed: property.seed, ...(property.path ? { path: property.path } : {}) } : {}),
          ...(others.length > 0
            ? {
                failures: others.map((o) => ({
                  kind: o.kind,
                  code: o.code,
                  message: o.message,
                  ...(o.expected !== undefined ? { expected: o.expected } : {}),
                  ...(o.actual !== undefined ? { actual: o.actual } : {}),
                  counterexample: o.property?.counterexample ?? o.example ?? o.message,
                  ...(o.property?.path ? { path: o.property.path } : {}),
                  reproduce: o.exchanges.map(curlCommand),
                  ...(o.count !== undefined ? { count: o.count } : {}),
                  ...(o.offenders ? { offenders: o.offenders, exchanges: o.exchanges } : {}),
                })),
              }
            : {}),
        }
      : null,
  };
}
