// lib/checks/causes.ts: one cause, one root. Failures explained by another failure (same subject, or
// a run-wide or other-subject root whose offending answers include theirs) point at their root;
// everything else is its own root.
import { describe, expect, it } from 'vitest';
import { linkCauses } from '../../../lib/checks/causes.ts';
import type { CheckResult, Evidence } from '../../../lib/result/model.ts';
import { exchange } from '../report/fixture.ts';

function result(id: string, outcome: CheckResult['outcome'], extra: Partial<CheckResult> = {}): CheckResult {
  const suite = id.startsWith('errors.') || id.startsWith('responses.') || id === 'list-pets.pet-shape' || id.startsWith('headers.') ? 'run' : id.split('.')[0]!;
  return { id, clause: 'c', title: 't', severity: 'must', outcome, message: `${id} ${outcome}`, suite, durationMs: 1, evidence: null, ...extra };
}

/** Evidence showing the answers `seqs` (and, for a rule over the run, listing `offenders`). */
const shows = (seqs: number[], offenders?: number[]): { evidence: Evidence } => ({
  evidence: { exchanges: seqs.map((seq) => exchange({ seq })), reproduce: [], ...(offenders ? { offenders } : {}) },
});

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

  it('does not link across subjects, except to a run-wide check whose offenders include its answers', () => {
    const checks = [
      result('auth.missing-key', 'fail', { subject: 'listPets GET /pets', ...shows([1]) }),
      result('auth.invalid-key', 'fail', { subject: 'getPet GET /pets/{petId}', ...shows([2]) }),
      result('list-pets.pet-shape', 'fail', { subject: 'every response of the run', ...shows([7], [7]) }),
      result('list-pets.limit', 'fail', { subject: 'GET /pets', ...shows([6, 7]) }),
    ];
    expect(causes(checks)).toEqual([
      ['auth.missing-key', 'listPets GET /pets', undefined],
      ['auth.invalid-key', 'getPet GET /pets/{petId}', undefined],
      ['list-pets.pet-shape', 'every response of the run', undefined],
      ['list-pets.limit', 'GET /pets', { id: 'list-pets.pet-shape', subject: 'every response of the run' }],
    ]);
  });

  it('keeps a finding\'s own hint only when that check failed too', () => {
    const hinted = result('auth.missing-key', 'fail', { subject: 'listPets GET /pets', causedBy: { id: 'errors.error-body' }, ...shows([3]) });
    expect(causes([hinted, result('errors.error-body', 'fail', { subject: 'every response of the run', ...shows([3], [3, 4]) })])[0]).toEqual(['auth.missing-key', 'listPets GET /pets', { id: 'errors.error-body', subject: 'every response of the run' }]);
    expect(causes([hinted, result('errors.error-body', 'pass', { subject: 'every response of the run' })])[0]).toEqual(['auth.missing-key', 'listPets GET /pets', undefined]);
    expect(causes([hinted])[0]).toEqual(['auth.missing-key', 'listPets GET /pets', undefined]);
  });

  it('the same check failing with the same code on several keys: one root, the first key, the others under it', () => {
    const key = (subject: string, code: string, outcome: CheckResult['outcome'] = 'fail') => result('rate-limit.retry-after-present', outcome, { subject, code });
    const checks = [
      key('free#1', 'absent'),
      key('free#2', 'absent'),
      key('pro#1', 'absent', 'pass'),
      key('daily#1', 'other-code'),
      key('enterprise#1', 'absent'),
      result('rate-limit.quota', 'fail', { subject: 'free#2', code: 'no-429' }),
    ];
    expect(causes(checks)).toEqual([
      ['rate-limit.retry-after-present', 'free#1', undefined],
      ['rate-limit.retry-after-present', 'free#2', { id: 'rate-limit.retry-after-present', subject: 'free#1' }],
      ['rate-limit.retry-after-present', 'pro#1', undefined],
      // Another code is another failure: its own root.
      ['rate-limit.retry-after-present', 'daily#1', undefined],
      ['rate-limit.retry-after-present', 'enterprise#1', { id: 'rate-limit.retry-after-present', subject: 'free#1' }],
      ['rate-limit.quota', 'free#2', undefined],
    ]);
    // A root its definition names comes first: free#2's quota under free#2's Remaining, which is under free#1's.
    const chained = [
      result('rate-limit.remaining', 'fail', { subject: 'free#1', code: 'not-counting-down' }),
      result('rate-limit.quota', 'fail', { subject: 'free#1', code: 'not-the-stated-quota' }),
      result('rate-limit.remaining', 'fail', { subject: 'free#2', code: 'not-counting-down' }),
      result('rate-limit.quota', 'fail', { subject: 'free#2', code: 'not-the-stated-quota' }),
    ];
    expect(linkCauses(chained).map((c) => `${c.id} [${c.subject}] <- ${c.causedBy ? `${c.causedBy.id} [${c.causedBy.subject}]` : 'root'}`)).toEqual([
      'rate-limit.remaining [free#1] <- root',
      'rate-limit.quota [free#1] <- rate-limit.remaining [free#1]',
      'rate-limit.remaining [free#2] <- rate-limit.remaining [free#1]',
      'rate-limit.quota [free#2] <- rate-limit.remaining [free#1]',
    ]);
    // No code, or a rule over the run: no such link.
    expect(causes([result('rate-limit.quota', 'fail', { subject: 'free#1' }), result('rate-limit.quota', 'fail', { subject: 'free#2' })]).map(([, , root]) => root)).toEqual([undefined, undefined]);
  });

  it('follows a chain to its end: the root is the failure nothing explains', () => {
    const run = { subject: 'every response of the run' };
    // A 401 labelled text/plain: no Error body because not JSON. The same answer all the way down.
    const checks = [
      result('auth.missing-key', 'fail', { subject: 'listPets GET /pets', causedBy: { id: 'errors.error-body' }, ...shows([3]) }),
      result('errors.error-body', 'fail', { ...run, ...shows([3], [3, 5]) }),
      result('responses.json-media-type', 'fail', { ...run, ...shows([3], [3]) }),
    ];
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
  describe('roots by evidence: a root on another subject, or a rule over the run, explains only the answers it blames', () => {
    const run = { subject: 'every response of the run' };

    it('401s without X-RateLimit-* explain nothing about a quota; the same header missing on the burst does', () => {
      const headers401 = result('headers.rate-limit-present', 'fail', { ...run, ...shows([1, 2], [1, 2]) });
      const quota = result('rate-limit.quota', 'fail', { subject: 'free#1', ...shows([40, 41, 99, 100]) });
      expect(causes([headers401, quota])[1]).toEqual(['rate-limit.quota', 'free#1', undefined]);
      const headersOnBurst = result('headers.rate-limit-present', 'fail', { ...run, ...shows([1, 2, 40], [1, 2, 40, 41]) });
      expect(causes([headersOnBurst, quota])[1]).toEqual(['rate-limit.quota', 'free#1', { id: 'headers.rate-limit-present', ...run }]);
    });

    it('a key\'s 429 shown beside the burst is not what the quota or Remaining rest on; the 429\'s headers are the binding check\'s', () => {
      // free#1's evidence, as the rate-limit suite keeps it: two accepted answers, then its first 429.
      const sample = { evidence: { exchanges: [exchange({ seq: 40 }), exchange({ seq: 41 }), exchange({ seq: 99, status: 429 })], reproduce: [] } };
      const onlyThe429 = result('headers.rate-limit-present', 'fail', { ...run, ...shows([1, 2, 99], [1, 2, 99]) });
      const key = (id: string) => result(id, 'fail', { subject: 'free#1', ...sample });
      const rootOf = (root: CheckResult, id: string) => causes([root, key(id)])[1]![2];
      expect(rootOf(onlyThe429, 'rate-limit.quota')).toBeUndefined();
      expect(rootOf(onlyThe429, 'rate-limit.remaining')).toBeUndefined();
      expect(rootOf(onlyThe429, 'rate-limit.binding-headers')).toEqual({ id: 'headers.rate-limit-present', ...run });
      const onAccepted = result('headers.rate-limit-present', 'fail', { ...run, ...shows([1, 2, 41], [1, 2, 41, 99]) });
      expect(rootOf(onAccepted, 'rate-limit.quota')).toEqual({ id: 'headers.rate-limit-present', ...run });
      expect(rootOf(onAccepted, 'rate-limit.remaining')).toEqual({ id: 'headers.rate-limit-present', ...run });
    });

    it('reads every offender, not only the first ones shown as exchanges', () => {
      const root = result('errors.error-body', 'fail', { ...run, ...shows([1, 2, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9]) });
      const hinted = result('auth.missing-key', 'fail', { subject: 'createPet POST /pets', causedBy: { id: 'errors.error-body' }, ...shows([9]) });
      expect(causes([root, hinted])[1]![2]).toEqual({ id: 'errors.error-body', ...run });
    });

    it('two rules over the run link only through a shared answer', () => {
      const media = result('responses.json-media-type', 'fail', { ...run, ...shows([12], [12]) });
      expect(causes([result('errors.error-body', 'fail', { ...run, ...shows([3], [3]) }), media])[0]![2]).toBeUndefined();
      expect(causes([result('errors.error-body', 'fail', { ...run, ...shows([3], [3, 12]) }), media])[0]![2]).toEqual({ id: 'responses.json-media-type', ...run });
    });

    it('no answer recorded, no link to a root elsewhere; on the same subject the link stands without one', () => {
      const headers = result('headers.rate-limit-present', 'fail', { ...run, ...shows([40], [40]) });
      expect(causes([headers, result('rate-limit.quota', 'fail', { subject: 'free#1' })])[1]![2]).toBeUndefined();
      expect(causes([result('headers.rate-limit-present', 'fail', run), result('rate-limit.quota', 'fail', { subject: 'free#1', ...shows([40]) })])[1]![2]).toBeUndefined();
      const created = result('create-pet.created', 'fail', { subject: 'POST /pets', ...shows([5]) });
      expect(causes([created, result('create-pet.echo', 'fail', { subject: 'POST /pets', ...shows([8]) })])[1]![2]).toEqual({ id: 'create-pet.created', subject: 'POST /pets' });
      expect(causes([result('rate-limit.remaining', 'fail', { subject: 'free#1' }), result('rate-limit.quota', 'fail', { subject: 'free#1' })])[1]![2]).toEqual({ id: 'rate-limit.remaining', subject: 'free#1' });
    });

    it('links to a root on another subject only through a shared answer, picking among its failures the one that shares it', () => {
      const isolation = (subject: string, seqs: number[]) => result('rate-limit.isolation', 'fail', { subject, ...shows(seqs) });
      const quota = result('rate-limit.quota', 'fail', { subject: 'free#3', ...shows([60, 61]) });
      expect(causes([isolation('free#1', [50]), quota])[1]![2]).toBeUndefined();
      expect(causes([isolation('free#1', [50]), isolation('free#2', [61]), quota])[2]![2]).toEqual({ id: 'rate-limit.isolation', subject: 'free#2' });
    });
  });
});
