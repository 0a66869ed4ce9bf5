import { AgentMuxError } from '../errors/agent-mux-error.ts';

/** A tool set cannot be hosted: a duplicate or malformed tool name. Raised when the host is created. */
export class ToolDefinitionError extends AgentMuxError {
  readonly toolName: string;

  constructor(toolName: string, message: string) {
    super('tool_definition_invalid', message);
    this.name = 'ToolDefinitionError';
    this.toolName = toolName;
  }

  static override isInstance(error: unknown): error is ToolDefinitionError {
    return AgentMuxError.isInstance(error) && error.code === 'tool_definition_invalid';
  }
}
