// Legal variations composed (npm run verify:legal found them breaking the invariant): the smallest
// combinations of a limiter's kind, Reset's rounding, the order of answers and the server's clocks
// that once failed a must, each on the virtual clock. Every one is legal, so no must may fail.
import { describe, expect, it } from 'vitest';
import { checkById } from '../../lib/checks/registry.ts';
import type { VariationId } from '../../targets/reference/variations.ts';
import { driveOnClock } from '../support/drive-on-clock.ts';
import { KEYS, PLANS, WINDOWS } from '../support/fault-catalogue.ts';

const LABELS = ['free#1', 'free#2', 'pro#1', 'daily#1'];

describe('legal variations composed: no must fails', () => {
  it.each<{ variations: VariationId[]; once: string }>([
    // A sliding log's Reset at Remaining 0 (when its oldest request leaves) fell back 3 s: read as a fixed window's turn.
    { variations: ['sliding-log', 'reset-jitter'], once: 'rate-limit.quota not-the-stated-quota' },
    // The last 2xx, counted before the 429 sent with it, arrived just after it: one short of Remaining.
    { variations: ['answers-reordered', 'sliding-log'], once: 'rate-limit.quota refused-before-quota' },
    // A fixed window turned under Resets rounded a second either side of each end: the turn went unseen.
    { variations: ['clock-behind', 'reset-jitter'], once: 'rate-limit.quota more-than-refill-allows' },
    // And a Date a second behind the limiter's clock: Reset 3 s past a window after it.
    { variations: ['instances-clock-skew', 'sliding-log', 'reset-jitter'], once: 'rate-limit.reset-header reset-beyond-window' },
  ])('$variations (once $once)', async ({ variations }) => {
    const r = await driveOnClock({ keys: KEYS, plans: PLANS, windows: WINDOWS, variations });
    for (const label of LABELS) {
      const musts = [...r.findings(label)].filter(([id, f]) => f.outcome === 'fail' && checkById(id)?.severity === 'must').map(([id, f]) => `${id} ${f.outcome === 'fail' ? f.code : ''}: ${f.message}`);
      expect({ label, musts }).toEqual({ label, musts: [] });
    }
  });
});
