import { AgentMuxError } from '../../errors/agent-mux-error.ts';

/** The tool host's MCP server cannot start: its port is taken, or a host tool clashes with `approval_prompt`. */
export class McpServerError extends AgentMuxError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('mcp_server_failed', message, options);
    this.name = 'McpServerError';
  }

  static override isInstance(error: unknown): error is McpServerError {
    return AgentMuxError.isInstance(error) && error.code === 'mcp_server_failed';
  }
}
