// Load segments on a virtual clock: two runners (--load-segment 1/2 and 2/2) drive the same keys at
// the same agreed moments against one reference server, and their key runs merged as `merge`
// merges them are judged once. A limiter kept per connection is caught over the merged runs; the
// reference passes. The command's own flow (processes, --start-at, merge) is test/e2e/segments.test.ts.
import { describe, expect, it } from 'vitest';
import { driveSegmentsOnClock } from '../support/drive-on-clock.ts';

const KEYS = [
  { key: 'sk-seg-free-1-1a2b3c', plan: 'free' },
  { key: 'sk-seg-pro-1-4d5e6f', plan: 'pro' },
];
const WINDOWS = { minute: 4, day: 40 };

describe('two load segments merged', () => {
  it('against the reference: every key passes over both runners, each crossing once', async () => {
    const r = await driveSegmentsOnClock({ keys: KEYS, windows: WINDOWS }, 2);
    for (const label of ['free#1', 'pro#1']) {
      expect({ label, failed: r.failed(label) }).toEqual({ label, failed: [] });
      expect(r.findings(label).get('rate-limit.quota')?.outcome).toBe('pass');
    }
    expect(r.server.stats().bans).toBe(0);
  });

  it('against a limiter per connection: the merged runs fail the quota and the per-connection check', async () => {
    const r = await driveSegmentsOnClock({ keys: KEYS.slice(0, 1), windows: WINDOWS, faults: ['rate-per-connection'] }, 2);
    expect(r.failed('free#1')).toEqual(expect.arrayContaining(['rate-limit.quota', 'rate-limit.per-connection']));
  });
});
