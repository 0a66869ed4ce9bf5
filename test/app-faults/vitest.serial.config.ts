import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The serial pass: tests that restart the shared PostgreSQL server (`test/app-faults/serial/`), one
 * file at a time, after the main run (`vitest run && vitest run --config test/app-faults/vitest.serial.config.ts`).
 * The main run skips them (they check `AGENT_MUX_SERIAL_PASS`).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['test/app-faults/serial/**/*.test.ts'],
    env: { AGENT_MUX_SERIAL_PASS: '1' },
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest-serial.json' },
  },
});
