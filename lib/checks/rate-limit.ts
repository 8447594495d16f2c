// Limits, for every configured key: the rate-limit suite's checks, in the order they are judged
// and listed (`--list-checks`). Each lives in the file of the clause it judges: the headers
// (rate-limit-headers.ts, headers-one-window.ts), the request rate by plan (rate-limit-quota.ts,
// one-quota.ts, rate-limit-day.ts), exceeding the limit (rate-limit-exceeded.ts). A key refused
// from the start (banned) was not driven: its checks skip, saying so (types.ts `driven`).
import { banProbe, retryAfterConsistent, retryAfterHonoured } from './rate-limit-exceeded.ts';
import { dailyQuota } from './rate-limit-day.ts';
import { bindingHeaders, headersWindow, limitHeader, remainingHeader, remainingZeroOn429, resetHeader, servedAtReset } from './rate-limit-headers.ts';
import { boundaryRace, isolation, load, perConnection, quota } from './rate-limit-quota.ts';
import { headersOneWindow } from './headers-one-window.ts';
import { oneQuota } from './one-quota.ts';

/** Judged once per configured key, from what that key's run recorded. */
export const RATE_LIMIT_CHECKS = [limitHeader, resetHeader, remainingHeader, quota, boundaryRace, perConnection, retryAfterConsistent, retryAfterHonoured, servedAtReset, isolation, oneQuota, dailyQuota, headersWindow, headersOneWindow, remainingZeroOn429, bindingHeaders, banProbe, load] as const;
