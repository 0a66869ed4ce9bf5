import { defineConfig } from 'vitest/config';

// `npm run test:live`: the recorded cases run again against the real CLIs (installed into a cache).
export default defineConfig({
  test: {
    include: ['test/live/**/*.live.test.ts'],
    testTimeout: 15 * 60_000,
    hookTimeout: 20 * 60_000,
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['test/support/suite-temp-dir.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest-live.json' },
  },
});
