// One cause, one root failure: where a failure is explained by another check's failure (on the
// same subject, or run-wide), it is linked to that root so that reports show the root with the
// others under it. The verdict still counts every failure. Pure.
import type { CheckResult } from '../result/model.ts';
import { checkById } from './registry.ts';

type Root = NonNullable<CheckResult['causedBy']>;

const failed = (c: CheckResult) => c.outcome === 'fail' || c.outcome === 'error';
const key = (c: Pick<CheckResult, 'id' | 'subject'>) => `${c.id}\u0000${c.subject ?? ''}`;

/**
 * Each failure's root: the first of its candidates (the finding's own `explainedBy`, then the
 * check's) that failed on the same subject, or run-wide (a run-wide failure's own hint: on any
 * subject); followed to the end of the chain. A
 * cycle leaves the failure as its own root. Results that did not fail carry no cause.
 */
export function linkCauses(checks: readonly CheckResult[]): CheckResult[] {
  const failures = checks.filter(failed);
  const direct = new Map<string, CheckResult>();
  for (const c of failures) {
    const candidates = [...(c.causedBy ? [c.causedBy.id] : []), ...(checkById(c.id)?.explainedBy ?? [])];
    for (const id of candidates) {
      // A run-wide failure that names its root itself (every offender was that check's request) links to it on any subject.
      const named = c.suite === 'run' && id === c.causedBy?.id;
      const root = failures.find((f) => f.id === id && f !== c && (f.subject === c.subject || f.suite === 'run' || named));
      if (root) {
        direct.set(key(c), root);
        break;
      }
    }
  }
  const rootOf = (c: CheckResult): CheckResult | undefined => {
    const seen = new Set<string>([key(c)]);
    let root = direct.get(key(c));
    while (root) {
      if (seen.has(key(root))) return undefined;
      seen.add(key(root));
      const next = direct.get(key(root));
      if (!next) return root;
      root = next;
    }
    return undefined;
  };
  return checks.map((c) => {
    const { causedBy: _provisional, ...rest } = c;
    const root = failed(c) ? rootOf(c) : undefined;
    if (!root) return rest;
    const causedBy: Root = { id: root.id, ...(root.subject !== undefined ? { subject: root.subject } : {}) };
    return { ...rest, causedBy };
  });
}
