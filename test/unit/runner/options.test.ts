// lib/runner/options.ts: what the user asked combined with what the target allows.
import { describe, expect, it } from 'vitest';
import { validateTarget } from '../../../lib/config/load-target.ts';
import { DEFAULT_RUNS, resolveRun, type RunOptions } from '../../../lib/runner/options.ts';
import { SOAK_LIMIT_SECONDS } from '../../../lib/config/run-context.ts';

const target = (extra: Record<string, unknown> = {}) =>
  validateTarget({ name: 'staging', baseUrl: 'https://staging.invalid/v1', keys: [{ key: 'k-1234567890', plan: 'free' }], ...extra }, 'staging.yaml', {});

const options: RunOptions = { target: 'staging', allowWrites: false, allowLoad: false, strict: false, soak: false };
const T0 = new Date('2026-01-01T00:00:00Z');

describe('resolveRun', () => {
  it('takes the target\'s settings when nothing is asked, and a seed from the random source', () => {
    const { context, warnings } = resolveRun(options, target(), T0, () => 0.5);
    expect(warnings).toEqual([]);
    expect(context).toMatchObject({ seed: 2 ** 31, runs: DEFAULT_RUNS, allowWrites: false, allowLoad: false, strict: false, soak: false });
    expect(context.maxRequests).toBe(context.target.budget.maxRequests);
    expect(context.deadline).toBe(T0.getTime() + context.target.budget.maxSeconds * 1000);
  });

  it('lets the options override, and warns when they allow what the target does not', () => {
    const { context, warnings } = resolveRun({ ...options, seed: 7, runs: 3, maxRequests: 10, allowWrites: true, allowLoad: true, strict: true }, target(), T0);
    expect(context).toMatchObject({ seed: 7, runs: 3, maxRequests: 10, allowWrites: true, allowLoad: true, strict: true });
    expect(warnings).toEqual([expect.stringContaining('--allow-writes'), expect.stringContaining('--allow-load')]);
  });

  it('gives a soak run a day and more, and warns of unverified TLS', () => {
    const { context, warnings } = resolveRun({ ...options, soak: true }, target({ http: { insecure: true } }), T0);
    expect(context.deadline).toBe(T0.getTime() + SOAK_LIMIT_SECONDS * 1000);
    expect(warnings).toEqual([expect.stringContaining('http.insecure')]);
  });
});
