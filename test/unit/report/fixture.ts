// Small Report values for renderer tests: a check with defaults, and a report whose summary and
// verdict are computed from its checks the way the runner does.
import { REPORT_SCHEMA_VERSION, type CheckResult, type Evidence, type Report } from '../../../lib/result/model.ts';
import { type Exchange } from '../../../lib/result/exchange.ts';
import { summarise, verdictOf } from '../../../lib/result/verdict.ts';

export function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    seq: 1,
    suite: 'auth',
    method: 'GET',
    url: 'http://127.0.0.1:4010/v1/pets',
    auth: { kind: 'key', label: 'free#1', env: 'ANIMAL_STORE_KEY', header: 'Bearer $ANIMAL_STORE_KEY' },
    requestHeaders: { accept: 'application/json', authorization: 'Bearer [redacted]' },
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '[]',
    startedAt: '2030-01-01T00:00:01.000Z',
    durationMs: 12,
    ...overrides,
  };
}

export function evidence(overrides: Partial<Evidence> = {}): Evidence {
  return {
    expected: 'status 401',
    actual: 'status 200',
    exchanges: [exchange()],
    reproduce: ['curl -sS -i "http://127.0.0.1:4010/v1/pets" -H "Authorization: Bearer $ANIMAL_STORE_KEY"'],
    ...overrides,
  };
}

export function check(overrides: Partial<CheckResult> & Pick<CheckResult, 'id'>): CheckResult {
  const outcome = overrides.outcome ?? 'pass';
  return {
    clause: 'Authentication',
    title: `Title of ${overrides.id}`,
    severity: 'must',
    outcome,
    message: outcome === 'pass' ? 'ok' : `${overrides.id} went wrong`,
    suite: 'auth',
    durationMs: 25,
    evidence: outcome === 'fail' || outcome === 'error' ? evidence() : null,
    ...overrides,
  };
}

export function report(checks: CheckResult[], overrides: Partial<Report> = {}): Report {
  const strict = overrides.options?.strict ?? false;
  const verdict = verdictOf(checks, strict);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'animal-store-conformance', version: '0.1.0' },
    target: { name: 'local', baseUrl: 'http://127.0.0.1:4010/v1', keys: [{ label: 'free#1', plan: 'free', disposable: false }] },
    startedAt: '2030-01-01T00:00:00.000Z',
    finishedAt: '2030-01-01T00:00:03.500Z',
    durationMs: 3500,
    seed: 42,
    options: { suites: [], runs: 100, strict, allowWrites: false, allowLoad: false, soak: false, maxRequests: 5000 },
    verdict,
    exitCode: verdict === 'pass' ? 0 : 1,
    summary: summarise(checks),
    requests: { total: 7, byStatus: { '200': 4, '401': 2, 'transport-error': 1 }, bySuite: { auth: 5, limits: 2 } },
    warnings: [],
    checks,
    ...overrides,
  };
}

/** One check of each kind the renderers treat differently, over three clauses. */
export function mixedChecks(): CheckResult[] {
  return [
    check({ id: 'auth.missing-key', subject: 'GET /pets' }),
    check({ id: 'auth.invalid-key', subject: 'GET /pets', outcome: 'fail' }),
    check({ id: 'errors.no-5xx', clause: 'Errors', severity: 'should', outcome: 'fail' }),
    check({ id: 'limits.headers', clause: 'Limits', subject: 'POST /pets', outcome: 'error', message: 'timed out' }),
    check({ id: 'limits.retry-after', clause: 'Limits', outcome: 'skip', message: 'needs --allow-load' }),
    check({ id: 'info.default-status', clause: 'States and transitions', severity: 'info', message: 'default status is available' }),
    check({ id: 'info.limit-zero', clause: 'Limits', severity: 'info', outcome: 'fail', message: 'limit=0 answered 200' }),
    check({ id: 'info.orders', clause: 'Endpoints', severity: 'info', outcome: 'error', message: 'no answer' }),
  ];
}

/** 2030-01-01T00:00:00Z in epoch ms: timelines start on a whole second. */
export const T0 = 1_893_456_000_000;

type RateLimitKey = NonNullable<Report['rateLimits']>[number];

/**
 * A fixed-window burst: `accepted` 2xx responses counting Remaining down from `limit`, then
 * `rejected` 429s, one every `stepMs`, all with the window resetting `resetAfterS` after T0.
 */
export function rateLimitKey(
  overrides: Partial<RateLimitKey> = {},
  shape: { accepted?: number; rejected?: number; stepMs?: number; limit?: number; resetAfterS?: number } = {},
): RateLimitKey {
  const { accepted = 58, rejected = 1, stepMs = 3, limit = 60, resetAfterS = 60 } = shape;
  const reset = T0 / 1000 + resetAfterS;
  const timeline: RateLimitKey['timeline'] = [];
  for (let i = 0; i < accepted; i++) timeline.push({ t: T0 + i * stepMs, status: 200, limit, remaining: Math.max(0, limit - 1 - i), reset });
  for (let i = 0; i < rejected; i++) {
    timeline.push({ t: T0 + (accepted + i) * stepMs, status: 429, limit, remaining: 0, reset, retryAfter: String(resetAfterS), ...(i > 0 ? { afterStop: true } : {}) });
  }
  return {
    label: 'free#1',
    plan: 'free',
    quota: { perMinute: limit, perDay: 1000 },
    windows: { minute: 60, day: 86_400 },
    behaviour: 'fixed window',
    timeline,
    load: {
      sent: accepted + rejected,
      accepted,
      rejected,
      other: 0,
      inFlightAtStop: 0,
      sentAfterFirst429: 0,
      durationMs: (accepted + rejected) * stepMs,
      askedRate: 200,
      achievedRate: 180,
      latency: { p50: 4, p90: 9, p99: 21, max: 40 },
    },
    ...overrides,
  };
}
