// Auto-escaping HTML templates: every interpolated value is escaped unless it is already Html; and
// the head of a self-contained page (report.html, the diff), whose CSP lets nothing load from
// anywhere and only its own inline style (and script) apply.
import { createHash } from 'node:crypto';
import type { Outcome } from '../result/model.ts';
import { replaceIllegalChars } from './text.ts';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return replaceIllegalChars(text, '\uFFFD').replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false || part === true) return '';
  return escapeHtml(String(part));
}

/** `html\`<p>${text}</p>\``: `false`, `null` and `undefined` render nothing, arrays are joined. */
export function html(strings: TemplateStringsArray, ...values: readonly Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Trusted markup written by this module (constant CSS and script). Never report data. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** How a page names an outcome. */
export const OUTCOME_LABEL: Record<Outcome, string> = { pass: 'Pass', fail: 'Fail', skip: 'Skipped', error: 'Error' };

const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The head of a self-contained page: nothing may load from anywhere; only the inline style and script given here apply or run. */
export function pageHead(title: string, style: string, script?: string): Html {
  const csp = `default-src 'none'; style-src ${cspHash(style)}; script-src ${script === undefined ? "'none'" : cspHash(script)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${trusted(style)}</style>
</head>`;
}
