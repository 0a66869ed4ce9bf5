import { codedError } from '../../errors/coded-error.ts';

/** The tool host's MCP server cannot start: its port is taken, or a host tool clashes with `approval_prompt`. */
export class McpServerError extends codedError('McpServerError', 'mcp_server_failed') {}
