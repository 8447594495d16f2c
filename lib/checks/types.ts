// What a check's judging function returns: a finding about the target (pass, fail, skip with its
// reason), built from what the target answered. Suites drive the requests; checks only judge them.
import type { Exchange } from '../result/exchange.ts';
import type { KeyRun } from '../result/rate-limits.ts';

/** How a property check failed: the minimal counterexample, and how to replay it. */
export interface PropertyFailure {
  counterexample: string;
  seed: number;
  path?: string;
  /** Cases tried before the first failure. */
  runs: number;
  /** What tells this kind of failure apart from others of the same check. */
  kind?: string;
}

/**
 * Another kind of failure of the same check: a property's, shrunk on its own, or a rule over the
 * run's (another code of problem among the answers it judged), with its own answers.
 */
export interface OtherFailure {
  kind: string;
  /** The code of its finding. */
  code: string;
  message: string;
  expected?: string;
  actual?: string;
  /** A property's: its minimal case. */
  property?: PropertyFailure;
  /** A rule over the run's: its first offending answer in the server's words (as a counterexample). */
  example?: string;
  /** A rule over the run's: how many answers showed it. */
  count?: number;
  /** A rule over the run's: every answer that showed it (their seq), as the finding's `offenders` for its first kind. */
  offenders?: number[];
  /** The exchanges of its minimal case, replayed alone; for a rule over the run, its first offending answers. */
  exchanges: Exchange[];
}

export type Finding =
  | { outcome: 'pass'; message?: string }
  | {
      outcome: 'fail';
      /**
       * What kind of failure this is, stable across runs and wording (as a zod issue's code):
       * lower-case words joined by hyphens, unique within its check. Grouping, baselines and
       * tests tell failures apart by it, never by the message.
       */
      code: string;
      message: string;
      expected?: string;
      actual?: string;
      property?: PropertyFailure;
      /** The other kinds of failure found beyond this one: a property's, or a rule over the run's other codes. */
      others?: OtherFailure[];
      /** The exchanges that prove it, when they are not simply the ones the check sent. */
      exchanges?: Exchange[];
      /**
       * Every offending answer's seq, when the exchanges kept show only the first of them (a rule
       * over the whole run): what a failure shown under this one must share with it (causes.ts).
       * With `others`, those of this kind (this code) only; each other kind lists its own.
       */
      offenders?: number[];
      /**
       * Another check whose clause this failure is about (e.g. a 401 with the right status but no
       * Error body is errors.error-body's): when that check fails too, it is shown as the root.
       */
      explainedBy?: string;
    }
  | { outcome: 'skip'; message: string };

/** A finding, or the harness's own failure to judge (never the target's fault by itself). */
/** An error: the check could not be carried out; `code` the harness's own (HARNESS_RUN_TIME_LIMIT, …), when it gave one. */
export type Judgement = Finding | { outcome: 'error'; message: string; code?: string };

export const skip = (message: string): Finding => ({ outcome: 'skip', message });

/** A rate-limit check's judge: a key refused before anything was driven skips with why. */
export function driven(judge: (run: KeyRun) => Finding): (run: KeyRun) => Finding {
  return (run) => (run.unavailable ? skip(run.unavailable.reason) : judge(run));
}

/** What a check sees of one response. */
export interface Seen {
  status: number;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  text: string;
}

export const pass = (message?: string): Finding => (message === undefined ? { outcome: 'pass' } : { outcome: 'pass', message });

/** What a failure's code looks like: lower-case words (letters, digits) joined by hyphens. */
const CODE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A failure of kind `code`. Throws on a code that is not one (a message passed first, say). */
export const fail = (code: string, message: string, expected?: string, actual?: string): Finding => {
  if (!CODE.test(code)) throw new Error(`failure code ${JSON.stringify(code)} is not lower-case words joined by hyphens (such as "not-401"); fail() takes the code first, then the message`);
  return {
    outcome: 'fail',
    code,
    message,
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
  };
};

/** The same finding, as a failure another check's clause explains (see `explainedBy`). */
export function explainedBy(finding: Finding, id: string): Finding {
  return finding.outcome === 'fail' ? { ...finding, explainedBy: id } : finding;
}

/** Joins the problems found in one response into a finding of kind `code`: none is a pass. */
export function findingOf(code: string, problems: readonly string[], expected: string, actual: string): Finding {
  return problems.length === 0 ? pass() : fail(code, problems.join('; '), expected, actual);
}

export function describeSeen(seen: Seen): string {
  const type = seen.headers['content-type'] ?? 'no Content-Type';
  const body = seen.text.length > 200 ? `${seen.text.slice(0, 200)}…` : seen.text;
  return `${seen.status} (${type}) ${body || '<empty body>'}`;
}

/** A judge of several cases, each judged by `one`; the suite may stop sending at the first undecided one. */
export interface EachCase<T> {
  (cases: readonly T[]): Finding;
  /** Judges one case: anything but a pass decides the whole check. */
  one(c: T): Finding;
}

/**
 * Judges cases in order: the first that does not pass (a failure, or a skip saying why nothing can
 * be judged) decides; when all pass, `all` describes them. No case at all is `none`.
 */
export function eachCase<T>(one: (c: T) => Finding, outcomes: { none?: Finding; all?: (n: number) => Finding } = {}): EachCase<T> {
  const judge = (cases: readonly T[]): Finding => {
    if (cases.length === 0) return outcomes.none ?? skip('nothing was sent to judge');
    for (const c of cases) {
      const finding = one(c);
      if (finding.outcome !== 'pass') return finding;
    }
    return outcomes.all ? outcomes.all(cases.length) : pass();
  };
  return Object.assign(judge, { one });
}
