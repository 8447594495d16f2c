// Faults in how createPet reads its body: one NewPet, as one JSON object, is all it may take.
import type { FaultDefinition } from '../fault-definition.ts';

export const BODY_FAULTS = [
  {
    id: 'create-accepts-array',
    breaks: 'createPet takes one NewPet as a JSON object: a JSON array is read as its first element (`Array.isArray(body) ? body[0] : body`), so `[NewPet]` and `[NewPet, NewPet]` create one animal (201).',
    caught: { check: 'create-pet.one-new-pet', code: 'array-accepted' },
  },
  {
    id: 'create-unwraps-body',
    breaks: 'createPet takes one NewPet as a JSON object: an object holding a NewPet under `pet` or `data` (an envelope some clients send) is unwrapped and created (201).',
    caught: { check: 'create-pet.one-new-pet', code: 'wrapper-accepted' },
  },
  {
    id: 'create-accepts-form',
    breaks: 'createPet takes a NewPet as application/json: a form-encoded body (application/x-www-form-urlencoded) is parsed too, numeric fields read as integers, so `name=…&categoryId=1` creates an animal (201).',
    // A NewPet form-encoded created as the one it describes: another media type read (a should).
    caught: { check: 'create-pet.media-type', code: 'other-media-type-accepted' },
  },
] as const satisfies readonly FaultDefinition[];
