/**
 * Tests in `test/app-faults/serial/` restart the shared PostgreSQL server, which breaks any other test
 * file using it at that moment. They run only in the serial pass (`vitest.serial.config.ts`, one file
 * at a time, after the main run), which sets this variable; the main run skips them.
 */
export const SERIAL_PASS = process.env.AGENT_MUX_SERIAL_PASS === '1';
