// lib/suite-kit/store-commands.ts with lib/checks/stateful.ts: model-based sequences against an
// in-memory store (no sockets). A right store agrees with the model; a store that ignores limit
// when a status is given is found, shrunk to a short sequence, and replayed from seed and path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seen } from '../../../lib/checks/types.ts';
import { runSequence, type StoreApi, storeCommands } from '../../../lib/suite-kit/store-commands.ts';
import { stringifyJson } from '../../../lib/json.ts';
import type { NewPet, Pet } from '../../../lib/models.ts';
import { ReadBack } from '../../../lib/suite-kit/read-back.ts';
import { VirtualClock } from '../../support/virtual-clock.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const reply = (status: number, body: unknown): Seen => ({ status, headers: JSON_TYPE, text: stringifyJson(body) });

interface Bugs {
  limitIgnoredWithStatus?: boolean;
  filterIgnoredWithLimit?: boolean;
  newestMissingFromFilter?: boolean;
  /** Reads show an animal created only this long after its creation, on `clock` (a store whose reads lag its writes: legal). */
  readLag?: { ms: number; clock: VirtualClock };
}

/** An in-memory store: preloaded animals, then whatever is created. */
function memoryStore(bugs: Bugs = {}, preload = 30): StoreApi {
  const pets: Pet[] = Array.from({ length: preload }, (_, i) => ({ id: BigInt(i + 1), name: `pre ${i}`, categoryId: 1n, status: (['available', 'pending', 'sold'] as const)[i % 3] }));
  let next = BigInt(preload + 1);
  const shownAt = new Map<bigint, number>();
  const shown = (p: Pet) => !bugs.readLag || (shownAt.get(p.id) ?? 0) <= bugs.readLag.clock.now();
  return {
    create: async (body: NewPet) => {
      const pet: Pet = { id: next++, ...body };
      pets.push(pet);
      if (bugs.readLag) shownAt.set(pet.id, bugs.readLag.clock.now() + bugs.readLag.ms);
      return reply(201, pet);
    },
    list: async ({ limit, status }) => {
      const size = bugs.limitIgnoredWithStatus && status ? Infinity : (limit ?? 20);
      const filter = bugs.filterIgnoredWithLimit && limit !== undefined ? undefined : status;
      const pool = (bugs.newestMissingFromFilter && status ? pets.slice(0, -1) : pets).filter(shown);
      return reply(200, pool.filter((p) => filter === undefined || p.status === filter).slice(0, size));
    },
    get: async (id) => {
      const pet = pets.filter(shown).find((p) => p.id === id);
      return pet ? reply(200, pet) : reply(404, { code: 'not_found', message: 'no', status: 404 });
    },
  };
}

const commands = (writes = true) => storeCommands({ namePrefix: 'test ', writes, maxCommands: 8, maxShrinks: 200 });

async function check(bugs: Bugs, seed: number, writes = true) {
  return fc.check(
    fc.asyncProperty(commands(writes), async (cmds) => (await runSequence(cmds, memoryStore(bugs), writes)).failure === undefined),
    { seed, numRuns: 30 },
  );
}

describe('model-based sequences of the store', () => {
  it('a store that keeps to the interface agrees with the model, with writes and without', async () => {
    for (const seed of [1, 2, 3]) {
      expect((await check({}, seed)).failed).toBe(false);
      expect((await check({}, seed, false)).failed).toBe(false);
    }
  });

  it.each<[string, Bugs, RegExp]>([
    ['limit ignored when a status is given', { limitIgnoredWithStatus: true }, /more than limit/],
    ['the filter ignored when a limit is given', { filterIgnoredWithLimit: true }, /on a page filtered by status=/],
    ['an animal just created missing from its filtered listing', { newestMissingFromFilter: true }, /is not on it/],
  ])('finds %s, shrunk to a short sequence that fails the same way from its seed and path', async (_, bugs, message) => {
    const result = await check(bugs, 7);
    expect(result.failed).toBe(true);
    const shrunk = result.counterexample![0];
    const ran = String(shrunk).split(' /*')[0]!.split('),').length;
    expect(ran).toBeLessThanOrEqual(4);
    const replay = await runSequence(shrunk, memoryStore(bugs), true);
    expect(replay.failure?.problems.join('; ')).toMatch(message);
    // The same seed finds and shrinks to the same sequence: what the report's replay command relies on.
    const again = await check(bugs, 7);
    expect(String(again.counterexample![0])).toBe(String(shrunk));
  });

  it('a store whose reads lag its writes by 300 ms agrees with the model when reads wait (ReadBack), and not without', async () => {
    const clock = new VirtualClock(Date.UTC(2030, 0, 1));
    const readBack = new ReadBack(clock);
    const lagging = (wait: boolean): StoreApi => ({
      ...memoryStore({ readLag: { ms: 300, clock } }, 3),
      ...(wait ? { readBack: (read: () => Promise<Seen>, visible: (seen: Seen) => boolean) => readBack.until(read, visible) } : {}),
    });
    const sequences = fc.sample(commands(true), { seed: 11, numRuns: 20 });
    for (const cmds of sequences) expect((await clock.run(() => runSequence(cmds, lagging(true), true))).failure).toBeUndefined();
    expect(readBack.seen()).toMatchObject({ largestMs: 300, gaveUp: 0 });
    expect(readBack.seen().waited).toBeGreaterThan(0);
    const failures = [];
    for (const cmds of sequences) failures.push((await clock.run(() => runSequence(cmds, lagging(false), true))).failure?.code);
    expect(failures.some((code) => code === 'known-animal-missing' || code === 'get-not-200')).toBe(true);
  });

  it('without writes, only lists and gets, learning the store from what it reads', async () => {
    const sent: string[] = [];
    const store = memoryStore();
    const spy: StoreApi = {
      create: async (b) => (sent.push('create'), store.create(b)),
      list: async (q) => (sent.push('list'), store.list(q)),
      get: async (id) => (sent.push('get'), store.get(id)),
    };
    for (const cmds of fc.sample(commands(false), { seed: 5, numRuns: 20 })) await runSequence(cmds, spy, false);
    expect(sent).toContain('list');
    expect(sent).toContain('get');
    expect(sent).not.toContain('create');
  });
});
