// Small hand-built responses for the unit tests of lib/checks: no server, no network.
import { expect } from 'vitest';
import type { Finding, Seen } from '../../../lib/checks/types.ts';
import { stringifyJson } from '../../../lib/json.ts';
import type { Pet, PetStatus } from '../../../lib/models.ts';

export const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/**
 * What a check sees of one response. A string body is used as written (so a test can spell exact
 * JSON digits or broken JSON); any other value is written with stringifyJson (bigints as digits).
 * Headers default to `content-type: application/json`; pass `{}` for a response without one.
 */
export function seen(status: number, body: unknown = '', headers: Readonly<Record<string, string>> = JSON_HEADERS): Seen {
  return { status, headers, text: typeof body === 'string' ? body : stringifyJson(body) };
}

/** An Error body as the interface describes it. */
export function errorBody(status: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { code: 'some_code', message: 'something happened', status, ...extra };
}

/** A Pet (ids as bigint, as the models give them). */
export function pet(id: bigint | number, status?: PetStatus, name = `pet ${id}`, categoryId: bigint | number = 7n): Pet {
  return { id: BigInt(id), name, categoryId: BigInt(categoryId), ...(status === undefined ? {} : { status }) };
}

/** `n` Pets with ids from..from+n-1. */
export function pets(n: number, status?: PetStatus, from = 1): Pet[] {
  return Array.from({ length: n }, (_, i) => pet(from + i, status));
}

export type Outcome = Finding['outcome'];

/** Asserts the outcome, and that the message names every fragment given. */
export function expectFinding(finding: Finding, outcome: Outcome, mentions: readonly string[] = []): void {
  expect(finding.outcome, `finding: ${JSON.stringify(finding)}`).toBe(outcome);
  for (const m of mentions) expect(finding.message ?? '').toContain(m);
  if (finding.outcome === 'fail') {
    // Every failure says what was expected and what came back, for the report.
    expect(finding.expected ?? '').not.toBe('');
    expect(finding.actual ?? '').not.toBe('');
  }
}
