// The phrases every rendering of a diff shares (console, Markdown, HTML): a run, one side of a
// check, a key's rate-limit facts, a figure and its change. Pure.
import type { CheckChange, Figure, KeyChange, KeyPicture, RunSummary, Side } from './diff-model.ts';

/** "ref (http://…/v1), 2026-11-27T13:24:12.819Z, seed 1: conformant, 52 checks, 111 requests". */
export function runText(r: RunSummary): string {
  return `${r.target} (${r.baseUrl}), ${r.startedAt}, seed ${r.seed}${r.strict ? ', --strict' : ''}: ${r.verdict === 'pass' ? 'conformant' : 'not conformant'}, ${r.checks} checks, ${r.requests} requests`;
}

/** "fail (not-401)", "pass", "absent", "fail (expected: TICKET-1)". */
export function sideText(s: Side | undefined): string {
  if (!s) return 'absent';
  return `${s.outcome}${s.code !== undefined && s.outcome !== 'pass' ? ` (${s.code})` : ''}${s.expected !== undefined ? ` [expected: ${s.expected}]` : ''}`;
}

/** The first line of a message, at most `max` characters. */
export function firstLine(s: string, max = 160): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What HEAD says about a check, else what BASE said: the finding behind a change. */
export function findingOf(c: CheckChange): string {
  return (c.head && c.head.outcome !== 'pass' ? c.head : (c.base ?? c.head))?.message ?? '';
}

/** "matched by id: was [free#1], [pro#1]" for a check that moved between a key's results and the run's. */
export function movedText(c: CheckChange): string | undefined {
  return c.movedFrom ? `matched by id: was ${c.movedFrom.map((s) => (s === undefined ? '(no subject)' : `[${s}]`)).join(', ')}` : undefined;
}

function first429Text(p: KeyPicture): string {
  const f = p.first429;
  if (!f) return 'no 429';
  const beyond = f.beyondRemaining === undefined ? '' : f.beyondRemaining === 0 ? ', at the Remaining stated' : f.beyondRemaining > 0 ? `, ${f.beyondRemaining} beyond the Remaining stated` : `, ${-f.beyondRemaining} short of the Remaining stated`;
  return `answer ${f.position}, after ${f.accepted} 2xx${beyond}${f.retryAfter !== undefined ? `; Retry-After ${f.retryAfter}` : ''}`;
}

function honouredText(p: KeyPicture): string {
  switch (p.retryAfterHonoured) {
    case undefined:
      return 'not checked';
    case 'pass':
      return 'yes (the next request was let through)';
    case 'fail':
      return 'no (still refused after waiting it out)';
    case 'skip':
      return 'not judged (skipped)';
    case 'error':
      return 'not judged (error)';
  }
}

function dayText(p: KeyPicture): string {
  const d = p.day;
  return d ? `${d.ended}, ${d.accepted} 2xx${d.retryAfter !== undefined ? `; Retry-After ${d.retryAfter}` : ''}` : 'not spent';
}

/** A key's rate-limit facts as rows: what, BASE, HEAD, whether it changed. */
export function keyFacts(k: KeyChange): { fact: string; base: string; head: string; changed: boolean }[] {
  const of = (p: KeyPicture | undefined, text: (p: KeyPicture) => string) => (p ? text(p) : 'absent');
  return [
    { fact: 'limiter', text: (p: KeyPicture) => p.limiter },
    { fact: 'first 429', text: first429Text },
    { fact: 'Retry-After honoured', text: honouredText },
    { fact: 'day', text: dayText },
  ].map(({ fact, text }) => ({ fact, base: of(k.base, text), head: of(k.head, text), changed: k.changed.includes(fact) || k.base === undefined || k.head === undefined }));
}

/** "+12.5 %", "-3 %", "0 %", "new" (from 0), "" (a run lacks it). */
export function pctText(f: Figure): string {
  if (f.changePct !== undefined) return `${f.changePct > 0 ? '+' : ''}${f.changePct} %`;
  return f.base === 0 && f.head !== undefined ? 'new' : '';
}

/** "4 → 11 ms (+175 %)". */
export function figureText(f: Figure, unit: string): string {
  const pct = pctText(f);
  return `${f.base ?? '–'} → ${f.head ?? '–'}${unit ? ` ${unit}` : ''}${pct ? ` (${pct})` : ''}`;
}
