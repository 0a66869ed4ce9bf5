import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';
import { count, isObj, malformed, num, str, unknownRecord } from '../../shared/record-fields.ts';
import { processMalformed, processRecordSchema } from './process-record.ts';

/**
 * Translates the Process protocol (json lines on stdio) (agent → adapter):
 * `progress`, `tool_call`, `comment`, `complete`, `failed`. `complete` and `failed` are terminal:
 * they end the run even if the program stays alive (the core then sends `shutdown` and stops it).
 * Records are checked at the edge (process-record.ts).
 */
export const processTranslator: Translator<ProcessTranslatorState> = {
  init: ({ debug }) => ({ debug }),
  translate(record: NativeRecord, state: ProcessTranslatorState): EventDraft[] {
    if (record.kind !== 'json') return [logDraft('stdout', record.line)];
    const value = record.value;
    if (!isObj(value)) return unknownRecord(state, 'a JSON line that is not an object');
    const parsed = processRecordSchema.safeParse(value);
    if (!parsed.success) {
      const known = processMalformed(value.type, parsed.error.issues[0]?.path[0]);
      return known
        ? malformed(known)
        : unknownRecord(state, `unknown record type ${JSON.stringify(value.type)}`, value);
    }
    const native = parsed.data;
    switch (native.type) {
      case 'progress': {
        const out: EventDraft[] = [
          {
            type: 'progress',
            summary: str(native.summary) ?? '',
            beliefs: Array.isArray(native.beliefs) ? native.beliefs : undefined,
            attempted: Array.isArray(native.attempted) ? native.attempted : undefined,
          },
        ];
        out.push(...changedCost(state, native.cost));
        return out;
      }
      case 'tool_call': {
        const toolCallId = String(native.id);
        return [
          { type: 'tool_call_start', toolCallId, toolName: native.tool },
          { type: 'tool_call_ready', toolCallId, toolName: native.tool, input: native.args ?? {} },
        ];
      }
      case 'comment':
        return [
          {
            type: 'comment',
            text: str(native.text) ?? '',
            mentions: Array.isArray(native.mentions) ? native.mentions.filter((m) => typeof m === 'string') : [],
          },
        ];
      case 'complete': {
        state.outcome = { status: 'completed', output: native.output };
        state.terminal = true;
        return changedCost(state, native.cost);
      }
      case 'failed': {
        const reason = str(native.reason) ?? 'failed';
        const details = str(native.details);
        const message = details ? `${reason}: ${details}` : reason;
        state.outcome = { status: 'failed', message };
        state.terminal = true;
        const out: EventDraft[] = [{ type: 'error', code: 'agent_error', message, recoverable: false }];
        out.push(...changedCost(state, native.cost));
        return out;
      }
      default: {
        const never: never = native;
        return unknownRecord(state, 'unknown record', never);
      }
    }
  },
};

/** The translator's state: the last running total it reported. */
export interface ProcessTranslatorState extends TranslatorState {
  lastCost?: string;
}

/**
 * The `cost` draft of a record, or none when it repeats the running total last reported: each
 * `progress` and the final record repeat the total, which is news only when it changed.
 */
function changedCost(state: ProcessTranslatorState, field: unknown): DraftOf<'cost'>[] {
  const cost = costDraft(field);
  if (cost === undefined) return [];
  const key = JSON.stringify(cost);
  if (key === state.lastCost) return [];
  state.lastCost = key;
  return [cost];
}

/**
 * A `cost` field as the Process protocol reports it: `{model, inputTokens, outputTokens, extras}` or `{usd}`.
 * It is the run's running total so far (each progress repeats it), so it is marked cumulative.
 */
export function costDraft(cost: unknown): DraftOf<'cost'> | undefined {
  if (!isObj(cost)) return undefined;
  const extras = Array.isArray(cost.extras)
    ? cost.extras.filter(isObj).map((e) => ({ label: String(e.label ?? 'extra'), usd: Number(e.usd) || 0 }))
    : undefined;
  const usd = num(cost.usd);
  return {
    type: 'cost',
    inputTokens: count(cost.inputTokens),
    outputTokens: count(cost.outputTokens),
    cacheReadTokens: cost.cacheReadTokens === undefined ? undefined : count(cost.cacheReadTokens),
    cacheWriteTokens: cost.cacheWriteTokens === undefined ? undefined : count(cost.cacheWriteTokens),
    model: str(cost.model),
    usd: usd !== undefined && usd >= 0 ? usd : undefined,
    extras,
    cumulative: true,
  };
}
