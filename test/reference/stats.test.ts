// The server's counters: early retries by blocked period (earlyByEpisode).
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../targets/reference/server.ts';
import { StatsRecorder } from '../../targets/reference/stats.ts';
import { KEYS, T0, TEST_CONFIG, call, fakeClock, startTestServer } from './helpers.ts';

describe('earlyByEpisode', () => {
  it('counts, for each blocked period, the early requests after the 429 that started it', () => {
    const stats = new StatsRecorder();
    const record = (keyLabel: string, status: number, earlyRetry: boolean) =>
      stats.record({ keyLabel, plan: 'free', method: 'GET', status, earlyRetry });
    record('k', 200, false);
    record('k', 429, false);
    record('k', 429, true);
    record('k', 429, true);
    // On time: the period is over.
    record('k', 200, false);
    record('k', 429, false);
    record('other', 429, false);
    record('k', 429, true);
    // Let through although early: counted, and the period is over.
    record('k', 200, true);
    // Early again, but no longer blocked: an early retry outside any period.
    record('k', 200, true);
    // Refused on time: one period ends without early requests, the next begins.
    record('k', 429, false);
    record('k', 429, false);
    const snapshot = stats.snapshot(0);
    expect(snapshot.byKey.k).toMatchObject({ earlyRetries: 5, rateLimited: 7, earlyByEpisode: [2, 2, 0, 0] });
    expect(snapshot.byKey.other?.earlyByEpisode).toEqual([0]);
    expect(snapshot.earlyRetries).toBe(5);
  });

  describe('over HTTP', () => {
    let server: RunningServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('is empty for a key never refused, and gives the most early requests after any 429', async () => {
      const clock = fakeClock(T0 + 10_250);
      const keys = [...TEST_CONFIG.keys, { key: 'test-tiny-key', plan: 'tiny' }];
      server = await startTestServer({ keys, plans: { ...TEST_CONFIG.plans, tiny: { perMinute: 1, perDay: 100 } } }, clock);
      const tiny = () => call(server!, 'GET', '/v1/pets', { key: 'test-tiny-key' });
      await call(server, 'GET', '/v1/pets', { key: KEYS.bulk });
      await tiny();
      for (let i = 0; i < 4; i++) await tiny();
      clock.advance(50_000);
      await tiny();
      await tiny();
      await tiny();
      clock.advance(60_000);
      expect((await tiny()).status).toBe(200);
      const byKey = server.stats().byKey;
      expect(byKey['bulk#1']?.earlyByEpisode).toEqual([]);
      expect(byKey['tiny#1']).toMatchObject({ earlyRetries: 4, earlyByEpisode: [3, 1] });
      expect(Math.max(...byKey['tiny#1']!.earlyByEpisode)).toBe(3);
    });
  });
});
