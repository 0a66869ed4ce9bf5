import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LaunchContext, ProcessController, RunIO } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { usageFiles } from './copilot-plan.ts';

/**
 * Copilot prints no token counts on stdout (1.0.102). Once the program has exited, this controller
 * emits them as `cost` events from what Copilot wrote to disk:
 * - a new session: the `--usage-output-file` JSON the plan asked for (one `cost` per model);
 * - a resumed session: that file counts the whole session, earlier runs included, so instead the
 *   `session.usage_record` entries this run added to `<COPILOT_HOME>/session-state/<id>/events.jsonl`
 *   (one `cost` per model call).
 * The usage file is removed either way. Should Copilot print `assistant.usage` on stdout, the
 * translator counts those and nothing is read.
 */
export function copilotController(io: RunIO, ctx: LaunchContext): ProcessController {
  const file = usageFiles.get(ctx);
  usageFiles.delete(ctx);
  const startedAt = Date.now();
  let sawCost = false;
  let sessionId: string | undefined;
  return {
    onEvent(event) {
      if (event.type === 'cost') sawCost = true;
      if (event.type === 'session_start' || event.type === 'session_resume') sessionId = event.sessionId;
    },
    async settle() {
      try {
        if (sawCost) return;
        if (ctx.request.resumeSessionId) {
          const id = sessionId ?? ctx.request.resumeSessionId;
          const log = join(copilotHomeOf(ctx), 'session-state', id, 'events.jsonl');
          for (const draft of usageRecordDrafts(await readFile(log, 'utf8'), startedAt)) io.emit(draft);
        } else if (file) {
          for (const draft of usageDrafts(await readFile(file, 'utf8'))) io.emit(draft);
        }
      } catch {
        // Nothing written: the program failed early, or the session log is elsewhere.
      } finally {
        if (file) await rm(file, { force: true }).catch(() => undefined);
      }
    },
  };
}

/** Copilot's state directory as the program saw it: the run's environment, then this process's. */
function copilotHomeOf(ctx: LaunchContext): string {
  const env = { ...ctx.env, ...(ctx.request.env ?? {}) };
  return env.COPILOT_HOME || join(env.HOME || homedir(), '.copilot');
}

/** The `--usage-output-file` JSON → one `cost` per model (increments: sent once). Never throws. */
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
    out.push(costOf(metrics.usage, model));
  }
  return out;
}

/** `session.usage_record` lines of a session log written at or after `since` (ms) → one `cost` each. */
export function usageRecordDrafts(text: string, since: number): EventDraft[] {
  const out: EventDraft[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('"session.usage_record"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(value) || value.type !== 'session.usage_record' || !isObject(value.data)) continue;
    const at = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : Number.NaN;
    if (!(at >= since)) continue;
    const usage = value.data.usage;
    if (!isObject(usage)) continue;
    out.push(costOf(usage, typeof usage.model === 'string' ? usage.model : undefined));
  }
  return out;
}

function costOf(usage: Record<string, unknown>, model: string | undefined): EventDraft {
  return {
    type: 'cost',
    ...(model ? { model } : {}),
    inputTokens: count(usage.inputTokens),
    outputTokens: count(usage.outputTokens),
    cacheReadTokens: count(usage.cacheReadTokens),
    cacheWriteTokens: count(usage.cacheWriteTokens),
    ...(usage.reasoningTokens === undefined ? {} : { thinkingTokens: count(usage.reasoningTokens) }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}
