import type { TranslatorState } from '../../../core/adapter/index.ts';
import type { StreamLedger } from '../../shared/stream-ledger.ts';

/** A text or reasoning part being shown, by part id. */
export interface PartTrack {
  kind: 'text' | 'reasoning';
  messageId?: string;
  /** The text of the part shown so far (deltas, or its text when it arrived whole). */
  shown: string;
  ended: boolean;
}

/** What the translator of `opencode serve`'s event stream remembers between events. */
export interface OpenCodeHttpTranslatorState extends TranslatorState {
  announced: boolean;
  turnStarted: boolean;
  turnEnded: boolean;
  /** User messages: their parts (the prompt) are not the agent's output. */
  userMessages: Record<string, true>;
  parts: Record<string, PartTrack>;
  /** The open message, thinking block and (non-MCP) tool calls. */
  ledger: StreamLedger;
  /** Tool calls whose result was reported (a later update of one is ignored). */
  toolsDone: Record<string, true>;
  /** MCP tool calls seen: whether their start (with the input) was reported. */
  mcpTools: Record<string, { ready: boolean }>;
  lastText?: string;
  errors: string[];
  model?: string;
  cwd?: string;
}
