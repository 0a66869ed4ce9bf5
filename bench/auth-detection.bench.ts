import { createBuiltinRegistry } from '../src/adapters/builtin-registry.ts';
import { type Benchmark, fixed, median, type Target } from './bench-kit.ts';

const RUNS = 20;
const LIMIT_MS = 100;

/** Auth detection is read-only, local, no network, and takes under 100 ms. */
export const benchmark: Benchmark = {
  name: 'auth-detection',
  title: `each adapter's detectAuth (median of ${RUNS}, first call included in the max) against ${LIMIT_MS} ms`,
  async run(log) {
    const targets: Target[] = [];
    const facts: string[] = [];
    for (const adapter of createBuiltinRegistry().list()) {
      if (!adapter.detectAuth) continue;
      const times: number[] = [];
      let status = '';
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        const result = adapter.detectAuth(process.env);
        times.push(performance.now() - start);
        status = `${result.status}${result.method ? ` (${result.method})` : ''}`;
      }
      const worst = Math.max(...times);
      log(`${adapter.id.padEnd(10)} median ${fixed(median(times), 3)} ms, max ${fixed(worst, 3)} ms → ${status}`);
      targets.push({
        label: `${adapter.id} detectAuth max`,
        value: worst,
        op: '<=',
        limit: LIMIT_MS,
        unit: ' ms',
        digits: 2,
      });
    }
    facts.push(`${targets.length} adapters detect auth`);
    return { targets, facts, flags: [] };
  },
};
