// The in-memory animal store. Ids and categoryIds are bigint so every int64 survives exactly.
import { INT64_MAX, type PetStatus } from '../../lib/models.ts';
import type { NewPetInput } from './pet-record.ts';
import { preloadedPet } from './preload.ts';
import { seededFraction } from './seeded.ts';

export type { NewPetInput } from './pet-record.ts';

export interface StoredPet {
  readonly id: bigint;
  readonly name?: string;
  readonly categoryId: bigint;
  /** Absent when the animal was created without one: the interface does not say what it defaults to. */
  readonly status?: PetStatus;
  /** The label of the key that created it through the API (fault get-only-by-creator); never shown. */
  readonly creator?: string;
  /** When it was stored, epoch ms: shown only by variation pet-extra-members (`createdAt`). */
  readonly createdAt: number;
}

/** Where a new animal comes from, for the faults that make ids or reads depend on it. */
export interface CreateOrigin {
  /** The label of the key that created it. */
  creator?: string;
  /**
   * Faults create-id-per-key and create-id-per-connection: the counter its id is drawn from. Each
   * such counter starts where the preload ended, so two counters hand out the same ids, and an
   * animal stored under a repeated id replaces the one stored there before.
   */
  idCounter?: string;
}

export interface ListQuery {
  status?: PetStatus;
  /** Fault list-filter-wrong-status: animals whose status is not `status`. */
  invertStatus?: boolean;
  /** Maximum number returned; undefined means no maximum. */
  limit?: number;
  /** Variation shuffled-order: every matching animal in a random order, then the first `limit`. */
  shuffled?: boolean;
  /** Fault list-filter-misses-new: only the preloaded animals (a status index never refreshed). */
  preloadedOnly?: boolean;
}

export interface StoreOptions {
  /** Variation ids-beyond-2^53. */
  idsBeyond2to53?: boolean;
  /** Variation ids-sharded: a sequence number times 2^32 plus a shard number. */
  idsSharded?: boolean;
  /** Variation ids-negative: -1, -2, -3, …. */
  idsNegative?: boolean;
  /** Variation ids-near-2^63: 2^63 - 1, 2^63 - 2, …. */
  idsNearMax?: boolean;
  /** Variation status-default-available: stored when a new animal has no status. */
  defaultStatus?: PetStatus;
  /** The server's clock, epoch ms: when an animal is stored (`createdAt`). Default Date.now. */
  now?: () => number;
  /**
   * Variation read-lag: how long after its `n`-th write through the API (from 0) the animal
   * written is shown to `get` and `list` (readLagMs). Preloaded animals are shown at once.
   */
  readLagMs?: (n: number) => number;
}

/** Variation read-lag: the longest a write waits before reads show it. */
export const READ_LAG = { maxMs: 1000 } as const;

const READ_LAG_SALT = 0x1a6;

/**
 * Variation read-lag: the lag of the store's `n`-th write through the API, 0 to READ_LAG.maxMs ms,
 * the same on every run. As a replica's lag goes, most are short and a few long: the maximum times
 * a uniform fraction to the fourth (half the writes within 63 ms, one in ten beyond 650 ms).
 */
export function readLagMs(n: number): number {
  return Math.floor(seededFraction(READ_LAG_SALT, n) ** 4 * (READ_LAG.maxMs + 1));
}

const BEYOND_2_TO_53 = 2n ** 53n + 1n;
const ID_SPREAD = 2n ** 62n;
// Odd, so n * step mod 2^62 never repeats; about 2^62 / 9, so ids climb towards 2^62 within a few.
const ID_STEP = 0x06f4_a7c1_5b3d_2e91n;
/** Variation ids-sharded: ids are (sequence << 32) | shard, sequences from 1. */
const SHARD = 7n;

export class AnimalStore {
  // A Map keeps insertion order, which is the listing order, and compares bigint keys by value.
  private readonly pets = new Map<bigint, StoredPet>();
  private assigned = 0n;
  /** Ids of the animals `preload` stored. */
  private readonly preloaded = new Set<bigint>();
  /** Last shuffled page per query, so the next one can be made to differ. */
  private readonly lastShuffled = new Map<string, string>();
  /** Faults create-id-per-key and create-id-per-connection: the next position of each counter. */
  private readonly counters = new Map<string, bigint>();
  /** Variation read-lag: when each animal still hidden from reads is shown (the server's epoch ms), and the writes so far. */
  private readonly visibleAt = new Map<bigint, number>();
  private writes = 0;
  private readonly now: () => number;

  constructor(private readonly options: StoreOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Adds an animal under the next id, or under `id` when given (only faults do that). */
  create(input: NewPetInput, id?: bigint, origin: CreateOrigin = {}): StoredPet {
    const pet = this.draft(input, id, origin);
    this.pets.set(pet.id, pet);
    // Variation read-lag: the replica reads are served from has it only after the write's lag.
    const lag = this.options.readLagMs?.(this.writes++) ?? 0;
    if (lag > 0) this.visibleAt.set(pet.id, pet.createdAt + lag);
    else this.visibleAt.delete(pet.id);
    return pet;
  }

  /** The animal `create` would store, with an id used up, but not stored (fault create-not-persisted). */
  draft(input: NewPetInput, id?: bigint, origin: CreateOrigin = {}): StoredPet {
    const status = input.status ?? this.options.defaultStatus;
    return {
      id: id ?? (origin.idCounter === undefined ? this.nextId() : this.nextIdOf(origin.idCounter)),
      ...(input.name === undefined ? {} : { name: input.name }),
      categoryId: input.categoryId,
      ...(status === undefined ? {} : { status }),
      ...(origin.creator === undefined ? {} : { creator: origin.creator }),
      createdAt: this.now(),
    };
  }

  /** The animal stored under `id`, if reads show it yet (variation read-lag). */
  get(id: bigint): StoredPet | undefined {
    const pet = this.pets.get(id);
    return pet && this.shown(pet) ? pet : undefined;
  }

  /** Variation read-lag: whether reads show the animal yet (once shown, it is forgotten as hidden). */
  private shown(pet: StoredPet): boolean {
    if (this.visibleAt.size === 0) return true;
    const at = this.visibleAt.get(pet.id);
    if (at === undefined) return true;
    if (this.now() < at) return false;
    this.visibleAt.delete(pet.id);
    return true;
  }

  /** Another animal than `id`: the next one in listing order, else the first (fault get-wrong-pet). */
  neighbour(id: bigint): StoredPet | undefined {
    let first: StoredPet | undefined;
    let passed = false;
    for (const pet of this.pets.values()) {
      if (passed) return pet;
      if (pet.id === id) passed = true;
      else first ??= pet;
    }
    return first;
  }

  list(query: ListQuery = {}): StoredPet[] {
    const limit = query.limit ?? Infinity;
    if (query.shuffled) return this.shuffledPage([...this.pets.values()].filter((pet) => this.matches(pet, query)), limit, query);
    const found: StoredPet[] = [];
    for (const pet of this.pets.values()) {
      if (found.length >= limit) break;
      if (this.matches(pet, query)) found.push(pet);
    }
    return found;
  }

  get size(): number {
    return this.pets.size;
  }

  /** Adds `count` deterministic, varied animals (see preload.ts). */
  preload(count: number): void {
    for (let i = 0; i < count; i++) {
      const pet = this.draft(preloadedPet(i));
      this.pets.set(pet.id, pet);
      this.preloaded.add(pet.id);
    }
  }

  /** The first animal stored with exactly these fields (fault create-dedupes-identical). */
  findSame(input: NewPetInput): StoredPet | undefined {
    for (const pet of this.pets.values()) {
      if (pet.name === input.name && pet.categoryId === input.categoryId && pet.status === (input.status ?? this.options.defaultStatus)) return pet;
    }
    return undefined;
  }

  /** The id the next animal would get, not used up (fault create-id-race reads it, then awaits). */
  peekNextId(): bigint {
    return this.idAt(this.assigned);
  }

  /** Uses up the next id without storing anything (fault create-id-race). */
  skipId(): void {
    this.assigned++;
  }

  private matches(pet: StoredPet, query: ListQuery): boolean {
    return (
      this.shown(pet) &&
      (!query.preloadedOnly || this.preloaded.has(pet.id)) &&
      (query.status === undefined || (pet.status === query.status) !== (query.invertStatus ?? false))
    );
  }

  private nextId(): bigint {
    return this.idAt(this.assigned++);
  }

  /** The next id of a counter of its own, which starts where the preload ended. */
  private nextIdOf(counter: string): bigint {
    const n = this.counters.get(counter) ?? BigInt(this.preloaded.size);
    this.counters.set(counter, n + 1n);
    return this.idAt(n);
  }

  private idAt(n: bigint): bigint {
    if (this.options.idsSharded) return ((n + 1n) << 32n) | SHARD;
    if (this.options.idsNegative) return -(n + 1n);
    if (this.options.idsNearMax) return INT64_MAX - n;
    return this.options.idsBeyond2to53 ? BEYOND_2_TO_53 + ((n * ID_STEP) % ID_SPREAD) : n + 1n;
  }

  private shuffledPage(pets: StoredPet[], limit: number, query: ListQuery): StoredPet[] {
    for (let i = pets.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [pets[i], pets[j]] = [pets[j]!, pets[i]!];
    }
    const key = `${query.status}|${query.invertStatus}|${limit}`;
    let page = pets.slice(0, limit);
    // Rotating by one always yields another page when at least two animals match.
    if (pets.length > 1 && pageKey(page) === this.lastShuffled.get(key)) page = [...pets.slice(1), pets[0]!].slice(0, limit);
    this.lastShuffled.set(key, pageKey(page));
    return page;
  }
}

function pageKey(page: readonly StoredPet[]): string {
  return page.map((pet) => pet.id).join(',');
}

/**
 * The JSON form of a Pet, fields in the interface's order. With `extraMembers` (variation
 * pet-extra-members), members the interface does not name follow them: `createdAt` (ISO 8601) and
 * a HAL link to the animal, `_links.self.href`, its id written exactly.
 */
export function petJson(pet: StoredPet, extraMembers = false): Record<string, unknown> {
  return {
    id: pet.id,
    ...(pet.name === undefined ? {} : { name: pet.name }),
    categoryId: pet.categoryId,
    ...(pet.status === undefined ? {} : { status: pet.status }),
    ...(extraMembers ? { createdAt: new Date(pet.createdAt).toISOString(), _links: { self: { href: `${PET_LINK_BASE}/${pet.id}` } } } : {}),
  };
}

/** Variation pet-extra-members: the path `_links.self.href` names an animal under (its id follows). */
export const PET_LINK_BASE = '/v1/pets';
