// `diff --format html`: one self-contained page in report.html's style (its stylesheet, inline;
// no script; nothing loaded from anywhere): the verdict line, the two runs, then new failures,
// fixes and failures still there (each root with the failures it explains under it), the checks
// newly skipped, added, removed or of another severity, each key's rate-limit facts and the paced
// load's figures with their change in percent.
import type { Outcome, Severity } from '../result/model.ts';
import { STYLE } from './html-assets.ts';
import { type Html, html, OUTCOME_LABEL, pageHead } from './markup.ts';
import { checkLabel } from './text.ts';
import { type ChangeGroup, type CheckChange, checksUnchanged, type Figure, groupSeverity, type ReportDiff, type RunSummary, type Side, verdictText } from './diff-model.ts';
import { findingOf, firstLine, keyFacts, movedText, pctText, sideText } from './diff-words.ts';

const DIFF_STYLE = `
details.failure.fixed { border-left-color: var(--pass); }
details.failure.still { border-left-color: var(--muted); }
.was { color: var(--muted); font-size: 0.875rem; }
tr.changed td.head { font-weight: 600; }
td.up { color: var(--fail); } td.down { color: var(--pass); }
`;
const CSS = `${STYLE}${DIFF_STYLE}`;
const badge = (outcome: Outcome | undefined) => (outcome ? html`<span class="badge o-${outcome}">${OUTCOME_LABEL[outcome]}</span>` : html`<span class="badge o-skip">Absent</span>`);
const sev = (severity: Severity) => html`<span class="sev">${severity}</span>`;

/** Where each run's report.html is, relative to the page (links shown beside each run). */
export interface DiffLinks {
  base?: string;
  head?: string;
}

function runFacts(name: string, r: RunSummary, link: string | undefined): Html {
  return html`<dt>${name}</dt><dd data-run="${name}" data-verdict="${r.verdict}">${r.target} (<code>${r.baseUrl}</code>), <time datetime="${r.startedAt}">${r.startedAt}</time>, seed <code>${r.seed}</code>${r.strict ? ', --strict' : ''}: <strong class="verdict-${r.verdict}">${r.verdict === 'pass' ? 'conformant' : 'not conformant'}</strong>, ${r.checks} checks, ${r.requests} requests, report schema ${r.schemaVersion}${link ? html` (<a href="${link}">report.html</a>)` : ''}</dd>`;
}

/** What one run said of a check that did not pass there: its outcome and code, and its whole message. */
function sideBlock(name: string, s: Side | undefined): Html {
  if (!s || s.outcome === 'pass') return html``;
  return html`<p class="note" data-side="${name}">${name}: ${sideText(s)}</p><pre>${s.message}</pre>`;
}

function entry(c: CheckChange, kind: string, now: 'head' | 'base', explainedBy?: CheckChange, extra: Html = html``): Html {
  const side = now === 'head' ? c.head : c.base;
  const other = now === 'head' ? html`was ${sideText(c.base)}` : html`now ${sideText(c.head)}`;
  const moved = movedText(c);
  return html`<details class="failure ${kind}${explainedBy ? ' explained' : ''}" data-change="${kind}" data-check-id="${c.id}" data-subject="${c.subject ?? ''}" data-outcome="${side?.outcome ?? ''}" data-severity="${c.severity}"${explainedBy ? html` data-explained-by="${explainedBy.id}"` : ''}${explainedBy ? '' : html` open`}>
<summary>${badge(side?.outcome)} ${sev(c.severity)} <code>${checkLabel(c)}</code> <span class="was">(${other})</span>${explainedBy ? '' : html`<br><span>${firstLine(findingOf(c), 200)}</span>`}</summary>
<p class="note">${c.title} (<em>${c.clause}</em>)${moved ? html`; ${moved}` : ''}${explainedBy ? html`; explained by <code>${checkLabel(explainedBy)}</code>` : ''}</p>
${sideBlock('BASE', c.base)}
${sideBlock('HEAD', c.head)}
${extra}
</details>`;
}

function groupSection(id: string, title: string, kind: string, groups: readonly ChangeGroup[], now: 'head' | 'base', none: string): Html {
  const total = groups.reduce((n, g) => n + 1 + g.explained.length, 0);
  return html`<section id="${id}" data-count="${groups.length}" data-checks="${total}" aria-labelledby="${id}-h">
<h2 id="${id}-h">${title} (${total > groups.length ? `${groups.length} root cause${groups.length === 1 ? '' : 's'}, ${total} checks` : groups.length})</h2>
${
  groups.length === 0
    ? html`<p class="muted">${none}</p>`
    : groups.map(
        (g) =>
          html`${entry(g.root, kind, now, undefined, g.explained.length > 0 ? html`<p class="note" data-explains="${g.explained.length}">Explains ${g.explained.length} more (${groupSeverity(g)} at worst), shown below.</p>` : html``)}${g.explained.map((c) => entry(c, kind, now, g.root))}`,
      )
}
</section>`;
}

function checkTable(id: string, title: string, checks: readonly CheckChange[], columns: [string, (c: CheckChange) => Html | string][]): Html {
  if (checks.length === 0) return html``;
  return html`<section id="${id}" data-count="${checks.length}" aria-labelledby="${id}-h">
<h2 id="${id}-h">${title} (${checks.length})</h2>
<div class="table-wrap"><table>
<thead><tr><th scope="col">Check</th>${columns.map(([name]) => html`<th scope="col">${name}</th>`)}</tr></thead>
<tbody>${checks.map((c) => html`<tr data-check-id="${c.id}" data-subject="${c.subject ?? ''}"><th scope="row"><code>${checkLabel(c)}</code></th>${columns.map(([, value]) => html`<td class="msg">${value(c)}</td>`)}</tr>`)}</tbody>
</table></div>
</section>`;
}

function rateLimitSection(d: ReportDiff): Html {
  if (d.rateLimits.length === 0) return html``;
  const changed = d.rateLimits.filter((k) => k.changed.length > 0).length;
  return html`<section id="rate-limits" data-keys="${d.rateLimits.length}" data-changed="${changed}" aria-labelledby="rate-limits-h">
<h2 id="rate-limits-h">Rate limits (${changed} of ${d.rateLimits.length} keys changed)</h2>
<p class="note">Per key, as the rate-limit suite saw it: the limiter, its first 429 (and the Remaining stated before it), whether waiting exactly Retry-After was enough, and the day test. Values that differ from run to run (a Retry-After's seconds, the day's count) are shown, not counted as changes.</p>
<div class="table-wrap"><table class="rate-limit-diff">
<thead><tr><th scope="col">Key</th><th scope="col">Fact</th><th scope="col">BASE</th><th scope="col">HEAD</th></tr></thead>
<tbody>${d.rateLimits.flatMap((k) =>
    keyFacts(k).map(
      (f, i) => html`<tr class="${f.changed ? 'changed' : ''}" data-key="${k.label}" data-fact="${f.fact}" data-changed="${String(f.changed)}">${i === 0 ? html`<th scope="rowgroup" rowspan="4">${k.label}</th>` : ''}<td>${f.fact}</td><td>${f.base}</td><td class="head">${f.head}</td></tr>`,
    ),
  )}</tbody>
</table></div>
</section>`;
}

function figureCells(f: Figure, higherIsWorse: boolean): Html {
  const p = f.changePct;
  const direction = p === undefined || p === 0 ? '' : (p > 0) === higherIsWorse ? 'up' : 'down';
  return html`<td class="num">${f.base ?? '–'}</td><td class="num">${f.head ?? '–'}</td><td class="num ${direction}" data-change-pct="${p ?? ''}">${pctText(f)}</td>`;
}

function pacedSection(d: ReportDiff): Html {
  const paced = d.pacedLoad;
  if (!paced) return html``;
  const rows: { label: string; figure: string; f: Figure; worse: boolean }[] = [
    { label: 'all keys', figure: 'sent', f: paced.overall.sent, worse: false },
    { label: 'all keys', figure: 'error rate', f: paced.overall.errorRate, worse: true },
    ...(['p50', 'p90', 'p95', 'p99', 'max'] as const).map((p) => ({ label: 'all keys', figure: `${p} ms`, f: paced.overall.latency[p], worse: true })),
    ...paced.keys.flatMap((k) => [
      { label: k.label, figure: 'achieved req/s', f: k.achievedRate, worse: false },
      { label: k.label, figure: 'asked req/s', f: k.askedRate, worse: false },
      { label: k.label, figure: '429s', f: k.rejected, worse: true },
      ...(['p50', 'p95', 'p99'] as const).map((p) => ({ label: k.label, figure: `${p} ms`, f: k.latency[p], worse: true })),
    ]),
  ];
  return html`<section id="paced-load" data-keys="${paced.keys.length}" aria-labelledby="paced-load-h">
<h2 id="paced-load-h">Paced load</h2>
<p class="note">Latency percentiles and throughput of the paced load (--suite load), BASE then HEAD, and the change in percent (red: worse).</p>
<div class="table-wrap"><table class="paced-diff">
<thead><tr><th scope="col">Key</th><th scope="col">Figure</th><th scope="col" class="num">BASE</th><th scope="col" class="num">HEAD</th><th scope="col" class="num">Change</th></tr></thead>
<tbody>${rows.map((r) => html`<tr data-key="${r.label}" data-figure="${r.figure}"><th scope="row">${r.label}</th><td>${r.figure}</td>${figureCells(r.f, r.worse)}</tr>`)}</tbody>
</table></div>
</section>`;
}

export function renderDiffHtml(d: ReportDiff, links: DiffLinks = {}): string {
  const verdict = verdictText(d);
  const state = d.newFailures.some((g) => g.blocks) ? 'fail' : 'pass';
  const doc = html`<!DOCTYPE html>
<html lang="en">
${pageHead(`${verdict}: ${d.base.target} → ${d.head.target} (Animal Store conformance diff)`, CSS)}
<body>
<main data-new-failures="${d.newFailures.length}" data-fixed="${d.fixed.length}" data-still-failing="${d.stillFailing.length}" data-blocking="${String(state === 'fail')}">
<header>
<p class="note">Animal Store conformance diff</p>
<h1 class="verdict-${state}" data-verdict-line>${verdict}</h1>
<dl class="facts">
${runFacts('BASE', d.base, links.base)}
${runFacts('HEAD', d.head, links.head)}
</dl>
${d.notes.length > 0 ? html`<ul class="note" id="notes">${d.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
</header>
${groupSection('new-failures', 'New failures', 'new', d.newFailures, 'head', 'No check fails in HEAD that did not fail in BASE.')}
${groupSection('fixed', 'Fixed', 'fixed', d.fixed, 'base', 'No check that failed in BASE passes in HEAD.')}
${groupSection('still-failing', 'Still failing', 'still', d.stillFailing, 'head', 'No check fails in both.')}
${checkTable('newly-skipped', 'Newly skipped', d.newlySkipped, [['BASE', (c) => sideText(c.base)], ['Why skipped in HEAD', (c) => c.head!.message]])}
${checkTable('severity-changed', 'Severity changed', d.severityChanged, [['BASE', (c) => c.base!.severity], ['HEAD', (c) => c.head!.severity]])}
${checkTable('added', 'Checks added (in HEAD only)', d.added, [['HEAD', (c) => sideText(c.head)], ['Title', (c) => c.title]])}
${checkTable('removed', 'Checks removed (in BASE only)', d.removed, [['BASE', (c) => sideText(c.base)], ['Title', (c) => c.title]])}
${checksUnchanged(d) ? html`<p data-unchanged>No check changed its outcome, severity or presence.</p>` : ''}
${rateLimitSection(d)}
${pacedSection(d)}
<footer class="note"><p>BASE ${d.base.tool}, HEAD ${d.head.tool}. Checks matched by id and subject (by id alone where a check moved between a key's results and the run's); failures grouped by root cause, and only a root decides whether a group is new, fixed or still failing.</p></footer>
</main>
</body>
</html>
`;
  return doc.value;
}
