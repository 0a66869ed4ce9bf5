import { writeSync } from 'node:fs';
import type { Benchmark, BenchReport } from './bench-kit.ts';

/**
 * Runs one benchmark in this process (the runner starts one process per benchmark, so that memory and
 * leftover handles do not leak between them): prints its block, then writes its report as JSON to fd 3.
 */
const name = process.argv[2];
if (!name || !/^[a-z0-9-]+$/.test(name)) throw new Error(`usage: node bench/run-one.ts <benchmark-name>`);
const { benchmark } = (await import(`./${name}.bench.ts`)) as { benchmark: Benchmark };
const log = (line: string) => process.stdout.write(`  ${line}\n`);
process.stdout.write(`\n== ${benchmark.name}: ${benchmark.title}\n`);
const started = performance.now();
let report: BenchReport;
try {
  report = await benchmark.run(log);
} catch (error) {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stdout.write(`  CRASHED: ${message}\n`);
  report = { targets: [], facts: [], flags: [`crashed: ${message.split('\n')[0]}`] };
  process.exitCode = 1;
}
log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
try {
  writeSync(3, JSON.stringify(report));
} catch {
  // Run by hand without the runner's fd 3: the printed block is all there is.
}
// Leftover handles (keep-alive sockets, timers) must not hold the benchmark open.
process.exit();
