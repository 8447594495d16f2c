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

export interface LimitOptions {
  /** Used when `limit` is absent (and, when clamping, when it is not an integer). */
  fallback: number;
  /** Fault list-accepts-limit-over-100 raises it. */
  max?: number;
  /** Variation limit-clamp: never refuse, bring the value into range instead. */
  clamp?: boolean;
}

/** `limit`: decimal digits only, 1..max (100); absent means `fallback`. Out of range is refused, unless clamping. */
export function checkLimit(query: URLSearchParams, options: LimitOptions): Checked<number> {
  const { fallback, max = PAGE_SIZE.max } = options;
  const raw = single(query, 'limit');
  if (options.clamp) {
    // A repeated limit is read as its first value (URLSearchParams.get): the page the request asks for, not the default.
    const text = raw.ok ? raw.value : (query.get('limit') ?? undefined);
    if (text === undefined || !/^-?[0-9]+$/.test(text)) return ok(fallback);
    const value = BigInt(text);
    return ok(value < PAGE_SIZE.min ? PAGE_SIZE.min : value > max ? max : Number(value));
  }
  if (!raw.ok) return raw;
  if (raw.value === undefined) return ok(fallback);
  const limit = /^[0-9]+$/.test(raw.value) ? Number(raw.value) : NaN;
  if (!(limit >= PAGE_SIZE.min && limit <= max)) {
    return fail(`limit: must be an integer from ${PAGE_SIZE.min} to ${max}`);
  }
  return ok(limit);
}

export interface StatusFilterOptions {
  /** Fault list-status-case-insensitive, variation lenient-values: the value is lower-cased before it is matched. */
  ignoreCase?: boolean;
  /** Variation unknown-filter-ignored: a value that is no status is no filter. */
  ignoreUnknown?: boolean;
  /** Fault list-empty-status-ignored: the empty value is no filter, as `if (query.status)` has it. */
  ignoreEmpty?: boolean;
}

export function checkStatusFilter(query: URLSearchParams, options: StatusFilterOptions = {}): Checked<PetStatus | undefined> {
  const raw = single(query, 'status');
  if (!raw.ok) return raw;
  if (raw.value === undefined || (options.ignoreEmpty && raw.value === '')) return ok(undefined);
  const status = PetStatus.safeParse(options.ignoreCase ? raw.value.toLowerCase() : raw.value);
  if (status.success) return ok(status.data);
  return options.ignoreUnknown ? ok(undefined) : fail(`status: must be one of ${STATUS_LIST}`);
}

/** A path petId: optional minus, decimal digits, within int64. */
export function checkPetId(segment: string): Checked<bigint> {
  const text = decodeSegment(segment);
  if (text === undefined) return fail('petId: malformed percent-encoding');
  if (!/^-?[0-9]+$/.test(text)) return fail(`petId: must be ${INT64_TEXT}`);
  const id = BigInt(text);
  return id < INT64_MIN || id > INT64_MAX ? fail(`petId: must be ${INT64_TEXT}`) : ok(id);
}

/** Whether a path petId is an integer at all (rather than one outside int64). */
export function isNumericPetId(segment: string): boolean {
  return /^-?[0-9]+$/.test(decodeSegment(segment) ?? '');
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export interface NewPetOptions {
  /** Fault create-accepts-missing-name. */
  nameOptional?: boolean;
  /** Fault create-rejects-category-zero: a categoryId of 0 (or -0) counts as missing, as `!categoryId` would have it. */
  zeroCategoryIdMissing?: boolean;
  /** Fault create-accepts-fraction: a finite fraction within int64 is truncated. */
  truncateFractions?: boolean;
  /** Fault create-accepts-string-category: a string of decimal digits is taken as the integer. */
  numericStrings?: boolean;
  /** Fault create-accepts-many-invalid: any JSON object is taken, each field coerced or defaulted. */
  coerceFields?: boolean;
  /** Fault create-accepts-empty-status: a status of "" is taken for none. */
  emptyStatusAbsent?: boolean;
  /** Fault create-accepts-status-any-case: a status is trimmed and lower-cased before it is matched ("SOLD", " available"). */
  statusAnyCase?: boolean;
  /** Fault create-accepts-number-name: a number for name is its text (42 as "42"). */
  numberName?: boolean;
  /** Variation lenient-values: a null status is none. */
  nullStatusAbsent?: boolean;
  /** Variation extra-fields-rejected. */
  rejectUnknownFields?: boolean;
}

const NEW_PET_FIELDS: readonly string[] = ['name', 'categoryId', 'status'];

/**
 * A NewPet from a parsed JSON body. Fields are read as own properties only. Extra fields are
 * ignored (the interface does not forbid them), `id` included. `name` may be any string, the
 * empty string too; it is stored exactly as sent. `categoryId` is any JSON number whose value is
 * an integer in int64 range: integer literals of any size exactly, and `1.0`-style forms only
 * within ±2^53, where the parsed double is still exact. `status`, when present, must be in the enum.
 * Faults and variations bend these rules through `options`.
 */
export function checkNewPet(body: unknown, options: NewPetOptions = {}): Checked<NewPetInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('request body must be a JSON object (NewPet)');
  }
  if (options.rejectUnknownFields) {
    const unknown = Object.keys(body).find((name) => !NEW_PET_FIELDS.includes(name));
    if (unknown !== undefined) return fail(`${unknown}: unknown field (NewPet has name, categoryId, status)`);
  }
  if (options.coerceFields) return ok(coercedNewPet(body));
  const rawName = field(body, 'name');
  const name = options.numberName && (typeof rawName === 'number' || typeof rawName === 'bigint') ? String(rawName) : rawName;
  if (name === undefined && !options.nameOptional) return fail('name: required');
  if (name !== undefined && typeof name !== 'string') return fail('name: must be a string');

  const rawCategoryId = field(body, 'categoryId');
  if (rawCategoryId === undefined || (options.zeroCategoryIdMissing && rawCategoryId === 0)) return fail('categoryId: required');
  const categoryId = Int64.safeParse(lenientCategoryId(rawCategoryId, options));
  if (!categoryId.success) return fail(`categoryId: must be ${INT64_TEXT}`);

  const rawStatus = lenientStatus(field(body, 'status'), options);
  const status = rawStatus === undefined ? undefined : PetStatus.safeParse(rawStatus);
  if (status !== undefined && !status.success) return fail(`status: must be one of ${STATUS_LIST}`);

  return ok({
    ...(typeof name === 'string' ? { name } : {}),
    categoryId: categoryId.data,
    ...(status === undefined ? {} : { status: status.data }),
  });
}

function lenientCategoryId(value: unknown, options: NewPetOptions): unknown {
  if (options.truncateFractions && typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 2 ** 63) {
    return BigInt(Math.trunc(value));
  }
  if (options.numericStrings && typeof value === 'string' && /^-?[0-9]+$/.test(value)) return BigInt(value);
  return value;
}

/** The status as the options read it: undefined is none. */
function lenientStatus(value: unknown, options: NewPetOptions): unknown {
  if (options.emptyStatusAbsent && value === '') return undefined;
  if (options.nullStatusAbsent && value === null) return undefined;
  return options.statusAnyCase && typeof value === 'string' ? value.trim().toLowerCase() : value;
}

/**
 * Fault create-accepts-many-invalid: what a loosely typed handler makes of any object. `name` if
 * it is a string, else ""; `categoryId` an int64, a fraction truncated or a string of digits if
 * within int64, else 0; `status` kept if in the enum, else dropped.
 */
function coercedNewPet(body: object): NewPetInput {
  const name = field(body, 'name');
  const status = PetStatus.safeParse(field(body, 'status'));
  return {
    name: typeof name === 'string' ? name : '',
    categoryId: coercedCategoryId(field(body, 'categoryId')),
    ...(status.success ? { status: status.data } : {}),
  };
}

function coercedCategoryId(value: unknown): bigint {
  const exact = Int64.safeParse(value);
  if (exact.success) return exact.data;
  let integer: bigint | undefined;
  if (typeof value === 'number' && Number.isFinite(value)) integer = BigInt(Math.trunc(value));
  if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) integer = BigInt(value);
  return integer !== undefined && integer >= INT64_MIN && integer <= INT64_MAX ? integer : 0n;
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
