import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolHost } from '../tool-host.ts';
import {
  type ApprovalPromptTool,
  approvalPromptToolName,
  createApprovalPromptTool,
  type PermissionPromptOptions,
} from './approval-prompt-tool.ts';
import type { McpSession } from './create-mcp-session-server.ts';
import { McpServerError } from './mcp-server-error.ts';
import type { McpServerState } from './mcp-server-state.ts';
import { mcpPath, routeMcpRequest } from './route-mcp-request.ts';
import { sendJsonError } from './send-json-error.ts';

export interface McpServerOptions {
  /** The run's tools, policy and approvals. */
  host: ToolHost;
  /** Port on 127.0.0.1; `0` (the default) picks a free one. */
  port?: number;
  /**
   * The server's name (`serverInfo.name`), which agents prefix to its tools (`mcp__agent-mux__write_file`).
   * Default `agent-mux`.
   */
  name?: string;
  /** `serverInfo.version`. Default `0.0.0`. */
  version?: string;
  /**
   * Offers the `approval_prompt` tool for Claude Code's `--permission-prompt-tool`, answered by this
   * approval channel. Its questions about this server's own tools are allowed at once: the host decides those.
   */
  permissionPrompt?: PermissionPromptOptions;
  /**
   * When set, every request must carry `Authorization: Bearer <token>`, else it gets 401. Give the
   * token to the agent with the URL so that other local users cannot call the tools.
   */
  token?: string;
}

export interface McpServerHandle {
  /** Where agents connect, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Ends every session (calls in flight and open approvals are cancelled) and frees the port. Idempotent. */
  close(): Promise<void>;
}

/**
 * Serves a run's tool host over MCP's streamable HTTP transport on 127.0.0.1, so that agents that
 * speak MCP get the same tools under the same policy and approvals as the json-lines relay.
 *
 * Each `initialize` without an `mcp-session-id` starts a session with its own transport and SDK
 * server; later requests are routed by that header (404 for an unknown or ended one). Requests
 * whose `Host` is not this server's loopback address, or that carry a foreign `Origin`, get 403
 * (DNS rebinding). Rejects with `McpServerError` when the port cannot be bound or a host tool is
 * itself named `approval_prompt` while `permissionPrompt` is given.
 */
export async function startMcpServer(options: McpServerOptions): Promise<McpServerHandle> {
  const { host } = options;
  const name = options.name ?? 'agent-mux';
  const approvalPrompt = approvalPromptFor(options.permissionPrompt, host, name);
  // The MCP SDK is loaded while the agent starts: the first session waits for it, the port does not.
  const sdk = import('./create-mcp-session-server.ts');
  sdk.catch(() => undefined); // a failed load fails each session's request, with its reason
  const expectedToken = options.token === undefined ? undefined : digest(options.token);
  const state: McpServerState = {
    host,
    name,
    version: options.version ?? '0.0.0',
    approvalPrompt,
    sdk,
    authorized: (header) => expectedToken === undefined || bearerMatches(header, expectedToken),
    closing: new AbortController(),
    sessions: new Map<string, McpSession>(),
    live: new Set<McpSession>(),
    allowedHosts: new Set<string>(),
  };

  const httpServer = createServer((req, res) => {
    routeMcpRequest(state, req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJsonError(res, 500, -32603, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      } else {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      reject(new McpServerError(`cannot listen on 127.0.0.1:${options.port ?? 0}: ${error.message}`, { cause: error }));
    };
    httpServer.once('error', onError);
    httpServer.listen(options.port ?? 0, '127.0.0.1', () => {
      httpServer.off('error', onError);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;
  state.allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  let closed: Promise<void> | undefined;
  async function close(): Promise<void> {
    state.closing.abort();
    const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    await Promise.allSettled([...state.live].map((session) => session.server.close()));
    state.sessions.clear();
    state.live.clear();
    httpServer.closeAllConnections();
    await stopped;
  }

  return {
    url: `http://127.0.0.1:${port}${mcpPath}`,
    port,
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}

/**
 * The `approval_prompt` tool when `permissionPrompt` is given: questions about this server's own
 * tools (`mcp__<name>__<tool>`) are allowed at once. Throws when the host has a tool of that name.
 */
function approvalPromptFor(
  permissionPrompt: PermissionPromptOptions | undefined,
  host: ToolHost,
  name: string,
): ApprovalPromptTool | undefined {
  if (permissionPrompt !== undefined && host.list().some((tool) => tool.name === approvalPromptToolName)) {
    throw new McpServerError(`the tool host already has a tool named "${approvalPromptToolName}"`);
  }
  const ownToolPrefix = `mcp__${name.replace(/[^A-Za-z0-9_-]/g, '_')}__`;
  return permissionPrompt === undefined
    ? undefined
    : createApprovalPromptTool({
        ...permissionPrompt,
        isPreapproved: (toolName) =>
          toolName.startsWith(ownToolPrefix) &&
          host.list().some((tool) => tool.name === toolName.slice(ownToolPrefix.length)),
      });
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares digests, so neither the token's length nor its content leaks through timing. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}
