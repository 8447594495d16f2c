// A new animal before it has an id: what a validated NewPet and the preload hand to the store.
import type { PetStatus } from '../../lib/models.ts';

export interface NewPetInput {
  /** Optional only so that a fault can store a nameless animal; the handler always requires it. */
  name?: string;
  categoryId: bigint;
  status?: PetStatus;
}
