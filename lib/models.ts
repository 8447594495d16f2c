// zod models of the Animal Store interface (docs/interface.md, "Resources and their fields").
import { z } from 'zod';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * An id no animal is likely to have: near the top of int64, where monotonic counters never reach.
 * Checks that rely on it being absent confirm it (a 200 for exactly this id makes them try another).
 */
export const MISSING_PET_ID = INT64_MAX - 1_000_003n;
export const MISSING_PET_IDS = [MISSING_PET_ID, INT64_MAX - 7n, 4_611_686_018_427_387_903n] as const;

/**
 * An int64 as parsed by lib/json.ts: a safe-integer number or a bigint. Normalised to bigint so
 * that ids compare exactly whatever their size.
 */
export const Int64 = z
  .union([z.number().int(), z.bigint()])
  .transform((v) => BigInt(v))
  .pipe(z.bigint().min(INT64_MIN, 'below int64 range').max(INT64_MAX, 'above int64 range'));

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const PetStatus = z.enum(PET_STATUSES);
export type PetStatus = z.infer<typeof PetStatus>;

export const NewPet = z.object({
  name: z.string(),
  categoryId: Int64,
  status: PetStatus.optional(),
});
export type NewPet = z.infer<typeof NewPet>;

/**
 * Pet has all fields of NewPet plus id. Extra fields are not forbidden by the interface. A `status`
 * of null reads as none: what an animal created without status holds is "not shown", and the
 * serialisers of many stacks write an unset field as null (Jackson's default, Pydantic's
 * model_dump, an ORM's nullable column); create-pet.status-default records which was seen.
 */
export const Pet = NewPet.extend({ status: PetStatus.nullish().transform((v) => v ?? undefined).optional(), id: Int64 });
export type Pet = z.infer<typeof Pet>;

export const Pets = z.array(Pet);
export type Pets = z.infer<typeof Pets>;

/** Error body: `status` repeats the HTTP status code. */
export const ApiError = z.object({
  code: z.string(),
  message: z.string(),
  status: z.number().int(),
});
export type ApiError = z.infer<typeof ApiError>;

/**
 * A header's integer value as sent, negative ones included (a limiter that reports Remaining -1 is
 * wrong, and the checks must see it to say so); anything that is not a safe integer gives undefined.
 */
export function headerInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*-?[0-9]+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Limits on `GET /pets` ("Page size"). */
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

/** What a response of an operation carries: a model of this file, or (429, "not shown") nothing the interface names. */
export type ResponseBody = 'Pet' | 'Pets' | 'Error';

/**
 * The interface's operations ("Endpoints"): method, path below the base URL, and each status its
 * responses table lists with the body it carries. 429 is listed for every operation by "Errors",
 * its body not shown: listedBody says nothing of it.
 */
export const OPERATIONS = {
  listPets: { method: 'GET', path: '/pets', responses: { 200: 'Pets', 401: 'Error' } },
  createPet: { method: 'POST', path: '/pets', responses: { 201: 'Pet', 400: 'Error', 401: 'Error' } },
  getPet: { method: 'GET', path: '/pets/{petId}', deprecated: true, responses: { 200: 'Pet', 401: 'Error', 404: 'Error' } },
} as const satisfies Record<string, { method: string; path: string; deprecated?: boolean; responses: Record<number, ResponseBody> }>;
export type OperationId = keyof typeof OPERATIONS;

/** The body a status of an operation carries by its responses table; undefined for a status it does not list (or 429, whose body is not shown). */
export function listedBody(operation: OperationId, status: number): ResponseBody | undefined {
  return (OPERATIONS[operation].responses as Readonly<Record<number, ResponseBody>>)[status];
}
