// Input checks for the three operations. Each returns the parsed value or a message naming the
// field at fault, which becomes the `message` of a 400 Error.
import { Int64, PAGE_SIZE, PET_STATUSES, PetStatus, INT64_MAX, INT64_MIN } from '../../lib/models.ts';
import type { NewPetInput } from './store.ts';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = (message: string): Checked<never> => ({ ok: false, message });

const STATUS_LIST = PET_STATUSES.join(', ');
const INT64_TEXT = `an integer from ${INT64_MIN} to ${INT64_MAX}`;

/** A query parameter given more than once is refused: which value was meant is unknowable. */
function single(query: URLSearchParams, name: string): Checked<string | undefined> {
  const values = query.getAll(name);
  if (values.length > 1) return fail(`${name}: given more than once`);
  return ok(values[0]);
}

/** `limit`: decimal digits only, 1..100; absent means `fallback`. Out of range is refused, not clamped. */
export function checkLimit(query: URLSearchParams, fallback: number): Checked<number> {
  const raw = single(query, 'limit');
  if (!raw.ok) return raw;
  if (raw.value === undefined) return ok(fallback);
  const limit = /^[0-9]+$/.test(raw.value) ? Number(raw.value) : NaN;
  if (!(limit >= PAGE_SIZE.min && limit <= PAGE_SIZE.max)) {
    return fail(`limit: must be an integer from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}`);
  }
  return ok(limit);
}

export function checkStatusFilter(query: URLSearchParams): Checked<PetStatus | undefined> {
  const raw = single(query, 'status');
  if (!raw.ok) return raw;
  if (raw.value === undefined) return ok(undefined);
  const status = PetStatus.safeParse(raw.value);
  return status.success ? ok(status.data) : fail(`status: must be one of ${STATUS_LIST}`);
}

/** A path petId: optional minus, decimal digits, within int64. */
export function checkPetId(segment: string): Checked<bigint> {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return fail('petId: malformed percent-encoding');
  }
  if (!/^-?[0-9]+$/.test(text)) return fail(`petId: must be ${INT64_TEXT}`);
  const id = BigInt(text);
  return id < INT64_MIN || id > INT64_MAX ? fail(`petId: must be ${INT64_TEXT}`) : ok(id);
}

export interface NewPetOptions {
  /** Fault create-accepts-missing-name. */
  nameOptional?: boolean;
}

/**
 * A NewPet from a parsed JSON body. Fields are read as own properties only. Extra fields are
 * ignored (the interface does not forbid them), `id` included. `name` may be any string, the
 * empty string too; it is stored exactly as sent. `categoryId` is any JSON number whose value is
 * an integer in int64 range: integer literals of any size exactly, and `1.0`-style forms only
 * within ±2^53, where the parsed double is still exact. `status`, when present, must be in the enum.
 */
export function checkNewPet(body: unknown, options: NewPetOptions = {}): Checked<NewPetInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('request body must be a JSON object (NewPet)');
  }
  const name = field(body, 'name');
  if (name === undefined && !options.nameOptional) return fail('name: required');
  if (name !== undefined && typeof name !== 'string') return fail('name: must be a string');

  const rawCategoryId = field(body, 'categoryId');
  if (rawCategoryId === undefined) return fail('categoryId: required');
  const categoryId = Int64.safeParse(rawCategoryId);
  if (!categoryId.success) return fail(`categoryId: must be ${INT64_TEXT}`);

  const rawStatus = field(body, 'status');
  const status = rawStatus === undefined ? undefined : PetStatus.safeParse(rawStatus);
  if (status !== undefined && !status.success) return fail(`status: must be one of ${STATUS_LIST}`);

  return ok({
    ...(typeof name === 'string' ? { name } : {}),
    categoryId: categoryId.data,
    ...(status === undefined ? {} : { status: status.data }),
  });
}

/** A body `id`, read only by fault create-uses-body-id. */
export function bodyId(body: unknown): bigint | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const id = Int64.safeParse(field(body, 'id'));
  return id.success ? id.data : undefined;
}

function field(object: object, name: string): unknown {
  return Object.hasOwn(object, name) ? (object as Record<string, unknown>)[name] : undefined;
}
