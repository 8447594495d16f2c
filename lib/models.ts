// zod models of the Animal Store interface (spec/animal-store-interface.md, "Resources and their fields").
import { z } from 'zod';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

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

/** Pet has all fields of NewPet plus id. Extra fields are not forbidden by the interface. */
export const Pet = NewPet.extend({ id: Int64 });
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

const HeaderInteger = z
  .string()
  .trim()
  .regex(/^[0-9]+$/, 'not a non-negative integer')
  .transform(Number)
  .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER));

/** The three headers the interface puts on every response ("Rate limit headers"). */
export const RateLimitHeaders = z.object({
  'x-ratelimit-limit': HeaderInteger,
  'x-ratelimit-remaining': HeaderInteger,
  'x-ratelimit-reset': HeaderInteger,
});
export type RateLimitHeaders = z.infer<typeof RateLimitHeaders>;

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/**
 * A header's integer value as sent, negative ones included (a limiter that reports Remaining -1 is
 * wrong, and the checks must see it to say so); anything that is not an integer gives undefined.
 */
export function headerInt(value: string | undefined): number | undefined {
  return value !== undefined && /^\s*-?[0-9]+\s*$/.test(value) ? Number(value) : undefined;
}

/** Header names are case-insensitive: looks the three up whatever casing the server used. */
export function readRateLimitHeaders(headers: Record<string, string | string[] | undefined>) {
  const lower: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    lower[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return RateLimitHeaders.safeParse({
    'x-ratelimit-limit': lower['x-ratelimit-limit'],
    'x-ratelimit-remaining': lower['x-ratelimit-remaining'],
    'x-ratelimit-reset': lower['x-ratelimit-reset'],
  });
}

/** Limits on `GET /pets` ("Page size"). */
export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;
