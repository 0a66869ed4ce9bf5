import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs one full garbage collection now and returns how long it took (ms).
 *
 * Start-up (Probot, Octokit, zod schemas, TypeScript stripping, the store's migration) leaves tens of
 * MB of garbage in a fresh process's young and old generations. Left alone, V8 collects it at the
 * first allocations that cross its initial limits: in the first burst of webhooks, as a 10–15 ms
 * scavenge and a 10 ms mark-compact pause while every delivery of the burst waits (`--trace-gc`
 * during `bench/app-busy.bench.ts`). Collected before the app says it is ready, the young generation
 * starts empty and the old generation's next limit is set from what start-up really keeps.
 */
export function collectStartUpGarbage(): number {
  const start = performance.now();
  gcFunction()();
  return performance.now() - start;
}

/**
 * V8's `gc()`: the global one when node runs with `--expose-gc`, else one from a fresh context made
 * while the flag is on (it is turned off again, so no later context gets it). `probot run` passes
 * no such flag, and `v8.queryObjects`, the public API that collects first, then walks the whole
 * heap (about 400 ms here).
 */
function gcFunction(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
