// junit.xml in the common Jenkins/GitLab/GitHub flavour: one <testsuite> per clause of the interface.
import type { CheckResult, Evidence, Report } from '../result/model.ts';
import { type Figures, figuresOf } from './figures.ts';
import { checkLabel, groupByClause, replaceIllegalChars, seconds, throughKind } from './text.ts';

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTR_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&apos;',
  '\n': '&#10;',
  '\t': '&#9;',
};

/** Escaping `>` as well as `<` also rules out a literal `]]>`. */
export function escapeXmlText(text: string): string {
  return replaceIllegalChars(text, '').replace(/[&<>\r]/g, (ch) => TEXT_ESCAPES[ch]!);
}

/** Tab, LF and CR are kept as references so attribute-value normalisation does not turn them into spaces. */
export function escapeXmlAttr(text: string): string {
  return replaceIllegalChars(text, '').replace(/[&<>"'\t\n\r]/g, (ch) => ATTR_ESCAPES[ch]!);
}

const attrs = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([name, value]) => ` ${name}="${escapeXmlAttr(String(value))}"`)
    .join('');

type Kind = 'passed' | 'failure' | 'error' | 'skipped';

/**
 * How a check shows in JUnit. `info` checks never fail: an unusual observation is recorded as a
 * pass, and one that could not be made as skipped.
 */
export function junitKind(check: Pick<CheckResult, 'severity' | 'outcome' | 'expectedFailure'>): Kind {
  // A failure the baseline expects is known: skipped, so that CI does not go red on it.
  if (check.expectedFailure) return 'skipped';
  switch (check.outcome) {
    case 'pass':
      return 'passed';
    case 'skip':
      return 'skipped';
    case 'fail':
      return check.severity === 'info' ? 'passed' : 'failure';
    case 'error':
      return check.severity === 'info' ? 'skipped' : 'error';
  }
}

function tally(checks: readonly CheckResult[]) {
  const counts = { tests: checks.length, failures: 0, errors: 0, skipped: 0 };
  for (const c of checks) {
    const kind = junitKind(c);
    if (kind === 'failure') counts.failures += 1;
    else if (kind === 'error') counts.errors += 1;
    else if (kind === 'skipped') counts.skipped += 1;
  }
  return counts;
}

export function renderJunit(report: Report): string {
  const all = tally(report.checks);
  const suites = [...groupByClause(report.checks)].map(([clause, checks]) => testsuite(report, clause, checks));
  const root = attrs({
    name: `Animal Store conformance: ${report.target.name}`,
    ...all,
    time: seconds(report.durationMs),
    timestamp: report.startedAt,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${root}>\n${suites.join('')}</testsuites>\n`;
}

function testsuite(report: Report, clause: string, checks: readonly CheckResult[]): string {
  const time = checks.reduce((sum, c) => sum + (Number.isFinite(c.durationMs) ? c.durationMs : 0), 0);
  const head = attrs({ name: clause, ...tally(checks), time: seconds(time), timestamp: report.startedAt });
  const properties = {
    target: report.target.name,
    baseUrl: report.target.baseUrl,
    seed: report.seed,
    verdict: report.verdict,
    strict: String(report.options.strict),
  };
  const props = Object.entries(properties)
    .map(([name, value]) => `      <property${attrs({ name, value })}/>\n`)
    .join('');
  return `  <testsuite${head}>\n    <properties>\n${props}    </properties>\n${checks.map((c) => testcase(c, report.checks, figuresOf(report, c))).join('')}  </testsuite>\n`;
}

function testcase(c: CheckResult, explains: readonly CheckResult[], figures?: Figures): string {
  const head = `    <testcase${attrs({ classname: c.clause, name: checkLabel(c), time: seconds(c.durationMs) })}`;
  const kind = junitKind(c);
  let inner = '';
  if (kind === 'failure' || kind === 'error') {
    // One cause, one root: a failure another explains says so first, so CI lists read as a tree.
    const message = c.causedBy ? `[explained by ${checkLabel(c.causedBy)}] ${c.message}` : c.message;
    inner = `      <${kind}${attrs({ message, type: c.severity })}>${escapeXmlText(details(c, explains))}</${kind}>\n`;
  } else if (kind === 'skipped') {
    if (c.expectedFailure) {
      // The baseline's reason is the message; what failed, and its evidence, is the element's text.
      inner = `      <skipped${attrs({ message: `expected failure: ${c.expectedFailure.reason}` })}>${escapeXmlText(details(c, explains))}</skipped>\n`;
    } else {
      const message = c.outcome === 'error' ? `info check could not be recorded: ${c.message}` : c.message;
      inner = `      <skipped${attrs({ message })}/>\n`;
    }
  }
  if (figures) {
    // What the result stands on, as measured (the paced load's rate, answers and latency).
    inner = `      <properties>\n${Object.entries(figures).map(([name, value]) => `        <property${attrs({ name, value: String(value) })}/>\n`).join('')}      </properties>\n${inner}`;
  }
  if (c.severity === 'info') {
    inner += `      <system-out>${escapeXmlText(`[info, ${c.outcome}] ${c.title}: ${c.message}`)}</system-out>\n`;
  }
  return inner ? `${head}>\n${inner}    </testcase>\n` : `${head}/>\n`;
}

function details(c: CheckResult, explains: readonly CheckResult[]): string {
  const lines = [c.message, '', `${c.title} (${c.severity}; clause: ${c.clause}; suite: ${c.suite})`];
  if (c.causedBy) lines.push(`Explained by ${checkLabel(c.causedBy)}${throughKind(c.causedBy)}: one cause, reported there.`);
  const under = explains.filter((x) => x.causedBy?.id === c.id && x.causedBy.subject === c.subject);
  if (under.length > 0) lines.push(`Explains ${under.length} more failure${under.length > 1 ? 's' : ''}: ${under.map(checkLabel).join(', ')}`);
  const e: Evidence | null = c.evidence;
  if (e) {
    if (e.expected !== undefined) lines.push(`Expected: ${e.expected}`);
    if (e.actual !== undefined) lines.push(`Actual: ${e.actual}`);
    if (e.counterexample !== undefined) lines.push(`Counterexample: ${e.counterexample}`);
    if (e.seed !== undefined) lines.push(`Seed: ${e.seed}`);
    if (e.path !== undefined) lines.push(`Path: ${e.path}`);
    for (const f of e.failures ?? []) {
      lines.push('', `Also failing (${f.kind}${f.count !== undefined ? ` ×${f.count}` : ''}): ${f.message}`, `${f.count !== undefined ? 'First example' : 'Counterexample'}: ${f.counterexample}`);
      if (f.reproduce.length > 0) lines.push('Reproduce:', ...f.reproduce);
    }
    if (e.exchanges.length > 0) {
      lines.push('', 'Exchanges:');
      for (const x of e.exchanges) {
        const result = x.status ?? `no response${x.transportError ? ` (${x.transportError})` : ''}`;
        lines.push(`  #${x.seq} ${x.method} ${x.url} -> ${result}`);
      }
    }
    if (e.reproduce.length > 0) lines.push('', 'Reproduce:', ...e.reproduce);
  }
  return lines.join('\n') + '\n';
}
