import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/**
 * `spend_invalid`: an amount to add is not a spend (a negative or non-finite `usd`, `tokens` not a
 * non-negative safe integer). `spend_load_failed`: what a ledger keeps could not be read (a cache
 * entry that is not a spend, no place to put it). `spend_save_failed`: the new total was not kept.
 */
export type SpendLedgerErrorCode = 'spend_invalid' | 'spend_load_failed' | 'spend_save_failed';

const CODES: readonly string[] = ['spend_invalid', 'spend_load_failed', 'spend_save_failed'];

/** A spend ledger could not read, add or keep a day's spending. The `cause` is kept. */
export class SpendLedgerError extends AgentMuxError {
  declare readonly code: SpendLedgerErrorCode;

  constructor(code: SpendLedgerErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'SpendLedgerError';
  }

  static override isInstance(error: unknown): error is SpendLedgerError {
    return AgentMuxError.isInstance(error) && CODES.includes(error.code);
  }
}
