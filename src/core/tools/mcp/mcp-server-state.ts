import type { ToolHost } from '../tool-host.ts';
import type { ApprovalPromptTool } from './approval-prompt-tool.ts';
import type { createMcpSession, McpSession } from './create-mcp-session-server.ts';

/** What the MCP server's request handlers share: its settings, the SDK as it loads, its sessions. */
export interface McpServerState {
  /** The run's tools, policy and approvals. */
  readonly host: ToolHost;
  /** `serverInfo.name`. */
  readonly name: string;
  /** `serverInfo.version`. */
  readonly version: string;
  /** The `approval_prompt` tool, when the server offers it. */
  readonly approvalPrompt: ApprovalPromptTool | undefined;
  /** The module of the MCP SDK, loaded while the agent starts. */
  readonly sdk: Promise<{ createMcpSession: typeof createMcpSession }>;
  /** Whether an `Authorization` header carries the server's bearer token (always, when it has none). */
  authorized(header: string | undefined): boolean;
  /** Aborted when the server closes: calls in flight and open approvals are cancelled. */
  readonly closing: AbortController;
  /** The initialized sessions, by their `mcp-session-id`. */
  readonly sessions: Map<string, McpSession>;
  /** Every session whose transport is not closed, initialized or not. */
  readonly live: Set<McpSession>;
  /** The `Host` headers a request may carry: this server's loopback address and port, once bound. */
  allowedHosts: Set<string>;
}
