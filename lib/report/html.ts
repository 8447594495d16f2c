// report.html: one self-contained document, readable from disk without JavaScript or network.
import type { CheckResult, Evidence, Outcome, OutcomeCounts, Report, Severity } from '../result/model.ts';
import type { Exchange } from '../result/exchange.ts';
import { countOutcomes } from '../result/verdict.ts';
import { SCRIPT, STYLE } from './html-assets.ts';
import { pacedLoadSection } from './html-paced-load.ts';
import { politenessSection } from './html-politeness.ts';
import { rateLimitSection } from './html-rate-limits.ts';
import { type Html, html, OUTCOME_LABEL, pageHead, trusted } from './markup.ts';
import {
  OUTCOMES,
  SEVERITIES,
  expectedFailures,
  failureGroups,
  type FailureGroup,
  checkLabel,
  findingOf,
  cutText,
  formatDuration,
  groupByClause,
  isFailure,
  prettyJson,
  sortedStatuses,
  truncate,
} from './text.ts';

/** Bodies longer than this (in characters) are cut in the view; report.json keeps them whole. */
const BODY_VIEW_LIMIT = 8 * 1024;
/** Up to this many exchanges per check are shown open. */
const OPEN_EXCHANGES = 3;


export function renderHtml(report: Report): string {
  const failures = report.checks.filter(isFailure);
  // Stable per-check anchors: ids may repeat across subjects.
  const anchors = new Map<CheckResult, string>(report.checks.map((c, i) => [c, `check-${i + 1}`]));
  const verdictText = report.verdict === 'pass' ? 'Conformant' : 'Not conformant';

  const doc = html`<!DOCTYPE html>
<html lang="en">
${pageHead(`${verdictText}: ${report.target.name} (Animal Store conformance)`, STYLE, SCRIPT)}
<body>
<main data-verdict="${report.verdict}" data-failures="${failures.length}" data-requests="${report.requests.total}" data-checks="${report.checks.length}">
${header(report, verdictText)}
${filters()}
${failureSection(failureGroups(report.checks), anchors, report.options.strict)}
${expectedSection(report, anchors)}
${checksSection(report.checks, anchors)}
${coverageSection(report.checks)}
${pacedLoadSection(report)}
${rateLimitSection(report)}
${politenessSection(report)}
${requestsSection(report)}
<footer class="note"><p>${report.tool.name} ${report.tool.version}, report schema ${report.schemaVersion}.</p></footer>
</main>
<script>${trusted(SCRIPT)}</script>
</body>
</html>
`;
  return doc.value;
}

function header(report: Report, verdictText: string): Html {
  const { options } = report;
  const statuses = sortedStatuses(report.requests.byStatus);
  return html`<header>
<p class="note">Animal Store conformance report</p>
<h1 class="verdict-${report.verdict}" data-verdict="${report.verdict}">${verdictText}</h1>
<dl class="facts">
<dt>Target</dt><dd>${report.target.name}</dd>
<dt>Base URL</dt><dd><code>${report.target.baseUrl}</code></dd>
<dt>Started</dt><dd><time datetime="${report.startedAt}">${report.startedAt}</time></dd>
<dt>Finished</dt><dd><time datetime="${report.finishedAt}">${report.finishedAt}</time></dd>
<dt>Duration</dt><dd>${formatDuration(report.durationMs)}</dd>
<dt>Seed</dt><dd><code data-seed="${report.seed}">${report.seed}</code></dd>
<dt>Requests sent</dt><dd data-requests="${report.requests.total}">${report.requests.total}${
    statuses.length > 0
      ? html` (${statuses.map(([status, n], i) => html`${i > 0 ? ', ' : ''}<span data-status="${status}">${status}: ${n}</span>`)})`
      : ''
  }</dd>
<dt>Suites</dt><dd>${options.suites.length > 0 ? options.suites.join(', ') : 'all'}</dd>
<dt>Options</dt><dd>${optionText(report)}</dd>
${report.baseline ? html`<dt>Expected failures</dt><dd data-baseline="${report.baseline.file}"><a href="#expected"><code>${report.baseline.file}</code></a>: ${baselineText(report.baseline)}</dd>` : ''}
${report.segment ? html`<dt>Load segment</dt><dd data-segment="${report.segment.index}/${report.segment.count}">${report.segment.index} of ${report.segment.count}, load from <time datetime="${report.segment.startAt}">${report.segment.startAt}</time>: this runner's share only; the rate-limit checks are judged when the segments are merged</dd>` : ''}
${report.merged ? html`<dt>Merged from</dt><dd data-merged="${report.merged.segments.length}">${report.merged.segments.length} load segments from <time datetime="${report.merged.startAt}">${report.merged.startAt}</time> (${report.merged.segments.map((s, i) => html`${i > 0 ? ', ' : ''}${s.index}: ${s.requests} requests`)}), judged as one run</dd>` : ''}
${report.timeLimit ? html`<dt>Time limit</dt><dd data-time-limit="${report.timeLimit.seconds}" data-cut="${String(report.timeLimit.reached)}">${report.timeLimit.seconds} s (budget.maxSeconds)${report.timeLimit.reached ? html`: <strong>${cutText(report) ?? ''}</strong>` : ', not reached'}</dd>` : ''}
${report.target.keys.length > 0 ? html`<dt>Keys</dt><dd>${report.target.keys.map((k) => `${k.label} (${k.plan}${k.disposable ? ', disposable' : ''})`).join(', ')}</dd>` : ''}
</dl>
${severityTable(report.summary)}
${
  report.warnings.length > 0
    ? html`<section id="warnings" aria-labelledby="warnings-h"><h2 id="warnings-h">Warnings (${report.warnings.length})</h2>
<ul>${report.warnings.map((w) => html`<li>${w}</li>`)}</ul></section>`
    : ''
}
</header>`;
}

function optionText(report: Report): string {
  const o = report.options;
  const parts = [`runs ${o.runs}`, `max requests ${o.maxRequests}`];
  parts.push(o.strict ? 'strict (should counts as must)' : 'not strict');
  if (o.allowWrites) parts.push('writes allowed');
  if (o.allowLoad) parts.push('load allowed');
  if (o.soak) parts.push('soak');
  return parts.join(', ');
}

/** "2 failed as expected, 1 stale, 1 not run" (the statuses the baseline's entries ended in). */
function baselineText(baseline: NonNullable<Report['baseline']>): string {
  const n = (status: NonNullable<Report['baseline']>['entries'][number]['status']) => baseline.entries.filter((e) => e.status === status).length;
  const parts = [`${n('failed-as-expected')} failed as expected`, ...(n('stale') > 0 ? [`${n('stale')} stale (passing now: remove them)`] : []), ...(n('not-run') > 0 ? [`${n('not-run')} not run`] : [])];
  return `${baseline.entries.length} entr${baseline.entries.length === 1 ? 'y' : 'ies'} for this target, ${parts.join(', ')}`;
}

function severityTable(summary: Report['summary']): Html {
  const row = (label: string, key: string, counts: OutcomeCounts) => {
    const total = counts.pass + counts.fail + counts.skip + counts.error;
    return html`<tr><th scope="row">${label}</th>${OUTCOMES.map(
      (o) => html`<td class="num" data-count="${key}.${o}">${counts[o]}</td>`,
    )}<td class="num" data-count="${key}.total">${total}</td></tr>`;
  };
  return html`<div class="table-wrap"><table class="counts" aria-label="Checks by severity and outcome">
<thead><tr><th scope="col">Severity</th>${OUTCOMES.map((o) => html`<th scope="col" class="num">${OUTCOME_LABEL[o]}</th>`)}<th scope="col" class="num">Total</th></tr></thead>
<tbody>${SEVERITIES.map((s) => row(s, s, summary.bySeverity[s]))}</tbody>
<tfoot>${row('All', 'all', summary.byOutcome)}</tfoot>
</table></div>`;
}

function filters(): Html {
  const box = (group: string, value: string, label: string) =>
    html`<label><input type="checkbox" value="${group}:${value}" checked> ${label}</label>`;
  return html`<div id="filters" role="group" hidden data-enhance aria-label="Filter checks">
<fieldset><legend>Outcome</legend>${OUTCOMES.map((o) => box('outcome', o, OUTCOME_LABEL[o]))}</fieldset>
<fieldset><legend>Severity</legend>${SEVERITIES.map((s) => box('severity', s, s))}</fieldset>
<output id="filter-count" aria-live="polite"></output>
</div>`;
}

const badge = (outcome: Outcome) => html`<span class="badge o-${outcome}">${OUTCOME_LABEL[outcome]}</span>`;
const sev = (severity: Severity) => html`<span class="sev">${severity}</span>`;

/** Root failures, each followed by the failures it explains (indented, linked both ways). */
function failureSection(groups: readonly FailureGroup[], anchors: Map<CheckResult, string>, strict: boolean): Html {
  const total = groups.reduce((n, g) => n + 1 + g.explained.length, 0);
  const roots = total > groups.length ? html`: ${groups.length} root cause${groups.length > 1 ? 's' : ''}` : '';
  return html`<section id="failures" data-failures="${total}" data-root-causes="${groups.length}" aria-labelledby="failures-h">
<h2 id="failures-h">Failures (${total}${roots})</h2>
${
  groups.length === 0
    ? html`<p>No <code>must</code> or <code>should</code> check failed or errored.</p>`
    : groups.map(({ root, explained }) => html`${failureEntry(root, anchors, strict, explained.length > 0 ? html`<p class="note" data-explains="${explained.length}">Explains ${explained.length} more failure${explained.length > 1 ? 's' : ''} below: ${list(explained.map((c) => html`<a href="#${anchors.get(c)}"><code>${checkLabel(c)}</code></a>`))}.</p>` : '')}${explained.map((c) =>
        failureEntry(c, anchors, strict, html`<p class="note" data-explained-by="${root.id}"${c.causedBy?.code !== undefined ? html` data-through-kind="${c.causedBy.code}"` : ''}>Explained by <a href="#${anchors.get(root)}"><code>${checkLabel(root)}</code></a>${c.causedBy?.code !== undefined ? html`, through its kind <code>${c.causedBy.code}</code>` : ''}: one cause, shown there.</p>`, true),
      )}`)
}
</section>`;
}

/** Failures the run's --expected-failures baseline lists, apart from the failures: known, not gated on. */
function expectedSection(report: Report, anchors: Map<CheckResult, string>): Html | '' {
  const expected = expectedFailures(report.checks);
  if (!report.baseline) return '';
  const stale = report.baseline.entries.filter((e) => e.status === 'stale');
  const notRun = report.baseline.entries.filter((e) => e.status === 'not-run');
  return html`<section id="expected" data-expected="${expected.length}" aria-labelledby="expected-h">
<h2 id="expected-h">Expected failures (${expected.length})</h2>
<p class="note">Listed in <code>${report.baseline.file}</code> (--expected-failures): shown, not gated on.${stale.length > 0 ? html` Stale entries, passing now (they fail the run until removed): ${list(stale.map((e) => html`<code>${e.id}</code>`))}.` : ''}${notRun.length > 0 ? html` Not run or skipped: ${list(notRun.map((e) => html`<code>${e.id}</code>`))}.` : ''}</p>
${expected.map((c) => failureEntry(c, anchors, report.options.strict, html`<p class="note" data-expected-reason="">Expected: ${c.expectedFailure!.reason}</p>`))}
</section>`;
}

function list(items: readonly Html[]): Html {
  return html`${items.map((item, i) => html`${i > 0 ? ', ' : ''}${item}`)}`;
}

function failureEntry(c: CheckResult, anchors: Map<CheckResult, string>, strict: boolean, link: Html | '', explained = false): Html {
  return html`<details class="failure filterable${explained ? ' explained' : ''}" id="${anchors.get(c)}" data-failure-id="${c.id}" data-outcome="${c.outcome}" data-severity="${c.severity}">
<summary>${badge(c.outcome)} ${sev(c.severity)} <span class="finding">${findingOf(c, 300)}</span><span class="about"><code>${c.id}</code>${c.subject ? html` <span>[${c.subject}]</span>` : ''}: ${c.title}</span></summary>
${link}
${c.message !== findingOf(c, 300) ? html`<p>${c.message}</p>` : ''}
<p class="note">Clause: ${c.clause}${c.standard ? html` · rests on ${c.standard}` : ''} · suite ${c.suite} · ${formatDuration(c.durationMs)}${
  c.severity === 'should' && !strict ? ' · does not block the verdict (run with --strict to count it)' : ''
}</p>
${c.evidence ? evidenceView(c.evidence, anchors.get(c) ?? 'check') : html`<p class="muted">No evidence recorded.</p>`}
</details>`;
}

function checksSection(checks: readonly CheckResult[], anchors: Map<CheckResult, string>): Html {
  const groups = [...groupByClause(checks)];
  return html`<section id="checks" aria-labelledby="checks-h">
<h2 id="checks-h">All checks by clause (${checks.length})</h2>
${groups.length === 0 ? html`<p class="muted">No checks ran.</p>` : ''}
${groups.map(
  ([clause, group], i) => html`<section class="clause" id="clause-${i + 1}" data-clause="${clause}">
<h3>${clause}</h3>
<div class="table-wrap"><table>
<thead><tr><th scope="col">Check</th><th scope="col">Subject</th><th scope="col">Title</th><th scope="col">Severity</th><th scope="col">Outcome</th><th scope="col">Message</th><th scope="col" class="num col-dur">Duration</th></tr></thead>
<tbody>${group.map((c) => checkRow(c, anchors.get(c) ?? 'check'))}</tbody>
</table></div>
</section>`,
)}
</section>`;
}

function checkRow(c: CheckResult, anchor: string): Html {
  const failure = isFailure(c) || c.expectedFailure !== undefined;
  // Failures (expected ones too) link to their entry above; other checks with evidence (info records) show it in place.
  const message = failure
    ? html`${c.message} <a href="#${anchor}">Details</a>`
    : c.evidence && (c.evidence.exchanges.length > 0 || c.evidence.expected || c.evidence.actual)
      ? html`${c.message}<details><summary>Evidence</summary>${evidenceView(c.evidence, `${anchor}-row`)}</details>`
      : html`${c.message}`;
  return html`<tr class="filterable" data-check-id="${c.id}" data-outcome="${c.outcome}" data-severity="${c.severity}">
<td><code>${c.id}</code></td><td>${c.subject ?? ''}</td><td>${c.title}</td><td>${sev(c.severity)}</td><td>${badge(c.outcome)}${c.expectedFailure ? html` <span class="sev" data-expected="" title="${c.expectedFailure.reason}">expected</span>` : ''}</td>
<td class="msg">${message}</td><td class="num col-dur">${formatDuration(c.durationMs)}</td></tr>`;
}

function evidenceView(e: Evidence, idBase: string): Html {
  const hasProperty = e.counterexample !== undefined || e.seed !== undefined || e.path !== undefined;
  return html`<div class="evidence">
${e.expected !== undefined ? html`<h4>Expected</h4><pre>${e.expected}</pre>` : ''}
${e.actual !== undefined ? html`<h4>Actual</h4><pre>${e.actual}</pre>` : ''}
${
  hasProperty
    ? html`<h4>Property check</h4><dl class="facts">
${e.seed !== undefined ? html`<dt>Seed</dt><dd><code>${e.seed}</code></dd>` : ''}
${e.path !== undefined ? html`<dt>Path</dt><dd><code>${e.path}</code></dd>` : ''}
</dl>${e.counterexample !== undefined ? html`<p class="note">Counterexample</p><pre>${e.counterexample}</pre>` : ''}`
    : ''
}
${
  e.failures && e.failures.length > 0
    ? html`<h4>Other kinds of failure (${e.failures.length})</h4>
<ol class="other-failures">${e.failures.map(
        (f) => html`<li data-failure-kind="${f.kind}"${f.count !== undefined ? html` data-count="${f.count}"` : ''}><p><strong>${f.kind}</strong>${f.count !== undefined ? html` ×${f.count}` : ''}: ${f.message}</p>
${f.expected !== undefined ? html`<p class="note">Expected</p><pre>${f.expected}</pre>` : ''}${f.actual !== undefined ? html`<p class="note">Actual</p><pre>${f.actual}</pre>` : ''}
<p class="note">${f.count !== undefined ? 'First example' : 'Counterexample'}${f.path !== undefined ? html` (path <code>${f.path}</code>)` : ''}</p><pre>${f.counterexample}</pre>
${f.reproduce.length > 0 ? html`<p class="note">Reproduce</p><pre class="repro">${f.reproduce.join('\n')}</pre>` : ''}
${f.exchanges && f.exchanges.length > 0 ? html`<p class="note">Exchanges (${f.exchanges.length})</p>${f.exchanges.map((x) => exchangeView(x, false))}` : ''}</li>`,
      )}</ol>`
    : ''
}
${
  e.reproduce.length > 0
    ? html`<div class="repro-head"><h4>Reproduce</h4><button type="button" hidden data-enhance data-copy="${idBase}-repro">Copy</button></div>
<pre id="${idBase}-repro" class="repro">${e.reproduce.join('\n')}</pre>`
    : ''
}
${
  e.exchanges.length > 0
    ? html`<h4>Exchanges (${e.exchanges.length})</h4>${e.exchanges.map((x) => exchangeView(x, e.exchanges.length <= OPEN_EXCHANGES))}`
    : ''
}
</div>`;
}

function exchangeView(x: Exchange, open: boolean): Html {
  const result = x.status !== undefined ? String(x.status) : `no response${x.transportError ? ` (${x.transportError})` : ''}`;
  return html`<details class="exchange" data-seq="${x.seq}"${open ? html` open` : ''}>
<summary><code>#${x.seq} ${x.method} ${x.url}</code> → <strong>${result}</strong> <span class="note">${formatDuration(x.durationMs)}</span></summary>
<p class="note">Suite ${x.suite} · started ${x.startedAt} · auth: ${authText(x.auth)}</p>
<h5>Request headers</h5>${headersView(x.requestHeaders)}
${x.requestBody !== undefined ? html`<h5>Request body</h5>${bodyView(x.requestBody, false)}${x.requestBodyBytes !== undefined ? html`<p class="note">Only the start of the ${x.requestBodyBytes}-byte body sent is kept.</p>` : ''}` : ''}
${x.transportError ? html`<p>Transport error: <code>${x.transportError}</code></p>` : ''}
${
  x.status !== undefined || Object.keys(x.responseHeaders).length > 0 || x.responseBody !== undefined
    ? html`<h5>Response headers</h5>${headersView(x.responseHeaders)}
<h5>Response body</h5>${bodyView(x.responseBody, x.responseBodyTruncated === true)}`
    : ''
}
</details>`;
}

function authText(auth: Exchange['auth']): string {
  switch (auth.kind) {
    case 'none':
      return 'none';
    case 'key':
      return `key ${auth.label} from $${auth.env} (${auth.header})`;
    case 'key-in-query':
      return `key ${auth.label} from $${auth.env} in the query parameter ${auth.param}`;
    case 'key-carrier':
      return `key ${auth.label} from $${auth.env}, without Authorization: Bearer, as: ${auth.carriers.join('; ')}`;
    case 'literal':
      return `made-up credential in ${auth.where}: ${auth.header}`;
  }
}

function headersView(headers: Record<string, string>): Html {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return lines.length > 0 ? html`<pre class="headers">${lines.join('\n')}</pre>` : html`<p class="muted">None.</p>`;
}

function bodyView(body: string | undefined, truncatedAtCapture: boolean): Html {
  if (body === undefined) return html`<p class="muted">No body.</p>`;
  if (body === '') return html`<p class="muted">Empty body.</p>`;
  const shown = prettyJson(body) ?? body;
  const cut = truncate(shown, BODY_VIEW_LIMIT);
  return html`<pre class="body">${cut.text}</pre>${
    cut.truncated
      ? html`<p class="note">Showing the first ${cut.text.length} of ${shown.length} characters; report.json has the rest.</p>`
      : ''
  }${truncatedAtCapture ? html`<p class="note">The harness stopped reading this body when it captured it.</p>` : ''}`;
}

function coverageSection(checks: readonly CheckResult[]): Html {
  const groups = [...groupByClause(checks)];
  const total = countOutcomes(checks);
  const cells = (counts: OutcomeCounts) => OUTCOMES.map((o) => html`<td class="num">${counts[o]}</td>`);
  return html`<section id="coverage" aria-labelledby="coverage-h">
<h2 id="coverage-h">Coverage by clause</h2>
<div class="table-wrap"><table>
<thead><tr><th scope="col">Clause</th><th scope="col" class="num">Checks</th>${OUTCOMES.map((o) => html`<th scope="col" class="num">${OUTCOME_LABEL[o]}</th>`)}</tr></thead>
<tbody>${groups.map(
    ([clause, group], i) =>
      html`<tr data-coverage-clause="${clause}"><th scope="row"><a href="#clause-${i + 1}">${clause}</a></th><td class="num">${group.length}</td>${cells(countOutcomes(group))}</tr>`,
  )}</tbody>
<tfoot><tr><th scope="row">All</th><td class="num">${checks.length}</td>${cells(total)}</tr></tfoot>
</table></div>
</section>`;
}

function requestsSection(report: Report): Html {
  const suites = Object.entries(report.requests.bySuite);
  return html`<section id="requests" aria-labelledby="requests-h">
<h2 id="requests-h">Requests</h2>
<div class="table-wrap"><table>
<thead><tr><th scope="col">Suite</th><th scope="col" class="num">Requests</th></tr></thead>
<tbody>${suites.map(([suite, n]) => html`<tr data-suite="${suite}"><th scope="row">${suite}</th><td class="num">${n}</td></tr>`)}</tbody>
<tfoot><tr><th scope="row">Total</th><td class="num">${report.requests.total}</td></tr></tfoot>
</table></div>
</section>`;
}
