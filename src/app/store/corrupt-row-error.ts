import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/** A stored row does not have the shape the store wrote (a column of the wrong type, unreadable JSON). */
export class CorruptRowError extends AgentMuxError {
  readonly table: string;
  readonly column: string;

  constructor(table: string, column: string, detail: string, options?: { cause?: unknown }) {
    super('store_row_corrupt', `${table}.${column}: ${detail}`, options);
    this.name = 'CorruptRowError';
    this.table = table;
    this.column = column;
  }

  static override isInstance(error: unknown): error is CorruptRowError {
    return AgentMuxError.isInstance(error) && error.code === 'store_row_corrupt';
  }
}
