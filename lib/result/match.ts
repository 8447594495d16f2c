// A check's result is named by its id and subject (`rate-limit.quota [free#1]`), in report.json,
// JUnit and CTRF alike: defined here once, with the rule for finding a result of one report in
// another (README "Subjects, test names and baselines across versions"). Pure.
import type { CheckResult, Outcome } from './model.ts';

type Named = Pick<CheckResult, 'id' | 'subject'>;

/** A result's identity within one report: its id and subject. */
export function resultKey(c: Named): string {
  return `${c.id}\u0000${c.subject ?? ''}`;
}

/** The order in which one result stands for several: a failure over an error over a pass over a skip. */
const WORST: readonly Outcome[] = ['fail', 'error', 'pass', 'skip'];

/** The result that stands for several of one check (the worst outcome; the first of equals, in report order). */
export function worstOf<T extends Pick<CheckResult, 'outcome'>>(results: readonly T[]): T | undefined {
  return [...results].sort((a, b) => WORST.indexOf(a.outcome) - WORST.indexOf(b.outcome))[0];
}

/** A result of one report and what stands for it in the other. */
export interface Counterpart<T extends Named> {
  /** The other report's results that stand for it: none when the check is not there. */
  results: T[];
  /**
   * The check moved between a key's results and the run's (or its subjects were renamed): the
   * other report's subjects, none of which this report has. Matched by id, as a baseline entry is.
   */
  movedFrom?: (string | undefined)[];
}

/**
 * Finds each result of `one` report in the `other`: by id and subject; and, where a check's
 * results in the two reports share no subject at all (it moved between a key's results and the
 * run's, as `rate-limit.retry-after-present` did: `[free#1]`, `[pro#1]` then `[every response of
 * the run]`), by id alone: all of the other report's results of that id stand for each, as a
 * baseline entry, which names ids only, covers them all. Subjects that only partly differ (a key
 * added) are matched one by one, and the new ones have no counterpart.
 */
export function counterparts<T extends Named>(one: readonly T[], other: readonly T[]): (c: T) => Counterpart<T> {
  const byKey = new Map<string, T>();
  const byId = new Map<string, T[]>();
  for (const c of other) {
    byKey.set(resultKey(c), c);
    byId.set(c.id, [...(byId.get(c.id) ?? []), c]);
  }
  const ownSubjects = new Map<string, Set<string | undefined>>();
  for (const c of one) ownSubjects.set(c.id, (ownSubjects.get(c.id) ?? new Set()).add(c.subject));
  return (c) => {
    const same = byKey.get(resultKey(c));
    if (same) return { results: [same] };
    const theirs = byId.get(c.id) ?? [];
    const mine = ownSubjects.get(c.id) ?? new Set([c.subject]);
    if (theirs.length === 0 || theirs.some((t) => mine.has(t.subject))) return { results: [] };
    return { results: theirs, movedFrom: theirs.map((t) => t.subject) };
  };
}
