import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorDraft, providerErrorKind } from '../../shared/provider-error.ts';
import { countOf, isObj, malformed, type Obj, str, unknownRecord as unknown } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { textLine } from '../../shared/text-line.ts';
import {
  type CursorRecord,
  type CursorRecordOf,
  cursorCallId,
  cursorMalformed,
  cursorRecord,
} from './cursor-record.ts';
import { toolOutput, toolShape } from './cursor-tools.ts';

/**
 * What `cursor-agent -p --output-format stream-json --stream-partial-output` prints, per Cursor's
 * published reference (cursor.com/docs/cli/reference/output-format) and streams captured by others
 * from the real CLI (see src/adapters/agents/cursor/README.md; not recorded here: the CLI is not on npm):
 * - `{type:"system",subtype:"init",apiKeySource,cwd,session_id,model,permissionMode}`
 * - `{type:"user",message:{role,content:[{type:"text",text}]},session_id}` (the prompt echoed)
 * - `{type:"assistant",message:{role,content:[{type:"text",text}]},session_id,timestamp_ms?}`: with
 *   `--stream-partial-output` the pieces carry `timestamp_ms`, then the buffered whole message comes
 *   again without it; without that flag, one line per message
 * - `{type:"thinking",subtype:"delta"|"completed",text?,session_id}`
 * - `{type:"tool_call",subtype:"started"|"completed",call_id,tool_call:{<kind>ToolCall:{args,result?}}}`
 *   with kinds `shell`, `read`, `write`, `edit`, `grep`, `glob`, `ls`, `delete`, `mcp`, …, or
 *   `tool_call.function:{name,arguments}`; a result is `{success:{…}}`, `{rejected:{…}}` or `{failure|error:{…}}`
 * - `{type:"result",subtype:"success"|"error",is_error,duration_ms,result,session_id,request_id?,usage?}`
 * A failure may end the stream without a `result`; the message is then on stderr.
 * Records are checked at the edge (cursor-record.ts): a known type missing what it cannot do
 * without is a recoverable `malformed_record` error.
 */
export interface CursorTranslatorState extends TranslatorState {
  resumeSessionId?: string;
  sessionAnnounced: boolean;
  turnOpen: boolean;
  /** Messages, thinking and tool calls (results carry no duration: Cursor gives none). */
  ledger: StreamLedger;
  /** The open message came in pieces (`--stream-partial-output`): its buffered copy ends it. */
  partial: boolean;
  messages: number;
  /** Tool calls started in this run (a repeated record of one is not started again). */
  started: Set<string>;
  /** Started calls not answered yet: what a cut-short stream must still answer (bounded by the calls open, not the run). */
  unanswered: Set<string>;
  /** MCP calls by id → server and tool; `done` once answered (the ledger keeps them: they end in `mcp_tool_result`). */
  mcp: Record<string, { server: string; tool: string; done?: true }>;
}

export const cursorTranslator: Translator<CursorTranslatorState> = {
  init: ({ debug, request, clock }) => ({
    debug,
    resumeSessionId: request?.resumeSessionId,
    sessionAnnounced: false,
    turnOpen: false,
    ledger: new StreamLedger(clock, { toolDurations: false }),
    partial: false,
    messages: 0,
    started: new Set(),
    unanswered: new Set(),
    mcp: {},
  }),

  translate(record: NativeRecord, state: CursorTranslatorState): EventDraft[] {
    if (record.kind === 'text') return textLine(record.line);
    const value = record.value;
    if (!isObj(value)) return unknown(state, 'a JSON line that is not an object', value);
    // Checked at the edge (cursor-record.ts): by hand as the schema states it (zod's copy of each
    // record cost a tenth of the time), the schema deciding on what the hand check refuses.
    const native = cursorRecord(value);
    if (native === 'unknown') {
      return typeof value.type === 'string'
        ? unknown(state, `cursor record ${JSON.stringify(value.type)}`, value)
        : malformed('a record without a type');
    }
    if (native === 'malformed') return malformed(cursorMalformed[value.type as CursorRecord['type']]);
    return translateRecord(native, state);
  },

  stderr(line) {
    const kind = providerErrorKind(line, cursorErrorTable);
    if (kind === 'auth' || kind === 'rate_limit' || kind === 'context') {
      return [providerErrorDraft(line.trim(), cursorErrorTable)];
    }
    return [{ type: 'log', source: 'stderr', line }];
  },

  finish(_exit, state) {
    const out = closeAll(state);
    if (state.turnOpen) {
      state.turnOpen = false;
      out.push({ type: 'turn_end', turn: 0 });
    }
    return out;
  },
};

/** What Cursor prints for a failing login or model API, beyond the common wording (provider-error.ts). */
export const cursorErrorTable: ProviderErrorTable = {
  auth: { patterns: [/authenticat|\b401\b|CURSOR_API_KEY/i] },
  rateLimit: { patterns: [/\b429\b/] },
  context: { patterns: [/context limit/i] },
  authGuidance: 'Run `cursor-agent login`, or set CURSOR_API_KEY (a User API key from the Cursor dashboard).',
};

function translateRecord(native: CursorRecord, state: CursorTranslatorState): EventDraft[] {
  switch (native.type) {
    case 'assistant':
      return assistant(native, state);
    case 'thinking':
      return thinking(native, state);
    case 'tool_call':
      return toolCall(native, state);
    case 'result':
      return result(native, state);
    case 'system':
      return native.subtype === 'init'
        ? init(native, state)
        : unknown(state, `cursor system/${String(native.subtype)}`, native);
    case 'user':
    case 'interaction_query':
      return []; // the prompt echoed, and a question print mode answers itself
    default: {
      const never: never = native;
      return unknown(state, 'unknown record', never);
    }
  }
}

function init(value: Obj, state: CursorTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const sessionId = str(value.session_id);
  if (sessionId && !state.sessionAnnounced) {
    state.sessionAnnounced = true;
    state.sessionId = sessionId;
    if (state.resumeSessionId) {
      out.push({ type: 'session_resume', sessionId, previousSessionId: state.resumeSessionId });
    } else {
      out.push({ type: 'session_start', sessionId, model: str(value.model), cwd: str(value.cwd) });
    }
  }
  if (!state.turnOpen) {
    state.turnOpen = true;
    out.push({ type: 'turn_start', turn: 0 });
  }
  return out;
}

function messageText(value: Obj): string {
  const message = isObj(value.message) ? value.message : {};
  const content = Array.isArray(message.content) ? message.content : [];
  return content
    .filter(isObj)
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function assistant(value: Obj, state: CursorTranslatorState): EventDraft[] {
  const text = messageText(value);
  const partial = value.timestamp_ms !== undefined;
  const { ledger } = state;
  const out: EventDraft[] = [];
  ledger.stopThinking(out, null);
  if (!partial && ledger.messageOpen && state.partial) {
    // The buffered copy of the message just streamed: it ends the message.
    ledger.stopMessage(out, text || undefined);
    return out;
  }
  if (!text) return out;
  if (!ledger.messageOpen) {
    state.messages++;
    state.partial = partial;
    ledger.startMessage(out, `msg_${state.messages}`);
  }
  ledger.text(out, text, ledger.messageId);
  if (!partial) ledger.stopMessage(out);
  return out;
}

function thinking(value: Obj, state: CursorTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  if (value.subtype === 'completed') {
    state.ledger.stopThinking(out, null);
    return out;
  }
  const text = str(value.text);
  if (value.subtype === 'delta' && text) state.ledger.thinking(out, text);
  return out;
}

/** Closes what is open; a tool call that got no result is answered as failed. */
function closeAll(state: CursorTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const { ledger } = state;
  ledger.stopThinking(out, null);
  ledger.stopMessage(out);
  for (const id of state.unanswered) ledger.toolResult(out, id, 'no result reported', true);
  state.unanswered.clear();
  return out;
}

function toolCall(value: CursorRecordOf<'tool_call'>, state: CursorTranslatorState): EventDraft[] {
  // The schema's refinement made sure the call has an id.
  const id = cursorCallId(value) as string;
  const shape = toolShape(value.tool_call);
  if (!shape) return malformed('a tool_call without a <kind>ToolCall or function payload');
  const { ledger } = state;
  const out: EventDraft[] = [];
  ledger.stopThinking(out, null);
  ledger.stopMessage(out);
  if (!state.started.has(id)) {
    state.started.add(id);
    state.unanswered.add(id);
    ledger.startTool(out, id, shape.name);
    ledger.readyTool(out, id, shape.args);
    if (shape.mcp) {
      state.mcp[id] = { server: shape.mcp.server, tool: shape.mcp.tool };
      out.push({
        type: 'mcp_tool_call_start',
        toolCallId: id,
        server: shape.mcp.server,
        toolName: shape.mcp.tool,
        input: shape.mcp.input,
      });
    }
  }
  const mcp = state.mcp[id];
  if (value.subtype !== 'completed' || !ledger.hasTool(id) || mcp?.done) return out;
  const { output, isError } = toolOutput(shape);
  state.unanswered.delete(id);
  if (mcp) {
    mcp.done = true;
    out.push({ type: 'mcp_tool_result', toolCallId: id, server: mcp.server, toolName: mcp.tool, output, isError });
    return out;
  }
  ledger.toolResult(out, id, output, isError);
  return out;
}

function result(value: Obj, state: CursorTranslatorState): EventDraft[] {
  const out = closeAll(state);
  const sessionId = str(value.session_id);
  if (sessionId && !state.sessionId) state.sessionId = sessionId;
  const isError = value.is_error === true || value.subtype === 'error';
  const text = str(value.result) ?? '';
  if (isObj(value.usage)) {
    const usage = value.usage;
    const input = countOf(usage.inputTokens ?? usage.input_tokens);
    const output = countOf(usage.outputTokens ?? usage.output_tokens);
    if (input !== undefined || output !== undefined) {
      out.push({
        type: 'cost',
        inputTokens: input ?? 0,
        outputTokens: output ?? 0,
        cacheReadTokens: countOf(usage.cacheReadTokens ?? usage.cache_read_input_tokens),
        cacheWriteTokens: countOf(usage.cacheWriteTokens ?? usage.cache_creation_input_tokens),
      });
    }
  }
  if (isError) {
    const message = text || str(value.error) || 'Cursor reported an error';
    out.push(resultError(message, str(value.error_kind)));
    state.outcome = { status: 'failed', message };
  } else {
    state.outcome = { status: 'completed', output: text || undefined };
  }
  // `cursor-agent -p` runs one turn: its result record ends the run even if the process lingers.
  state.terminal = true;
  state.turnOpen = false;
  out.push({
    type: 'turn_end',
    turn: 0,
    stopReason: str(value.subtype),
    result: text || undefined,
    isError,
    durationMs: typeof value.duration_ms === 'number' && value.duration_ms >= 0 ? value.duration_ms : undefined,
  });
  return out;
}

/** A failed result's error: classified with Cursor's `error_kind` too, reported with the message alone. */
function resultError(message: string, errorKind: string | undefined): EventDraft {
  const draft = providerErrorDraft(errorKind === undefined ? message : `${message} ${errorKind}`, cursorErrorTable);
  return 'message' in draft ? ({ ...draft, message } as EventDraft) : draft;
}
