import type { AgentEvent } from '../../src/core/events/index.ts';

/**
 * Events as compared across recordings and live runs: run ids, timestamps, durations, ids the
 * CLI or the model invents, and temporary paths replaced by placeholders, so only what the
 * translation means is compared.
 */
export function normalizeEvents(events: readonly AgentEvent[], paths: Record<string, string> = {}): unknown[] {
  const replacements = Object.entries(paths)
    .filter(([, path]) => path.length > 0)
    .sort((a, b) => b[1].length - a[1].length);
  const clean = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') {
      if (key && /(^|[a-z])Id$|^id$/.test(key)) return '<id>';
      let out = value;
      for (const [name, path] of replacements) out = out.split(path).join(`<${name}>`);
      // Wall-clock times some CLIs append to tool output (omp: "Wall time: 0.25 seconds").
      // …and process ids (Qwen Code: "Process Group PGID: 4194").
      return out
        .replace(/Wall time: [\d.]+ seconds/g, 'Wall time: <t> seconds')
        .replace(/Process Group PGID: \d+/g, 'Process Group PGID: <pid>');
    }
    if (typeof value === 'number' && key && /durationMs|wallTimeMs|timestamp|^usd$|^pid$/.test(key))
      return key === 'usd' ? value : 0;
    if (Array.isArray(value)) return value.map((v) => clean(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === 'runId' || k === 'timestamp' || k === 'raw') continue;
        // A cost event's running totals (stamped by the core) are left out: run_end holds the final ones.
        if (k === 'totals' && (value as { type?: unknown }).type === 'cost') continue;
        out[k] = clean(v, k);
      }
      return out;
    }
    return value;
  };
  return events.map((e) => clean(e));
}
