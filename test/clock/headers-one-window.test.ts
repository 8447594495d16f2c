// rate-limit.headers-one-window on the virtual clock, against the reference server in this
// process: the faults that mix the windows of X-RateLimit-* fail it with a message naming both
// windows; the reference passes it, having judged answers, not skipped. (Every legal variation
// against every rate-limit check is catalogue.test.ts's.)
import { describe, expect, it } from 'vitest';
import { driveOnClock } from '../support/drive-on-clock.ts';
import { KEYS, PLANS, WINDOWS } from '../support/fault-catalogue.ts';

const ID = 'rate-limit.headers-one-window';
const LABELS = ['free#1', 'free#2', 'pro#1', 'daily#1'];

describe('rate-limit.headers-one-window on the virtual clock', () => {
  it("rate-headers-mixed-windows: Remaining back each minute under the day's Limit and Reset, named so", async () => {
    const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: ['rate-headers-mixed-windows'] });
    // The daily plan's day (100 in 40 s) gives back too little to explain the minute's 40 coming back.
    expect(r.findings('daily#1').get(ID)).toMatchObject({
      outcome: 'fail',
      code: 'remaining-rose-before-reset',
      message: expect.stringMatching(/Remaining 0 → 39 in [0-9.]+ s, with Limit 100 \(the day's quota\) and Reset [0-9]+ \([0-9]+ s away\) unchanged: the day window cannot give back 39 requests before its Reset .*it fits the minute's: 40 a minute/),
    });
  });

  it("rate-remaining-of-day: the day's Remaining above the minute's Limit, on every key", async () => {
    const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: ['rate-remaining-of-day'] });
    for (const label of LABELS) {
      expect({ label, finding: r.findings(label).get(ID) }).toMatchObject({
        label,
        finding: { outcome: 'fail', code: 'remaining-above-limit', message: expect.stringMatching(/X-RateLimit-Remaining [0-9]+ with Limit [0-9]+ \(the minute's quota\) .*Remaining counts the day, Limit the minute/) },
      });
    }
  });

  it("rate-limit-of-day-window-of-minute: the day's Limit over the minute's Remaining and Reset, which turn each minute, named so", async () => {
    const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, faults: ['rate-limit-of-day-window-of-minute'] });
    const failures = LABELS.map((label) => r.findings(label).get(ID)).filter((f) => f?.outcome === 'fail');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toMatchObject({
      code: 'window-turned-too-soon',
      message: expect.stringMatching(/Limit [0-9]+ \(the day's quota\), yet its window gave its requests back twice [0-9]+ s apart, in step with the minute \(Remaining [0-9]+ → [0-9]+ after Reset [0-9]+; Remaining [0-9]+ → [0-9]+ after Reset [0-9]+\), where a day window turns once in 40 s/),
    });
  });

  it('headers of the minute, turning each minute, pass: a window may turn once in its length', async () => {
    const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations: ['headers-minute-window'] });
    for (const label of LABELS) expect({ label, outcome: r.findings(label).get(ID)?.outcome }).toEqual({ label, outcome: 'pass' });
  });

  it('the reference passes, every key judged', async () => {
    const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS });
    for (const label of LABELS) expect({ label, finding: r.findings(label).get(ID) }).toMatchObject({ label, finding: { outcome: 'pass', message: expect.stringContaining('Remaining at most Limit on each') } });
  });
});
