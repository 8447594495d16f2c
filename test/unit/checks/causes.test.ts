// lib/checks/causes.ts: one cause, one root. Failures explained by another failure (same subject or
// run-wide) point at their root; everything else is its own root.
import { describe, expect, it } from 'vitest';
import { linkCauses } from '../../../lib/checks/causes.ts';
import type { CheckResult } from '../../../lib/result/model.ts';

function result(id: string, outcome: CheckResult['outcome'], extra: Partial<CheckResult> = {}): CheckResult {
  const suite = id.startsWith('errors.') || id.startsWith('responses.') || id === 'list-pets.pet-shape' || id.startsWith('headers.') ? 'run' : id.split('.')[0]!;
  return { id, clause: 'c', title: 't', severity: 'must', outcome, message: `${id} ${outcome}`, suite, durationMs: 1, evidence: null, ...extra };
}

const causes = (checks: CheckResult[]) => linkCauses(checks).map((c) => [c.id, c.subject, c.causedBy]);

describe('linkCauses', () => {
  it('links a failure to the failed check its definition names, on the same subject', () => {
    const checks = [result('create-pet.created', 'fail', { subject: 'POST /pets' }), result('create-pet.echo', 'fail', { subject: 'POST /pets' }), result('create-pet.persisted', 'pass', { subject: 'POST /pets' })];
    expect(causes(checks)).toEqual([
      ['create-pet.created', 'POST /pets', undefined],
      ['create-pet.echo', 'POST /pets', { id: 'create-pet.created', subject: 'POST /pets' }],
      ['create-pet.persisted', 'POST /pets', undefined],
    ]);
  });

  it('does not link across subjects, except to a run-wide check', () => {
    const checks = [
      result('auth.missing-key', 'fail', { subject: 'listPets GET /pets' }),
      result('auth.invalid-key', 'fail', { subject: 'getPet GET /pets/{petId}' }),
      result('list-pets.pet-shape', 'fail', { subject: 'every response of the run' }),
      result('list-pets.limit', 'fail', { subject: 'GET /pets' }),
    ];
    expect(causes(checks)).toEqual([
      ['auth.missing-key', 'listPets GET /pets', undefined],
      ['auth.invalid-key', 'getPet GET /pets/{petId}', undefined],
      ['list-pets.pet-shape', 'every response of the run', undefined],
      ['list-pets.limit', 'GET /pets', { id: 'list-pets.pet-shape', subject: 'every response of the run' }],
    ]);
  });

  it('keeps a finding\'s own hint only when that check failed too', () => {
    const hinted = result('auth.missing-key', 'fail', { subject: 'listPets GET /pets', causedBy: { id: 'errors.error-body' } });
    expect(causes([hinted, result('errors.error-body', 'fail', { subject: 'every response of the run' })])[0]).toEqual(['auth.missing-key', 'listPets GET /pets', { id: 'errors.error-body', subject: 'every response of the run' }]);
    expect(causes([hinted, result('errors.error-body', 'pass', { subject: 'every response of the run' })])[0]).toEqual(['auth.missing-key', 'listPets GET /pets', undefined]);
    expect(causes([hinted])[0]).toEqual(['auth.missing-key', 'listPets GET /pets', undefined]);
  });

  it('follows a chain to its end: the root is the failure nothing explains', () => {
    const run = { subject: 'every response of the run' };
    const checks = [result('auth.missing-key', 'fail', { subject: 'listPets GET /pets', causedBy: { id: 'errors.error-body' } }), result('errors.error-body', 'fail', run), result('responses.json-media-type', 'fail', run)];
    expect(causes(checks)).toEqual([
      ['auth.missing-key', 'listPets GET /pets', { id: 'responses.json-media-type', subject: 'every response of the run' }],
      ['errors.error-body', 'every response of the run', { id: 'responses.json-media-type', subject: 'every response of the run' }],
      ['responses.json-media-type', 'every response of the run', undefined],
    ]);
  });

  it('leaves both failures of a cycle as roots, and errors count as failures', () => {
    const a = result('create-pet.echo', 'error', { subject: 'POST /pets', causedBy: { id: 'create-pet.new-id' } });
    const b = result('create-pet.new-id', 'fail', { subject: 'POST /pets', causedBy: { id: 'create-pet.echo' } });
    expect(causes([a, b])).toEqual([
      ['create-pet.echo', 'POST /pets', undefined],
      ['create-pet.new-id', 'POST /pets', undefined],
    ]);
  });

  it('never gives a cause to a check that passed or skipped, and changes nothing else', () => {
    const skipped = result('create-pet.echo', 'skip', { subject: 'POST /pets', causedBy: { id: 'create-pet.created' } });
    const [out] = linkCauses([skipped, result('create-pet.created', 'fail', { subject: 'POST /pets' })]);
    const { causedBy: _, ...rest } = skipped;
    expect(out).toEqual(rest);
  });
});
