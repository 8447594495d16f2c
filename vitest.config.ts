// Config for the harness's own tests (`npm test`). The conformance suites in suites/ are run by
// lib/runner with a config of their own, never by this one.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: an end-to-end test runs the CLI, which may wait out a short rate-limit window.
    testTimeout: 120_000,
    hookTimeout: 30_000,
    // Two cores: end-to-end files each start servers and CLI processes.
    maxWorkers: 2,
    // End-to-end files run a few CLI processes side by side, not more: the machine has two cores.
    maxConcurrency: 2,
  },
});
