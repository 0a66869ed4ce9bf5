import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The live suite drives real CLIs: `npm run test:live` (vitest.live.config.ts).
    exclude: ['test/**/*.live.test.ts', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The JSON report is what .ci/run counts; the default reporter is for people.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
