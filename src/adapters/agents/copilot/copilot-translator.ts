import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import {
  count,
  countOf,
  isObj,
  malformed,
  type Obj,
  str,
  unknownRecord as unknown,
} from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { textLine } from '../../shared/text-line.ts';
import { sessionErrorDraft, withoutRetryTime } from './copilot-error-table.ts';
import { type CopilotRecord, copilotMalformed, copilotRecord, dataOf } from './copilot-record.ts';
import { assistantMessage, toolComplete, toolStart } from './copilot-tools.ts';

/**
 * What `copilot -p … --output-format json` prints (recorded from @github/copilot 1.0.102): one
 * session event per line, `{type, data, id, timestamp, parentId, ephemeral?}`, the same event
 * union the CLI writes to `~/.copilot/session-state/<id>/events.jsonl` (schema in the package's
 * `schemas/session-events.schema.json`), then one `{type: "result", sessionId, exitCode, usage}`.
 * Token counts are not on stdout (only in `--usage-output-file`): see copilot-controller.ts.
 * Events are checked at the edge (copilot-record.ts): a known type missing what it cannot do
 * without is a recoverable `malformed_record` error.
 */
export interface CopilotTranslatorState extends TranslatorState {
  /** The session this run continues (request.resumeSessionId), to tell a resume from a new session. */
  resumeSessionId?: string;
  sessionAnnounced: boolean;
  /** Messages, reasoning (under its own ids) and tool calls; results carry no duration. */
  ledger: StreamLedger;
  /** MCP tool calls, by id → server and tool on that server. */
  mcp: Record<string, { server: string; tool: string }>;
  /** The last `session.error` message, for the run's outcome. */
  lastError?: string;
  /** An `assistant.usage` record was seen (token counts on stdout). */
  sawUsage: boolean;
  /** The text of the last assistant message: the run's output. */
  lastText?: string;
}

export const copilotTranslator: Translator<CopilotTranslatorState> = {
  init: ({ debug, request, clock }) => ({
    debug,
    resumeSessionId: request?.resumeSessionId,
    sessionAnnounced: false,
    ledger: new StreamLedger(clock, { toolDurations: false }),
    mcp: {},
    sawUsage: false,
  }),

  translate(record: NativeRecord, state: CopilotTranslatorState): EventDraft[] {
    // Plain text where JSON was expected (a warning, a crash message): kept as stdout output, not a failure.
    if (record.kind === 'text') return textLine(record.line);
    const value = record.value;
    if (!isObj(value)) return unknown(state, 'a JSON line that is not an object', value);
    // Checked at the edge (copilot-record.ts): by hand as the schema states it (zod's copy of each
    // record cost a tenth of the time), the schema deciding on what the hand check refuses.
    const native = copilotRecord(value);
    if (native === 'unknown') {
      return typeof value.type === 'string'
        ? unknown(state, `copilot event ${value.type}`, value)
        : malformed('a record without a type');
    }
    if (native === 'malformed') return malformed(copilotMalformed[value.type as CopilotRecord['type']]);
    return translateEvent(native, state);
  },

  finish(_exit, state) {
    return closeOpen(state);
  },
};

function translateEvent(native: CopilotRecord, state: CopilotTranslatorState): EventDraft[] {
  const { ledger } = state;
  const data = dataOf(native);
  const out: EventDraft[] = [];
  switch (native.type) {
    case 'assistant.message_delta': // the most frequent: first
      ledger.text(out, str(data.deltaContent) ?? '', str(data.messageId));
      return out;
    case 'session.start':
      return announce(state, native.data.sessionId, {
        model: str(data.selectedModel),
        cwd: isObj(data.context) ? str(data.context.cwd) : undefined,
      });
    case 'session.resume':
      return state.resumeSessionId ? announce(state, state.resumeSessionId, {}) : [];
    case 'session.skills_loaded': {
      const skills = Array.isArray(data.skills) ? data.skills.filter(isObj) : [];
      return skills
        .filter((s) => typeof s.name === 'string' && s.enabled !== false)
        .map((s) => ({ type: 'skill_loaded', name: String(s.name), source: str(s.source) }));
    }
    case 'skill.invoked':
      return [{ type: 'skill_invoked', name: native.data.name, input: data.arguments }];
    case 'assistant.turn_start':
      return [{ type: 'turn_start', turn: turnNumber(data.turnId) }];
    case 'assistant.turn_end':
      return [...closeOpen(state), { type: 'turn_end', turn: turnNumber(data.turnId) }];
    case 'assistant.message_start':
      ledger.startMessage(out, str(data.messageId));
      return out;
    case 'assistant.reasoning_delta':
      ledger.thinking(out, str(data.deltaContent) ?? '', str(data.reasoningId) ?? 'reasoning');
      return out;
    case 'assistant.reasoning': {
      const content = str(data.content) ?? '';
      ledger.startThinking(out, str(data.reasoningId) ?? 'reasoning');
      // Not streamed: the whole reasoning at once.
      if (out.length > 0) ledger.thinking(out, content);
      ledger.stopThinking(out, content || null);
      return out;
    }
    case 'assistant.tool_call_delta': {
      const id = native.data.toolCallId;
      ledger.startTool(out, id, str(data.toolName) ?? 'unknown');
      ledger.toolInput(out, id, str(data.inputDelta) ?? '');
      return out;
    }
    case 'assistant.message':
      return assistantMessage(data, state);
    case 'assistant.usage':
      state.sawUsage = true;
      return [usageCost(data)];
    case 'tool.execution_start':
      return toolStart(native.data, state);
    case 'tool.execution_complete':
      return toolComplete(native.data, state);
    case 'session.error': {
      const message = withoutRetryTime(str(data.message) ?? 'Copilot reported an error');
      state.lastError = message;
      return [sessionErrorDraft(data, message)];
    }
    case 'abort':
      state.lastError = `aborted${typeof data.reason === 'string' ? `: ${data.reason}` : ''}`;
      return [];
    case 'result':
      return result(native, state);
    default: {
      const never: never = native;
      return unknown(state, 'unknown copilot event', never);
    }
  }
}

function announce(
  state: CopilotTranslatorState,
  sessionId: string | undefined,
  extra: { model?: string; cwd?: string },
) {
  if (!sessionId || state.sessionAnnounced) return [];
  state.sessionAnnounced = true;
  state.sessionId = sessionId;
  if (state.resumeSessionId) {
    return [{ type: 'session_resume', sessionId, previousSessionId: state.resumeSessionId } as const];
  }
  return [{ type: 'session_start', sessionId, ...extra } as const];
}

/** Closes whatever is still open (the turn, or the whole run, ended): reasoning, message, unready calls. */
function closeOpen(state: CopilotTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  state.ledger.stopThinking(out, null);
  state.ledger.stopMessage(out, null);
  state.ledger.finish(out);
  return out;
}

function result(value: Obj, state: CopilotTranslatorState): EventDraft[] {
  const out = closeOpen(state);
  out.push(...announce(state, str(value.sessionId), {}));
  const exitCode = typeof value.exitCode === 'number' ? value.exitCode : 0;
  // `result.usage` holds timings and premium requests, no tokens: the output is the last answer.
  state.outcome =
    exitCode === 0
      ? { status: 'completed', ...(state.lastText === undefined ? {} : { output: state.lastText }) }
      : { status: 'failed', message: state.lastError ?? `copilot reported exit code ${exitCode}` };
  // The result record is copilot's last word on a `-p` run: it ends the run even if the process lingers.
  state.terminal = true;
  return out;
}

/** One model call's usage (`assistant.usage`): an increment, not a running total. */
export function usageCost(data: Obj): DraftOf<'cost'> {
  return {
    type: 'cost',
    inputTokens: count(data.inputTokens),
    outputTokens: count(data.outputTokens),
    cacheReadTokens: countOf(data.cacheReadTokens),
    cacheWriteTokens: countOf(data.cacheWriteTokens),
    thinkingTokens: countOf(data.reasoningTokens),
    model: str(data.model),
  };
}

function turnNumber(turnId: unknown): number | undefined {
  const n = typeof turnId === 'string' ? Number(turnId) : typeof turnId === 'number' ? turnId : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}
