// Faults in rate limiting: what the X-RateLimit-* and Retry-After headers say, and what the
// limiter enforces. Header faults rewrite the finished Reply from the rate decision in its context
// (they touch only headers that are there, except rate-draft-headers, which renames them all);
// enforcement faults are flags read where the limiter is wired (server.ts: rate-one-too-many,
// rate-daily-not-enforced, rate-slow-refill, rate-day-429-minute-remaining) or called (app.ts: rate-never-429, rate-validation-first, rate-shared-bucket, rate-per-connection, rate-per-operation and rate-per-operation-no-reset, rate-counts-only-success, rate-check-then-count).
import type { FaultDefinition } from '../fault-definition.ts';
import { HEADER, RATE_LIMIT_HEADER_NAMES, withoutHeaders, type RateContext, type Reply, type ReplyContext } from '../http.ts';
import type { RateDecision, WindowState } from '../rate-limit.ts';

/** The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers), sent by fault rate-draft-headers. */
const DRAFT_HEADER = {
  policy: 'RateLimit-Policy',
  limit: 'RateLimit-Limit',
  remaining: 'RateLimit-Remaining',
  reset: 'RateLimit-Reset',
} as const;

/** Fault retry-after-day-only: the spent day's wait, under a per-window name instead of Retry-After. */
const RETRY_AFTER_DAY = 'Retry-After-day';

/** Fault rate-reset-early: how many seconds before its window turns a minute's 429 names. */
export const RESET_EARLY_S = 2;

/** Whole seconds from the decision to its Reset, rounded up, never negative. */
function secondsToReset({ reset, at }: RateDecision): number {
  return Math.max(0, Math.ceil((reset * 1000 - at) / 1000));
}

/** `reply` with one header replaced, if it has that header. */
function replaceHeader(reply: Reply, name: string, value: string): Reply {
  return reply.headers[name] === undefined ? reply : { ...reply, headers: { ...reply.headers, [name]: value } };
}

/**
 * `reply` with Limit, Remaining and Reset each taken from a window's state (the limiter's option
 * reportWindows), where it has those headers; as it was when a window is not counted (the day's,
 * under rate-daily-not-enforced) or the decision gives no states (a ban).
 */
function withWindows(reply: Reply, limit: WindowState | undefined, remaining: WindowState | undefined, reset: WindowState | undefined): Reply {
  if (!limit || !remaining || !reset) return reply;
  return replaceHeader(replaceHeader(replaceHeader(reply, HEADER.limit, String(limit.limit)), HEADER.remaining, String(remaining.remaining)), HEADER.reset, String(reset.reset));
}

/** A rewrite of the rate-limit headers of every reply that has a rate decision. */
function onRated(change: (reply: Reply, rate: RateContext) => Reply): (reply: Reply, context: ReplyContext) => Reply {
  return (reply, { rate }) => (rate === undefined ? reply : change(reply, rate));
}

/** A rewrite of the Retry-After of refusals. */
function onRefused(change: (reply: Reply, rate: RateContext) => Reply): (reply: Reply, context: ReplyContext) => Reply {
  return onRated((reply, rate) =>
    reply.status !== 429 || rate.decision.allowed || reply.headers[HEADER.retryAfter] === undefined ? reply : change(reply, rate),
  );
}

export const RATE_LIMIT_FAULTS = [
  {
    id: 'rate-remaining-constant',
    breaks: 'X-RateLimit-Remaining is the requests remaining: it always equals the limit (enforcement unchanged).',
    caught: { check: 'rate-limit.remaining' },
    rewrite: (reply) => {
      const limit = reply.headers[HEADER.limit];
      return limit === undefined ? reply : replaceHeader(reply, HEADER.remaining, limit);
    },
  },
  {
    id: 'rate-remaining-negative',
    breaks: 'X-RateLimit-Remaining never goes below 0: a 429 says -1, then -2, ... for each refusal in a row.',
    caught: { check: 'headers.rate-limit-present', code: 'rate-limit-header-not-integer' },
    rewrite: onRated((reply, { decision }) =>
      reply.status !== 429 || decision.allowed ? reply : replaceHeader(reply, HEADER.remaining, String(-decision.refusedInARow)),
    ),
  },
  {
    id: 'rate-reset-milliseconds',
    breaks: 'X-RateLimit-Reset is a Unix timestamp in seconds: it is given in milliseconds.',
    caught: { check: 'headers.rate-limit-present' },
    rewrite: onRated((reply, { decision }) => replaceHeader(reply, HEADER.reset, String(decision.reset * 1000))),
  },
  {
    id: 'rate-reset-fraction',
    breaks: 'X-RateLimit-Reset is an integer: it is the expiry with its hundredths of a second (1795656377.77), as a limiter that divides a millisecond expiry by 1000 writes it.',
    // One cause in the shape of the headers, one root failure quoting the value (issue 28).
    caught: { check: 'headers.rate-limit-present' },
    rewrite: onRated((reply, { decision }) => replaceHeader(reply, HEADER.reset, `${decision.reset - 1}.${String(37 + (decision.at % 60)).padStart(2, '0')}`)),
  },
  {
    id: 'rate-reset-relative',
    breaks: 'X-RateLimit-Reset is a Unix timestamp: it is the number of seconds until the reset instead.',
    caught: { check: 'headers.rate-limit-present' },
    rewrite: onRated((reply, { decision }) => replaceHeader(reply, HEADER.reset, String(secondsToReset(decision)))),
  },
  {
    id: 'rate-reset-window-start',
    breaks: 'X-RateLimit-Reset is when the limit resets: it is the start of the current window (in the past).',
    // With 2-second windows the start is at most a second behind the Date; comparing with Retry-After catches it.
    caught: { check: 'rate-limit.retry-after-consistent' },
    rewrite: onRated((reply, { decision }) => replaceHeader(reply, HEADER.reset, String(decision.reset - decision.windowSeconds))),
  },
  {
    id: 'rate-reset-early',
    breaks:
      'X-RateLimit-Reset is the moment the limit resets: a minute\'s 429 names one two seconds before its window turns, in ' +
      'Reset and in Retry-After alike (an expiry taken from a TTL read in whole seconds, less a second for the round trip, ' +
      'on each side), so a client that sends at Reset is refused.',
    // A client that sends only after Retry-After cannot meet an early Reset whose Retry-After is true:
    // the request at Reset is sent only where Retry-After names no later moment.
    caught: { check: 'rate-limit.served-at-reset', code: 'refused-at-reset' },
    rewrite: onRefused((reply, { decision }) =>
      decision.blockedBy !== 'minute' || decision.retryAfter === undefined
        ? reply
        : replaceHeader(replaceHeader(reply, HEADER.reset, String(decision.reset - RESET_EARLY_S)), HEADER.retryAfter, String(Math.max(0, decision.retryAfter - RESET_EARLY_S))),
    ),
  },
  {
    id: 'rate-day-reset-negative',
    breaks: 'X-RateLimit-Reset is a Unix timestamp: a 429 refused by the spent day quota says -1.',
    caught: { check: 'rate-limit.daily-quota' },
    rewrite: onRated((reply, { decision }) =>
      reply.status !== 429 || decision.blockedBy !== 'day' ? reply : replaceHeader(reply, HEADER.reset, '-1'),
    ),
  },
  {
    id: 'rate-day-retry-after-minute',
    breaks:
      'The client retries only after the indicated time: once the day quota is spent, 429s name in Retry-After when the minute ' +
      'window lets a request through again (as a minute limiter that counts refused requests and answers first would), while ' +
      'the day stays closed; X-RateLimit-* still describe the day. A client that obeys retries into another 429.',
    // The spent day's 429 says the minute's Retry-After: the request sent then is refused again.
    caught: { check: 'rate-limit.retry-after-obeyed' },
    rewrite: onRefused((reply, { decision }) =>
      decision.blockedBy !== 'day' || decision.minuteRetryAtMs === undefined
        ? reply
        : replaceHeader(reply, HEADER.retryAfter, String(Math.max(1, Math.ceil((decision.minuteRetryAtMs - decision.at) / 1000)))),
    ),
  },
  {
    id: 'rate-no-reset',
    breaks: 'Every response carries X-RateLimit-Reset: it is never sent (Limit and Remaining are).',
    caught: { check: 'headers.rate-limit-present' },
    rewrite: (reply) => ({ ...reply, headers: withoutHeaders(reply.headers, [HEADER.reset]) }),
  },
  {
    id: 'rate-no-remaining',
    breaks: 'Every response carries X-RateLimit-Remaining: it is never sent (Limit and Reset are).',
    caught: { check: 'headers.rate-limit-present' },
    rewrite: (reply) => ({ ...reply, headers: withoutHeaders(reply.headers, [HEADER.remaining]) }),
  },
  {
    id: 'rate-draft-headers',
    breaks: 'Rate limit headers are X-RateLimit-*: the IETF draft RateLimit-Limit, -Remaining, -Reset (delta) and -Policy come instead.',
    caught: { check: 'headers.rate-limit-present' },
    // As express-rate-limit with standardHeaders: true, legacyHeaders: false.
    rewrite: onRated((reply, { decision }) => ({
      ...reply,
      headers: {
        ...withoutHeaders(reply.headers, RATE_LIMIT_HEADER_NAMES),
        [DRAFT_HEADER.policy]: `${decision.limit};w=${decision.windowSeconds}`,
        [DRAFT_HEADER.limit]: String(decision.limit),
        [DRAFT_HEADER.remaining]: String(decision.remaining),
        [DRAFT_HEADER.reset]: String(secondsToReset(decision)),
      },
    })),
  },
  {
    id: 'rate-limit-wrong-plan',
    breaks: "X-RateLimit-Limit is the plan's limit: it shows another plan's per-minute quota (free shows pro's, others free's).",
    caught: { check: 'rate-limit.limit-header' },
    rewrite: onRated((reply, { plan, plans }) => {
      const other = plan === 'free' ? plans.pro : plans.free;
      return other === undefined ? reply : replaceHeader(reply, HEADER.limit, String(other.perMinute));
    }),
  },
  {
    id: 'rate-limit-of-day-window-of-minute',
    breaks:
      "X-RateLimit-Limit, -Remaining and -Reset describe one window: Limit is the day's quota while Remaining and Reset are the minute's " +
      '(a limiter with both windows that reports the larger limit), so the 429 comes when the minute runs out and Remaining is back each minute under the day\'s Limit.',
    caught: { check: 'rate-limit.headers-one-window', code: 'window-turned-too-soon' },
    rewrite: onRated((reply, { decision }) => withWindows(reply, decision.windows?.day, decision.windows?.minute, decision.windows?.minute)),
  },
  {
    id: 'rate-headers-mixed-windows',
    breaks:
      'X-RateLimit-Limit, -Remaining and -Reset describe one window: Limit and Reset are the day window\'s, Remaining the minute\'s ' +
      '(two limiters each writing some of the headers), so Remaining comes back each minute while Limit and Reset stay the day\'s.',
    caught: { check: 'rate-limit.headers-one-window' },
    rewrite: onRated((reply, { decision }) => withWindows(reply, decision.windows?.day, decision.windows?.minute, decision.windows?.day)),
  },
  {
    id: 'rate-remaining-of-day',
    breaks:
      'X-RateLimit-Limit, -Remaining and -Reset describe one window: Limit and Reset are the minute window\'s, Remaining the day\'s, ' +
      'so Remaining says more requests are left than Limit allows.',
    caught: { check: 'rate-limit.headers-one-window' },
    rewrite: onRated((reply, { decision }) => withWindows(reply, decision.windows?.minute, decision.windows?.day, decision.windows?.minute)),
  },
  {
    id: 'rate-day-429-minute-remaining',
    breaks:
      'On a 429, X-RateLimit-Remaining is 0 for the limit that refused: the headers always describe the minute window (as ' +
      'headers-minute-window), and a 429 of the spent day carries the minute\'s Remaining, above 0 while the minute has room ' +
      '(a limiter with both windows that writes the minute\'s counter whatever refused).',
    caught: { check: 'rate-limit.remaining-zero-on-429', code: 'day-429-minute-remaining' },
  },
  {
    id: 'rate-one-too-many',
    breaks: 'Request rate by plan: quota + 1 requests are accepted per minute window (headers still give the quota).',
    caught: { check: 'rate-limit.quota' },
  },
  {
    id: 'rate-never-429',
    breaks: 'A request over the limit receives 429: none ever does (the headers still count down to 0 and stay there).',
    caught: { check: 'rate-limit.quota' },
  },
  {
    id: 'rate-no-retry-after',
    breaks: 'A 429 carries a Retry-After header: it is missing.',
    caught: { check: 'rate-limit.retry-after-present' },
    rewrite: onRefused((reply) => ({ ...reply, headers: withoutHeaders(reply.headers, [HEADER.retryAfter]) })),
  },
  {
    id: 'retry-after-day-only',
    breaks:
      'A 429 carries a Retry-After header: the spent day\'s 429 carries only Retry-After-day (the seconds until the day ' +
      'resets) and no Retry-After, as a limiter keyed per window with per-window header names writes it; the minute\'s 429 keeps its Retry-After.',
    // Nothing in the day's 429 names a wait the interface reads: the minute's quota must not be
    // judged from it (issue 43), and retry-after-present fails on the day's 429s alone.
    caught: { check: 'rate-limit.retry-after-present' },
    rewrite: onRefused((reply, { decision }) =>
      decision.blockedBy !== 'day' || decision.retryAfter === undefined
        ? reply
        : { ...reply, headers: { ...withoutHeaders(reply.headers, [HEADER.retryAfter]), [RETRY_AFTER_DAY]: String(decision.retryAfter) } },
    ),
  },
  {
    id: 'rate-retry-after-milliseconds',
    breaks: 'Retry-After is delta-seconds or an HTTP-date (RFC 9110): it gives the wait in milliseconds.',
    caught: { check: 'rate-limit.retry-after-consistent' },
    rewrite: onRefused((reply, { decision }) =>
      decision.retryAtMs === undefined
        ? reply
        : replaceHeader(reply, HEADER.retryAfter, String(Math.max(1, Math.ceil(decision.retryAtMs - decision.at)))),
    ),
  },
  {
    id: 'rate-retry-after-fraction',
    breaks: 'Retry-After delta-seconds is a whole number (RFC 9110): it carries hundredths of a second ("49.75").',
    caught: { check: 'rate-limit.retry-after-format' },
    rewrite: onRefused((reply, { decision }) =>
      decision.retryAtMs === undefined
        ? reply
        : replaceHeader(reply, HEADER.retryAfter, Math.max(0.01, (decision.retryAtMs - decision.at) / 1000).toFixed(2)),
    ),
  },
  {
    id: 'rate-retry-after-too-short',
    breaks: 'The client retries only after Retry-After: it is 1 s shorter than the real wait (at least 0), so a retry then is refused.',
    caught: { check: 'rate-limit.retry-after-honoured' },
    rewrite: onRefused((reply, { decision }) =>
      decision.retryAfter === undefined ? reply : replaceHeader(reply, HEADER.retryAfter, String(Math.max(0, decision.retryAfter - 1))),
    ),
  },
  {
    id: 'rate-shared-bucket',
    breaks: "Limits are per key: every key counts in one shared bucket (each judged by its own plan's quota).",
    caught: { check: 'rate-limit.isolation' },
  },
  {
    id: 'rate-check-then-count',
    breaks:
      'Limits: the limiter decides on the count it read, then awaits its store (5 ms) before counting, so two requests ' +
      'arriving together at Remaining 1 are both let through.',
    caught: { check: 'rate-limit.boundary-race', code: 'both-accepted' },
  },
  {
    id: 'rate-per-connection',
    breaks: "Limits are per key: the limiter counts each of a key's connections on its own, so a client on four connections gets four quotas.",
    caught: { check: 'rate-limit.per-connection' },
  },
  {
    id: 'rate-per-operation',
    breaks:
      "Limits are per key: the limiter counts each operation of a key on its own (as @nestjs/throttler's default tracker " +
      'keyed by route does), so a key gets its plan once per operation.',
    // A mix of operations, valid and not, spends one window of one key.
    caught: { check: 'rate-limit.one-quota' },
  },
  {
    id: 'rate-per-operation-no-reset',
    breaks:
      "Limits are per key: the limiter counts each operation of a key on its own (as rate-per-operation), and neither " +
      'X-RateLimit-Reset nor Retry-After is ever sent, so nothing says when a window turned.',
    // The mix cannot tell a turn from another bucket by the headers: the other operation, let through
    // within the same quarter second after the 429, shows it (issue 37).
    caught: { check: 'rate-limit.one-quota' },
    rewrite: (reply) => ({ ...reply, headers: withoutHeaders(reply.headers, [HEADER.reset, HEADER.retryAfter]) }),
  },
  {
    id: 'rate-validation-first',
    breaks:
      'A request over the limit receives 429: the operation validates its input before the limiter refuses (validation middleware mounted before the limiter), ' +
      'so an invalid request over the limit gets its 400 instead of 429.',
    caught: { check: 'rate-limit.one-quota', code: 'not-429-over-limit' },
  },
  {
    id: 'rate-counts-only-success',
    breaks:
      "Request rate by plan: a request the server answers 4xx (400, 404, 405, ...) is given back to the key's quota once " +
      "answered (express-rate-limit's skipFailedRequests), so invalid requests are never counted.",
    caught: { check: 'rate-limit.one-quota' },
  },
  {
    id: 'rate-day-one-too-many',
    breaks: 'Request rate by plan: perDay + 1 requests are accepted per day window (the extra one says Remaining 0, Limit the quota); the minute quota is exact.',
    // Counted over the day window from every accepted request of the key, the main burst's included.
    caught: { check: 'rate-limit.daily-quota' },
  },
  {
    id: 'rate-slow-refill',
    breaks:
      "Request rate by plan: the minute limit is a token bucket holding the quota that refills at a third of the plan's rate " +
      '(its refill period read as three windows), so a client pacing itself at 90% of its quota is refused within two windows.',
    // Bursts cannot see a bucket that holds the quota but refills slowly: a client pacing itself at 90% of its quota does.
    caught: { check: 'load.paced-no-429', code: '429-within-quota' },
  },
  {
    id: 'rate-no-burst',
    breaks:
      "Request rate by plan: a smoothing limiter with no room for a burst lets a key's request through only a minute's share " +
      '(window / quota) after its last accepted one, and says so (Remaining 0, Reset when the next may come): a client that ' +
      'sends two requests in a row is refused far below its quota.',
    caught: { check: 'rate-limit.quota', code: 'refused-within-quota' },
  },
  {
    id: 'rate-daily-not-enforced',
    breaks: 'Request rate by plan: the per-day quota is never enforced, and the headers only ever describe the minute window.',
    caught: { check: 'rate-limit.daily-quota' },
  },
] as const satisfies readonly FaultDefinition[];
