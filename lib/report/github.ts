// GitHub Actions output: the Markdown job summary (written to $GITHUB_STEP_SUMMARY) and the
// `::error` workflow commands that annotate the run, one per root failure. Pure: the run result in,
// text out; lib/cli/main.ts writes them when GITHUB_STEP_SUMMARY is set.
import type { CheckResult, Report } from '../result/model.ts';
import { politenessLapse } from '../result/politeness.ts';
import { blocksVerdict } from '../result/verdict.ts';
import { aboutLine, checkLabel, counted, cutText, expectedLines, failureGroups, findingOf, mustFailedText, OUTCOMES, otherKindLines, SEVERITIES, throughKind } from './text.ts';

/** GitHub refuses a step summary above 1 MiB; this leaves room for other steps' summaries. */
export const SUMMARY_MAX_BYTES = 512 * 1024;
/** At most this many `::error` lines; the rest are named in the last one. */
export const MAX_ANNOTATIONS = 10;

/** Text for a Markdown table cell: one line, pipes escaped, at most `max` characters. */
function cell(text: string, max = 200): string {
  const line = (text.split('\n')[0] ?? '').replace(/\|/g, '\\|').replace(/</g, '&lt;');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function failureRows(report: Report): string[] {
  const rows: string[] = [];
  for (const { root, explained } of failureGroups(report.checks)) {
    // The finding first (what the server did), then the check it broke and its title.
    // Every other kind the check found, one short line each under its finding, in the same cell.
    const kinds = otherKindLines(root, 200).map((k) => `<br>+ ${cell(k, 200)}`).join('');
    rows.push(`| ${cell(findingOf(root, 300))}${kinds} | \`${cell(checkLabel(root), 120)}\`: ${cell(root.title, 160)} | ${root.severity} |`);
    for (const c of explained) rows.push(`| ↳ explained by the failure above${cell(throughKind(c.causedBy), 120)}: ${cell(findingOf(c, 150))} | \`${cell(checkLabel(c), 120)}\`: ${cell(c.title, 120)} | ${c.severity} |`);
  }
  return rows;
}

export function renderJobSummary(report: Report, reportDir: string): string {
  const verdict = report.exitCode === 3 ? '⚠️ Unreachable' : report.verdict === 'pass' ? '✅ Conformant' : '❌ Not conformant';
  const head = [
    `## ${verdict}: ${cell(report.target.name, 80)} (${cell(report.target.baseUrl, 120)})`,
    '',
    `${report.summary.checks} checks, ${mustFailedText(report)}, ${report.requests.total} requests, ${(report.durationMs / 1000).toFixed(1)} s, seed ${report.seed}${report.options.strict ? ', --strict' : ''}.`,
    '',
    ...(cutText(report) ? [`> ⏱ ${cutText(report)}.`, ''] : []),
    `| Outcome | ${SEVERITIES.join(' | ')} |`,
    `|---|${SEVERITIES.map(() => '---:').join('|')}|`,
    ...OUTCOMES.map((o) => `| ${o} | ${SEVERITIES.map((s) => report.summary.bySeverity[s][o]).join(' | ')} |`),
    '',
  ];
  const rows = failureRows(report);
  const limits = (report.rateLimits ?? []).map(
    (k) => `| ${cell(k.label, 40)} | ${cell(k.plan, 40)} | ${cell(k.behaviour, 80)} | ${k.load?.sent ?? '–'} | ${k.load?.accepted ?? '–'} | ${k.load?.rejected ?? '–'} | ${k.load?.sentAfterFirst429 ?? '–'} | ${k.load?.latency.p50 ?? '–'} |`,
  );
  const paced = (report.pacedLoad?.keys ?? []).map((k) =>
    k.skipped
      ? `| ${cell(k.label, 40)} | ${cell(k.plan, 40)} | not paced: ${cell(k.skipped, 120)} | | | | | |`
      : `| ${cell(k.label, 40)} | ${cell(k.plan, 40)} | ${k.askedRate} / ${k.achievedRate} | ${k.sent} | ${k.accepted} | ${k.rejected} | ${k.latency.p95} | ${k.latency.p99} |`,
  );
  const expected = expectedLines(report.checks);
  const lapse = politenessLapse(report.politeness);
  const tail = [
    ...(lapse ? [`⚠️ ${cell(lapse, 600)}`, ''] : []),
    ...(expected.length > 0 ? [`### Expected failures (${expected.length}, from the --expected-failures baseline; not gated on)`, '', ...expected.map((l) => `- ${cell(l, 300)}`), ''] : []),
    ...(paced.length > 0 ? ['### Paced load', '', '| Key | Plan | Asked / achieved req/s | Sent | 2xx | 429 | p95 ms | p99 ms |', '|---|---|---|---:|---:|---:|---:|---:|', ...paced, ''] : []),
    ...(limits.length > 0 ? ['### Rate limits', '', '| Key | Plan | Limiter seen | Sent | 2xx | 429 | Sent after first 429 | p50 ms |', '|---|---|---|---:|---:|---:|---:|---:|', ...limits, ''] : []),
    `Reports (report.html, report.json, junit.xml, ctrf.json) are in \`${cell(reportDir, 200)}\` on the runner: upload that directory as an artifact to read report.html.`,
    '',
  ];
  const fixed = `${head.join('\n')}\n${tail.join('\n')}`;
  if (rows.length === 0) return `${head.join('\n')}\nNo \`must\` or \`should\` check failed${expected.length > 0 ? ' apart from the expected failures below' : ''}.\n\n${tail.join('\n')}`;
  // As many failure rows as fit, the rest counted.
  const title = `### Failing checks (${counted(failureGroups(report.checks).length, 'root cause')}, ${counted(rows.length, 'failure')})\n\n| Finding | Check | Severity |\n|---|---|---|\n`;
  let budget = SUMMARY_MAX_BYTES - Buffer.byteLength(fixed) - Buffer.byteLength(title) - 200;
  const shown: string[] = [];
  for (const row of rows) {
    const size = Buffer.byteLength(row) + 1;
    if (size > budget) break;
    shown.push(row);
    budget -= size;
  }
  const more = rows.length > shown.length ? `\n… and ${rows.length - shown.length} more failures: see report.html.\n` : '';
  return `${head.join('\n')}\n${title}${shown.join('\n')}\n${more}\n${tail.join('\n')}`;
}

/** A workflow command's data: %, CR and LF escaped (GitHub's rules). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: also : and , escaped. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error` lines, one per root failure that fails the gate, at most MAX_ANNOTATIONS in all. */
export function renderAnnotations(report: Report): string[] {
  const roots: CheckResult[] = failureGroups(report.checks)
    .map((g) => g.root)
    .filter((c) => blocksVerdict(c, report.options.strict));
  // The finding as the annotation's headline; the message whole, then the check it broke.
  const line = (c: CheckResult) => `::error title=${escapeProperty(findingOf(c, 120))}::${escapeData(`${c.message}\n${aboutLine(c)} (${c.severity})`)}`;
  if (roots.length <= MAX_ANNOTATIONS) return roots.map(line);
  const rest = roots.slice(MAX_ANNOTATIONS - 1);
  return [
    ...roots.slice(0, MAX_ANNOTATIONS - 1).map(line),
    `::error title=${escapeProperty(`${rest.length} more failures`)}::${escapeData(rest.map((c) => checkLabel(c)).join(', '))}`,
  ];
}
