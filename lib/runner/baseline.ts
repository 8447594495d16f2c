// A baseline of known failures (`--expected-failures FILE`): a team that knows of some failures
// gates on everything else until they are fixed. A listed check that fails is "expected" and does
// not block the verdict; a listed check that passes now is a stale entry, and fails the run until
// it is removed (harness.expected-failures), so the baseline only ever shrinks. Parsing and
// applying are pure; loadBaseline reads the file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { HARNESS_CHECKS } from '../checks/harness.ts';
import { ConfigError } from '../errors.ts';
import { didYouMean } from '../util/suggest.ts';
import type { CheckResult, Report } from '../result/model.ts';

/** A text field; "required" rather than zod's "expected string, received undefined" when it is missing. */
const text = (what: string) => z.string({ error: (issue) => (issue.input === undefined ? `required: ${what}` : `must be text: ${what}`) }).trim().min(1, what);

const Entry = z.strictObject(
  {
    id: text('a check id, as --list-checks prints it'),
    reason: text('say why the failure is expected (a ticket, a date)'),
    target: text('a target name (the name: of a target file)').optional(),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'an entry is a map { id, reason, target? }' : undefined) },
);
export type BaselineEntry = z.infer<typeof Entry>;

export type BaselineStatus = 'failed-as-expected' | 'stale' | 'not-run';

export interface Baseline {
  /** The file, as given. */
  file: string;
  /** The entries for this run's target (entries naming another target are left out). */
  entries: BaselineEntry[];
}

/** Checks of the harness's own run (a suite that could not finish, this baseline): never excused. */
const OWN_RUN: readonly string[] = HARNESS_CHECKS.filter((c) => c.suite === 'harness').map((c) => c.id);

/** The file's entries, checked: every id known, each id (and target) once. */
export function parseBaseline(raw: unknown, file: string, knownIds: readonly string[]): BaselineEntry[] {
  const where = (field: string, message: string) => new ConfigError(`${file}: ${field}: ${message}`, file, [{ field, message }]);
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw where('(top level)', 'a YAML list of entries { id, reason, target? }');
  const entries: BaselineEntry[] = [];
  raw.forEach((item, i) => {
    const parsed = Entry.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.code === 'unrecognized_keys' ? `[${i}].${issue.keys[0]}` : `[${i}]${issue.path.length ? `.${issue.path.join('.')}` : ''}`;
      const message = issue.code === 'unrecognized_keys' ? `unknown field${didYouMean(issue.keys[0]!, ['id', 'reason', 'target'])}; an entry has id, reason and target` : issue.message;
      throw where(field, message);
    }
    const entry = parsed.data;
    if (!knownIds.includes(entry.id)) throw where(`[${i}].id`, `unknown check id "${entry.id}"${didYouMean(entry.id, knownIds)} (--list-checks prints them)`);
    if (OWN_RUN.includes(entry.id)) throw where(`[${i}].id`, `"${entry.id}" judges the harness's own run, not the server: it cannot be an expected failure`);
    if (entries.some((e) => e.id === entry.id && e.target === entry.target)) throw where(`[${i}].id`, `"${entry.id}" is listed twice${entry.target ? ` for target ${entry.target}` : ''}`);
    entries.push(entry);
  });
  return entries;
}

/** Reads and checks the file; a missing file or bad YAML is a config error naming it. */
export function loadBaseline(file: string, targetName: string, knownIds: readonly string[]): Baseline {
  let text: string;
  try {
    text = readFileSync(path.resolve(file), 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new ConfigError(`--expected-failures ${file}: ${reason}`, file, [{ field: '--expected-failures', message: reason }]);
  }
  const doc = parseDocument(text, { uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const at = first.linePos?.[0];
    throw new ConfigError(`${file}: ${at ? `line ${at.line}, column ${at.col}` : 'YAML'}: ${first.message.split('\n')[0]}`, file, [{ field: '--expected-failures', message: first.message }]);
  }
  const entries = parseBaseline(doc.toJS(), file, knownIds);
  return { file, entries: entries.filter((e) => e.target === undefined || e.target === targetName) };
}

/** What became of each entry in this run, and the results with expected failures marked. */
export function applyBaseline(checks: readonly CheckResult[], baseline: Baseline): { checks: CheckResult[]; report: NonNullable<Report['baseline']> } {
  // An entry for this target by name says more than one for every target: its reason wins.
  const reasons = new Map([...baseline.entries.filter((e) => e.target === undefined), ...baseline.entries.filter((e) => e.target !== undefined)].map((e) => [e.id, e.reason]));
  // An error is not excused: the check could not be carried out, which is not the known failure.
  const marked = checks.map((c) => (c.outcome === 'fail' && reasons.has(c.id) ? { ...c, expectedFailure: { reason: reasons.get(c.id)! } } : c));
  const entries = baseline.entries.map((e) => {
    const results = checks.filter((c) => c.id === e.id);
    // Stale when a result passed and none failed or errored (skips aside); a check that errored,
    // did not run or only skipped cannot say whether the known failure is fixed: "not-run".
    const status: BaselineStatus = results.some((c) => c.outcome === 'fail') ? 'failed-as-expected' : results.some((c) => c.outcome === 'pass') && !results.some((c) => c.outcome === 'error') ? 'stale' : 'not-run';
    return { ...e, status };
  });
  return { checks: marked, report: { file: baseline.file, entries } };
}
