import { defineConfig } from 'vitest/config';

// `npm run check:dist`: the committed dist/ against a fresh ncc build of the sources (two builds,
// about two minutes), kept out of `npm test`, whose Action tests run the sources.
export default defineConfig({
  test: {
    include: ['test/dist/**/*.test.ts'],
    testTimeout: 10 * 60_000,
    hookTimeout: 10 * 60_000,
    pool: 'forks',
    globalSetup: ['test/support/suite-temp-dir.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest-dist.json' },
  },
});
