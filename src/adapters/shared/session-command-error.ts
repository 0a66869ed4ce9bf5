import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

export type SessionCommandErrorCode = 'session_export_failed' | 'session_import_failed';

/**
 * An agent's own command for carrying a session (`opencode export <id>`, `opencode import <file>`)
 * failed: it could not start, exited non-zero, timed out or printed no session. The message ends
 * with the tail of its stderr; the `cause` is kept.
 */
export class SessionCommandError extends AgentMuxError {
  declare readonly code: SessionCommandErrorCode;

  constructor(code: SessionCommandErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'SessionCommandError';
  }

  static override isInstance(error: unknown): error is SessionCommandError {
    return (
      AgentMuxError.isInstance(error) &&
      (error.code === 'session_export_failed' || error.code === 'session_import_failed')
    );
  }
}
