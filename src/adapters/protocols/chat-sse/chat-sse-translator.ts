import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, str } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';

/** One parsed SSE `data:` record of llm-gateway's `POST /chat` stream (its `ServerEvent` union). */
export type ChatSseRecord = Record<string, unknown>;

/** A `relay` (kind `permission`) record: the agent waits until it is answered. */
export interface ChatSseRelay {
  relayId: string;
  toolCallId: string;
  tool: string;
  params: unknown;
}

/** What the stream said so far. */
export interface ChatSseState {
  model?: string;
  sessionId?: string;
  /** The runId of the top-level agent (the first `harness_start` without `parentId`). */
  rootRunId?: string;
  /** The text or reasoning block being streamed (each one a message of its own), by its `id`. */
  open?: { id: string; kind: 'text' | 'reasoning' };
  /** Messages, thinking and tool calls open (llm-gateway reports no tool durations). */
  ledger: StreamLedger;
  /** The last whole text block of the top-level agent: the run's result. */
  lastText?: string;
  /** The last error of the top-level agent (or the server) with no work after it: the run failed. */
  failure?: string;
  /** Set by the top-level `harness_end`. */
  end?: { reason?: string; iterations?: number };
  /** `usage` records seen (each one a provider call's increment). */
  usageSeen: boolean;
}

export function initialChatSseState(model?: string): ChatSseState {
  return { model, ledger: new StreamLedger(undefined, { toolDurations: false }), usageSeen: false };
}

/** A token count: a non-negative integer, else undefined. */
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

/** Closes the text or reasoning block in flight, if any. */
export function closeOpenBlock(state: ChatSseState): EventDraft[] {
  const open = state.open;
  if (!open) return [];
  state.open = undefined;
  const out: EventDraft[] = [];
  const ledger = state.ledger;
  if (open.kind === 'reasoning') {
    ledger.stopThinking(out, ledger.thinkingText);
    ledger.stopMessage(out, null);
  } else {
    state.lastText = ledger.messageText;
    ledger.stopMessage(out, state.lastText);
  }
  return out;
}

function streamChunk(kind: 'text' | 'reasoning', record: ChatSseRecord, state: ChatSseState): EventDraft[] {
  const id = str(record.id) ?? `${kind}`;
  const content = str(record.content) ?? '';
  const drafts = state.open?.id !== id || state.open.kind !== kind ? openBlock(state, id, kind) : [];
  if (kind === 'text') state.ledger.text(drafts, content);
  else state.ledger.thinking(drafts, content);
  return drafts;
}

/** Closes the block in flight and opens `id` as a message of its own (with its thinking, for reasoning). */
function openBlock(state: ChatSseState, id: string, kind: 'text' | 'reasoning'): EventDraft[] {
  const drafts = closeOpenBlock(state);
  state.open = { id, kind };
  state.ledger.startMessage(drafts, id, state.model || undefined);
  if (kind === 'reasoning') state.ledger.startThinking(drafts);
  return drafts;
}

/** Closes the block in flight, then `tool_call_start` + `tool_call_ready` unless the call was started. */
function startTool(state: ChatSseState, toolCallId: string, toolName: string, input: unknown): EventDraft[] {
  const drafts = closeOpenBlock(state);
  state.ledger.readyTool(drafts, toolCallId, input, toolName);
  return drafts;
}

/** llm-gateway marks denials `{status: "denied"}` and failed calls `{error: …}` in `output`. */
function isErrorOutput(output: unknown): boolean {
  return isObj(output) && (output.status === 'denied' || output.error !== undefined);
}

/** Records that show the agent still working. */
const WORK = new Set(['text', 'reasoning', 'tool_call', 'tool_result', 'relay', 'usage']);

/** True when a record comes from the top-level agent or the provider call it made. */
function fromRoot(record: ChatSseRecord, state: ChatSseState): boolean {
  if (state.rootRunId === undefined) return true;
  return record.runId === undefined || record.runId === state.rootRunId || record.parentId === state.rootRunId;
}

/**
 * Maps one record to event drafts; a `relay` is returned for the session to answer.
 * Pure apart from `state`; never throws.
 */
export function translateChatSse(
  record: ChatSseRecord,
  state: ChatSseState,
): { drafts: EventDraft[]; relay?: ChatSseRelay } {
  // The agent loop goes on after a failed tool execution: an error followed by more work is not the end.
  if (typeof record.type === 'string' && WORK.has(record.type)) state.failure = undefined;
  switch (record.type) {
    case 'connected': {
      const sessionId = str(record.sessionId);
      if (!sessionId) return { drafts: [] };
      state.sessionId = sessionId;
      return { drafts: [{ type: 'session_start', sessionId, ...(state.model ? { model: state.model } : {}) }] };
    }
    case 'harness_start': {
      if (state.rootRunId !== undefined || record.parentId !== undefined) return { drafts: [] };
      state.rootRunId = str(record.runId) ?? 'root';
      return { drafts: [{ type: 'turn_start', turn: 0 }] };
    }
    case 'text':
      return { drafts: streamChunk('text', record, state) };
    case 'reasoning':
      return { drafts: streamChunk('reasoning', record, state) };
    case 'tool_call': {
      const toolCallId = str(record.id) ?? '';
      const toolName = str(record.name) ?? 'unknown';
      return { drafts: startTool(state, toolCallId, toolName, record.input ?? {}) };
    }
    case 'tool_result': {
      const toolCallId = str(record.id) ?? '';
      const toolName = str(record.name) ?? 'unknown';
      const drafts = closeOpenBlock(state);
      state.ledger.toolResult(drafts, toolCallId, record.output, isErrorOutput(record.output), toolName);
      return { drafts };
    }
    case 'relay': {
      if (record.kind !== 'permission') return { drafts: [] };
      const relayId = str(record.id);
      const toolCallId = str(record.toolCallId) ?? relayId ?? '';
      const tool = str(record.tool) ?? 'unknown';
      const params = record.params ?? {};
      const drafts = startTool(state, toolCallId, tool, params);
      return relayId ? { drafts, relay: { relayId, toolCallId, tool, params } } : { drafts };
    }
    case 'usage': {
      state.usageSeen = true;
      return { drafts: [usageDraft(record, state)] };
    }
    case 'error': {
      const message = str(record.message) ?? 'the agent server reported an error';
      const rootScope = fromRoot(record, state);
      if (rootScope) state.failure ??= message;
      // A provider call's error (or the server's own) ends the agent; the agent's own error (a tool
      // that threw) may not: the outcome then depends on whether work follows.
      const recoverable = !rootScope || (state.rootRunId !== undefined && record.runId === state.rootRunId);
      return {
        drafts: [...closeOpenBlock(state), { type: 'error', code: 'agent_error', message, recoverable }],
      };
    }
    case 'harness_end': {
      const isRoot = state.rootRunId === undefined ? record.parentId === undefined : record.runId === state.rootRunId;
      if (!isRoot) return { drafts: [] };
      const reason = str(record.reason);
      const iterations = count(record.iterations);
      state.end = { reason, iterations };
      const drafts = closeOpenBlock(state);
      // `usage` on harness_end is the run's cumulative total: only used when no increment came.
      if (!state.usageSeen && isObj(record.usage)) {
        drafts.push(usageDraft(record.usage, state));
      }
      drafts.push({
        type: 'turn_end',
        turn: 0,
        stopReason: reason ?? 'final',
        ...(state.lastText === undefined ? {} : { result: state.lastText }),
        ...(state.failure === undefined ? {} : { isError: true }),
      });
      return { drafts };
    }
    default:
      return { drafts: [] };
  }
}

function usageDraft(record: ChatSseRecord, state: ChatSseState): EventDraft {
  const cacheRead = count(record.cacheReadTokens) ?? count(record.cacheReadInputTokens);
  const cacheWrite =
    count(record.cacheWriteTokens) ?? count(record.cacheCreationTokens) ?? count(record.cacheCreationInputTokens);
  return {
    type: 'cost',
    inputTokens: count(record.inputTokens) ?? 0,
    outputTokens: count(record.outputTokens) ?? 0,
    ...(cacheRead === undefined ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteTokens: cacheWrite }),
    ...(state.model ? { model: state.model } : {}),
  };
}
