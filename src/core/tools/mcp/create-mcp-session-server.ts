import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolHost, ToolResult } from '../tool-host.ts';
import { type ApprovalPromptTool, approvalPromptToolName, type McpToolReply } from './approval-prompt-tool.ts';

export interface McpSessionServerOptions {
  host: ToolHost;
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  /** Offered as `approval_prompt` when given. */
  approvalPrompt?: ApprovalPromptTool;
  /** Aborts every call in flight (the HTTP server is closing). */
  signal: AbortSignal;
}

/** One MCP session: its streamable HTTP transport and the SDK server bound to it. */
export interface McpSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
}

/**
 * A new session's transport (its id from `randomUUID`, `onInitialized` called once `initialize` gave
 * it one) and server. This module holds every use of the MCP SDK, so that `startMcpServer` loads it
 * (`import()`, its own chunk in the bundles) while the agent starts, not before.
 */
export function createMcpSession(
  options: McpSessionServerOptions,
  onInitialized: (sessionId: string) => void,
): McpSession {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: onInitialized,
  });
  return { transport, server: createMcpSessionServer(options) };
}

/**
 * The MCP server of one session (the SDK binds one `Server` to one transport): `tools/list` is the
 * host's tools (plus `approval_prompt`), `tools/call` runs them through the host. A refused or failed
 * call is a result with `isError: true` and the host's reason, never a protocol error, so the agent
 * reads why. The call's `toolCallId` is the JSON-RPC request id.
 */
export function createMcpSessionServer(options: McpSessionServerOptions): Server {
  const { host, approvalPrompt } = options;
  const server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, () => {
    // `Tool` wants `inputSchema.type: 'object'`; zod objects give it, and the client checks the list anyway.
    const tools = host.list().map((tool) => ({ ...tool }) as Tool);
    if (approvalPrompt !== undefined) tools.push({ ...approvalPrompt.description } as Tool);
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: input } = request.params;
    const signal = AbortSignal.any([extra.signal, options.signal]);
    if (approvalPrompt !== undefined && name === approvalPromptToolName) {
      return toCallToolResult(await approvalPrompt.call(input, signal));
    }
    const toolCallId =
      extra.sessionId === undefined ? String(extra.requestId) : `${extra.sessionId}:${extra.requestId}`;
    const result = await host.call(name, input, { toolCallId, signal });
    return toCallToolResult(replyFor(result));
  });

  return server;
}

function replyFor(result: ToolResult): McpToolReply {
  return result.ok ? { text: valueText(result.value), isError: false } : { text: result.error, isError: true };
}

function toCallToolResult(reply: McpToolReply): CallToolResult {
  return { content: [{ type: 'text', text: reply.text }], isError: reply.isError };
}

/** A string as is; anything else as JSON (`undefined` as an empty text). */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
