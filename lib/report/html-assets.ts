// Constant stylesheet and script inlined into report.html. Neither may load anything from anywhere.

export const STYLE = `
:root {
  --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de;
  --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #b3261e; --fail-bg: #ffebe9;
  --skip: #57606a; --skip-bg: #eaeef2; --error: #8a4600; --error-bg: #fff1d6; --link: #0550ae;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --panel: #161b22; --line: #30363d;
    --pass: #56d364; --pass-bg: #12261e; --fail: #ff7b72; --fail-bg: #2d1214;
    --skip: #9da7b3; --skip-bg: #21262d; --error: #e3b341; --error-bg: #2b2111; --link: #79c0ff;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.5;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
a { color: var(--link); }
h1 { font-size: 2.5rem; line-height: 1.1; margin: 0.25rem 0 0.75rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
h3 { margin-top: 1.75rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.875rem; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 0.5rem 0.75rem;
  white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.25rem 0 0.75rem; max-height: 40rem; overflow: auto; }
.verdict-pass { color: var(--pass); }
.verdict-fail { color: var(--fail); }
.muted, .note { color: var(--muted); }
.note { font-size: 0.875rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0 0 1rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); }
th { background: var(--panel); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.msg { overflow-wrap: anywhere; }
td.bad { color: var(--fail); background: var(--fail-bg); }
.badge { display: inline-block; padding: 0 0.45rem; border-radius: 999px; font-size: 0.8rem; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; }
.badge::before { margin-right: 0.25rem; }
.o-pass { color: var(--pass); background: var(--pass-bg); } .o-pass::before { content: "\\2713"; }
.o-fail { color: var(--fail); background: var(--fail-bg); } .o-fail::before { content: "\\2717"; }
.o-skip { color: var(--skip); background: var(--skip-bg); } .o-skip::before { content: "\\2013"; }
.o-error { color: var(--error); background: var(--error-bg); } .o-error::before { content: "!"; }
.sev { font-size: 0.8rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; }
details.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 4px;
  margin: 0.5rem 0; padding: 0.25rem 0.75rem; }
details.failure[data-outcome="error"] { border-left-color: var(--error); }
details > summary { cursor: pointer; }
details.failure > summary { padding: 0.25rem 0; }
details.failure > summary .finding { font-weight: 600; }
details.failure > summary .about { display: block; margin-left: 1.5rem; font-size: 0.9em; color: var(--muted); }
details.failure.explained { margin-left: 2rem; border-left-style: dashed; }
.exchange { border-top: 1px dashed var(--line); margin-top: 0.5rem; padding-top: 0.25rem; }
.repro-head { display: flex; align-items: center; gap: 0.75rem; }
button { font: inherit; font-size: 0.85rem; padding: 0.1rem 0.6rem; border: 1px solid var(--line); border-radius: 4px;
  background: var(--panel); color: var(--fg); cursor: pointer; }
#filters { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; padding: 0.5rem 0.75rem; background: var(--panel);
  border: 1px solid var(--line); border-radius: 4px; margin-top: 1.5rem; }
#filters fieldset { border: 0; margin: 0; padding: 0; }
#filters legend { font-weight: 600; padding: 0; float: left; margin-right: 0.5rem; }
#filters label { margin-right: 0.6rem; white-space: nowrap; }
#filter-count { align-self: center; color: var(--muted); font-size: 0.875rem; }
figure.chart { margin: 1rem 0 1.5rem; break-inside: avoid; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
figure.chart figcaption { margin-bottom: 0.25rem; overflow-wrap: anywhere; }
figure.chart svg { display: block; width: 100%; max-width: 48rem; height: auto; }
.chart text { fill: var(--fg); font-size: 12px; font-family: inherit; }
.chart .grid line, .chart line.grid { stroke: var(--line); stroke-width: 1; }
.chart .axis { fill: none; stroke: var(--muted); stroke-width: 1; }
.chart .remaining { fill: none; stroke: var(--link); stroke-width: 1.5; stroke-linejoin: round; }
.chart .remaining-dot { fill: var(--link); }
.chart .reset { stroke: var(--muted); stroke-width: 1; stroke-dasharray: 4 3; }
.chart .m429 { fill: none; stroke: var(--fail); stroke-width: 2; }
.chart .mother { fill: var(--error); stroke: var(--error); }
.chart .no-data { fill: var(--muted); }
.chart .panel-title { font-weight: 600; font-size: 13px; }
.chart .bar-p50 { fill: var(--link); fill-opacity: 0.35; stroke: var(--link); }
.chart .bar-p90 { fill: var(--link); fill-opacity: 0.65; stroke: var(--link); }
.chart .bar-p99 { fill: var(--link); stroke: var(--link); }
.chart .bar-asked { fill: none; stroke: var(--fg); stroke-dasharray: 4 2; }
.chart .bar-achieved { fill: var(--pass); stroke: var(--pass); }
.chart .line-p50 { fill: none; stroke: var(--link); stroke-width: 1.5; stroke-dasharray: 2 3; }
.chart .line-p95 { fill: none; stroke: var(--link); stroke-width: 1.5; stroke-dasharray: 7 3; }
.chart .line-p99 { fill: none; stroke: var(--link); stroke-width: 2.5; }
.chart circle.line-p50, .chart circle.line-p95, .chart circle.line-p99 { fill: var(--link); }
.chart .bar-ok { fill: var(--pass); fill-opacity: 0.6; stroke: var(--pass); }
.chart .bar-429 { fill: var(--fail); fill-opacity: 0.6; stroke: var(--fail); }
.chart .bar-other { fill: var(--muted); fill-opacity: 0.4; stroke: var(--muted); }
@media (max-width: 40rem) {
  h1 { font-size: 1.9rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 0.4rem; }
  .col-dur { display: none; }
}
@media print {
  :root { --fg: #000; --bg: #fff; --panel: #fff; --muted: #333; }
  #filters, button { display: none !important; }
  main { max-width: none; padding: 0; }
  pre { max-height: none; overflow: visible; }
  tr, details.failure, .exchange { break-inside: avoid; }
  h2 { break-after: avoid; }
}
`;

/** Progressive enhancement only: reveals the controls, filters rows, copies commands, opens details for print. */
export const SCRIPT = `
(function () {
  var doc = document;
  var each = function (selector, fn) { Array.prototype.forEach.call(doc.querySelectorAll(selector), fn); };
  each('[data-enhance]', function (el) { el.hidden = false; });
  var boxes = Array.prototype.slice.call(doc.querySelectorAll('#filters input[type=checkbox]'));
  var apply = function () {
    var on = {};
    boxes.forEach(function (box) { on[box.value] = box.checked; });
    var shown = 0, total = 0;
    each('.filterable', function (el) {
      el.hidden = !(on['outcome:' + el.getAttribute('data-outcome')] && on['severity:' + el.getAttribute('data-severity')]);
      if (el.tagName === 'TR') { total++; if (!el.hidden) shown++; }
    });
    each('section.clause', function (section) {
      section.hidden = !section.querySelector('tr.filterable:not([hidden])');
    });
    var count = doc.getElementById('filter-count');
    if (count) count.textContent = 'Showing ' + shown + ' of ' + total + ' checks';
  };
  boxes.forEach(function (box) { box.addEventListener('change', apply); });
  if (boxes.length) apply();
  each('button[data-copy]', function (button) {
    var reset = function () { setTimeout(function () { button.textContent = 'Copy'; }, 2000); };
    button.addEventListener('click', function () {
      var source = doc.getElementById(button.getAttribute('data-copy'));
      if (!source) return;
      var select = function () {
        var range = doc.createRange();
        range.selectNodeContents(source);
        var selection = window.getSelection();
        if (selection) { selection.removeAllRanges(); selection.addRange(range); }
        button.textContent = 'Selected: press Ctrl+C';
        reset();
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(source.textContent || '').then(function () {
          button.textContent = 'Copied';
          reset();
        }, select);
      } else {
        select();
      }
    });
  });
  var closed = [];
  window.addEventListener('beforeprint', function () {
    closed = [];
    each('details:not([open])', function (el) { closed.push(el); el.open = true; });
  });
  window.addEventListener('afterprint', function () {
    closed.forEach(function (el) { el.open = false; });
  });
})();
`;
