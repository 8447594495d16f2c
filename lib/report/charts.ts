// Inline SVG charts for report.html: the rate-limit timeline of each key and the load figures.
// Pure; sized by viewBox so they scale; colour is always paired with a shape, a dash or text.
import type { RateLimitKey } from '../result/rate-limits.ts';
import { type Html, html } from './markup.ts';
import { isAccepted } from '../status.ts';

type Point = RateLimitKey['timeline'][number];
type Load = NonNullable<RateLimitKey['load']>;

/** Timelines longer than this are thinned before drawing. */
export const MAX_TIMELINE_POINTS = 1500;
/** At most this many window-reset lines per timeline. */
export const MAX_RESET_LINES = 60;

const W = 720;
const H = 280;
const PLOT = { left: 60, right: W - 20, top: 40, bottom: H - 46 };

/** A number fit for an SVG attribute: finite, at most one decimal. */
export function num(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const r = Math.round(n * 10) / 10;
  return String(Object.is(r, -0) ? 0 : r);
}

/** Human-readable seconds: "0.2", "0.04", "12.3", "340". */
export function secondsText(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0';
  const s = ms / 1000;
  return String(Number(s.toFixed(s < 1 ? 2 : s < 100 ? 1 : 0)));
}

/** Ticks 0..top for an axis up to `max`, with steps of 1, 2 or 5 × 10^k (at least `minStep`). */
export function niceTicks(max: number, count = 5, minStep = 0): { ticks: number[]; top: number } {
  const m = Number.isFinite(max) && max > 0 ? max : 1;
  const raw = m / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(minStep, ([1, 2, 5, 10].find((f) => f * mag >= raw) ?? 10) * mag);
  const top = Math.ceil(m / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; i * step <= top + step / 1e6; i++) ticks.push(Number((i * step).toPrecision(12)));
  return { ticks, top };
}

/**
 * At most `max` items: every `important` item (thinned evenly if they alone would take more than
 * half), the first and the last, and every n-th of the rest.
 */
export function downsample<T>(items: readonly T[], max: number, important: (item: T, i: number) => boolean = () => false): T[] {
  if (items.length <= max) return [...items];
  const budget = Math.max(4, Math.floor(max));
  let must = items.map((item, i) => (important(item, i) ? i : -1)).filter((i) => i >= 0);
  const mustCap = Math.floor(budget / 2) - 2;
  if (must.length > mustCap) {
    const k = Math.ceil(must.length / Math.max(1, mustCap));
    must = must.filter((_, j) => j % k === 0);
  }
  const keep = new Set([0, items.length - 1, ...must]);
  const rest = budget - keep.size;
  const n = Math.ceil(items.length / Math.max(1, rest));
  for (let i = 0; i < items.length && keep.size < budget; i += n) keep.add(i);
  return [...keep].sort((a, b) => a - b).map((i) => items[i]!);
}

/** Largest finite value, or 0 (no spread: timelines may be long). */
const maxOf = (values: Iterable<number>) => {
  let m = 0;
  for (const v of values) if (Number.isFinite(v) && v > m) m = v;
  return m;
};

const is429 = (p: Point) => p.status === 429;

function sortedTimeline(key: RateLimitKey): Point[] {
  return key.timeline.filter((p) => Number.isFinite(p.t)).sort((a, b) => a.t - b.t);
}

/** One sentence for screen readers and the chart's tooltip. */
export function timelineSummary(key: RateLimitKey): string {
  const points = sortedTimeline(key);
  if (points.length === 0) return `${key.label}: no responses recorded`;
  const t0 = points[0]!.t;
  const span = points[points.length - 1]!.t - t0;
  const accepted = points.filter(isAccepted).length;
  const rejected = points.filter(is429).length;
  const other = points.length - accepted - rejected;
  const first429 = points.find(is429);
  const parts = [`${accepted} accepted`];
  if (rejected > 0) parts.push(`${rejected} × 429, first 429 after ${secondsText(first429!.t - t0)} s`);
  else parts.push(`no 429 in ${secondsText(span)} s`);
  if (other > 0) parts.push(`${other} other`);
  if (!points.some((p) => p.remaining !== undefined)) parts.push('no X-RateLimit-Remaining header');
  return `${key.label}: ${parts.join(', ')}`;
}

const cross = (x: number, y: number) => `M${num(x - 4)} ${num(y - 4)}l8 8m0 -8l-8 8`;
const diamond = (x: number, y: number) => `M${num(x)} ${num(y - 4)}l4 4l-4 4l-4 -4z`;

function legend(hasOther: boolean): Html {
  const y = 16;
  let x = PLOT.left;
  const items: Html[] = [];
  const add = (mark: Html, label: string, width: number) => {
    items.push(html`<g transform="translate(${num(x)} ${y})">${mark}<text x="24" y="4">${label}</text></g>`);
    x += width;
  };
  add(html`<line class="remaining" x1="0" y1="0" x2="18" y2="0"/>`, 'Remaining', 110);
  add(html`<path class="m429" d="${cross(9, 0)}"/>`, '429 response', 130);
  add(html`<line class="reset" x1="9" y1="-7" x2="9" y2="7" stroke-dasharray="4 3"/>`, 'window reset', 130);
  if (hasOther) add(html`<path class="mother" d="${diamond(9, 0)}"/>`, 'other status', 130);
  return html`<g class="legend">${items}</g>`;
}

/** A key's rate-limit timeline: Remaining over time, 429s marked, window resets as dashed lines. */
export function timelineChart(key: RateLimitKey, maxPoints = MAX_TIMELINE_POINTS): Html {
  const all = sortedTimeline(key);
  const summary = timelineSummary(key);
  const t0 = all[0]?.t ?? 0;
  const spanMs = all.length > 0 ? all[all.length - 1]!.t - t0 : 0;
  const xAxis = niceTicks(spanMs / 1000, 6);
  const yMaxSeen = maxOf(all.flatMap((p) => [p.remaining ?? 0, p.limit ?? 0]));
  const yAxis = niceTicks(yMaxSeen, 5, 1);
  const xOf = (ms: number) => PLOT.left + (ms / 1000 / xAxis.top) * (PLOT.right - PLOT.left);
  const yOf = (v: number) => PLOT.bottom - (Math.min(Math.max(v, 0), yAxis.top) / yAxis.top) * (PLOT.bottom - PLOT.top);

  let prev: number | undefined;
  const jumps = new Set<Point>();
  for (const p of all) {
    if (p.remaining === undefined) continue;
    if (prev !== undefined && p.remaining > prev) jumps.add(p);
    prev = p.remaining;
  }
  const shown = downsample(all, maxPoints, (p) => is429(p) || !isAccepted(p) || jumps.has(p));
  const line = shown.filter((p) => p.remaining !== undefined && Number.isFinite(p.remaining));
  // A step line: Remaining holds until the next response says otherwise.
  const vertices: string[] = [];
  line.forEach((p, i) => {
    const x = num(xOf(p.t - t0));
    const before = line[i - 1];
    if (before && before.remaining !== p.remaining && before.t !== p.t) vertices.push(`${x},${num(yOf(before.remaining!))}`);
    vertices.push(`${x},${num(yOf(p.remaining!))}`);
  });
  const at = (p: Point) => [xOf(p.t - t0), yOf(p.remaining ?? 0)] as const;
  const rejected = shown.filter(is429);
  const others = shown.filter((p) => !is429(p) && !isAccepted(p));

  const xRangeMs = xAxis.top * 1000;
  let resets = [...new Set(all.map((p) => p.reset).filter((r): r is number => r !== undefined && Number.isFinite(r)))]
    .map((reset) => ({ reset, ms: reset * 1000 - t0 }))
    .filter((r) => r.ms >= 0 && r.ms <= xRangeMs)
    .sort((a, b) => a.ms - b.ms);
  const resetTotal = resets.length;
  resets = downsample(resets, MAX_RESET_LINES);

  const notes: string[] = [];
  if (shown.length < all.length) notes.push(`Showing ${shown.length} of ${all.length} responses (every 429 and refill kept).`);
  if (resets.length < resetTotal) notes.push(`${resets.length} of ${resetTotal} window resets drawn.`);

  const q = key.quota;
  return html`<figure class="chart timeline" data-rate-limit-key="${key.label}">
<figcaption><strong>${key.label}</strong> · plan ${key.plan} · ${key.behaviour} · quota ${q.perMinute}/${key.windows.minute} s, ${q.perDay}/${key.windows.day} s</figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${summary}" data-chart="timeline" data-points="${all.length}" data-shown="${shown.length}">
<title>${summary}</title>
${legend(others.length > 0)}
<g class="grid">${yAxis.ticks.map((v) => html`<line x1="${PLOT.left}" y1="${num(yOf(v))}" x2="${PLOT.right}" y2="${num(yOf(v))}"/>`)}</g>
<g class="ticks y">${yAxis.ticks.map((v) => html`<text x="${PLOT.left - 6}" y="${num(yOf(v) + 4)}" text-anchor="end">${String(v)}</text>`)}</g>
<g class="ticks x">${xAxis.ticks.map(
    (s) => html`<line class="axis" x1="${num(xOf(s * 1000))}" y1="${PLOT.bottom}" x2="${num(xOf(s * 1000))}" y2="${PLOT.bottom + 5}"/><text x="${num(xOf(s * 1000))}" y="${PLOT.bottom + 18}" text-anchor="middle">${String(s)}</text>`,
  )}</g>
<path class="axis" d="M${PLOT.left} ${PLOT.top}V${PLOT.bottom}H${PLOT.right}"/>
<text x="${num((PLOT.left + PLOT.right) / 2)}" y="${H - 8}" text-anchor="middle">seconds since first response</text>
<text transform="translate(14 ${num((PLOT.top + PLOT.bottom) / 2)}) rotate(-90)" text-anchor="middle">X-RateLimit-Remaining</text>
${resets.map((r) => html`<line class="reset" data-reset="${r.reset}" x1="${num(xOf(r.ms))}" y1="${PLOT.top}" x2="${num(xOf(r.ms))}" y2="${PLOT.bottom}" stroke-dasharray="4 3"/>`)}
${
  line.length > 1
    ? html`<polyline class="remaining" fill="none" data-points="${line.length}" points="${vertices.join(' ')}"/>`
    : line.length === 1
      ? html`<circle class="remaining-dot" data-points="1" cx="${num(xOf(line[0]!.t - t0))}" cy="${num(yOf(line[0]!.remaining!))}" r="3"/>`
      : html`<text class="no-data" x="${num((PLOT.left + PLOT.right) / 2)}" y="${num((PLOT.top + PLOT.bottom) / 2)}" text-anchor="middle">${all.length === 0 ? 'No responses recorded' : 'No X-RateLimit-Remaining header seen'}</text>`
}
${others.length > 0 ? html`<path class="mother" data-count="${others.length}" d="${others.map((p) => diamond(...at(p))).join('')}"/>` : ''}
${rejected.length > 0 ? html`<path class="m429" fill="none" data-count="${rejected.length}" d="${rejected.map((p) => cross(...at(p))).join('')}"/>` : ''}
</svg>
${notes.length > 0 ? html`<p class="note">${notes.join(' ')}</p>` : ''}
</figure>`;
}

const LOAD = { label: 150, barStart: 160, barMax: 450, bar: 12, gap: 3, group: 16, head: 26, axis: 30 };
const LATENCIES = ['p50', 'p90', 'p99'] as const;

function short(label: string): string {
  return label.length > 22 ? `${label.slice(0, 21)}…` : label;
}

interface Bar {
  cls: string;
  metric: string;
  value: number;
  text: string;
}

function panel(title: string, keys: readonly { label: string; bars: Bar[] }[], top: number): { svg: Html; height: number } {
  const max = maxOf(keys.flatMap((k) => k.bars.map((b) => b.value)));
  const axis = niceTicks(max, 5);
  const w = (v: number) => (Number.isFinite(v) && v > 0 ? (Math.min(v, axis.top) / axis.top) * LOAD.barMax : 0);
  let y = top + LOAD.head;
  const groups = keys.map((k) => {
    const gTop = y;
    const bars = k.bars.map((b, i) => {
      const by = gTop + i * (LOAD.bar + LOAD.gap);
      return html`<rect class="${b.cls}" data-key="${k.label}" data-metric="${b.metric}" data-value="${num(b.value)}" x="${LOAD.barStart}" y="${by}" width="${num(w(b.value))}" height="${LOAD.bar}"/><text x="${num(LOAD.barStart + w(b.value) + 4)}" y="${by + LOAD.bar - 2}">${b.text}</text>`;
    });
    const gh = k.bars.length * (LOAD.bar + LOAD.gap) - LOAD.gap;
    y += gh + LOAD.group;
    return html`<g><title>${k.label}</title><text x="${LOAD.label}" y="${num(gTop + gh / 2 + 4)}" text-anchor="end">${short(k.label)}</text>${bars}</g>`;
  });
  const axisY = y - LOAD.group + 6;
  const ticks = axis.ticks.map((v) => {
    const x = num(LOAD.barStart + w(v));
    return html`<line class="grid" x1="${x}" y1="${top + LOAD.head - 4}" x2="${x}" y2="${axisY}"/><text x="${x}" y="${axisY + 14}" text-anchor="middle">${String(v)}</text>`;
  });
  return {
    svg: html`<g class="panel"><text class="panel-title" x="0" y="${top + 14}">${title}</text>${ticks}<path class="axis" d="M${LOAD.barStart} ${top + LOAD.head - 4}V${axisY}"/>${groups}</g>`,
    height: axisY + LOAD.axis - top,
  };
}

/** Load figures of every key that was driven: latency p50/p90/p99 and achieved versus asked rate. Null when none was. */
export function loadChart(keys: readonly RateLimitKey[]): Html | null {
  const loaded = keys.filter((k): k is RateLimitKey & { load: Load } => k.load !== undefined);
  if (loaded.length === 0) return null;
  const latency = panel(
    'Latency in ms: p50, p90, p99',
    loaded.map((k) => ({
      label: k.label,
      bars: LATENCIES.map((m) => ({ cls: `bar-${m}`, metric: m, value: k.load.latency[m], text: `${m} ${num(k.load.latency[m])} ms` })),
    })),
    0,
  );
  const rate = panel(
    'Rate in requests per second: achieved versus asked',
    loaded.map((k) => ({
      label: k.label,
      bars: [
        { cls: 'bar-asked', metric: 'asked', value: k.load.askedRate, text: `asked ${num(k.load.askedRate)}/s` },
        { cls: 'bar-achieved', metric: 'achieved', value: k.load.achievedRate, text: `achieved ${num(k.load.achievedRate)}/s` },
      ],
    })),
    latency.height,
  );
  const height = latency.height + rate.height;
  const summary =
    `Load per key: ` +
    loaded
      .map((k) => `${k.label} p50 ${num(k.load.latency.p50)} ms, p90 ${num(k.load.latency.p90)} ms, p99 ${num(k.load.latency.p99)} ms, ${num(k.load.achievedRate)} of ${num(k.load.askedRate)} requests/s`)
      .join('; ');
  return html`<figure class="chart load">
<figcaption>Latency and request rate under load, per key</figcaption>
<svg viewBox="0 0 ${W} ${num(height)}" role="img" aria-label="${summary}" data-chart="load" data-keys="${loaded.length}">
<title>${summary}</title>
${latency.svg}${rate.svg}
</svg>
</figure>`;
}
