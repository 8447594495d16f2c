// Auto-escaping HTML templates: every interpolated value is escaped unless it is already Html.
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
