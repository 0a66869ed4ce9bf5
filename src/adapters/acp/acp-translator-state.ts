import type { TranslatorState } from '../../core/adapter/index.ts';

/** What the ACP translator remembers between records of one run. */
export interface AcpTranslatorState extends TranslatorState {
  /** The run asked to continue this session (`session/load`): updates before its response are history. */
  resumeSessionId?: string;
  /** Responses seen so far (initialize, then session/new or session/load, then session/prompt). */
  responses: number;
  /** The message or thought being streamed, closed by anything else. */
  open?: { kind: 'text' | 'thinking'; messageId?: string; text: string };
  /** Tool calls seen: whether their result was reported. */
  tools: Map<string, { toolName: string; done: boolean }>;
  /** The last cost in USD the agent reported (`usage_update.cost`), a running total. */
  usd?: number;
}
