import type { ExitInfo, NativeRecord, Translator } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { RecentIds } from '../../shared/recent-ids.ts';
import { isObj, malformed, unknownRecord } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { textLine } from '../../shared/text-line.ts';
import { emptyTally } from './claude-cost.ts';
import { claudeAssistant, claudeUser } from './claude-messages.ts';
import { type ClaudeRecord, claudeMalformed, claudeRecord } from './claude-record.ts';
import { claudeResult, claudeSystem } from './claude-session-records.ts';
import { type ClaudeTranslatorState, closeMessage, mcpName } from './claude-state.ts';
import { claudeStreamEvent } from './claude-stream-events.ts';

export { type ClaudeTranslatorState, mcpName } from './claude-state.ts';

/**
 * Translates Claude Code's `--print --output-format stream-json --verbose` records, with or
 * without `--include-partial-messages` (recorded from claude 2.1.330, src/adapters/agents/claude/README.md):
 *
 * - `system` → session and turn start, API retries (claude-session-records.ts);
 * - `stream_event` (raw Anthropic SSE events) → the message's events as they stream (claude-stream-events.ts);
 * - `assistant` / `user` → whole messages and tool results (claude-messages.ts);
 * - `result` → `cost` (the process's running total), `turn_end`, and `state.outcome`.
 *
 * The record is checked at the edge (claude-record.ts); messages, thinking and tool calls are
 * opened and closed by a {@link StreamLedger}. Claude Code reports no tool durations.
 */
export const claudeTranslator: Translator<ClaudeTranslatorState> = {
  init: ({ debug, request, clock = Date.now }) => ({
    debug,
    request,
    clock,
    ledger: new StreamLedger(clock, { toolDurations: false, mcpToolName: mcpName }),
    turn: 0,
    turnOpen: false,
    streamedIds: new RecentIds(),
    errorReported: false,
    sessionAnnounced: false,
    runCost: { ...emptyTally(), usd: 0 },
  }),

  translate(record: NativeRecord, state: ClaudeTranslatorState): EventDraft[] {
    // Plain text where JSON was expected (a warning printed to stdout): kept as a `log`, not a failure,
    // and not model text (it would change the answer).
    if (record.kind === 'text') return textLine(record.line);
    const value = record.value;
    if (!isObj(value)) return unknownRecord(state, 'a JSON line that is not an object', value);
    const native = claudeRecord(value);
    if (native === 'unknown') return unknownRecord(state, `unknown record type ${JSON.stringify(value.type)}`, value);
    if (native === 'malformed') return malformed(claudeMalformed[value.type as ClaudeRecord['type']]);
    switch (native.type) {
      case 'system':
        return claudeSystem(native, state);
      case 'stream_event':
        return claudeStreamEvent(native, state);
      case 'assistant':
        return claudeAssistant(native, state);
      case 'user':
        return claudeUser(native, state);
      case 'result':
        return claudeResult(native, state);
      default: {
        const never: never = native;
        return unknownRecord(state, 'unknown record', never);
      }
    }
  },

  finish(_exit: ExitInfo, state: ClaudeTranslatorState): EventDraft[] {
    const out: EventDraft[] = [];
    closeMessage(state, out);
    state.ledger.finish(out);
    return out;
  },
};
