// The politeness section of report.html: per key, the 429 periods of the run and the requests the
// harness sent into them, by why, so that a reviewer can see that the harness behaved. Pure.
import type { Report } from '../result/model.ts';
import type { KeyPoliteness } from '../result/politeness.ts';
import { num } from './charts.ts';
import { type Html, html } from './markup.ts';

export function politenessSection(report: Report): Html {
  const keys = report.politeness ?? [];
  if (keys.length === 0) {
    return html`<section id="politeness" data-politeness="0" aria-labelledby="politeness-h">
<h2 id="politeness-h">The harness's politeness</h2>
<p class="muted">No key got a 429 in this run: there was no 429 period to keep out of.</p>
</section>`;
  }
  return html`<section id="politeness" data-politeness="${keys.length}" aria-labelledby="politeness-h">
<h2 id="politeness-h">The harness's politeness</h2>
<p class="note">The requests of each key the harness sent inside a 429 period of that key, by its own clock: from the moment the 429 arrived, for what its Retry-After names (without one, until its X-RateLimit-Reset); a 429 arriving during a period extends it. Seqs are those of exchanges.jsonl.</p>
<ul class="note">
<li><strong>In flight</strong>: on the wire when the 429 came back (sent before it, answered after it or never; for a burst, its requests sent after the first 429).</li>
<li><strong>On purpose</strong>: sent early on purpose, and marked so in report.json (the one request of another operation of rate-limit.one-quota; the ban probe of a disposable key).</li>
<li><strong>Unexplained</strong>: sent for no reason the harness has: a bug of the harness, to be 0.</li>
</ul>
<div class="table-wrap"><table class="politeness" aria-label="Requests sent inside each key's 429 periods">
<thead><tr><th scope="col">Key</th><th scope="col" class="num">429s</th><th scope="col" class="num">Periods</th><th scope="col" class="num" title="429s that named no later moment: no readable Retry-After nor X-RateLimit-Reset">429s without a period</th><th scope="col" class="num">In flight</th><th scope="col" class="num">On purpose</th><th scope="col" class="num">Unexplained</th><th scope="col" class="num">Most in one period</th><th scope="col">Requests inside (seq)</th></tr></thead>
<tbody>${keys.map(row)}</tbody>
</table></div>
</section>`;
}

function row(k: KeyPoliteness): Html {
  const { inFlight, onPurpose, unexplained } = k.inside;
  const bad = unexplained > 0;
  const worst = k.worstPeriod ? html`${num(k.worstPeriod.requests)}<br><span class="muted">after the 429 of seq ${k.worstPeriod.seq}</span>` : html`<span class="muted">no period</span>`;
  const shown = k.inside.inFlight + k.inside.onPurpose + k.inside.unexplained;
  const examples = k.examples.length === 0 ? html`<span class="muted">none</span>` : html`${k.examples.join(', ')}${shown > k.examples.length ? html` <span class="muted">(${num(shown - k.examples.length)} more)</span>` : ''}`;
  return html`<tr data-politeness-key="${k.label}" data-unexplained="${unexplained}"><th scope="row">${k.label}${k.segment !== undefined ? html` <span class="muted">(segment ${k.segment})</span>` : ''}</th><td class="num">${num(k.refusals)}</td><td class="num">${num(k.periods)}</td><td class="num">${num(k.withoutPeriod)}</td><td class="num">${num(inFlight)}</td><td class="num">${num(onPurpose)}</td>${
    bad ? html`<td class="num bad"><strong>${num(unexplained)} ✗</strong></td>` : html`<td class="num">${num(unexplained)}</td>`
  }<td class="num">${worst}</td><td>${examples}</td></tr>`;
}
