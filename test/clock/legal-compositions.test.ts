// Legal variations composed (targets/reference/families.ts), each combination the smallest that
// once broke the invariant of npm run verify:legal: no `must` check fails on a legal server. Each
// runs on the virtual clock as verify:legal --clock-only runs it, judged by the same invariant.
import { describe, expect, it } from 'vitest';
import type { VariationId } from '../../targets/reference/variations.ts';
import { runCombination, serverOf } from '../support/legal-combos.ts';

describe('legal compositions: no must fails', () => {
  it.each<{ title: string; variations: VariationId[] }>([
    {
      // The limiter's HTTP-date is on its own clock (5 s behind ours); the Date of the instance that
      // answers is a second either way of it. Read from that Date alone, the date came a second early.
      title: 'an HTTP-date Retry-After from instances whose Dates disagree, their clock behind ours',
      variations: ['several-instances', 'clock-behind', 'headers-day-window', 'retry-after-http-date'],
    },
    {
      // The day window (which the headers describe) ends 498 ms into the run: it turns during the
      // first burst, Remaining back to 999 and Reset a day window later.
      title: 'headers of the day whose window turns during the burst, Resets rounded with noise',
      variations: ['retry-after-fractional-wait', 'headers-day-window', 'reset-jitter'],
    },
    {
      // The day's 429 counted in the minute's last second, answered 1.2 s later: the minute's Reset
      // it gives (rounded with noise) is a second before its Date.
      title: "headers of the minute on the day's 429 of a slow answer, Resets rounded with noise",
      variations: ['slow-day', 'headers-minute-window', 'reset-jitter'],
    },
    {
      // Token buckets whose headers describe the day: on 4 s and 40 s windows the day's refills
      // 25 a second, faster than the minute's 15, during the burst.
      title: "headers of the day's token bucket, refilled at the day's rate",
      variations: ['sliding-window', 'headers-day-window'],
    },
    {
      // The day spent across the day window's turn (slow answers), its Resets a second either way:
      // the window the latest of them names holds the next window's first requests.
      title: 'a slow day whose Resets are rounded with noise, its clock ahead of ours',
      variations: ['slow-day', 'clock-ahead', 'reset-jitter'],
    },
    {
      // A minute's Reset rounded a second down, on an answer 1.2 s slow from an instance a second
      // ahead: 3 s before its Date.
      title: 'slow answers from instances whose Dates disagree, Resets rounded with noise',
      variations: ['slow-day', 'several-instances', 'clock-ahead', 'reset-jitter', 'first-key-banned'],
    },
    {
      // A sliding log's Reset at Remaining 0 (when its oldest request leaves) fell back 3 s: read as a fixed window's turn.
      title: 'a sliding log whose Resets are rounded with noise',
      variations: ['sliding-log', 'reset-jitter'],
    },
    {
      // The last 2xx, counted before the 429 sent with it, arrived just after it: one short of Remaining.
      title: 'a sliding log whose answers arrive in another order than counted',
      variations: ['answers-reordered', 'sliding-log'],
    },
    {
      // A fixed window turned under Resets rounded a second either side of each end: the turn went unseen.
      title: 'a fixed window turning under noisy Resets, its clock behind ours',
      variations: ['clock-behind', 'reset-jitter'],
    },
    {
      // And a Date a second behind the limiter's clock: Reset 3 s past a window after it.
      title: 'sliding logs whose Resets are rounded with noise, behind instances whose Dates disagree',
      variations: ['instances-clock-skew', 'sliding-log', 'reset-jitter'],
    },
    {
      // A token bucket's day: the 429's Reset names the next token, within a second; the instance
      // that answered dates it a second ahead of the limiter's clock: Reset at its Date's second.
      title: "a day's token bucket behind instances whose Dates disagree",
      variations: ['several-instances', 'sliding-window', 'headers-day-window', 'retry-after-http-date', 'rejected-count-against-quota'],
    },
    {
      title: "a day's token bucket behind two instances a second apart, far away, Resets rounded with noise",
      variations: ['far-away', 'instances-clock-skew', 'clock-behind', 'sliding-window', 'reset-jitter'],
    },
    {
      // The day's token bucket: its next token within the Date's second, the Reset rounded with noise to that second.
      title: "a day's token bucket whose Resets are rounded with noise, refused requests counted",
      variations: ['sliding-window', 'reset-jitter', 'rejected-count-against-quota'],
    },
    {
      // The day's token bucket, its full-again Reset drifting on with every request (each step
      // within the rounding slack, the drift beyond it): once taken for a fixed day's end.
      title: "a day's token bucket under headers of the day, slow answers",
      variations: ['slow-day', 'sliding-window', 'headers-day-window'],
    },
  ])('$title ($variations)', async ({ variations }) => {
    const outcome = await runCombination(serverOf(variations), { parts: ['clock'] });
    expect(outcome.violations.map((v) => v.text)).toEqual([]);
  });
});
