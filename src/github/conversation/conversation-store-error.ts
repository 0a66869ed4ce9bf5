import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

export type ConversationStoreErrorCode = 'conversation_save_failed' | 'conversation_load_failed';

/** A conversation store could not keep or give back a conversation. The `cause` is kept. */
export class ConversationStoreError extends AgentMuxError {
  declare readonly code: ConversationStoreErrorCode;

  constructor(code: ConversationStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'ConversationStoreError';
  }

  static override isInstance(error: unknown): error is ConversationStoreError {
    return (
      AgentMuxError.isInstance(error) &&
      (error.code === 'conversation_save_failed' || error.code === 'conversation_load_failed')
    );
  }
}
