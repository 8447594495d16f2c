// Every Retry-After the harness obeyed, judged: when it waited out a 429 (in any suite: the
// client's retries, the rate-limit suite's recoveries, the day followed to its end) and sent the
// next request with that key, that request is the 429's evidence. Refused again, the 429 named a
// time at which the key was still refused: "the client retries only after the indicated time" is
// then a promise the server does not keep. Pure: the run's exchanges in, a finding out.
import type { Exchange } from '../result/model.ts';
import { defineCheck } from './define.ts';
import { type Finding, pass, skip } from './types.ts';

const SHOWN = 3;

const keyOf = (e: Exchange) => (e.auth.kind === 'key' || e.auth.kind === 'key-in-query' ? e.auth.label : undefined);
const sentAt = (e: Exchange) => Date.parse(e.startedAt);
const answeredAt = (e: Exchange) => sentAt(e) + e.durationMs;

/** Waited out, then sent with the key and nothing else of the key in between (another request could have taken the room it was promised). */
function quiet(exchanges: readonly Exchange[], refusal: Exchange, next: Exchange): boolean {
  const key = keyOf(next);
  const [from, to] = [answeredAt(refusal), sentAt(next)];
  return !exchanges.some((e) => e !== next && e !== refusal && keyOf(e) === key && sentAt(e) > from && sentAt(e) < to);
}

const describe = (e: Exchange) => `${e.status}${e.responseHeaders['retry-after'] !== undefined ? ` (Retry-After ${e.responseHeaders['retry-after']})` : ' (no Retry-After)'}`;

export function judgeObeyedRetryAfters(exchanges: readonly Exchange[]): Finding {
  const bySeq = new Map(exchanges.map((e) => [e.seq, e]));
  let judged = 0;
  const broken: { refusal: Exchange; next: Exchange }[] = [];
  for (const next of exchanges) {
    const follows = next.followsRetryAfter;
    const refusal = follows ? bySeq.get(follows.seq) : undefined;
    // Without an answer there is nothing to judge.
    if (!refusal || next.status === undefined || keyOf(next) === undefined || !quiet(exchanges, refusal, next)) continue;
    judged += 1;
    if (next.status === 429) broken.push({ refusal, next });
  }
  if (judged === 0) return skip('no Retry-After was waited out in this run: no 429 came, or none named a time within what the harness waits');
  if (broken.length === 0) return pass(`${judged} Retry-After${judged > 1 ? 's' : ''} waited out; each time the next request was let through`);
  const line = ({ refusal, next }: (typeof broken)[number]) =>
    `${keyOf(next)}: request #${refusal.seq} got ${describe(refusal)}, until ${next.followsRetryAfter!.until}; #${next.seq}, sent ${((sentAt(next) - answeredAt(refusal)) / 1000).toFixed(1)} s later, got ${describe(next)}`;
  const shown = broken.slice(0, SHOWN);
  return {
    outcome: 'fail',
    code: 'refused-at-named-time',
    message: `${broken.length} of ${judged} Retry-Afters waited out named a time at which the key was still refused: ${line(broken[0]!)}`,
    expected: 'the request sent at the time a 429 names is let through ("the client retries only after the indicated time")',
    actual: shown.map(line).join('\n'),
    exchanges: shown.flatMap(({ refusal, next }) => [refusal, next]),
  };
}

export const retryAfterObeyed = defineCheck({
  id: 'rate-limit.retry-after-obeyed',
  clause: 'Limits / Exceeding the limit',
  suite: 'run',
  title: 'Every Retry-After the harness waited out named a time at which the next request was let through',
  severity: 'must',
  judge: judgeObeyedRetryAfters,
});
