// The in-memory animal store. Ids and categoryIds are bigint so every int64 survives exactly.
import { PET_STATUSES, type PetStatus } from '../../lib/models.ts';

export interface StoredPet {
  readonly id: bigint;
  readonly name?: string;
  readonly categoryId: bigint;
  /** Absent when the animal was created without one: the interface does not say what it defaults to. */
  readonly status?: PetStatus;
}

export interface NewPetInput {
  /** Optional only so that a fault can store a nameless animal; the handler always requires it. */
  name?: string;
  categoryId: bigint;
  status?: PetStatus;
}

export interface ListQuery {
  status?: PetStatus;
  /** Maximum number returned; undefined means no maximum. */
  limit?: number;
}

export class AnimalStore {
  // A Map keeps insertion order, which is the listing order, and compares bigint keys by value.
  private readonly pets = new Map<bigint, StoredPet>();
  private nextId = 1n;

  /** Adds an animal under the next id, or under `id` when given (only faults do that). */
  create(input: NewPetInput, id?: bigint): StoredPet {
    const assigned = id ?? this.nextId++;
    const pet: StoredPet = {
      id: assigned,
      ...(input.name === undefined ? {} : { name: input.name }),
      categoryId: input.categoryId,
      ...(input.status === undefined ? {} : { status: input.status }),
    };
    this.pets.set(assigned, pet);
    return pet;
  }

  get(id: bigint): StoredPet | undefined {
    return this.pets.get(id);
  }

  list(query: ListQuery = {}): StoredPet[] {
    const limit = query.limit ?? Infinity;
    const found: StoredPet[] = [];
    for (const pet of this.pets.values()) {
      if (found.length >= limit) break;
      if (query.status === undefined || pet.status === query.status) found.push(pet);
    }
    return found;
  }

  get size(): number {
    return this.pets.size;
  }

  /** Adds `count` deterministic animals; statuses cycle through the enum and "none". */
  preload(count: number): void {
    const statuses: (PetStatus | undefined)[] = [...PET_STATUSES, undefined];
    for (let i = 0; i < count; i++) {
      this.create({ name: `preloaded-${i + 1}`, categoryId: BigInt((i % 7) + 1), status: statuses[i % statuses.length] });
    }
  }
}

/** The JSON form of a Pet, fields in the interface's order. */
export function petJson(pet: StoredPet): Record<string, unknown> {
  return {
    id: pet.id,
    ...(pet.name === undefined ? {} : { name: pet.name }),
    categoryId: pet.categoryId,
    ...(pet.status === undefined ? {} : { status: pet.status }),
  };
}
