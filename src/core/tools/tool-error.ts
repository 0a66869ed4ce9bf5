import { AgentMuxError } from '../errors/agent-mux-error.ts';

/**
 * A tool refused or failed on purpose (a path outside the workspace, an outcome already recorded).
 * The tool host turns it into `{ ok: false, error: message }` like any other handler failure.
 */
export class ToolError extends AgentMuxError {
  readonly toolName: string;

  constructor(toolName: string, message: string, options?: { cause?: unknown }) {
    super('tool_failed', message, options);
    this.name = 'ToolError';
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is ToolError {
    return AgentMuxError.isInstance(error) && error.code === 'tool_failed';
  }
}
