// lib/suite-kit/read-back.ts: reading back what the run wrote waits, with backoff and a bound, for
// a store whose reads lag its writes (on a virtual clock: no real time passes), and records the
// lag seen; create-pet.read-after-write-lag (info) says it and never fails.
import { describe, expect, it } from 'vitest';
import { readAfterWriteLag } from '../../../lib/checks/create-pet.ts';
import { READ_BACK, ReadBack } from '../../../lib/suite-kit/read-back.ts';
import { VirtualClock } from '../../support/virtual-clock.ts';

const T0 = Date.UTC(2030, 0, 1);

/** A getPet of an animal that becomes visible `lagMs` after T0 (never when undefined): its status, and when each read was made. */
function lagging(clock: VirtualClock, lagMs: number | undefined) {
  const readsAt: number[] = [];
  const read = async () => {
    readsAt.push(clock.now() - T0);
    return { status: lagMs !== undefined && clock.now() - T0 >= lagMs ? 200 : 404 };
  };
  return { read, readsAt };
}

const found = (res: { status: number }) => res.status !== 404;

describe('ReadBack.until', () => {
  it('visible at once: one read, no wait, and the run has seen no lag', async () => {
    const clock = new VirtualClock(T0);
    const readBack = new ReadBack(clock);
    const { read, readsAt } = lagging(clock, 0);
    expect((await clock.run(() => readBack.until(read, found))).status).toBe(200);
    expect(readsAt).toEqual([0]);
    expect(clock.fired).toBe(0);
    expect(readBack.seen()).toEqual({ reads: 1, waited: 0, largestMs: 0, largestNotYetMs: 0, gaveUp: 0, notWaited: 0, boundMs: READ_BACK.boundMs });
    expect(readAfterWriteLag.judge(readBack.seen())).toMatchObject({ outcome: 'pass', message: expect.stringContaining('every write was visible at once') });
  });

  it('visible after 300 ms: read again after 100 and 200 ms more, found, the lag recorded', async () => {
    const clock = new VirtualClock(T0);
    const readBack = new ReadBack(clock);
    const { read, readsAt } = lagging(clock, 300);
    expect((await clock.run(() => readBack.until(read, found))).status).toBe(200);
    expect(readsAt).toEqual([0, 100, 300]);
    expect(readBack.seen()).toMatchObject({ reads: 1, waited: 1, largestMs: 300, largestNotYetMs: 100, gaveUp: 0 });
    // A second read-back seen at once leaves the largest lag as it was.
    await clock.run(() => readBack.until(lagging(clock, 0).read, found));
    expect(readBack.seen()).toMatchObject({ reads: 2, waited: 1, largestMs: 300 });
    const finding = readAfterWriteLag.judge(readBack.seen());
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toMatch(/2 read-backs .*: 1 saw the write only after waiting; the largest lag seen: not visible 100 ms after the first read, visible 300 ms after it/);
  });

  it('never visible: gives up at the bound with the last answer (the check judges it and fails as before)', async () => {
    const clock = new VirtualClock(T0);
    const readBack = new ReadBack(clock);
    const { read, readsAt } = lagging(clock, undefined);
    expect((await clock.run(() => readBack.until(read, found))).status).toBe(404);
    // 100, 200, 400, 800, then the 500 left of the 2 s bound.
    expect(readsAt).toEqual([0, 100, 300, 700, 1500, 2000]);
    expect(clock.now() - T0).toBe(READ_BACK.boundMs);
    expect(readBack.seen()).toMatchObject({ reads: 1, waited: 0, largestMs: 0, gaveUp: 1 });
    // Info: never a failure; the write never seen is its own check's.
    expect(readAfterWriteLag.severity).toBe('info');
    expect(readAfterWriteLag.judge(readBack.seen())).toMatchObject({ outcome: 'pass', message: expect.stringContaining('1 never saw the write within 2000 ms') });
  });

  it('once a read-back gave up and none has seen a write late, later ones do not wait (a store that loses writes, not one that lags)', async () => {
    const clock = new VirtualClock(T0);
    const readBack = new ReadBack(clock);
    await clock.run(() => readBack.until(lagging(clock, undefined).read, found));
    const start = clock.now();
    const { read, readsAt } = lagging(clock, undefined);
    expect((await clock.run(() => readBack.until(read, found))).status).toBe(404);
    expect(readsAt).toHaveLength(1);
    expect(clock.now()).toBe(start);
    expect(readBack.seen()).toMatchObject({ reads: 2, gaveUp: 1, notWaited: 1 });
    expect(readAfterWriteLag.judge(readBack.seen()).message).toContain('1 more not seen were not waited for');
  });

  it('where a read-back has seen a write late, a later one that gives up does not stop the waiting', async () => {
    const clock = new VirtualClock(T0);
    const readBack = new ReadBack(clock);
    await clock.run(() => readBack.until(lagging(clock, 300).read, found));
    await clock.run(() => readBack.until(lagging(clock, undefined).read, found));
    const { read, readsAt } = lagging(clock, undefined);
    await clock.run(() => readBack.until(read, found));
    expect(readsAt).toHaveLength(6);
    expect(readBack.seen()).toMatchObject({ reads: 3, waited: 1, gaveUp: 2, notWaited: 0 });
  });

  it('says nothing was read back when nothing was', () => {
    expect(readAfterWriteLag.judge(new ReadBack(new VirtualClock(T0)).seen()).outcome).toBe('skip');
  });
});

describe('ReadBack.settle, before a read that must find nothing', () => {
  it('does not wait where no read has lagged', async () => {
    const clock = new VirtualClock(T0);
    const readBack = new ReadBack(clock);
    await clock.run(() => readBack.until(lagging(clock, 0).read, found));
    expect(await clock.run(() => readBack.settle())).toBe(0);
    expect(clock.now()).toBe(T0);
  });

  it('waits out the largest lag seen since the write was answered', async () => {
    const clock = new VirtualClock(T0);
    const readBack = new ReadBack(clock);
    await clock.run(() => readBack.until(lagging(clock, 700).read, found));
    expect(readBack.seen().largestMs).toBe(700);
    const answeredAt = clock.now();
    await clock.run(() => clock.sleep(200));
    expect(await clock.run(() => readBack.settle(answeredAt))).toBe(500);
    expect(clock.now()).toBe(answeredAt + 700);
  });
});
