// A check: a stable id, the clause of the interface it enforces, a severity, and a pure function
// from what the target answered to a finding. Suites drive the requests; checks only judge them.
import type { Exchange, Severity } from '../result/model.ts';

export interface CheckDef {
  /** Stable dotted id: reports, fault catalogues and other tools key on it. */
  id: string;
  /** Section of the interface, e.g. "Authentication" or "Endpoints / listPets". */
  clause: string;
  title: string;
  severity: Severity;
}

/** How a property check failed: the minimal counterexample, and how to replay it. */
export interface PropertyFailure {
  counterexample: string;
  seed: number;
  path?: string;
  /** Cases tried before the first failure. */
  runs: number;
}

export type Finding =
  | { outcome: 'pass'; message?: string }
  | {
      outcome: 'fail';
      message: string;
      expected?: string;
      actual?: string;
      property?: PropertyFailure;
      /** The exchanges that prove it, when they are not simply the ones the check sent. */
      exchanges?: Exchange[];
    }
  | { outcome: 'skip'; message: string };

/** What a check sees of one response. */
export interface Seen {
  status: number;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  text: string;
}

export const pass = (message?: string): Finding => (message === undefined ? { outcome: 'pass' } : { outcome: 'pass', message });

export const fail = (message: string, expected?: string, actual?: string): Finding => ({
  outcome: 'fail',
  message,
  ...(expected !== undefined ? { expected } : {}),
  ...(actual !== undefined ? { actual } : {}),
});

/** Joins the problems found in one response into a finding: none is a pass. */
export function findingOf(problems: readonly string[], expected: string, actual: string): Finding {
  return problems.length === 0 ? pass() : fail(problems.join('; '), expected, actual);
}

export function describeSeen(seen: Seen): string {
  const type = seen.headers['content-type'] ?? 'no Content-Type';
  const body = seen.text.length > 200 ? `${seen.text.slice(0, 200)}…` : seen.text;
  return `${seen.status} (${type}) ${body || '<empty body>'}`;
}
