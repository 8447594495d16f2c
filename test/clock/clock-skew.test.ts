// Clocks that disagree: the Dates of one service's answers may come from instances whose clocks
// differ by a second or two. The skew they show (lib/rate-limit/vocabulary.ts), the spans widened
// by it (day-count.ts), and the day counted so on the virtual clock: a service whose instances'
// clocks differ by a second passes, and one clock, however far off ours, keeps the precision that
// catches a day that lets one request too many through.
import { describe, expect, it } from 'vitest';
import { spansMeeting, spansWithin, widened } from '../../lib/rate-limit/day-count.ts';
import { dateSkewSeconds, meetDateOffsets } from '../../lib/rate-limit/vocabulary.ts';
import type { FaultId } from '../../targets/reference/faults.ts';
import type { VariationId } from '../../targets/reference/variations.ts';
import { driveOnClock, T0 } from '../support/drive-on-clock.ts';
import { KEYS, PLANS, WINDOWS } from '../support/fault-catalogue.ts';

const LABELS = ['free#1', 'free#2', 'pro#1', 'daily#1'];
const date = (ms: number) => new Date(ms).toUTCString();

describe('the skew the Dates show', () => {
  it.each([
    { title: 'no answer with a Date: none', answers: [], skew: 0 },
    { title: 'one clock, our own: none', answers: [[990, 1_000, 0], [3_000, 3_010, 3_000]], skew: 0 },
    { title: 'one clock 5 s ahead of ours: none', answers: [[990, 1_000, 5_000], [3_000, 3_010, 8_000]], skew: 0 },
    { title: 'a few ms apart: rounding, none', answers: [[990, 1_000, 0], [2_977, 2_987, 3_000]], skew: 0 },
    { title: 'two clocks a second apart: 1 s', answers: [[990, 1_000, 0], [3_000, 3_010, 3_000], [5_990, 6_000, 4_000], [8_000, 8_010, 7_000]], skew: 1 },
    { title: 'two clocks a few ms more than a second apart: 2 s (a Date may then be two seconds off)', answers: [[990, 1_000, 0], [3_000, 3_010, 3_000], [6_020, 6_030, 4_000]], skew: 2 },
    { title: 'clocks 5 s apart: at most CLOCK_SLACK_S', answers: [[990, 1_000, 0], [3_000, 3_010, 3_000], [8_000, 8_010, 3_000]], skew: 2 },
    { title: 'a slow answer bounds little: it meets any clock of its span', answers: [[990, 1_000, 0], [3_000, 5_010, 4_000]], skew: 0 },
  ])('$title', ({ answers, skew }) => {
    const met = answers.reduce((m: ReturnType<typeof meetDateOffsets>, [sentAt, receivedAt, at]) => meetDateOffsets(m, T0 + sentAt!, T0 + receivedAt!, date(T0 + at!)), undefined);
    expect(dateSkewSeconds(met)).toBe(skew);
  });

  it('an answer without a readable Date leaves what was known', () => {
    const met = meetDateOffsets(undefined, T0, T0 + 10, date(T0));
    expect(meetDateOffsets(met, T0, T0 + 10, undefined)).toEqual(met);
    expect(meetDateOffsets(met, T0, T0 + 10, 'not a date')).toEqual(met);
  });
});

describe('a span widened by the skew: certain in a window only where it lies in it either way', () => {
  // The day window [100, 140): a request dated 99 by a clock a second behind may have been let through at 100.
  const spans = [{ from: 99, to: 99 }, { from: 100, to: 100 }, { from: 101, to: 101 }, { from: 120, to: 121 }, { from: 139, to: 139 }, { from: 140, to: 140 }];
  it.each([
    { skew: 0, within: 4, meeting: 4 },
    { skew: 1, within: 2, meeting: 6 },
    { skew: 2, within: 1, meeting: 6 },
  ])('by $skew s: $within certain, $meeting that may belong to it', ({ skew, within, meeting }) => {
    const wide = spans.map((s) => widened(s, skew));
    expect(spansWithin(wide, 100, 140)).toHaveLength(within);
    expect(spansMeeting(wide, 100, 140)).toHaveLength(meeting);
  });
});

/**
 * 20 s into the clock's minute: the daily key's day is spent in the day window ending at 40 s, and
 * the request sent at its Retry-After, let through in the next day window's first second, is
 * answered on a connection whose Date is a second behind: dated in the window before.
 */
const AT_THE_TURN = T0 + 20_000;

describe('instances whose clocks differ by a second (variation instances-clock-skew)', () => {
  it('pass every rate-limit check; the day, counted where each request lies under the skew, says what it could not tell apart', async () => {
    const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations: ['instances-clock-skew'], start: AT_THE_TURN });
    for (const label of LABELS) expect({ label, failed: r.failed(label) }).toEqual({ label, failed: [] });
    expect(r.sim.ledger.dateSkew()).toBe(1);
    const day = r.runs.get('daily#1')!.day!;
    expect(day).toMatchObject({ ended: 'reopened', dateSkew: 1 });
    expect(r.findings('daily#1').get('rate-limit.daily-quota')).toMatchObject({
      outcome: 'pass',
      message: expect.stringMatching(/day quota enforced: 100 accepted in the day window .*; 1 more requests within 1 s of the day window's turn could belong to either window: Dates of this service differ by 1 s between answers, so more than the 100 is not certain/),
    });
  });
});

describe('one clock, however far off ours: today\'s precision', () => {
  it.each<{ variations: VariationId[] }>([{ variations: [] }, { variations: ['clock-ahead'] }, { variations: ['clock-behind'] }])('$variations: no skew, the day counted as before, a day one request too many still caught there', async ({ variations }) => {
    const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations, start: AT_THE_TURN });
    expect(r.sim.ledger.dateSkew()).toBe(0);
    expect(r.runs.get('daily#1')!.day!.dateSkew).toBeUndefined();
    expect(r.findings('daily#1').get('rate-limit.daily-quota')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('day quota enforced: 100 accepted in the day window') });
    expect(r.findings('daily#1').get('rate-limit.daily-quota')).toMatchObject({ message: expect.not.stringContaining('Dates of this service differ') });
    for (const [fault, code] of [['rate-day-one-too-many', 'over-day-quota'], ['rate-day-overrun-ban', 'over-day-quota-shown-window']] as [FaultId, string][]) {
      const faulty = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations, faults: [fault], start: AT_THE_TURN });
      expect({ fault, finding: faulty.findings('daily#1').get('rate-limit.daily-quota') }).toMatchObject({ fault, finding: { outcome: 'fail', code, message: expect.stringContaining('101 requests accepted in the day window') } });
    }
  });
});
