import { describe, expect, it } from 'vitest';
import { PeakTracker, type ProcessSample } from '../../../bench/peak.ts';

const p = (pid: number, kib: number, command = `node ${pid}`): ProcessSample => ({ pid, ppid: 1, command, kib });

describe('bench/peak PeakTracker', () => {
  it('keeps each process at its own peak, largest first, and the tree at its largest total', () => {
    const peaks = new PeakTracker();
    expect(peaks.add([p(10, 100), p(11, 50)], 100)).toBe(150);
    expect(peaks.add([p(10, 80), p(11, 90), p(12, 10)], 200)).toBe(180);
    expect(peaks.add([p(10, 120)], 300)).toBe(120);
    expect(peaks.perProcess().map((s) => [s.pid, s.kib])).toEqual([
      [10, 120],
      [11, 90],
      [12, 10],
    ]);
    const tree = peaks.treePeak();
    expect(tree).toMatchObject({ kib: 180, ms: 200 });
    expect(tree.at.map((s) => [s.pid, s.kib])).toEqual([
      [11, 90],
      [10, 80],
      [12, 10],
    ]);
  });

  it('keeps the command line of a process read as it ended, and leaves out processes never seen with memory', () => {
    const peaks = new PeakTracker();
    peaks.add([p(20, 5, 'node server'), p(21, 0, '')], 0);
    peaks.add([p(20, 7, '')], 100);
    expect(peaks.perProcess()).toEqual([{ pid: 20, ppid: 1, command: 'node server', kib: 7 }]);
  });
});
