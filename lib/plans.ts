// The plan table of the interface ("Request rate by plan"). Enterprise is "custom": it has no
// published numbers and must come from the target's `plans:`.
import { z } from 'zod';

/**
 * A plan's quota, requests per minute window and per day window: the one definition, for target
 * configs (whose values may arrive as strings from the environment: `count` reads them), the
 * reference server's config and report.json.
 */
export function planQuota(count: z.ZodType<number, unknown> = z.number().int().positive()) {
  return z.strictObject({ perMinute: count, perDay: count });
}
export const PlanQuota = planQuota();
export type PlanQuota = z.infer<typeof PlanQuota>;

export const PUBLISHED_PLANS: Readonly<Record<string, PlanQuota>> = Object.freeze({
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
});

/** Plans the interface names without numbers. */
export const CUSTOM_PLANS: readonly string[] = ['enterprise'];

/** The published table completed and overridden by a target's `plans:`. */
export function resolvePlans(overrides: Record<string, PlanQuota> = {}): Record<string, PlanQuota> {
  return { ...PUBLISHED_PLANS, ...overrides };
}
