// `diff --format markdown`: for a pull-request comment or the job summary. The verdict line comes
// first ("2 new failures, 1 fixed, 0 still failing"), then a table per list of changes (each root
// failure with the failures it explains under it), the rate-limit facts that changed and the paced
// load's figures. Text from the reports (findings quote the server) is kept to one line per cell,
// pipes and markup escaped. Kept well under a comment's 65,536 characters: long lists are cut.
import { checkLabel } from './text.ts';
import { type ChangeGroup, type CheckChange, checksUnchanged, type Figure, groupSeverity, type ReportDiff, verdictText } from './diff-model.ts';
import { figureText, findingOf, firstLine, keyFacts, movedText, runText, sideText } from './diff-words.ts';

/** Rows of one table at most; the rest are counted. */
const MAX_ROWS = 40;
/** Failures explained by one root shown under it; the rest are counted. */
const MAX_EXPLAINED = 5;

/**
 * Text for a table cell, one line: pipes, HTML and link brackets escaped, so that what a server
 * wrote (findings quote it) cannot end the cell, add markup, a link or an image to a comment.
 */
function cell(text: string, max = 200): string {
  return firstLine(text, max).replace(/[\\|[\]]/g, (ch) => `\\${ch}`).replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Inline code in a table cell: only a pipe is escaped there; a backtick inside takes a longer fence. */
function code(text: string): string {
  const t = firstLine(text, 160).replace(/\|/g, '\\|');
  return t.includes('`') ? `\`\` ${t} \`\`` : `\`${t}\``;
}

function cut<T>(items: readonly T[], max: number): { shown: readonly T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

function groupTable(title: string, groups: readonly ChangeGroup[]): string[] {
  if (groups.length === 0) return [];
  const total = groups.reduce((n, g) => n + 1 + g.explained.length, 0);
  const rows: string[] = [];
  const { shown, more } = cut(groups, MAX_ROWS);
  for (const g of shown) {
    const c = g.root;
    const moved = movedText(c);
    rows.push(`| ${code(checkLabel(c))} | ${groupSeverity(g)} | ${cell(sideText(c.base), 60)} | ${cell(sideText(c.head), 60)} | ${cell(findingOf(c))}${moved ? ` (${cell(moved, 100)})` : ''} |`);
    const under = cut(g.explained, MAX_EXPLAINED);
    for (const e of under.shown) rows.push(`| ↳ ${code(checkLabel(e))} | ${e.severity} | ${cell(sideText(e.base), 60)} | ${cell(sideText(e.head), 60)} | explained by the failure above: ${cell(findingOf(e), 150)} |`);
    if (under.more > 0) rows.push(`| ↳ … | | | | and ${under.more} more explained by ${code(checkLabel(c))} |`);
  }
  if (more > 0) rows.push(`| … | | | | and ${more} more root causes (\`--format html\` lists them all) |`);
  const counts = total > groups.length ? `${groups.length} root cause${groups.length === 1 ? '' : 's'}, ${total} checks` : String(groups.length);
  return [`### ${title} (${counts})`, '', '| Check | Severity | BASE | HEAD | Finding |', '|---|---|---|---|---|', ...rows, ''];
}

function checkTable(title: string, checks: readonly CheckChange[], columns: [string, (c: CheckChange) => string][]): string[] {
  if (checks.length === 0) return [];
  const { shown, more } = cut(checks, MAX_ROWS);
  return [
    `### ${title} (${checks.length})`,
    '',
    `| Check | ${columns.map(([name]) => name).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    ...shown.map((c) => `| ${code(checkLabel(c))} | ${columns.map(([, value]) => value(c)).join(' | ')} |`),
    ...(more > 0 ? [`| … | ${columns.map((_, i) => (i === 0 ? `and ${more} more` : '')).join(' | ')} |`] : []),
    '',
  ];
}

const pct = (f: Figure, unit: string) => cell(figureText(f, unit), 60);

export function renderDiffMarkdown(d: ReportDiff): string {
  const icon = d.newFailures.some((g) => g.blocks) ? '❌' : d.newFailures.length > 0 ? '⚠️' : '✅';
  const lines = [
    `## ${icon} ${verdictText(d)}`,
    '',
    `BASE: ${cell(runText(d.base), 300)}  `,
    `HEAD: ${cell(runText(d.head), 300)}`,
    '',
    ...d.notes.map((n) => `> ${cell(n, 300)}`),
    ...(d.notes.length > 0 ? [''] : []),
  ];
  lines.push(...groupTable('New failures', d.newFailures));
  lines.push(...groupTable('Fixed', d.fixed));
  lines.push(...groupTable('Still failing', d.stillFailing));
  lines.push(...checkTable('Newly skipped', d.newlySkipped, [['BASE', (c) => cell(sideText(c.base), 60)], ['Why skipped now', (c) => cell(c.head!.message)]]));
  lines.push(...checkTable('Severity changed', d.severityChanged, [['BASE', (c) => c.base!.severity], ['HEAD', (c) => c.head!.severity]]));
  lines.push(...checkTable('Checks added (in HEAD only)', d.added, [['HEAD', (c) => cell(sideText(c.head), 60)]]));
  lines.push(...checkTable('Checks removed (in BASE only)', d.removed, [['BASE', (c) => cell(sideText(c.base), 60)]]));
  if (checksUnchanged(d)) lines.push('No check changed its outcome, severity or presence.', '');
  const changedKeys = d.rateLimits.filter((k) => k.changed.length > 0);
  if (d.rateLimits.length > 0) {
    lines.push(`### Rate limits (${changedKeys.length} of ${d.rateLimits.length} keys changed)`, '');
    if (changedKeys.length > 0) {
      lines.push('| Key | Fact | BASE | HEAD |', '|---|---|---|---|');
      for (const k of changedKeys) for (const f of keyFacts(k).filter((x) => x.changed)) lines.push(`| ${code(k.label)} | ${f.fact} | ${cell(f.base, 120)} | ${cell(f.head, 120)} |`);
      lines.push('');
    } else lines.push('The limiter, the first 429, Retry-After honoured and the day are the same for every key.', '');
  }
  const paced = d.pacedLoad;
  if (paced) {
    const o = paced.overall;
    lines.push('### Paced load (BASE → HEAD)', '', `All keys: ${pct(o.sent, 'paced requests')}, error rate ${pct(o.errorRate, '')}.`, '');
    lines.push('| Key | Achieved req/s | p50 ms | p95 ms | p99 ms | 429s |', '|---|---|---|---|---|---|');
    lines.push(`| all keys | | ${pct(o.latency.p50, '')} | ${pct(o.latency.p95, '')} | ${pct(o.latency.p99, '')} | |`);
    for (const k of paced.keys) lines.push(`| ${code(k.label)} | ${pct(k.achievedRate, '')} | ${pct(k.latency.p50, '')} | ${pct(k.latency.p95, '')} | ${pct(k.latency.p99, '')} | ${pct(k.rejected, '')} |`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
