// Faults in how the day quota is counted that a day test stopping at its first problem would not
// see: the server lets a key through more than its day quota, then refuses it for longer than any
// client waits. Rewrite faults on the rate decision; the overrun itself is a flag read where the
// limiter is wired (server.ts: extraPerDay).
import type { FaultDefinition } from '../fault-definition.ts';
import { HEADER, type Reply } from '../http.ts';

/** How many day windows the spent day's 429 of fault rate-day-overrun-ban keeps the key out. */
const BAN_DAY_WINDOWS = 3;

function replaceHeader(reply: Reply, name: string, value: string): Reply {
  return reply.headers[name] === undefined ? reply : { ...reply, headers: { ...reply.headers, [name]: value } };
}

export const DAY_COUNT_FAULTS = [
  {
    id: 'rate-day-overrun-ban',
    breaks:
      'Request rate by plan: perDay + 1 requests are accepted per day window, and the spent day\'s 429 then keeps the key out ' +
      `for ${BAN_DAY_WINDOWS} day windows (Retry-After and X-RateLimit-Reset at that end, as a ban would), longer than any ` +
      'client waits: a day test that stops there never counts the day.',
    // The day's 429 names a ban-length wait: the day test stops before it, and still counts the day it saw.
    caught: { check: 'rate-limit.daily-quota', code: 'over-day-quota-shown-window' },
    rewrite: (reply, { rate }) => {
      const decision = rate?.decision;
      if (!decision || reply.status !== 429 || decision.allowed || decision.blockedBy !== 'day') return reply;
      const seconds = BAN_DAY_WINDOWS * decision.windowSeconds;
      const withReset = replaceHeader(reply, HEADER.reset, String(Math.ceil(decision.at / 1000) + seconds));
      return replaceHeader(withReset, HEADER.retryAfter, String(seconds));
    },
  },
] as const satisfies readonly FaultDefinition[];
