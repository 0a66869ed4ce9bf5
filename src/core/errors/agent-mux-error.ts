const marker = Symbol.for('agent-mux.error');

/** The base of every error agent-mux throws on purpose. `cause` is always kept. */
export class AgentMuxError extends Error {
  readonly [marker] = true;
  /** A stable machine-readable code (`config_invalid`, `template_variable_missing`, …). */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentMuxError';
    this.code = code;
  }

  /** True for any agent-mux error, even one from another copy of the module (a bundle). */
  static isInstance(error: unknown): error is AgentMuxError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
