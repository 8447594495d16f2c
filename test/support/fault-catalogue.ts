// The reference server's fault catalogue as the harness's tests hold it: for every fault, the check
// that must fail and its code (from the fault's definition, `caught` in targets/reference/faults/),
// and how the tests show it. Faults of the rate-limit suite (and of the headers it reads) are caught
// in this process on a virtual clock (test/clock/catalogue.test.ts); the others through the command
// itself (test/e2e/fault-catalogue.test.ts). One table keyed by fault, so that a new fault cannot be
// forgotten and none is shown twice.
import { checkById, type CheckId } from '../../lib/checks/registry.ts';
import type { FaultDefinition } from '../../targets/reference/fault-definition.ts';
import { FAULT_CATALOGUE, type FaultId } from '../../targets/reference/faults.ts';
import type { Report } from '../../lib/result/model.ts';

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

/** How the tests show a fault caught. */
interface Shown {
  /**
   * 'clock': the rate-limit suite's driver and checks in this process, on a virtual clock.
   * Otherwise the suites the command runs (fewer is quicker).
   */
  by: 'clock' | string[];
  /** Animals in the store beforehand. */
  preload?: number;
  /** Fields added to the target file (load thresholds, say). */
  target?: Record<string, unknown>;
  /**
   * Caught by the command: the group of faults switched on together in one server for one run.
   * Within a group no other fault causes this fault's check to fail with its code (each fault
   * alone was run to see what it fails: see groupsAreSound), so each fault is still shown caught
   * by its own failure.
   */
  group?: string;
}

export interface Caught extends Shown {
  fault: FaultId;
  /** The check that must fail: the fault's definition says which. */
  check: CheckId;
  /** The code of the check's failure that shows this fault, where the definition names one (every fault caught by the command does). */
  code?: string;
  /** A relations check's: the family of spellings whose answers show it. */
  family?: string;
  /** The check is a `should`: only --strict makes it fail the run. Read from the check's severity in the registry. */
  strict: boolean;
}

/**
 * relations.one-quota tells nothing where a token bucket of the plan could give a request back
 * between the answers it compares; with the short windows above, a Pro key's bucket would give one
 * back every 13 ms, which a busy machine spends between two requests. The relations suite never
 * meets the limit, so its runs say the published windows: a token every 200 ms.
 */
const RELATIONS_ONE_QUOTA_TARGET = { windows: { minute: 60, day: 86_400 } };

const SHOWN = {
  'auth-disabled': { group: 'auth-disabled', by: ['auth'] },
  'auth-wrong-status': { group: 'auth-c', by: ['auth'] },
  'auth-no-error-body': { group: 'auth-no-error-body', by: ['auth'] },
  'auth-scheme-case-sensitive': { group: 'auth-a', by: ['auth'] },
  'auth-after-validation': { group: 'auth-d', by: ['auth'] },
  'auth-query-key-accepted': { group: 'auth-a', by: ['auth'] },
  'auth-after-store': { group: 'auth-a', by: ['auth'] },
  'auth-empty-bearer-accepted': { group: 'auth-a', by: ['auth'] },
  'auth-key-prefix-accepted': { group: 'auth-a', by: ['auth'] },
  'auth-key-case-insensitive': { group: 'list-b', by: ['auth'] },
  'auth-credential-list': { group: 'list-b', by: ['auth'] },
  'auth-api-key-header-accepted': { group: 'auth-a', by: ['auth'] },
  'auth-basic-key-accepted': { group: 'list-b', by: ['auth'] },
  'auth-session-cookie': { group: 'auth-c', by: ['auth'] },
  'auth-prototype-key': { group: 'auth-a', by: ['auth'] },
  'error-status-mismatch': { group: 'auth-d', by: ['auth'] },
  'error-plain-text': { group: 'auth-c', by: ['auth'] },
  'error-missing-code': { group: 'create-c', by: ['auth'] },
  'error-no-content-type': { group: 'mixed-b', by: ['get-pet'] },
  'list-ignores-limit': { group: 'list-b', by: ['list-pets'], preload: 30 },
  'list-default-limit-50': { group: 'list-a', by: ['list-pets'], preload: 60 },
  'list-wrong-status-filter': { group: 'list-a', by: ['list-pets'], preload: 60 },
  'list-filter-wrong-status': { group: 'list-b', by: ['list-pets'], preload: 60 },
  'list-pet-missing-id': { group: 'list-c', by: ['list-pets'], preload: 5 },
  'list-one-invalid-pet': { group: 'list-one-invalid-pet', by: ['list-pets'], preload: 30 },
  // An empty store: every status's page before the run writes is empty.
  'list-null-when-empty': { group: 'list-null-when-empty', by: ['list-pets'] },
  'list-limit-off-by-one': { group: 'list-c', by: ['list-pets'], preload: 120 },
  'list-duplicates': { group: 'list-a', by: ['list-pets'], preload: 30 },
  'list-rejects-limit-100': { group: 'list-d', by: ['list-pets'] },
  // Only the model-based sequences combine limit and status: these need no other suite to be caught.
  'list-limit-ignored-with-status': { group: 'list-limit-ignored-with-status', by: ['stateful'], preload: 30 },
  'list-filter-ignored-with-limit': { group: 'list-filter-ignored-with-limit', by: ['stateful'], preload: 30 },
  'list-filter-misses-new': { group: 'list-filter-misses-new', by: ['stateful'] },
  'list-status-case-insensitive': { group: 'list-d', by: ['list-pets'], preload: 60 },
  'list-empty-status-ignored': { group: 'list-d', by: ['list-pets'], preload: 60 },
  'list-500-on-bad-limit': { group: 'list-d', by: ['list-pets'] },
  'list-accepts-limit-over-100': { group: 'list-c', by: ['list-pets'], preload: 150 },
  'create-500-on-bad-input': { group: 'mixed-c', by: ['create-pet'] },
  'create-accepts-missing-name': { group: 'create-b', by: ['create-pet'] },
  'create-accepts-fraction': { group: 'create-c', by: ['create-pet'] },
  // Values of another type or outside the enum created ("12", "SOLD", 42): one check and code, so a
  // group each, where no other fault fails create-pet.invalid-rejected, changes what is stored
  // (the created Pet must be the reading) or needs --strict (they are must failures).
  'create-accepts-string-category': { group: 'mixed-a', by: ['create-pet'] },
  'create-accepts-status-any-case': { group: 'create-accepts-status-any-case', by: ['create-pet'] },
  'create-accepts-number-name': { group: 'create-accepts-number-name', by: ['create-pet'] },
  // The empty status is sent on every run: caught whatever the seed (test/e2e/fault-catalogue.test.ts runs three).
  'create-accepts-empty-status': { group: 'create-d', by: ['create-pet'] },
  'create-truncates-int64': { group: 'create-a', by: ['create-pet'] },
  'create-trims-name': { group: 'create-a', by: ['create-pet'] },
  'create-mangles-unicode': { group: 'create-b', by: ['create-pet'] },
  'create-drops-status': { group: 'create-a', by: ['create-pet'] },
  'create-returns-200': { group: 'create-c', by: ['create-pet'] },
  'create-201-without-id': { group: 'create-d', by: ['create-pet'] },
  'create-uses-body-id': { group: 'create-a', by: ['create-pet'] },
  'create-not-persisted': { group: 'create-b', by: ['create-pet'] },
  'create-accepts-many-invalid': { group: 'mixed-d', by: ['create-pet'] },
  'create-rejects-category-zero': { group: 'create-b', by: ['create-pet'] },
  'create-id-race': { group: 'mixed-a', by: ['concurrency'] },
  'create-dedupes-identical': { group: 'mixed-b', by: ['concurrency'] },
  'create-500-on-long-name': { group: 'create-a', by: ['create-pet'] },
  'create-accepts-array': { group: 'create-a', by: ['create-pet'] },
  'create-unwraps-body': { group: 'create-d', by: ['create-pet'] },
  'create-accepts-form': { group: 'create-b', by: ['create-pet'] },
  'unknown-route-500': { group: 'delete-500', by: ['routes'] },
  'fallback-404-without-headers': { group: 'auth-d', by: ['routes'] },
  'delete-500': { group: 'delete-500', by: ['routes'] },
  'get-200-for-missing': { group: 'mixed-a', by: ['get-pet'] },
  'get-wrong-pet': { group: 'mixed-b', by: ['get-pet'], preload: 10 },
  'get-500-for-non-numeric': { group: 'mixed-c', by: ['get-pet'] },
  'get-coerces-id': { group: 'create-a', by: ['get-pet'] },
  'get-parses-id-prefix': { group: 'mixed-c', by: ['get-pet'] },
  'get-500-on-huge-id': { group: 'mixed-d', by: ['get-pet'] },
  'sunset-wrong-date': { group: 'mixed-b', by: ['get-pet'] },
  'deprecation-malformed': { group: 'mixed-b', by: ['get-pet'] },
  'deprecation-on-collection': { group: 'mixed-b', by: ['get-pet'] },
  'get-id-wraps-32': { group: 'mixed-c', by: ['get-pet'] },
  'get-id-sign-ignored': { group: 'mixed-d', by: ['get-pet'] },
  'get-only-by-creator': { group: 'mixed-c', by: ['get-pet'] },
  'create-id-per-key': { group: 'mixed-b', by: ['concurrency'] },
  'create-id-per-connection': { group: 'mixed-d', by: ['concurrency'] },
  'headers-missing-on-errors': { group: 'auth-a', by: ['auth'] },
  'headers-missing': { group: 'list-a', by: ['list-pets'] },
  'content-type-text': { group: 'list-a', by: ['list-pets'] },
  'cache-public-keyed': { group: 'list-d', by: ['list-pets'] },
  // The relations suite: four groups. A relations failure is a code in a family (failureSignatures:
  // "relations.same-meaning:server-error@query"), so faults of one code but of different families
  // share a group; faults whose layers would hide each other's (two routers, a cache before auth
  // and a scheme parser, a strict query validator and a handler behind it, a shared cache and a
  // key's cache) are apart. relations-a and -b hold a should (header-facts): --strict.
  'path-auth-on-raw-path': { group: 'relations-a', by: ['relations'] },
  'path-limiter-on-raw-path': { group: 'relations-a', by: ['relations'], target: RELATIONS_ONE_QUOTA_TARGET },
  'method-gateway-auth-by-override': { group: 'relations-a', by: ['relations'] },
  'method-gateway-meters-by-override': { group: 'relations-a', by: ['relations'], target: RELATIONS_ONE_QUOTA_TARGET },
  'credential-scheme-replace-500': { group: 'relations-a', by: ['relations'] },
  'auth-field-name-exact': { group: 'relations-a', by: ['relations'] },
  'query-strict-400-text': { group: 'relations-d', by: ['relations'] },
  'body-chunked-read-as-empty': { group: 'relations-a', by: ['relations'] },
  'body-nesting-500': { group: 'relations-c', by: ['relations'] },
  'negotiation-exact-accept-only': { group: 'relations-a', by: ['relations'] },
  'forwarded-skips-limiter': { group: 'relations-a', by: ['relations'], target: RELATIONS_ONE_QUOTA_TARGET },
  'create-shared-defaults': { group: 'relations-a', by: ['relations'] },
  'location-without-base-path': { group: 'relations-a', by: ['relations'] },
  'path-controller-rereads-raw-path': { group: 'relations-b', by: ['relations'] },
  'method-dispatch-table-500': { group: 'relations-b', by: ['relations'] },
  'credential-other-scheme-passes': { group: 'relations-b', by: ['relations'] },
  'credential-limiter-exact-header': { group: 'relations-b', by: ['relations'], target: RELATIONS_ONE_QUOTA_TARGET },
  'query-validator-500': { group: 'relations-b', by: ['relations'] },
  'body-compiled-parser-500': { group: 'relations-b', by: ['relations'] },
  'negotiation-lookup-500': { group: 'relations-b', by: ['relations'] },
  'order-cache-before-limiter': { group: 'relations-c', by: ['relations'], target: RELATIONS_ONE_QUOTA_TARGET },
  'order-duplicate-post-empty': { group: 'relations-b', by: ['relations'] },
  'forwarded-skips-auth': { group: 'relations-b', by: ['relations'] },
  'rate-limit-per-second': { group: 'relations-b', by: ['relations'] },
  'path-semicolon-skips-auth': { group: 'relations-c', by: ['relations'] },
  'query-repeated-limit-500': { group: 'relations-c', by: ['relations'] },
  'query-repeated-status-unfiltered': { group: 'relations-c', by: ['relations'] },
  'body-charset-415': { group: 'relations-c', by: ['relations'] },
  'body-duplicate-first-wins-echo': { group: 'relations-c', by: ['relations'] },
  'body-proto-pollutes-defaults': { group: 'relations-c', by: ['relations'] },
  'order-cache-before-auth': { group: 'relations-d', by: ['relations'] },
  'rate-remaining-constant': { by: 'clock' },
  'rate-remaining-negative': { by: 'clock' },
  'rate-reset-milliseconds': { by: 'clock' },
  'rate-reset-relative': { by: 'clock' },
  'rate-reset-fraction': { by: 'clock' },
  'rate-reset-window-start': { by: 'clock' },
  'rate-reset-early': { by: 'clock' },
  'rate-limit-wrong-plan': { by: 'clock' },
  'rate-headers-mixed-windows': { by: 'clock' },
  'rate-limit-of-day-window-of-minute': { by: 'clock' },
  'rate-validation-first': { by: 'clock' },
  'rate-remaining-of-day': { by: 'clock' },
  'rate-one-too-many': { by: 'clock' },
  'rate-never-429': { by: 'clock' },
  'rate-no-retry-after': { by: 'clock' },
  'retry-after-day-only': { by: 'clock' },
  'rate-retry-after-milliseconds': { by: 'clock' },
  'rate-retry-after-fraction': { by: 'clock' },
  'rate-retry-after-too-short': { by: 'clock' },
  'rate-shared-bucket': { by: 'clock' },
  // The rate-limit suite end to end once: two requests raced over real sockets at the limit.
  // One key is enough to show the race: the suite drives every key of the target, so the target names one.
  'rate-check-then-count': { group: 'rate-check-then-count', by: ['rate-limit'], target: { keys: [KEYS[0]] } },
  'rate-per-connection': { by: 'clock' },
  'rate-per-operation': { by: 'clock' },
  'rate-per-operation-no-reset': { by: 'clock' },
  'rate-counts-only-success': { by: 'clock' },
  'rate-daily-not-enforced': { by: 'clock' },
  'rate-no-reset': { by: 'clock' },
  'rate-no-remaining': { by: 'clock' },
  'rate-day-reset-negative': { by: 'clock' },
  'rate-draft-headers': { by: 'clock' },
  'rate-day-one-too-many': { by: 'clock' },
  'rate-day-overrun-ban': { group: 'rate-day-overrun-ban', by: 'clock' },
  'rate-day-retry-after-minute': { by: 'clock' },
  'rate-day-429-minute-remaining': { by: 'clock' },
  'rate-slow-refill': { group: 'rate-slow-refill', by: ['load'] },
  // A limiter with no room for a burst, honest in its headers: every suite, so that the run is seen to end well within its time limit.
  'rate-no-burst': { group: 'rate-no-burst', by: ['auth', 'concurrency', 'create-pet', 'get-pet', 'list-pets', 'routes', 'stateful', 'rate-limit'], target: { budget: { maxSeconds: 120 } } },
  'latency-grows-with-load': { group: 'latency-grows-with-load', by: ['load'], target: { load: { thresholds: LOAD_THRESHOLDS } } },
} satisfies Record<FaultId, Shown>;

const DEFINITIONS: ReadonlyMap<string, FaultDefinition> = new Map(FAULT_CATALOGUE.map((f) => [f.id, f]));

export const CAUGHT: Caught[] = Object.entries(SHOWN).map(([id, shown]) => {
  const fault = id as FaultId;
  const { check, code, family } = DEFINITIONS.get(fault)!.caught;
  const severity = checkById(check)?.severity;
  if (severity === undefined) throw new Error(`${fault} is caught by ${check}, which the registry does not have`);
  return { fault, check, ...(code === undefined ? {} : { code }), ...(family === undefined ? {} : { family }), strict: severity === 'should', ...shown };
});

/** How a fault is shown caught, as failureSignatures writes it: "check:code", or for a relations failure of one family "check:code@family". */
export const signatureOf = (c: Pick<Caught, 'check' | 'code' | 'family'>): string => `${c.check}:${c.code}${c.family === undefined ? '' : `@${c.family}`}`;

/**
 * Every failure a report shows: each failing check's code and each of its other kinds' code, as
 * "check:code"; and for the relations checks, whose kinds are a code in a family, also
 * "check:code@family" (the family read from the spellings its exchanges carry).
 */
export function failureSignatures(report: Report): Set<string> {
  const out = new Set<string>();
  const families = (exchanges: readonly { spelling?: { family: string } }[] | undefined) => new Set((exchanges ?? []).flatMap((e) => (e.spelling ? [e.spelling.family] : [])));
  for (const c of report.checks.filter((x) => x.outcome === 'fail')) {
    const kinds = [{ code: c.code, exchanges: c.evidence?.exchanges }, ...(c.evidence?.failures ?? []).map((f) => ({ code: f.code, exchanges: f.exchanges }))];
    for (const k of kinds) {
      if (k.code === undefined) continue;
      out.add(`${c.id}:${k.code}`);
      if (c.suite === 'relations') for (const family of families(k.exchanges)) out.add(`${c.id}:${k.code}@${family}`);
    }
  }
  return out;
}
