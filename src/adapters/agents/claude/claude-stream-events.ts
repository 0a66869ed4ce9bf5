import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { isObj, malformed, num, type Obj, str, unknownRecord, whole } from '../../shared/record-fields.ts';
import { startTurn } from '../../shared/start-turn.ts';
import { apiError } from './claude-api-error.ts';
import type { ClaudeRecordOf } from './claude-record.ts';
import { type ClaudeOpenMessage, type ClaudeTranslatorState, closeMessage, openMessage } from './claude-state.ts';

const EMPTY: Obj = {};

/** A `stream_event` record: one raw Anthropic SSE event (`event`). */
type StreamRecord = ClaudeRecordOf<'stream_event'>;

/**
 * A `stream_event` record (`--include-partial-messages`): one raw Anthropic SSE event →
 * `message_start`, `text_delta`, `thinking_*`, `tool_call_start`, `tool_input_delta`,
 * `tool_call_ready`, `message_stop`, and a per-message `cost` increment; the handlers below, one
 * per event type, append to `out`.
 */
export function claudeStreamEvent(value: StreamRecord, state: ClaudeTranslatorState): EventDraft[] {
  const event = value.event;
  const out: EventDraft[] = [];
  startTurn(state, out);
  // Most frequent first: each case is a comparison with a string fresh from `JSON.parse`.
  switch (event.type) {
    case 'content_block_delta':
      contentBlockDelta(value, state, out);
      return out;
    case 'message_start':
      messageStart(value, state, out);
      return out;
    case 'content_block_start':
      contentBlockStart(value, state, out);
      return out;
    case 'content_block_stop':
      contentBlockStop(value, state, out);
      return out;
    case 'message_delta':
      messageDelta(value, state, out);
      return out;
    case 'message_stop':
      closeMessage(state, out);
      return out;
    case 'ping':
      return out;
    case 'error':
      streamError(value, state, out);
      return out;
    default:
      out.push(...unknownRecord(state, `unknown stream event ${JSON.stringify(event.type)}`, value));
      return out;
  }
}

/** `content_block_delta`: a text, thinking or tool-input piece of the block at its index. */
function contentBlockDelta(value: StreamRecord, state: ClaudeTranslatorState, out: EventDraft[]): void {
  const event = value.event;
  const message = ensureStreamedMessage(state, value, out);
  const index = num(event.index) ?? 0;
  const delta = isObj(event.delta) ? event.delta : EMPTY;
  const block = message.blocks.get(index);
  const ledger = state.ledger;
  if (delta.type === 'text_delta') {
    if (!block) message.blocks.set(index, { kind: 'text' });
    ledger.text(out, str(delta.text) ?? '');
  } else if (delta.type === 'thinking_delta') {
    const thinking = str(delta.thinking) ?? '';
    if (block) block.thinking = (block.thinking ?? '') + thinking;
    else message.blocks.set(index, { kind: 'thinking', thinking });
    ledger.startThinking(out);
    ledger.thinking(out, thinking);
  } else if (delta.type === 'input_json_delta' && block?.toolCallId) {
    ledger.toolInput(out, block.toolCallId, str(delta.partial_json) ?? '');
  }
}

/** `message_start`: opens the streamed message, with its model and its starting usage. */
function messageStart(value: StreamRecord, state: ClaudeTranslatorState, out: EventDraft[]): void {
  const event = value.event;
  const message = isObj(event.message) ? event.message : EMPTY;
  openMessage(state, out, {
    id: str(message.id) ?? str(value.api_message_id) ?? `message-${state.turn}-${state.clock()}`,
    streamed: true,
    model: str(message.model),
    usage: isObj(message.usage) ? message.usage : undefined,
  });
}

/** `content_block_start`: a text, thinking or tool-use block opens at its index (any other kind is kept as `other`). */
function contentBlockStart(value: StreamRecord, state: ClaudeTranslatorState, out: EventDraft[]): void {
  const event = value.event;
  const message = ensureStreamedMessage(state, value, out);
  const index = num(event.index) ?? message.blocks.size;
  const block = isObj(event.content_block) ? event.content_block : EMPTY;
  switch (block.type) {
    case 'text':
      message.blocks.set(index, { kind: 'text' });
      state.ledger.text(out, str(block.text) ?? '');
      return;
    case 'thinking':
    case 'redacted_thinking':
      message.blocks.set(index, { kind: 'thinking', thinking: str(block.thinking) ?? '' });
      state.ledger.startThinking(out);
      return;
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use': {
      const id = str(block.id);
      const name = str(block.name);
      if (!id || !name) {
        out.push(...malformed('tool_use block without an id or a name'));
        return;
      }
      message.blocks.set(index, { kind: 'tool_use', toolCallId: id });
      state.ledger.startTool(out, id, name);
      return;
    }
    default:
      message.blocks.set(index, { kind: 'other' });
      return;
  }
}

/** `content_block_stop`: a thinking block stops, a tool call is ready; the block is forgotten. */
function contentBlockStop(value: StreamRecord, state: ClaudeTranslatorState, out: EventDraft[]): void {
  const event = value.event;
  const message = state.message;
  if (!message) return;
  const index = num(event.index) ?? 0;
  const block = message.blocks.get(index);
  const ledger = state.ledger;
  if (block?.kind === 'thinking') ledger.stopThinking(out, block.thinking || null);
  else if (block?.kind === 'tool_use' && block.toolCallId && ledger.hasTool(block.toolCallId)) {
    ledger.readyTool(out, block.toolCallId);
  }
  message.blocks.delete(index);
}

/** `message_delta`: the open message's cost, from its usage. */
function messageDelta(value: StreamRecord, state: ClaudeTranslatorState, out: EventDraft[]): void {
  const event = value.event;
  const message = state.message;
  if (message && isObj(event.usage)) {
    const cost = messageCost(message, event.usage);
    if (cost) out.push(cost);
  }
}

/** `error`: the model API's error, in the stream. */
function streamError(value: StreamRecord, state: ClaudeTranslatorState, out: EventDraft[]): void {
  const event = value.event;
  const error = isObj(event.error) ? event.error : EMPTY;
  out.push(...apiError(state, str(error.message) ?? 'the model API failed', undefined, str(error.type)));
}

/** The streamed message a block belongs to: the open one, or one opened for it. */
function ensureStreamedMessage(
  state: ClaudeTranslatorState,
  value: StreamRecord,
  out: EventDraft[],
): ClaudeOpenMessage {
  if (state.message?.streamed) return state.message;
  const id = str(value.api_message_id) ?? `message-${state.turn}-${state.clock()}`;
  return openMessage(state, out, { id, streamed: true });
}

/** A per-message increment: input and cache tokens from `message_start`, output from `message_delta`. */
function messageCost(message: ClaudeOpenMessage, delta: Obj): DraftOf<'cost'> | undefined {
  const start = message.usage ?? EMPTY;
  const pick = (key: string) => num(delta[key]) ?? num(start[key]) ?? 0;
  const cost: DraftOf<'cost'> = {
    type: 'cost',
    inputTokens: whole(pick('input_tokens')),
    outputTokens: whole(pick('output_tokens')),
    cacheReadTokens: whole(pick('cache_read_input_tokens')),
    cacheWriteTokens: whole(pick('cache_creation_input_tokens')),
    model: message.model,
  };
  return cost.inputTokens + cost.outputTokens + (cost.cacheReadTokens ?? 0) + (cost.cacheWriteTokens ?? 0) > 0
    ? cost
    : undefined;
}
