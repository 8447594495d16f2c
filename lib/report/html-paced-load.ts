// The paced-load section of report.html: per key, latency percentiles second by second and the
// answers second by second (2xx and 429) as inline SVG, then every key's figures against what was
// asked, and the thresholds of the target config. Pure; colour always comes with a dash or a shape.
import type { Report } from '../result/model.ts';
import type { PacedLoadKey } from '../result/paced-load.ts';
import { niceTicks, num } from './charts.ts';
import { type Html, html } from './markup.ts';
import { formatDuration } from './text.ts';

const W = 720;
const H = 220;
const PLOT = { left: 60, right: W - 20, top: 36, bottom: H - 42 };
const LINES = [
  { metric: 'p50', cls: 'line-p50' },
  { metric: 'p95', cls: 'line-p95' },
  { metric: 'p99', cls: 'line-p99' },
] as const;

type Second = PacedLoadKey['perSecond'][number];

function axes(xTop: number, yAxis: { ticks: number[]; top: number }, yLabel: string): { svg: Html; x: (s: number) => number; y: (v: number) => number } {
  const xAxis = niceTicks(xTop, 6, 1);
  const x = (s: number) => PLOT.left + (s / xAxis.top) * (PLOT.right - PLOT.left);
  const y = (v: number) => PLOT.bottom - (Math.min(Math.max(v, 0), yAxis.top) / yAxis.top) * (PLOT.bottom - PLOT.top);
  const svg = html`<g class="grid">${yAxis.ticks.map((v) => html`<line x1="${PLOT.left}" y1="${num(y(v))}" x2="${PLOT.right}" y2="${num(y(v))}"/>`)}</g>
<g class="ticks y">${yAxis.ticks.map((v) => html`<text x="${PLOT.left - 6}" y="${num(y(v) + 4)}" text-anchor="end">${String(v)}</text>`)}</g>
<g class="ticks x">${xAxis.ticks.map((s) => html`<line class="axis" x1="${num(x(s))}" y1="${PLOT.bottom}" x2="${num(x(s))}" y2="${PLOT.bottom + 5}"/><text x="${num(x(s))}" y="${PLOT.bottom + 18}" text-anchor="middle">${String(s)}</text>`)}</g>
<path class="axis" d="M${PLOT.left} ${PLOT.top}V${PLOT.bottom}H${PLOT.right}"/>
<text x="${num((PLOT.left + PLOT.right) / 2)}" y="${H - 6}" text-anchor="middle">seconds since the first paced request</text>
<text transform="translate(14 ${num((PLOT.top + PLOT.bottom) / 2)}) rotate(-90)" text-anchor="middle">${yLabel}</text>`;
  return { svg, x, y };
}

function legend(items: readonly { mark: Html; label: string }[]): Html {
  return html`<g class="legend">${items.map((item, i) => html`<g transform="translate(${PLOT.left + i * 120} 16)">${item.mark}<text x="24" y="4">${item.label}</text></g>`)}</g>`;
}

/** Latency p50, p95 and p99 of the requests sent in each second, as three lines of their own dash. */
export function pacedLatencyChart(key: PacedLoadKey): Html {
  const seconds = key.perSecond.filter((s) => s.sent > s.noResponse);
  const last = key.perSecond.at(-1)?.second ?? 0;
  const yAxis = niceTicks(Math.max(1, ...seconds.map((s) => s.p99)), 5, 1);
  const { svg, x, y } = axes(last + 1, yAxis, 'ms');
  const mid = (s: Second) => x(s.second + 0.5);
  const summary = `${key.label}: latency p99 ${key.latency.p99} ms overall${seconds.length > 1 ? `, ${seconds[0]!.p99} ms in the first second and ${seconds.at(-1)!.p99} ms in the last` : ''}`;
  return html`<figure class="chart paced-latency" data-paced-key="${key.label}">
<figcaption><strong>${key.label}</strong> · latency of the requests sent each second (ms)</figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${summary}" data-chart="paced-latency" data-seconds="${seconds.length}">
<title>${summary}</title>
${legend(LINES.map((l) => ({ mark: html`<line class="${l.cls}" x1="0" y1="0" x2="18" y2="0"/>`, label: l.metric })))}
${svg}
${LINES.map((l) =>
  seconds.length > 1
    ? html`<polyline class="${l.cls}" fill="none" data-metric="${l.metric}" points="${seconds.map((s) => `${num(mid(s))},${num(y(s[l.metric]))}`).join(' ')}"/>`
    : seconds.length === 1
      ? html`<circle class="${l.cls}" data-metric="${l.metric}" cx="${num(mid(seconds[0]!))}" cy="${num(y(seconds[0]![l.metric]))}" r="3"/>`
      : '',
)}
${seconds.length === 0 ? html`<text class="no-data" x="${num((PLOT.left + PLOT.right) / 2)}" y="${num((PLOT.top + PLOT.bottom) / 2)}" text-anchor="middle">No response recorded</text>` : ''}
</svg>
</figure>`;
}

/** The answers to the requests sent in each second: 2xx, 429 (crossed) and other, stacked. */
export function pacedAnswersChart(key: PacedLoadKey): Html {
  const seconds = key.perSecond;
  const last = seconds.at(-1)?.second ?? 0;
  const yAxis = niceTicks(Math.max(1, ...seconds.map((s) => s.sent)), 5, 1);
  const { svg, x, y } = axes(last + 1, yAxis, 'requests');
  const width = Math.max(1, (x(1) - x(0)) * 0.7);
  const bar = (s: Second, from: number, count: number, cls: string) =>
    count > 0 ? html`<rect class="${cls}" data-second="${s.second}" data-count="${count}" x="${num(x(s.second + 0.15))}" y="${num(y(from + count))}" width="${num(width)}" height="${num(y(from) - y(from + count))}"/>` : '';
  const crosses = seconds.filter((s) => s.rejected > 0).map((s) => {
    const cx = x(s.second + 0.5);
    const cy = y(s.ok + s.rejected) - 8;
    return `M${num(cx - 4)} ${num(cy - 4)}l8 8m0 -8l-8 8`;
  });
  const total429 = seconds.reduce((n, s) => n + s.rejected, 0);
  const summary = `${key.label}: ${key.accepted} 2xx and ${total429} × 429 over ${seconds.length} s, at ${key.achievedRate} of ${key.askedRate} requests/s`;
  return html`<figure class="chart paced-answers" data-paced-key="${key.label}">
<figcaption><strong>${key.label}</strong> · answers to the requests sent each second</figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${summary}" data-chart="paced-answers" data-429="${total429}">
<title>${summary}</title>
${legend([
  { mark: html`<rect class="bar-ok" x="0" y="-6" width="18" height="12"/>`, label: '2xx' },
  { mark: html`<g><rect class="bar-429" x="0" y="-6" width="18" height="12"/><path class="m429" d="M5 -4l8 8m0 -8l-8 8"/></g>`, label: '429' },
  { mark: html`<rect class="bar-other" x="0" y="-6" width="18" height="12"/>`, label: 'other, none' },
])}
${svg}
${seconds.map((s) => html`${bar(s, 0, s.ok, 'bar-ok')}${bar(s, s.ok, s.rejected, 'bar-429')}${bar(s, s.ok + s.rejected, s.other + s.noResponse, 'bar-other')}`)}
${crosses.length > 0 ? html`<path class="m429" fill="none" d="${crosses.join('')}"/>` : ''}
</svg>
</figure>`;
}

function figuresTable(section: NonNullable<Report['pacedLoad']>): Html {
  const cell = (n: number) => html`<td class="num">${num(n)}</td>`;
  const head = ['Sent', '2xx', '429', 'Other', 'No response', 'Dropped', 'Duration', 'Asked /s', 'Achieved /s', 'Gap p50 ms', 'Gap p99 ms', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'];
  return html`<div class="table-wrap"><table class="paced-figures" aria-label="Paced load figures per key">
<thead><tr><th scope="col">Key</th>${head.map((h) => html`<th scope="col" class="num">${h}</th>`)}</tr></thead>
<tbody>${section.keys.map((k) =>
    k.skipped
      ? html`<tr data-paced-row="${k.label}"><th scope="row">${k.label}</th><td colspan="${head.length}" class="muted">not paced: ${k.skipped}</td></tr>`
      : html`<tr data-paced-row="${k.label}"><th scope="row">${k.label}</th>${[k.sent, k.accepted, k.rejected, k.other, k.noResponse, k.dropped].map(cell)}<td class="num">${formatDuration(k.durationMs)}</td>${[
          k.askedRate,
          k.achievedRate,
          k.gaps.p50,
          k.gaps.p99,
          k.latency.p50,
          k.latency.p95,
          k.latency.p99,
          k.latency.max,
        ].map(cell)}</tr>`,
  )}</tbody>
</table></div>`;
}

function thresholdsText(section: NonNullable<Report['pacedLoad']>): Html {
  const o = section.overall;
  const t = section.thresholds;
  const set = t ? Object.entries(t).filter(([, v]) => v !== undefined) : [];
  const all = `All keys: ${num(o.sent)} requests, ${num(o.errors)} errors (rate ${o.errorRate === 0 ? '0' : o.errorRate.toPrecision(2)}), latency p50 ${num(o.latency.p50)} ms, p95 ${num(o.latency.p95)} ms, p99 ${num(o.latency.p99)} ms.`;
  return html`<p data-paced-overall>${all} ${set.length > 0 ? html`Thresholds (load.thresholds): ${set.map(([name, v]) => `${name} ${v}`).join(', ')}.` : html`<span class="muted">No thresholds set (load.thresholds in the target config).</span>`}</p>`;
}

export function pacedLoadSection(report: Report): Html {
  const section = report.pacedLoad;
  if (!section) return html``;
  const paced = section.keys.filter((k) => !k.skipped);
  return html`<section id="paced-load" data-paced-keys="${paced.length}" aria-labelledby="paced-load-h">
<h2 id="paced-load-h">Paced load</h2>
<p class="note">Each key held at ${num(section.fraction * 100)}% of its plan's per-minute quota, at a constant arrival rate, for ${num(section.windows)} minute windows: no 429 may come while the client stays within its quota.</p>
${thresholdsText(section)}
${figuresTable(section)}
${paced.map((k) => html`${pacedLatencyChart(k)}${pacedAnswersChart(k)}`)}
</section>`;
}
