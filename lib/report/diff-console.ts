// `diff` on the console: the verdict line first, then each list of changes, the rate-limit picture
// and the paced load. Pure text; colour only when asked (a terminal), as the run's summary.
import { checkLabel, counted } from './text.ts';
import type { Style } from './console.ts';
import { type ChangeGroup, type CheckChange, checksUnchanged, groupSeverity, type ReportDiff, verdictText } from './diff-model.ts';
import { figureText, findingOf, firstLine, keyFacts, movedText, runText, sideText } from './diff-words.ts';

/** Lists longer than this are cut, the rest counted. */
const MAX_LISTED = 20;

function capped<T>(items: readonly T[], line: (item: T) => string[], style: Style): string[] {
  const lines = items.slice(0, MAX_LISTED).flatMap(line);
  return items.length > MAX_LISTED ? [...lines, style.dim(`  … and ${items.length - MAX_LISTED} more (--format html or json lists them all)`)] : lines;
}

function groupLines(title: string, groups: readonly ChangeGroup[], mark: (g: ChangeGroup) => string, style: Style, now: 'head' | 'base'): string[] {
  if (groups.length === 0) return [];
  const explained = groups.reduce((n, g) => n + g.explained.length, 0);
  const lines = [style.bold(explained > 0 ? `${title} (${counted(groups.length, 'root cause')}, ${counted(groups.length + explained, 'check')})` : `${title} (${groups.length})`)];
  lines.push(
    ...capped(
      groups,
      (g) => {
        const c = g.root;
        const was = now === 'head' ? `was ${sideText(c.base)}` : `now ${sideText(c.head)}`;
        const side = now === 'head' ? c.head! : c.base!;
        const moved = movedText(c);
        const out = [`  ${mark(g)} ${groupSeverity(g).padEnd(6)} ${side.outcome.padEnd(5)} ${checkLabel(c)} ${style.dim(`(${was})`)}`, `      ${style.dim(firstLine(findingOf(c)))}`];
        if (moved) out.push(`      ${style.dim(moved)}`);
        if (g.explained.length > 0) out.push(`      ${style.dim(explainsLine(g.explained))}`);
        return out;
      },
      style,
    ),
    '',
  );
  return lines;
}

/** "explains 3 more: a [x], b [y], c (+1 more)". */
function explainsLine(under: readonly CheckChange[]): string {
  const shown = under.slice(0, 4).map(checkLabel).join(', ');
  return `explains ${under.length} more: ${shown}${under.length > 4 ? ` (+${under.length - 4} more)` : ''}`;
}

function checkList(title: string, checks: readonly CheckChange[], line: (c: CheckChange) => string, style: Style): string[] {
  if (checks.length === 0) return [];
  return [style.bold(`${title} (${checks.length})`), ...capped(checks, (c) => [`  ${line(c)}`], style), ''];
}

export function renderDiffText(d: ReportDiff, style: Style): string {
  const colour = d.newFailures.some((g) => g.blocks) ? style.red : d.newFailures.length > 0 ? style.yellow : style.green;
  const lines = [colour(style.bold(verdictText(d))), `BASE ${runText(d.base)}`, `HEAD ${runText(d.head)}`];
  for (const note of d.notes) lines.push(style.yellow(`Note: ${note}`));
  lines.push('');
  lines.push(...groupLines('New failures', d.newFailures, (g) => (g.blocks ? style.red('✗') : style.yellow('!')), style, 'head'));
  lines.push(...groupLines('Fixed', d.fixed, () => style.green('✓'), style, 'base'));
  lines.push(...groupLines('Still failing', d.stillFailing, (g) => (g.blocks ? style.red('✗') : style.yellow('!')), style, 'head'));
  lines.push(...checkList('Newly skipped', d.newlySkipped, (c) => `– ${checkLabel(c)} (was ${sideText(c.base)}): ${firstLine(c.head!.message, 120)}`, style));
  lines.push(...checkList('Severity changed', d.severityChanged, (c) => `${checkLabel(c)}: ${c.base!.severity} → ${c.head!.severity}`, style));
  lines.push(...checkList('Checks added (in HEAD only)', d.added, (c) => `+ ${checkLabel(c)}: ${sideText(c.head)}`, style));
  lines.push(...checkList('Checks removed (in BASE only)', d.removed, (c) => `- ${checkLabel(c)}: was ${sideText(c.base)}`, style));
  if (checksUnchanged(d)) lines.push('No check changed its outcome, severity or presence.', '');
  const keys = d.rateLimits;
  if (keys.length > 0) {
    const changed = keys.filter((k) => k.changed.length > 0);
    lines.push(style.bold(`Rate limits (${changed.length} of ${keys.length} keys changed)`));
    for (const k of keys) {
      const facts = keyFacts(k);
      if (k.changed.length === 0) {
        lines.push(`    ${k.label}: unchanged ${style.dim(`(${facts.map((f) => `${f.fact}: ${f.head}`).join('; ')})`)}`);
        continue;
      }
      lines.push(`  ${style.yellow('~')} ${k.label}: ${k.changed.join(', ')} changed`);
      for (const f of facts) lines.push(`      ${f.fact}: ${f.changed ? `${f.base} → ${f.head}` : style.dim(f.head)}`);
    }
    lines.push('');
  }
  const paced = d.pacedLoad;
  if (paced) {
    const o = paced.overall;
    lines.push(style.bold('Paced load (BASE → HEAD)'));
    lines.push(`  all keys: sent ${figureText(o.sent, '')}, error rate ${figureText(o.errorRate, '')}`);
    lines.push(`    latency p50 ${figureText(o.latency.p50, 'ms')}, p95 ${figureText(o.latency.p95, 'ms')}, p99 ${figureText(o.latency.p99, 'ms')}, max ${figureText(o.latency.max, 'ms')}`);
    for (const k of paced.keys) {
      const asked = k.askedRate.base === k.askedRate.head ? `${k.askedRate.head}` : figureText(k.askedRate, '');
      lines.push(`  ${k.label}: achieved ${figureText(k.achievedRate, 'req/s')} of ${asked} asked, 429s ${figureText(k.rejected, '')}`);
      lines.push(`    latency p50 ${figureText(k.latency.p50, 'ms')}, p95 ${figureText(k.latency.p95, 'ms')}, p99 ${figureText(k.latency.p99, 'ms')}`);
    }
    lines.push('');
  }
  if (lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
