// The rate-limit section of report.html: a timeline per key, the load chart and its figures.
import type { Report } from '../result/model.ts';
import type { RateLimitKey } from '../result/rate-limits.ts';
import { loadChart, num, timelineChart } from './charts.ts';
import { type Html, html } from './markup.ts';
import { formatDuration } from './text.ts';

/** Why there is nothing to chart, from the run's options. */
export function noRateLimitReason(report: Report): string {
  const { allowLoad, suites } = report.options;
  if (!allowLoad) return 'The rate-limit suite did not run: load was not allowed (pass --allow-load, or set allow.load in the target).';
  if (suites.length > 0 && !suites.includes('rate-limit')) return 'The rate-limit suite did not run: it was not selected (--suite rate-limit).';
  return 'The rate-limit suite did not run, or recorded no timeline.';
}

export function rateLimitSection(report: Report): Html {
  const keys = report.rateLimits ?? [];
  if (keys.length === 0) {
    return html`<section id="rate-limits" data-rate-limits="0" aria-labelledby="rate-limits-h">
<h2 id="rate-limits-h">Rate limits</h2>
<p class="muted" data-no-rate-limits>${noRateLimitReason(report)}</p>
</section>`;
  }
  const load = loadChart(keys);
  return html`<section id="rate-limits" data-rate-limits="${keys.length}" aria-labelledby="rate-limits-h">
<h2 id="rate-limits-h">Rate limits</h2>
<p class="note">Each key's responses during the rate-limit suite: X-RateLimit-Remaining as a line, 429 responses as crosses, window resets (X-RateLimit-Reset) as dashed lines.</p>
${keys.map((k) => timelineChart(k))}
<h3>Load</h3>
${load ? html`${load}${loadTable(keys)}` : html`<p class="muted">No key was driven under load.</p>`}
${dayTable(keys)}
</section>`;
}

/** The day test of each key that spent its day, apart from the rest: what it sent, its 429, the requests after it. */
function dayTable(keys: readonly RateLimitKey[]): Html {
  const days = keys.filter((k): k is RateLimitKey & { day: NonNullable<RateLimitKey['day']> } => k.day !== undefined);
  if (days.length === 0) return html``;
  const block = (p: RateLimitKey['timeline'][number] | undefined) =>
    p ? `${p.status}${p.retryAfter !== undefined ? `, Retry-After ${p.retryAfter}` : ''}${p.reset !== undefined ? `, Reset ${p.reset}` : ''}${p.limit !== undefined ? `, Limit ${p.limit}` : ''}` : 'none';
  return html`<h3>Daily quota</h3>
<div class="table-wrap"><table class="day-figures" aria-label="The day test of each key">
<thead><tr><th scope="col">Key</th><th scope="col" class="num">Requests</th><th scope="col" class="num">Accepted</th><th scope="col">Ended</th><th scope="col" class="num">Duration</th><th scope="col">The day's 429</th><th scope="col">After its Retry-After</th></tr></thead>
<tbody>${days.map(
    (k) =>
      html`<tr data-day-key="${k.label}" data-day-requests="${k.day.requests}"><th scope="row">${k.label}</th><td class="num">${num(k.day.requests)}</td><td class="num">${num(k.day.accepted)}</td><td>${k.day.ended}</td><td class="num">${formatDuration(k.day.elapsedMs)}</td><td>${block(k.day.block)}</td><td>${k.day.followUps.length > 0 ? k.day.followUps.map((p) => block(p)).join('; ') : 'none sent'}</td></tr>`,
  )}</tbody>
</table></div>`;
}

/** The main burst's figure, and the most any of the daily quota's bursts let through after a 429. */
function sentAfterFirst429Cell(k: RateLimitKey): Html {
  const main = k.load?.sentAfterFirst429;
  const day = (k.dayBursts ?? []).map((b) => b.sentAfterFirst429).filter((n): n is number => n !== undefined);
  const dayNote = day.length > 0 ? html`<br><span class="muted" data-day-bursts="${day.length}" data-day-most="${Math.max(...day)}">day: at most ${num(Math.max(...day))} in ${num(day.length)} bursts</span>` : html``;
  return main === undefined
    ? html`<td class="num muted" data-sent-after-first-429="">no 429${dayNote}</td>`
    : html`<td class="num" data-sent-after-first-429="${main}">${num(main)}${dayNote}</td>`;
}

function loadTable(keys: readonly RateLimitKey[]): Html {
  const cell = (n: number) => html`<td class="num">${num(n)}</td>`;
  return html`<div class="table-wrap"><table class="load-figures" aria-label="Load figures per key">
<thead><tr><th scope="col">Key</th><th scope="col" class="num">Sent</th><th scope="col" class="num">2xx</th><th scope="col" class="num">429</th><th scope="col" class="num">Other</th><th scope="col" class="num">In flight at stop</th><th scope="col" class="num" title="Requests sent before the first 429 came back and not answered by then: they reach the server after its first 429">Sent after first 429</th><th scope="col" class="num">Duration</th><th scope="col" class="num">Asked /s</th><th scope="col" class="num">Achieved /s</th><th scope="col" class="num">p50 ms</th><th scope="col" class="num">p90 ms</th><th scope="col" class="num">p99 ms</th><th scope="col" class="num">max ms</th></tr></thead>
<tbody>${keys.map((k) =>
    k.load
      ? html`<tr data-load-key="${k.label}"><th scope="row">${k.label}</th>${[k.load.sent, k.load.accepted, k.load.rejected, k.load.other, k.load.inFlightAtStop].map(cell)}${sentAfterFirst429Cell(k)}<td class="num">${formatDuration(k.load.durationMs)}</td>${[
          k.load.askedRate,
          k.load.achievedRate,
          k.load.latency.p50,
          k.load.latency.p90,
          k.load.latency.p99,
          k.load.latency.max,
        ].map(cell)}</tr>`
      : html`<tr data-load-key="${k.label}"><th scope="row">${k.label}</th><td colspan="13" class="muted">not driven under load</td></tr>`,
  )}</tbody>
</table></div>`;
}
