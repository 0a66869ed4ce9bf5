import type { TranslatorState } from '../../../core/adapter/index.ts';
import type { StreamLedger } from '../../shared/stream-ledger.ts';

/** What the ACP translator remembers between records of one run. */
export interface AcpTranslatorState extends TranslatorState {
  /** The run asked to continue this session (`session/load`): updates before its response are history. */
  resumeSessionId?: string;
  /** Responses seen so far (initialize, then session/new or session/load, then session/prompt). */
  responses: number;
  /** The message or thought being streamed (closed by anything else) and the tool calls not yet answered. */
  ledger: StreamLedger;
  /** Tool calls seen: whether their result was reported, the terminal output gathered so far. */
  tools: Map<string, { toolName: string; done: boolean; terminalOutput?: string }>;
  /** The last model error the agent reported (codex-acp: `_meta.codex.error`), kept until it gives up. */
  lastError?: { message: string; httpStatus?: number };
  /** The agent gave up on an error (codex-acp: thread status `systemError`): the turn failed even if it ends `end_turn`. */
  failure?: string;
  /** The session's model (`session/new` or `session/load` response), put on cost events for pricing. */
  model?: string;
  /** The last cost in USD the agent reported (`usage_update.cost`), a running total. */
  usd?: number;
  /** Qwen Code: the turn's tokens summed from `_meta.usage` of its message chunks (one per model response). */
  chunkUsage?: Record<'inputTokens' | 'outputTokens' | 'cachedReadTokens' | 'thoughtTokens', number>;
}
