// Text helpers shared by the HTML and JUnit renderers. Pure functions, no I/O.
import type { CheckResult, Outcome, Report, Severity } from '../result/model.ts';
import { resultKey } from '../result/match.ts';

/** Characters XML 1.0 forbids (and HTML treats as parse errors): C0 controls bar tab/LF/CR, U+FFFE/U+FFFF, lone surrogates. */
const ILLEGAL_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function replaceIllegalChars(text: string, replacement: string): string {
  return text.replace(ILLEGAL_CHARS, replacement);
}

export const SEVERITIES: readonly Severity[] = ['must', 'should', 'info'];
export const OUTCOMES: readonly Outcome[] = ['pass', 'fail', 'skip', 'error'];

/**
 * A failure a reader must look at: a `must` or `should` check that failed or could not be checked,
 * unless the run's baseline lists it as expected (those are shown apart: expectedFailures).
 */
export function isFailure(check: Pick<CheckResult, 'severity' | 'outcome' | 'expectedFailure'>): boolean {
  return check.severity !== 'info' && (check.outcome === 'fail' || check.outcome === 'error') && !check.expectedFailure;
}

/** Failures the run's --expected-failures baseline lists: known, shown apart, not gated on. */
export function expectedFailures(checks: readonly CheckResult[]): CheckResult[] {
  return checks.filter((c) => c.expectedFailure);
}

/** "N expected failures (baseline): a [x] (reason), …", or nothing. */
export function expectedLines(checks: readonly CheckResult[]): string[] {
  return expectedFailures(checks).map((c) => `${checkLabel(c)}: ${c.expectedFailure!.reason}`);
}

/** "2 must failed" for the verdict lines; expected failures are counted apart: "0 must failed, 1 expected failure". */
export function mustFailedText(report: Pick<Report, 'summary' | 'checks'>): string {
  const must = report.summary.bySeverity.must;
  const expectedMust = report.checks.filter((c) => c.expectedFailure && c.severity === 'must').length;
  const expected = report.summary.expectedFailures ?? 0;
  return `${must.fail + must.error - expectedMust} must failed${expected > 0 ? `, ${expected} expected failure${expected === 1 ? '' : 's'}` : ''}`;
}

/**
 * What a run cut by its time limit judged and could not: "Cut at the run's time limit (120 s,
 * budget.maxSeconds): 31 of 183 checks judged; 152 could not be carried out (errors)". Undefined
 * when the limit was not reached.
 */
export function cutText(report: Pick<Report, 'timeLimit' | 'summary'>): string | undefined {
  const limit = report.timeLimit;
  if (!limit?.reached) return undefined;
  const judged = report.summary.checks - limit.notJudged;
  return `Cut at the run's time limit (${limit.seconds} s, budget.maxSeconds): ${judged} of ${report.summary.checks} checks judged; ${limit.notJudged} could not be carried out (errors): give the run more time, or fewer suites (--suite)`;
}

/** "1 root cause", "2 root causes". */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A root failure and the failures it explains (their `causedBy` names it). */
export interface FailureGroup {
  root: CheckResult;
  explained: CheckResult[];
}

/**
 * Failures as roots, each with the failures it explains under it; a group ranks by the most
 * severe failure in it (`must` before `should`), otherwise in report order.
 */
export function failureGroups(checks: readonly CheckResult[], shown: (c: CheckResult) => boolean = isFailure): FailureGroup[] {
  const failures = checks.filter(shown);
  const same = (c: CheckResult, root: NonNullable<CheckResult['causedBy']>) => resultKey(c) === resultKey(root);
  const roots = failures.filter((c) => !c.causedBy || !failures.some((r) => same(r, c.causedBy!)));
  const groups = roots.map((root) => ({ root, explained: failures.filter((c) => c !== root && c.causedBy && same(root, c.causedBy)) }));
  const rank = (g: FailureGroup) => Math.min(...[g.root, ...g.explained].map((c) => SEVERITIES.indexOf(c.severity)));
  return groups.sort((a, b) => rank(a) - rank(b));
}

/** Checks grouped by clause, clauses in order of first appearance. */
export function groupByClause<T extends Pick<CheckResult, 'clause'>>(checks: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const check of checks) {
    const group = groups.get(check.clause);
    if (group) group.push(check);
    else groups.set(check.clause, [check]);
  }
  return groups;
}

/** "GET /pets" style label: id, plus subject in brackets when there is one. */
export function checkLabel(check: Pick<CheckResult, 'id' | 'subject'>): string {
  return check.subject ? `${check.id} [${check.subject}]` : check.id;
}

/**
 * A failure's finding, what the server did, in the check's own words: its message's first line
 * ("`Bearer __proto__` got 500 on listPets"), cut at `max` characters. Where the words rely on
 * the subject to say which request ("got 200, not 401" of auth.missing-key [listPets GET /pets]),
 * the subject comes first: "listPets GET /pets: got 200, not 401". Every report leads a failure's
 * line with it, the check second (aboutLine).
 */
export function findingOf(check: Pick<CheckResult, 'message'> & Partial<Pick<CheckResult, 'subject'>>, max = 160): string {
  const words = check.message.split('\n')[0] ?? '';
  const line = needsSubject(words, check.subject) ? `${check.subject}: ${words}` : words;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A subject naming a request ("listPets GET /pets", "GET /pets") that the words name neither by operation nor by path. */
function needsSubject(words: string, subject: string | undefined): subject is string {
  if (subject === undefined || !/\b(GET|POST|PUT|PATCH|DELETE|HEAD) \//.test(subject)) return false;
  const [first] = subject.split(' ');
  const request = subject.slice(subject.search(/\b(GET|POST|PUT|PATCH|DELETE|HEAD) \//));
  return !words.includes(request) && !(first !== undefined && first !== request.split(' ')[0] && words.includes(first));
}

/**
 * Every other kind of a failure (evidence.failures), one short line each: a rule over the run's
 * with its count and first example in the server's words ("reset-not-unix-seconds ×12: GET
 * /v1/pets → 200: X-RateLimit-Reset is "60", …"), a property's with its message. Cut at `max`.
 */
export function otherKindLines(check: Pick<CheckResult, 'evidence'>, max = 160): string[] {
  return (check.evidence?.failures ?? []).map((f) => {
    const line = f.count !== undefined ? `${f.kind} ×${f.count}: ${f.counterexample}` : `${f.kind}: ${f.message}`;
    return findingOf({ message: line }, max);
  });
}

/** "(through its kind reset-not-unix-seconds)": the root's kind a failure is linked through, when it names one. */
export function throughKind(causedBy: CheckResult['causedBy']): string {
  return causedBy?.code !== undefined ? ` (through its kind ${causedBy.code})` : '';
}

/** What a finding is about, second on a failure's line: "auth.missing-key [listPets GET /pets]: A request without Authorization gets 401". */
export function aboutLine(check: Pick<CheckResult, 'id' | 'subject' | 'title'>): string {
  return `${checkLabel(check)}: ${check.title}`;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 2 : 1)} s`;
  const totalSeconds = Math.round(s);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}

/** Seconds with millisecond precision, as JUnit wants. */
export function seconds(ms: number): string {
  return Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0.000';
}

/** byStatus entries, numeric statuses ascending, then anything else (e.g. "transport-error"). */
export function sortedStatuses(byStatus: Record<string, number>): [string, number][] {
  const key = (s: string) => (/^\d+$/.test(s) ? Number(s) : Number.POSITIVE_INFINITY);
  return Object.entries(byStatus).sort(([a], [b]) => key(a) - key(b) || a.localeCompare(b));
}

/**
 * Re-indents a JSON object or array without parsing values: every token (int64 ids, escapes,
 * duplicate keys) is kept exactly as the server wrote it. Undefined when the text is not JSON.
 */
export function prettyJson(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    JSON.parse(t);
  } catch {
    return undefined;
  }
  const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
  let out = '';
  let depth = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < t.length; i++) {
    const ch = t[i]!;
    if (ch === '"') {
      const start = i;
      for (i++; t[i] !== '"'; i++) if (t[i] === '\\') i++;
      out += t.slice(start, i + 1);
    } else if (ch === '{' || ch === '[') {
      let j = i + 1;
      while (isSpace(t[j])) j++;
      if (t[j] === (ch === '{' ? '}' : ']')) {
        out += ch + t[j];
        i = j;
      } else {
        depth++;
        out += ch + newline();
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += newline() + ch;
    } else if (ch === ',') out += ',' + newline();
    else if (ch === ':') out += ': ';
    else if (!isSpace(ch)) out += ch;
  }
  return out;
}

/** Cuts text to at most `max` UTF-16 units without splitting a surrogate pair. */
export function truncate(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), truncated: true };
}
