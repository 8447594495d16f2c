// Small facts the suites share.
import { INT64_MAX } from '../lib/models.ts';

/**
 * An id no animal is likely to have: near the top of int64, where monotonic counters never reach.
 * Checks that rely on it being absent confirm it (a 200 for exactly this id makes them try another).
 */
export const MISSING_PET_ID = INT64_MAX - 1_000_003n;
export const MISSING_PET_IDS = [MISSING_PET_ID, INT64_MAX - 7n, 4_611_686_018_427_387_903n] as const;
