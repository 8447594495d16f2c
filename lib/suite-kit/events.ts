// The one channel from the suites (vitest workers) to the runner: a small set of typed events,
// carried as vitest test artifacts (`recordArtifact`, reported to `onTestCaseArtifactRecord`).
// The runner builds the run's exchanges, check results, rate-limit timelines and its progress
// lines from these events alone.
import type { CheckResult } from '../result/model.ts';
import type { Exchange } from '../result/exchange.ts';
import type { PacedLoadSection } from '../result/paced-load.ts';
import type { RateLimitKey } from '../result/rate-limits.ts';

export type HarnessEvent =
  /** A request and its response (or the lack of one), redacted. */
  | { kind: 'exchange'; exchange: Exchange }
  /** A check judged, ready for the report. */
  | { kind: 'check'; check: CheckResult }
  /** A line for the console: what a suite is doing or waiting for. */
  | { kind: 'progress'; suite: string; line: string }
  /** One key's rate-limit timeline and load figures. */
  | { kind: 'rate-limit'; key: RateLimitKey }
  /** The load suite's paced load: every key's figures. */
  | { kind: 'paced-load'; load: PacedLoadSection };

export const EVENTS_ARTIFACT = 'animal-store:events';

/** Events travel in batches: one artifact holds the events since the last one, in order. */
export interface EventsArtifact {
  type: typeof EVENTS_ARTIFACT;
  events: HarnessEvent[];
}

export function isEventsArtifact(artifact: { type: string }): artifact is EventsArtifact {
  return artifact.type === EVENTS_ARTIFACT;
}

declare module '@vitest/runner' {
  interface TestArtifactRegistry {
    'animal-store:events': EventsArtifact;
  }
}
