/**
 * The mark every agent-mux error carries: one symbol across copies of the module (`Symbol.for`),
 * set at construction and not part of the class's type (its declaration then names no private symbol).
 */
const mark = Symbol.for('agent-mux.error');

/** The base of every error agent-mux throws on purpose. `cause` is always kept. */
export class AgentMuxError extends Error {
  /** A stable machine-readable code (`config_invalid`, `template_variable_missing`, …). */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, mark, { value: true });
    this.name = 'AgentMuxError';
    this.code = code;
  }

  /** True for any agent-mux error, even one from another copy of the module (a bundle). */
  static isInstance(error: unknown): error is AgentMuxError {
    return typeof error === 'object' && error !== null && mark in error;
  }
}
