import { readFile, rm } from 'node:fs/promises';
import type { LaunchContext, ProcessController, RunIO } from '../../core/adapter/index.ts';
import type { EventDraft } from '../../core/events/index.ts';
import { usageFiles } from './copilot-plan.ts';

/**
 * Copilot prints no token counts on stdout (1.0.102): they are in the JSON file the plan asked for
 * with `--usage-output-file`. Once the program has exited, this controller reads that file, emits
 * one `cost` per model (the process's totals, sent once, so as increments: a `cumulative` event
 * per model would replace the other models' counts), and removes the file.
 * Should a future version print `assistant.usage` on stdout, the translator counts those and the
 * file is only removed.
 */
export function copilotController(io: RunIO, ctx: LaunchContext): ProcessController {
  const file = usageFiles.get(ctx);
  usageFiles.delete(ctx);
  let sawCost = false;
  return {
    onEvent(event) {
      if (event.type === 'cost') sawCost = true;
    },
    async settle() {
      if (!file) return;
      try {
        if (!sawCost) for (const draft of usageDrafts(await readFile(file, 'utf8'))) io.emit(draft);
      } catch {
        // No file: the program failed before writing it.
      } finally {
        await rm(file, { force: true }).catch(() => undefined);
      }
    },
  };
}

/** The `--usage-output-file` JSON → one `cost` per model. Never throws. */
export function usageDrafts(text: string): EventDraft[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isObject(value) || !isObject(value.modelMetrics)) return [];
  const out: EventDraft[] = [];
  for (const [model, metrics] of Object.entries(value.modelMetrics)) {
    if (!isObject(metrics) || !isObject(metrics.usage)) continue;
    const usage = metrics.usage;
    out.push({
      type: 'cost',
      model,
      inputTokens: count(usage.inputTokens),
      outputTokens: count(usage.outputTokens),
      cacheReadTokens: count(usage.cacheReadTokens),
      cacheWriteTokens: count(usage.cacheWriteTokens),
    });
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}
