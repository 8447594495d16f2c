// lib/load/careful.ts: one request at a time near the limit. Here, what it does with a request
// whose answer it cannot read: it stops at once, on the virtual clock.
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../lib/errors.ts';
import { careful } from '../../../lib/load/careful.ts';
import type { Connect } from '../../../lib/load/fast.ts';
import { VirtualClock } from '../../support/virtual-clock.ts';

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);

describe('careful: an answer it cannot read', () => {
  it('ends the part at once (no-answer), recording the failure: near the limit it may have been the first 429', async () => {
    const clock = new VirtualClock(T0);
    const sent: number[] = [];
    const connect: Connect = () => ({
      async get() {
        const n = sent.push(clock.now() - T0) - 1;
        await clock.sleep(5);
        if (n === 2) throw new TransportError('reset', 'CONNECTION_RESET');
        const remaining = String(10 - n);
        return { status: 200, header: (name) => (name === 'x-ratelimit-remaining' ? remaining : undefined), body: '' };
      },
      close: () => {},
    });
    const result = await clock.run(() => careful({ url: 'http://127.0.0.1:1/v1/pets?limit=1', headers: {}, rate: 10, maxRequests: 50, maxDurationMs: 60_000, timeoutS: 10, roomAbove: 100 }, { clock, connect }));
    expect(sent).toEqual([0, 100, 200]);
    expect(result).toMatchObject({ ended: 'no-answer', sent: 3, room: false, unanswered: [{ sentAt: T0 + 200, code: 'CONNECTION_RESET' }] });
    expect(result.points.map((p) => p.remaining)).toEqual([10, 9]);
  });
});
