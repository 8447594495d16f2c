// lib/checks/to-check-result.ts: the one way a judged check becomes the report's CheckResult.
import { describe, expect, it } from 'vitest';
import { missingKey, schemeCaseInsensitive } from '../../../lib/checks/auth.ts';
import { limit } from '../../../lib/checks/list-pets.ts';
import { toCheckResult } from '../../../lib/checks/to-check-result.ts';
import type { Exchange } from '../../../lib/result/exchange.ts';

function exchange(seq: number): Exchange {
  return {
    seq,
    suite: 'auth',
    method: 'GET',
    url: `http://127.0.0.1:8080/v1/pets?limit=${seq}`,
    auth: { kind: 'none' },
    requestHeaders: { accept: 'application/json' },
    status: 200,
    responseHeaders: {},
    responseBody: '[]',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 2,
  };
}

describe('toCheckResult', () => {
  it('names a should\'s standard, and a must\'s none', () => {
    const should = toCheckResult(schemeCaseInsensitive, { outcome: 'fail', code: 'not-accepted', message: '"bearer KEY" got 401' }, { durationMs: 1, exchanges: [exchange(1)] });
    expect(should.standard).toBe(schemeCaseInsensitive.standard);
    expect(should.standard).toMatch(/^RFC 9110 §11\.1/);
    expect(toCheckResult(missingKey, { outcome: 'pass' }, { durationMs: 1, exchanges: [] })).not.toHaveProperty('standard');
  });

  it('takes id, clause, title, severity and suite from the definition, and keeps no evidence for a pass', () => {
    const result = toCheckResult(missingKey, { outcome: 'pass' }, { subject: 'GET /pets', durationMs: 4, exchanges: [exchange(1)] });
    expect(result).toEqual({
      id: 'auth.missing-key',
      subject: 'GET /pets',
      clause: 'Authentication',
      title: missingKey.title,
      severity: 'must',
      outcome: 'pass',
      message: missingKey.title,
      suite: 'auth',
      durationMs: 4,
      evidence: null,
    });
  });

  it('keeps no evidence for a skip, and its reason as the message', () => {
    const result = toCheckResult(missingKey, { outcome: 'skip', message: 'writes are not allowed' }, { durationMs: 0, exchanges: [exchange(1)] });
    expect(result.evidence).toBeNull();
    expect(result.message).toBe('writes are not allowed');
    expect(result).not.toHaveProperty('subject');
  });

  it('proves a failure with expected, actual, the exchanges sent and a curl command for each', () => {
    const result = toCheckResult(missingKey, { outcome: 'fail', code: 'not-401', message: 'got 200', expected: '401', actual: '200 []' }, { durationMs: 1, exchanges: [exchange(1), exchange(2)] });
    expect(result).toMatchObject({ outcome: 'fail', code: 'not-401', message: 'got 200' });
    expect(result.evidence?.expected).toBe('401');
    expect(result.evidence?.actual).toBe('200 []');
    expect(result.evidence?.exchanges.map((e) => e.seq)).toEqual([1, 2]);
    expect(result.evidence?.reproduce).toHaveLength(2);
    expect(result.evidence?.reproduce[0]).toMatch(/^curl .*limit=1/);
  });

  it('prefers the exchanges a finding names over the ones the check sent', () => {
    const result = toCheckResult(missingKey, { outcome: 'fail', code: 'not-401', message: 'x', exchanges: [exchange(7)] }, { durationMs: 1, exchanges: [exchange(1), exchange(2)] });
    expect(result.evidence?.exchanges.map((e) => e.seq)).toEqual([7]);
  });

  it('adds the counterexample, its seed and path and the replay command to a property failure', () => {
    const result = toCheckResult(
      limit,
      { outcome: 'fail', code: 'too-many-animals', message: 'limit=3 returned 4 animals', property: { counterexample: '3', seed: 42, path: '0:1', runs: 5 } },
      { durationMs: 1, exchanges: [exchange(3)], replay: 'npm run conformance -- --suite list-pets --seed 1' },
    );
    expect(result.evidence).toMatchObject({ counterexample: '3', seed: 42, path: '0:1' });
    expect(result.evidence?.reproduce.at(-1)).toBe('npm run conformance -- --suite list-pets --seed 1');
  });

  it('gives each other kind of failure of a property its code, beside its kind', () => {
    const other = { kind: 'not-200', code: 'not-200', message: 'limit=5: got 500, not 200', property: { counterexample: '5', seed: 42, runs: 9 }, exchanges: [exchange(5)] };
    const result = toCheckResult(
      limit,
      { outcome: 'fail', code: 'too-many-animals', message: 'limit=3 returned 4 animals', property: { counterexample: '3', seed: 42, runs: 5, kind: 'too-many-animals' }, others: [other] },
      { durationMs: 1, exchanges: [exchange(3)] },
    );
    expect(result.code).toBe('too-many-animals');
    expect(result.message).toBe('limit=3 returned 4 animals (and 1 more kind of failure: not-200)');
    expect(result.evidence?.failures).toEqual([{ kind: 'not-200', code: 'not-200', message: 'limit=5: got 500, not 200', counterexample: '5', reproduce: [expect.stringMatching(/^curl .*limit=5/)] }]);
  });

  it('gives a code to failures only', () => {
    expect(toCheckResult(missingKey, { outcome: 'pass' }, { durationMs: 1, exchanges: [] })).not.toHaveProperty('code');
    expect(toCheckResult(missingKey, { outcome: 'skip', message: 's' }, { durationMs: 1, exchanges: [] })).not.toHaveProperty('code');
    expect(toCheckResult(missingKey, { outcome: 'error', message: 'e' }, { durationMs: 1, exchanges: [] })).not.toHaveProperty('code');
  });

  it('keeps the exchanges of an error, for the reader to see what the harness saw', () => {
    const result = toCheckResult(missingKey, { outcome: 'error', message: 'HARNESS_TRANSPORT: no response' }, { durationMs: 1, exchanges: [exchange(1)] });
    expect(result.outcome).toBe('error');
    expect(result.evidence?.exchanges).toHaveLength(1);
    expect(result.evidence).not.toHaveProperty('expected');
  });
});
