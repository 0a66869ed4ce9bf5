import type { RunRequest, TranslatorState } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { mcpToolNames } from '../../shared/mcp-tool-names.ts';
import type { RecentIds } from '../../shared/recent-ids.ts';
import type { Obj } from '../../shared/record-fields.ts';
import type { TurnState } from '../../shared/start-turn.ts';
import type { StreamLedger } from '../../shared/stream-ledger.ts';

/** A content block of the open message, by its index. */
export interface ClaudeBlock {
  kind: 'text' | 'thinking' | 'tool_use' | 'other';
  toolCallId?: string;
  /** A thinking block's whole text so far (its start's and its deltas'). */
  thinking?: string;
}

/** What the Claude translator keeps of the open message beyond the ledger's bookkeeping. */
export interface ClaudeOpenMessage {
  id: string;
  /** Came from `stream_event` records (`--include-partial-messages`): closed by `message_stop`. */
  streamed: boolean;
  model?: string;
  usage?: Obj;
  blocks: Map<number, ClaudeBlock>;
}

/** The token and USD totals of one turn, or of the run so far. */
export interface ClaudeTally {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  thinking: number;
  usd?: number;
  models: Set<string>;
}

/** The Claude translator's state (Qwen Code's translator shares it). */
export interface ClaudeTranslatorState extends TranslatorState, TurnState {
  request?: RunRequest;
  clock: () => number;
  /** Messages, thinking and tool calls open. */
  ledger: StreamLedger;
  message?: ClaudeOpenMessage;
  /**
   * Ids of messages streamed lately, whose full `assistant` records repeat what was streamed (Claude
   * prints that record right after the stream; bounded, unlike a set of every message of the run).
   */
  streamedIds: RecentIds;
  sessionAnnounced: boolean;
  /** What this process spent so far, summed over its turns. */
  runCost: ClaudeTally;
}

/** Opens a message in the ledger and records what Claude says of it. */
export function openMessage(
  state: ClaudeTranslatorState,
  out: EventDraft[],
  message: Omit<ClaudeOpenMessage, 'blocks'>,
): ClaudeOpenMessage {
  closeMessage(state, out);
  if (message.streamed) state.streamedIds.add(message.id);
  const open: ClaudeOpenMessage = { ...message, blocks: new Map() };
  state.message = open;
  state.ledger.startMessage(out, message.id, message.model);
  return open;
}

/** Closes the open message: its thinking block (with the whole thinking), then the message. */
export function closeMessage(state: ClaudeTranslatorState, out: EventDraft[]): void {
  const message = state.message;
  if (!message) return;
  state.message = undefined;
  for (const block of message.blocks.values()) {
    if (block.kind === 'thinking') state.ledger.stopThinking(out, block.thinking || null);
  }
  state.ledger.stopMessage(out);
}

/** `mcp__<server>__<tool>` → its server and tool. */
export const mcpName = mcpToolNames('mcp__', '__');
