// The reference server's fault catalogue as the harness's tests hold it: for every fault, the check
// that must fail, and where that is shown. Faults of the rate-limit suite (and of the headers it
// reads) are caught in this process on a virtual clock (test/clock/catalogue.test.ts);
// the others through the command itself (test/e2e/fault-catalogue.test.ts). One list, so that a new
// fault cannot be forgotten and none is shown twice.
import type { CheckId } from '../../lib/checks/registry.ts';
import type { FaultId } from '../../targets/reference/faults.ts';

export const KEYS = [
  { key: 'sk-fault-free-1-7f3a9c', plan: 'free' },
  { key: 'sk-fault-free-2-5e6f7a', plan: 'free' },
  { key: 'sk-fault-pro-1-2b8d4e', plan: 'pro' },
  { key: 'sk-fault-daily-1-8b9c0d', plan: 'daily' },
];
/** A plan whose day can be spent within the short day window. */
export const PLANS = { daily: { perMinute: 40, perDay: 100 } };
/** Short enough for quick runs, long enough for a busy CI machine to spend a Pro quota in one window. */
export const WINDOWS = { minute: 4, day: 40 };
/** Latency the reference and every legal variation meet under paced load, and latency-grows-with-load does not. */
export const LOAD_THRESHOLDS = { p95Ms: 200 };

export interface Caught {
  fault: FaultId;
  /** The check that must fail. */
  check: CheckId;
  /**
   * 'clock': the rate-limit suite's driver and checks in this process, on a virtual clock.
   * Otherwise the suites the command runs (fewer is quicker).
   */
  by: 'clock' | string[];
  /** Animals in the store beforehand. */
  preload?: number;
  /** The check is a `should`: only --strict makes it fail the run. */
  strict?: boolean;
  /** Fields added to the target file (load thresholds, say). */
  target?: Record<string, unknown>;
  /**
   * Caught by the command: the code of the check's failure that shows this fault, and the group of
   * faults switched on together in one server for one run. Within a group no other fault causes
   * this check's failure with this code (each fault alone was run to see what it fails: see
   * groupsAreSound), so each fault is still shown caught by its own failure.
   */
  code?: string;
  group?: string;
}

export const CAUGHT: Caught[] = [
  { fault: 'auth-disabled', check: 'auth.missing-key', code: 'not-401', group: 'auth-disabled', by: ['auth'] },
  { fault: 'auth-wrong-status', check: 'auth.invalid-key', code: 'not-401', group: 'auth-c', by: ['auth'] },
  { fault: 'auth-no-error-body', check: 'errors.error-body', code: 'no-error-body', group: 'auth-no-error-body', by: ['auth'] },
  { fault: 'auth-scheme-case-sensitive', check: 'auth.scheme-case-insensitive', code: 'scheme-case-refused', group: 'auth-a', by: ['auth'], strict: true },
  { fault: 'auth-after-validation', check: 'auth.before-validation', code: 'not-401', group: 'auth-d', by: ['auth'] },
  { fault: 'auth-query-key-accepted', check: 'auth.key-in-query', code: 'not-401', group: 'auth-a', by: ['auth'] },
  { fault: 'auth-empty-bearer-accepted', check: 'auth.empty-token', code: 'not-401', group: 'auth-a', by: ['auth'] },
  { fault: 'auth-key-prefix-accepted', check: 'auth.near-miss-key', code: 'not-401', group: 'auth-a', by: ['auth'] },
  { fault: 'auth-key-case-insensitive', check: 'auth.near-miss-key', code: 'not-401', group: 'list-b', by: ['auth'] },
  // The whole key spelled otherwise and served: another spelling of the credential (a should).
  { fault: 'auth-credential-list', check: 'auth.credential-syntax', code: 'credential-accepted', group: 'list-b', by: ['auth'], strict: true },
  { fault: 'auth-api-key-header-accepted', check: 'auth.other-carrier', code: 'header-key-accepted', group: 'auth-a', by: ['auth'] },
  { fault: 'auth-basic-key-accepted', check: 'auth.other-carrier', code: 'scheme-key-accepted', group: 'list-b', by: ['auth'] },
  { fault: 'auth-session-cookie', check: 'auth.cookie-not-credential', code: 'set-cookie-accepted', group: 'auth-c', by: ['auth'] },
  { fault: 'auth-prototype-key', check: 'auth.object-member-key', code: 'member-key-accepted', group: 'auth-a', by: ['auth'] },
  { fault: 'error-status-mismatch', check: 'errors.error-body', code: 'error-status-mismatch', group: 'auth-d', by: ['auth'] },
  { fault: 'error-plain-text', check: 'errors.error-body', code: 'error-body-not-json', group: 'auth-c', by: ['auth'] },
  { fault: 'error-missing-code', check: 'errors.error-body', code: 'invalid-error-body', group: 'create-c', by: ['auth'] },
  { fault: 'error-no-content-type', check: 'errors.error-body', code: 'error-body-no-content-type', group: 'mixed-b', by: ['get-pet'] },
  { fault: 'list-ignores-limit', check: 'list-pets.limit', code: 'too-many-animals', group: 'list-b', by: ['list-pets'], preload: 30 },
  { fault: 'list-default-limit-50', check: 'list-pets.default-limit', code: 'too-many-animals', group: 'list-a', by: ['list-pets'], preload: 60 },
  { fault: 'list-wrong-status-filter', check: 'list-pets.status-filter', code: 'wrong-status-listed', group: 'list-a', by: ['list-pets'], preload: 60 },
  { fault: 'list-filter-wrong-status', check: 'list-pets.status-filter', code: 'wrong-status-listed', group: 'list-b', by: ['list-pets'], preload: 60 },
  { fault: 'list-pet-missing-id', check: 'list-pets.pet-shape', code: 'invalid-pet', group: 'list-c', by: ['list-pets'], preload: 5 },
  { fault: 'list-one-invalid-pet', check: 'list-pets.pet-shape', code: 'invalid-pet', group: 'list-one-invalid-pet', by: ['list-pets'], preload: 30 },
  { fault: 'list-limit-off-by-one', check: 'list-pets.limit', code: 'too-many-animals', group: 'list-c', by: ['list-pets'], preload: 120 },
  { fault: 'list-duplicates', check: 'list-pets.no-duplicates', code: 'duplicate-ids', group: 'list-a', by: ['list-pets'], preload: 30 },
  { fault: 'list-rejects-limit-100', check: 'list-pets.limit', code: 'not-200', group: 'list-d', by: ['list-pets'] },
  // Only the model-based sequences combine limit and status: these need no other suite to be caught.
  { fault: 'list-limit-ignored-with-status', check: 'stateful.store-model', code: 'too-many-animals', group: 'list-limit-ignored-with-status', by: ['stateful'], preload: 30 },
  { fault: 'list-filter-ignored-with-limit', check: 'stateful.store-model', code: 'wrong-status-listed', group: 'list-filter-ignored-with-limit', by: ['stateful'], preload: 30 },
  { fault: 'list-filter-misses-new', check: 'stateful.store-model', code: 'known-animal-missing', group: 'list-filter-misses-new', by: ['stateful'] },
  { fault: 'list-status-case-insensitive', check: 'list-pets.status-case', code: 'filter-ignores-case', group: 'list-d', by: ['list-pets'], preload: 60, strict: true },
  // A filter that is no PetStatus ignored: a reading the interface leaves open (a should).
  { fault: 'list-empty-status-ignored', check: 'list-pets.unknown-status', code: 'filter-ignored', group: 'list-d', by: ['list-pets'], preload: 60, strict: true },
  // Every 5xx is a must failure (responses.no-5xx), so no --strict is needed for it.
  { fault: 'list-500-on-bad-limit', check: 'responses.no-5xx', code: 'server-error', group: 'list-d', by: ['list-pets'] },
  { fault: 'list-accepts-limit-over-100', check: 'list-pets.limit-out-of-range', code: 'too-many-animals', group: 'list-c', by: ['list-pets'], preload: 150 },
  { fault: 'create-500-on-bad-input', check: 'create-pet.invalid-rejected', code: 'server-error', group: 'mixed-c', by: ['create-pet'] },
  { fault: 'create-accepts-missing-name', check: 'create-pet.invalid-rejected', code: 'accepted', group: 'create-b', by: ['create-pet'] },
  { fault: 'create-accepts-fraction', check: 'create-pet.invalid-rejected', code: 'accepted', group: 'create-c', by: ['create-pet'] },
  // Another spelling read as the NewPet it spells: a reading the interface does not describe (a should).
  { fault: 'create-accepts-string-category', check: 'create-pet.lenient-input', code: 'read-leniently', group: 'create-a', by: ['create-pet'], strict: true },
  // The empty status is sent on every run: caught whatever the seed (test/e2e/fault-catalogue.test.ts runs three).
  { fault: 'create-accepts-empty-status', check: 'create-pet.invalid-rejected', code: 'accepted', group: 'create-d', by: ['create-pet'] },
  { fault: 'create-truncates-int64', check: 'create-pet.echo', code: 'category-id-not-echoed', group: 'create-a', by: ['create-pet'] },
  { fault: 'create-trims-name', check: 'create-pet.echo', code: 'name-not-echoed', group: 'create-a', by: ['create-pet'] },
  { fault: 'create-mangles-unicode', check: 'create-pet.echo', code: 'name-not-echoed', group: 'create-b', by: ['create-pet'] },
  { fault: 'create-drops-status', check: 'create-pet.echo', code: 'status-not-echoed', group: 'create-a', by: ['create-pet'] },
  { fault: 'create-returns-200', check: 'create-pet.created', code: 'not-201', group: 'create-c', by: ['create-pet'] },
  { fault: 'create-201-without-id', check: 'create-pet.created', code: 'invalid-pet', group: 'create-d', by: ['create-pet'] },
  { fault: 'create-uses-body-id', check: 'create-pet.body-id-ignored', code: 'took-existing-id', group: 'create-a', by: ['create-pet'] },
  { fault: 'create-not-persisted', check: 'create-pet.persisted', code: 'get-not-200', group: 'create-b', by: ['create-pet'] },
  { fault: 'create-accepts-many-invalid', check: 'create-pet.invalid-rejected', code: 'accepted', group: 'mixed-d', by: ['create-pet'] },
  { fault: 'create-rejects-category-zero', check: 'create-pet.created', code: 'not-201', group: 'create-b', by: ['create-pet'] },
  { fault: 'create-id-race', check: 'concurrency.parallel-creates', code: 'duplicate-ids', group: 'mixed-a', by: ['concurrency'] },
  { fault: 'create-dedupes-identical', check: 'concurrency.parallel-creates', code: 'duplicate-ids', group: 'mixed-b', by: ['concurrency'] },
  { fault: 'create-500-on-long-name', check: 'create-pet.boundaries', code: 'server-error', group: 'create-a', by: ['create-pet'] },
  { fault: 'create-accepts-array', check: 'create-pet.one-new-pet', code: 'array-accepted', group: 'create-a', by: ['create-pet'] },
  { fault: 'create-unwraps-body', check: 'create-pet.one-new-pet', code: 'wrapper-accepted', group: 'create-d', by: ['create-pet'] },
  // A NewPet form-encoded created as the one it describes: another media type read (a should).
  { fault: 'create-accepts-form', check: 'create-pet.media-type', code: 'other-media-type-accepted', group: 'create-b', by: ['create-pet'], strict: true },
  { fault: 'unknown-route-500', check: 'routes.unknown-path', code: 'server-error', group: 'delete-500', by: ['routes'] },
  { fault: 'fallback-404-without-headers', check: 'headers.rate-limit-present', code: 'rate-limit-header-missing', group: 'auth-d', by: ['routes'] },
  { fault: 'delete-500', check: 'routes.other-method', code: 'server-error', group: 'delete-500', by: ['routes'] },
  { fault: 'get-200-for-missing', check: 'get-pet.not-found', code: 'not-404', group: 'mixed-a', by: ['get-pet'] },
  { fault: 'get-wrong-pet', check: 'get-pet.found', code: 'id-differs', group: 'mixed-b', by: ['get-pet'], preload: 10 },
  { fault: 'get-500-for-non-numeric', check: 'get-pet.non-numeric-no-5xx', code: 'server-error', group: 'mixed-c', by: ['get-pet'], strict: true },
  // Other spellings of an id answered with that animal: a reading the interface leaves open (a should).
  { fault: 'get-coerces-id', check: 'get-pet.canonical-id', code: 'other-spelling-served', group: 'create-a', by: ['get-pet'], strict: true },
  { fault: 'get-parses-id-prefix', check: 'get-pet.non-numeric', code: 'accepted', group: 'mixed-c', by: ['get-pet'] },
  { fault: 'get-500-on-huge-id', check: 'responses.no-5xx', code: 'server-error', group: 'mixed-d', by: ['get-pet'] },
  { fault: 'sunset-wrong-date', check: 'get-pet.sunset-date', code: 'sunset-wrong-date', group: 'mixed-b', by: ['get-pet'] },
  { fault: 'deprecation-malformed', check: 'get-pet.deprecation-form', code: 'deprecation-malformed', group: 'mixed-b', by: ['get-pet'], strict: true },
  { fault: 'deprecation-on-collection', check: 'versioning.only-get-pet-deprecated', code: 'deprecation-on-other-operation', group: 'mixed-b', by: ['get-pet'], strict: true },
  { fault: 'get-id-wraps-32', check: 'get-pet.own-id-only', code: 'served-at-wrapped-id', group: 'mixed-c', by: ['get-pet'] },
  { fault: 'get-id-sign-ignored', check: 'get-pet.own-id-only', code: 'served-at-negated-id', group: 'mixed-d', by: ['get-pet'] },
  { fault: 'get-only-by-creator', check: 'get-pet.same-for-every-key', code: 'missing-for-key', group: 'mixed-c', by: ['get-pet'] },
  { fault: 'create-id-per-key', check: 'concurrency.ids-across-keys', code: 'repeated-across-keys', group: 'mixed-b', by: ['concurrency'] },
  { fault: 'create-id-per-connection', check: 'concurrency.ids-across-keys', code: 'repeated-across-connections', group: 'mixed-d', by: ['concurrency'] },
  { fault: 'headers-missing-on-errors', check: 'headers.rate-limit-present', code: 'rate-limit-header-missing', group: 'auth-a', by: ['auth'] },
  { fault: 'headers-missing', check: 'headers.rate-limit-present', code: 'rate-limit-header-missing', group: 'list-a', by: ['list-pets'] },
  { fault: 'content-type-text', check: 'responses.json-media-type', code: 'not-json-media-type', group: 'list-a', by: ['list-pets'] },
  { fault: 'rate-remaining-constant', check: 'rate-limit.remaining', by: 'clock' },
  { fault: 'rate-remaining-negative', check: 'headers.rate-limit-present', code: 'rate-limit-header-not-integer', by: 'clock' },
  { fault: 'rate-reset-milliseconds', check: 'headers.rate-limit-present', by: 'clock' },
  { fault: 'rate-reset-relative', check: 'headers.rate-limit-present', by: 'clock' },
  // One cause in the shape of the headers, one root failure quoting the value (issue 28).
  { fault: 'rate-reset-fraction', check: 'headers.rate-limit-present', by: 'clock' },
  // With 2-second windows the start is at most a second behind the Date; comparing with Retry-After catches it.
  { fault: 'rate-reset-window-start', check: 'rate-limit.retry-after-consistent', by: 'clock', strict: true },
  { fault: 'rate-limit-wrong-plan', check: 'rate-limit.limit-header', by: 'clock' },
  { fault: 'rate-headers-mixed-windows', check: 'rate-limit.headers-one-window', by: 'clock' },
  { fault: 'rate-remaining-of-day', check: 'rate-limit.headers-one-window', by: 'clock' },
  { fault: 'rate-one-too-many', check: 'rate-limit.quota', by: 'clock' },
  { fault: 'rate-never-429', check: 'rate-limit.quota', by: 'clock' },
  { fault: 'rate-no-retry-after', check: 'rate-limit.retry-after-present', by: 'clock' },
  { fault: 'rate-retry-after-milliseconds', check: 'rate-limit.retry-after-consistent', by: 'clock', strict: true },
  { fault: 'rate-retry-after-fraction', check: 'rate-limit.retry-after-format', by: 'clock', strict: true },
  { fault: 'rate-retry-after-too-short', check: 'rate-limit.retry-after-honoured', by: 'clock' },
  { fault: 'rate-shared-bucket', check: 'rate-limit.isolation', by: 'clock' },
  // The rate-limit suite end to end once: two requests raced over real sockets at the limit.
  { fault: 'rate-check-then-count', check: 'rate-limit.boundary-race', code: 'both-accepted', group: 'rate-check-then-count', by: ['rate-limit'] },
  { fault: 'rate-per-connection', check: 'rate-limit.per-connection', by: 'clock' },
  // A mix of operations, valid and not, spends one window of one key.
  { fault: 'rate-per-operation', check: 'rate-limit.one-quota', by: 'clock' },
  { fault: 'rate-counts-only-success', check: 'rate-limit.one-quota', by: 'clock' },
  { fault: 'rate-daily-not-enforced', check: 'rate-limit.daily-quota', by: 'clock' },
  { fault: 'rate-no-reset', check: 'headers.rate-limit-present', by: 'clock' },
  { fault: 'rate-no-remaining', check: 'headers.rate-limit-present', by: 'clock' },
  { fault: 'rate-day-reset-negative', check: 'rate-limit.daily-quota', by: 'clock' },
  { fault: 'rate-draft-headers', check: 'headers.rate-limit-present', by: 'clock' },
  // Counted over the day window from every accepted request of the key, the main burst's included.
  { fault: 'rate-day-one-too-many', check: 'rate-limit.daily-quota', by: 'clock' },
  // The day's 429 names a ban-length wait: the day test stops before it, and still counts the day it saw.
  { fault: 'rate-day-overrun-ban', check: 'rate-limit.daily-quota', code: 'over-day-quota-shown-window', group: 'rate-day-overrun-ban', by: 'clock' },
  // The spent day's 429 says the minute's Retry-After: the request sent then is refused again.
  { fault: 'rate-day-retry-after-minute', check: 'rate-limit.retry-after-obeyed', by: 'clock' },
  // Bursts cannot see a bucket that holds the quota but refills slowly: a client pacing itself at 90% of its quota does.
  { fault: 'rate-slow-refill', check: 'load.paced-no-429', code: '429-within-quota', group: 'rate-slow-refill', by: ['load'] },
  // A limiter with no room for a burst, honest in its headers: every suite, so that the run is seen to end well within its time limit.
  { fault: 'rate-no-burst', check: 'rate-limit.quota', code: 'refused-within-quota', group: 'rate-no-burst', by: ['auth', 'concurrency', 'create-pet', 'get-pet', 'list-pets', 'routes', 'stateful', 'rate-limit'], target: { budget: { maxSeconds: 120 } } },
  // No rule of the interface: caught by the target's own thresholds (the reference meets the same, in the variations).
  { fault: 'latency-grows-with-load', check: 'load.thresholds', code: 'threshold-breached', group: 'latency-grows-with-load', by: ['load'], target: { load: { thresholds: LOAD_THRESHOLDS } } },
];
