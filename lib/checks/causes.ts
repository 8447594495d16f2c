// One cause, one root failure: where a failure is explained by another check's failure, it is
// linked to that root so that reports show the root with the others under it. A root on another
// subject (a rule over the whole run) explains a failure only by evidence: the answers the failure
// shows are among the root's offending answers. The same check failing with the same code on
// several keys is one cause too: the first key's failure is the root. The verdict still counts
// every failure. Pure.
import type { CheckResult } from '../result/model.ts';
import { resultKey as key } from '../result/match.ts';
import type { Exchange } from '../result/exchange.ts';
import { checkById } from './registry.ts';
import { isAccepted } from '../status.ts';

type Root = NonNullable<CheckResult['causedBy']>;

const failed = (c: CheckResult) => c.outcome === 'fail' || c.outcome === 'error';

/**
 * The answers a result rests on (their seq): the exchanges it shows (for a check that reads only
 * accepted answers, the 2xx among them: a key's 429 is shown beside them, not read), and every
 * offender of a rule over the run, of each of its kinds.
 */
function answersOf(c: CheckResult): Set<number> {
  const reads = checkById(c.id)?.restsOn === 'accepted' ? (e: Exchange) => isAccepted(e) : () => true;
  const others = (c.evidence?.failures ?? []).flatMap((f) => f.offenders ?? []);
  return new Set([...(c.evidence?.exchanges ?? []).filter(reads).map((e) => e.seq), ...(c.evidence?.offenders ?? []), ...others]);
}

/** One kind of failure a root blames answers for: its code, and those answers (their seq). */
interface Blamed {
  code: string | undefined;
  answers: Set<number>;
}

/**
 * The answers a root blames, by kind: its first kind's (every offender when it lists them, else
 * the exchanges it shows), then each other kind's own offenders (a rule over the run that found
 * several codes of problem: evidence.failures).
 */
function blamedBy(root: CheckResult): Blamed[] {
  const first = { code: root.code, answers: new Set(root.evidence?.offenders ?? (root.evidence?.exchanges ?? []).map((e) => e.seq)) };
  const others = (root.evidence?.failures ?? []).filter((f) => f.offenders !== undefined).map((f) => ({ code: f.code ?? f.kind, answers: new Set(f.offenders) }));
  return [first, ...others];
}

/** How a root explains a failure: on the same subject, or through the answers of one of its kinds (its code). */
type Explanation = { through: 'subject' } | { through: 'kind'; code: string | undefined };

/**
 * Whether `root` (a failure of a check `c` names) explains `c`, and how:
 * - on the same subject, not a rule over the whole run: yes. The subject is the evidence (the same
 *   operation, or the same key's load, sent by one suite), and the definition states the clause
 *   depends on the root's (create-pet.echo on create-pet.created, rate-limit.quota on rate-limit.remaining);
 * - otherwise (a rule over the run, or another subject): only through one kind of the root's
 *   problem whose offending answers include some answer `c` shows: the kind most of them show
 *   (ties: the root's first, its worst). A failure or a root with no answer recorded shares none:
 *   no link. A missing header on 401s explains nothing about the answers of a quota's burst, even
 *   when the same root also blames the burst's 200s for another kind (a Reset counting seconds
 *   from now): the burst is then under that kind only, also when its 429, shown beside the 200s,
 *   lacks the headers as the 401s do.
 */
function explains(root: CheckResult, c: CheckResult): Explanation | undefined {
  if (root.suite !== 'run' && root.subject === c.subject) return { through: 'subject' };
  const answers = [...answersOf(c)];
  const shared = blamedBy(root).map((k) => ({ code: k.code, n: answers.filter((seq) => k.answers.has(seq)).length }));
  // Array.prototype.reduce keeps the first of equals: the worst kind wins a tie.
  const kind = shared.reduce((best, k) => (k.n > best.n ? k : best), { code: undefined as string | undefined, n: 0 });
  return kind.n > 0 ? { through: 'kind', code: kind.code } : undefined;
}

/**
 * The same failure seen first on another subject: the same check failing with the same code on
 * another key (the limiter of one server, broken the same way for every key or plan). Its first
 * subject, in report order, is the root; the others are shown under it, each with its own figures.
 * Not for a rule over the whole run (one result), nor for a failure without a code.
 */
function sameFailure(failures: readonly CheckResult[], c: CheckResult): CheckResult | undefined {
  if (c.suite === 'run' || c.code === undefined || c.subject === undefined) return undefined;
  const first = failures.find((f) => f.id === c.id && f.code === c.code && f.subject !== undefined);
  return first && first !== c && first.subject !== c.subject ? first : undefined;
}

/**
 * Each failure's root: the first of its candidates (the finding's own `explainedBy`, then the
 * check's) that failed and explains it (above), else the same failure on an earlier key
 * (sameFailure); followed to the end of the chain. A cycle leaves
 * the failure as its own root. Results that did not fail carry no cause.
 */
export function linkCauses(checks: readonly CheckResult[]): CheckResult[] {
  const failures = checks.filter(failed);
  const direct = new Map<string, CheckResult>();
  // The kind of its direct root a failure is linked through, when that root names several kinds.
  const through = new Map<string, string>();
  for (const c of failures) {
    const candidates = [...(c.causedBy ? [c.causedBy.id] : []), ...(checkById(c.id)?.explainedBy ?? [])];
    for (const id of candidates) {
      const found = failures.filter((f) => f.id === id && f !== c).map((f) => ({ root: f, how: explains(f, c) })).find((x) => x.how);
      if (found) {
        direct.set(key(c), found.root);
        if (found.how?.through === 'kind' && found.how.code !== undefined && (found.root.evidence?.failures ?? []).some((f) => f.offenders)) through.set(key(c), found.how.code);
        break;
      }
    }
    if (!direct.has(key(c))) {
      const first = sameFailure(failures, c);
      if (first) direct.set(key(c), first);
    }
  }
  // The end of the chain, and the kind of it the last link went through.
  const rootOf = (c: CheckResult): { root: CheckResult; code: string | undefined } | undefined => {
    const seen = new Set<string>([key(c)]);
    let from = c;
    let root = direct.get(key(c));
    while (root) {
      if (seen.has(key(root))) return undefined;
      seen.add(key(root));
      const next = direct.get(key(root));
      if (!next) return { root, code: through.get(key(from)) };
      from = root;
      root = next;
    }
    return undefined;
  };
  return checks.map((c) => {
    const { causedBy: _provisional, ...rest } = c;
    const found = failed(c) ? rootOf(c) : undefined;
    if (!found) return rest;
    const { root, code } = found;
    const causedBy: Root = { id: root.id, ...(root.subject !== undefined ? { subject: root.subject } : {}), ...(code !== undefined ? { code } : {}) };
    return { ...rest, causedBy };
  });
}
