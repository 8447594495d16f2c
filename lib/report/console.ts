// What the console shows: pure text from the run result. Colour only when asked (a terminal).
import type { CheckResult, Report } from '../result/model.ts';
import { politenessLapse } from '../result/politeness.ts';
import { blocksVerdict } from '../result/verdict.ts';
import { aboutLine, checkLabel, counted, cutText, expectedLines, failureGroups, findingOf, mustFailedText, otherKindLines } from './text.ts';

export interface Style {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const esc = (code: number) => (s: string) => `\x1b[${code}m${s}\x1b[0m`;
export const COLOUR: Style = { red: esc(31), green: esc(32), yellow: esc(33), dim: esc(2), bold: esc(1) };
const id = (s: string) => s;
export const PLAIN: Style = { red: id, green: id, yellow: id, dim: id, bold: id };

export function verdictLine(report: Report, style: Style): string {
  const counts = `${report.summary.checks} checks, ${mustFailedText(report)}, ${report.requests.total} requests, ${(report.durationMs / 1000).toFixed(1)} s`;
  if (report.exitCode === 3) return `${style.red(style.bold('UNREACHABLE'))} ${report.target.name} (${report.target.baseUrl}): ${counts}`;
  return report.verdict === 'pass'
    ? `${style.green(style.bold('CONFORMANT'))} ${report.target.name}: ${counts}`
    : `${style.red(style.bold('NOT CONFORMANT'))} ${report.target.name}: ${counts}`;
}

/** The summary after a run: failures first (id, severity, message), then counts and report paths. */
export function renderSummary(report: Report, files: readonly string[], style: Style): string {
  const lines: string[] = [''];
  const groups = failureGroups(report.checks, (c) => (c.outcome === 'fail' || c.outcome === 'error') && !c.expectedFailure);
  if (groups.length > 0) {
    const explained = groups.reduce((n, g) => n + g.explained.length, 0);
    lines.push(style.bold(explained > 0 ? `Failures (${counted(groups.length, 'root cause')}, ${counted(groups.length + explained, 'failure')})` : 'Failures'));
    for (const { root: c, explained: under } of groups) {
      const blocks = [c, ...under].some((x) => blocksVerdict(x, report.options.strict));
      const mark = blocks ? style.red('✗') : style.yellow('!');
      // The finding first (what the server did), the check it broke second.
      lines.push(`  ${mark} ${c.severity.padEnd(6)} ${c.outcome.padEnd(5)} ${findingOf(c)}`);
      lines.push(`      ${style.dim(aboutLine(c))}`);
      // Every other kind the check found, one line each, with its count and first example.
      for (const kind of otherKindLines(c)) lines.push(`      ${style.yellow('+')} ${kind}`);
      if (under.length > 0) lines.push(`      ${style.dim(explainsLine(under))}`);
    }
    lines.push('');
  }
  const expected = expectedLines(report.checks);
  if (expected.length > 0) {
    lines.push(style.bold(`Expected failures (--expected-failures ${report.baseline?.file ?? ''}; not gated on)`));
    for (const line of expected) lines.push(`  ${style.dim('~')} ${firstLine(line)}`);
    lines.push('');
  }
  const o = report.summary.bySeverity;
  const row = (name: string, c: Report['summary']['byOutcome']) =>
    `  ${name.padEnd(7)}${String(c.pass).padStart(5)} pass ${String(c.fail).padStart(4)} fail ${String(c.skip).padStart(4)} skip ${String(c.error).padStart(4)} error`;
  lines.push(style.bold('Checks'), row('must', o.must), row('should', o.should), row('info', o.info), '');
  const suites = Object.entries(report.requests.bySuite).map(([s, n]) => `${s} ${n}`).join(', ');
  lines.push(`Requests: ${report.requests.total} (${suites || 'none'}); seed ${report.seed}`);
  for (const w of report.warnings) lines.push(style.yellow(`Warning: ${w}`));
  const cut = cutText(report);
  if (cut) lines.push(style.yellow(cut));
  const lapse = politenessLapse(report.politeness);
  if (lapse) lines.push(style.red(lapse));
  lines.push(`Reports: ${files.join(', ')}`, '', verdictLine(report, style));
  return lines.join('\n');
}

/** "explains 3 more failures: a [x] (kind), b [y], c (+1 more)": what a root failure accounts for, and through which of its kinds. */
function explainsLine(under: readonly CheckResult[]): string {
  const shown = under.slice(0, 4).map((c) => `${checkLabel(c)}${c.causedBy?.code !== undefined ? ` (${c.causedBy.code})` : ''}`).join(', ');
  const rest = under.length > 4 ? ` (+${under.length - 4} more)` : '';
  return `explains ${under.length} more failure${under.length > 1 ? 's' : ''}: ${shown}${rest}`;
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
