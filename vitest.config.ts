import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The live suite drives real CLIs: `npm run test:live` (vitest.live.config.ts). The committed
    // bundle is compared with the sources once, in its own check: `npm run check:dist`.
    exclude: ['test/**/*.live.test.ts', 'test/dist/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on programs they start (git, agents, PostgreSQL, probot), not on the CPU:
    // on a 2-core machine vitest's default (one worker) leaves a core idle.
    maxWorkers: 3,
    // Every temporary file under one directory of the suite's, removed when it ends.
    globalSetup: ['test/support/suite-temp-dir.ts'],
    // The JSON report is what .ci/run counts; the default reporter is for people.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
