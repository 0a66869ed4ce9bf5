import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';

/**
 * Translates seed 001's json-lines protocol (agent → adapter):
 * `progress`, `tool_call`, `comment`, `complete`, `failed`. `complete` and `failed` are terminal:
 * they end the run even if the program stays alive (the core then sends `shutdown` and stops it).
 */
export const processTranslator: Translator<TranslatorState> = {
  init: ({ debug }) => ({ debug }),
  translate(record: NativeRecord, state: TranslatorState): EventDraft[] {
    if (record.kind !== 'json') return [logDraft('stdout', record.line)];
    const value = record.value;
    if (!isObject(value)) return unknownRecord(state, 'a JSON line that is not an object');
    switch (value.type) {
      case 'progress': {
        const out: EventDraft[] = [
          {
            type: 'progress',
            summary: typeof value.summary === 'string' ? value.summary : '',
            beliefs: Array.isArray(value.beliefs) ? value.beliefs : undefined,
            attempted: Array.isArray(value.attempted) ? value.attempted : undefined,
          },
        ];
        const cost = costDraft(value.cost);
        if (cost) out.push(cost);
        return out;
      }
      case 'tool_call': {
        if (typeof value.id !== 'string' && typeof value.id !== 'number') return malformed('tool_call without an id');
        if (typeof value.tool !== 'string') return malformed('tool_call without a tool name');
        const toolCallId = String(value.id);
        return [
          { type: 'tool_call_start', toolCallId, toolName: value.tool },
          { type: 'tool_call_ready', toolCallId, toolName: value.tool, input: value.args ?? {} },
        ];
      }
      case 'comment':
        return [
          {
            type: 'comment',
            text: typeof value.text === 'string' ? value.text : '',
            mentions: Array.isArray(value.mentions) ? value.mentions.filter((m) => typeof m === 'string') : [],
          },
        ];
      case 'complete': {
        state.outcome = { status: 'completed', output: value.output };
        state.terminal = true;
        const cost = costDraft(value.cost);
        return cost ? [cost] : [];
      }
      case 'failed': {
        const reason = typeof value.reason === 'string' ? value.reason : 'failed';
        const details = typeof value.details === 'string' ? value.details : undefined;
        const message = details ? `${reason}: ${details}` : reason;
        state.outcome = { status: 'failed', message };
        state.terminal = true;
        const out: EventDraft[] = [{ type: 'error', code: 'agent_error', message, recoverable: false }];
        const cost = costDraft(value.cost);
        if (cost) out.push(cost);
        return out;
      }
      default:
        return unknownRecord(state, `unknown record type ${JSON.stringify(value.type)}`, value);
    }
  },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(message: string): EventDraft[] {
  return [{ type: 'error', code: 'malformed_record', message, recoverable: true }];
}

function unknownRecord(state: TranslatorState, message: string, data?: unknown): EventDraft[] {
  return state.debug ? [{ type: 'debug', message, data }] : [];
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;

/**
 * A `cost` field as seed 001 reports it: `{model, inputTokens, outputTokens, extras}` or `{usd}`.
 * It is the run's running total so far (each progress repeats it), so it is marked cumulative.
 */
export function costDraft(cost: unknown): DraftOf<'cost'> | undefined {
  if (!isObject(cost)) return undefined;
  const extras = Array.isArray(cost.extras)
    ? cost.extras.filter(isObject).map((e) => ({ label: String(e.label ?? 'extra'), usd: Number(e.usd) || 0 }))
    : undefined;
  return {
    type: 'cost',
    inputTokens: count(cost.inputTokens),
    outputTokens: count(cost.outputTokens),
    cacheReadTokens: cost.cacheReadTokens === undefined ? undefined : count(cost.cacheReadTokens),
    cacheWriteTokens: cost.cacheWriteTokens === undefined ? undefined : count(cost.cacheWriteTokens),
    model: typeof cost.model === 'string' ? cost.model : undefined,
    usd: typeof cost.usd === 'number' && cost.usd >= 0 ? cost.usd : undefined,
    extras,
    cumulative: true,
  };
}
