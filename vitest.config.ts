// Two vitest projects. "harness": the harness's own tests (`npm test` runs only these).
// "conformance": the suites in suites/, run by vitest alone against the target named in
// ANIMAL_STORE_TARGET (`ANIMAL_STORE_TARGET=local npx vitest run suites/auth.suite.ts`); the
// runner behind `npm run conformance` runs the same suites with the same settings.
import { defineConfig } from 'vitest/config';
import { NameOrder, suiteTestSettings } from './lib/runner/vitest-settings.ts';

export default defineConfig({
  test: {
    // The suites must run in name order (the same seed sends the same requests); vitest reads the
    // sequencer from here only, so the harness's own tests run in name order too.
    sequence: { sequencer: NameOrder },
    projects: [
      {
        test: {
          name: 'harness',
          include: ['test/**/*.test.ts'],
          // Generous: an end-to-end test runs the CLI, which may wait out a short rate-limit window.
          testTimeout: 120_000,
          hookTimeout: 30_000,
          // Two cores: end-to-end files each start servers and CLI processes.
          maxWorkers: 2,
          // End-to-end files run a few CLI processes side by side, not more: the machine has two cores.
          maxConcurrency: 2,
        },
      },
      {
        test: {
          name: 'conformance',
          ...suiteTestSettings(false),
          globalSetup: ['lib/runner/vitest-global-setup.ts'],
        },
      },
    ],
  },
});
