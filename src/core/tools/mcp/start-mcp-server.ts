import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolHost } from '../tool-host.ts';
import {
  approvalPromptToolName,
  createApprovalPromptTool,
  type PermissionPromptOptions,
} from './approval-prompt-tool.ts';
import type { McpSession } from './create-mcp-session-server.ts';
import { McpServerError } from './mcp-server-error.ts';
import { readSessionlessRequest } from './read-sessionless-request.ts';

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

const mcpPath = '/mcp';

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
  const version = options.version ?? '0.0.0';
  if (options.permissionPrompt !== undefined && host.list().some((tool) => tool.name === approvalPromptToolName)) {
    throw new McpServerError(`the tool host already has a tool named "${approvalPromptToolName}"`);
  }
  const ownToolPrefix = `mcp__${name.replace(/[^A-Za-z0-9_-]/g, '_')}__`;
  const approvalPrompt =
    options.permissionPrompt === undefined
      ? undefined
      : createApprovalPromptTool({
          ...options.permissionPrompt,
          isPreapproved: (toolName) =>
            toolName.startsWith(ownToolPrefix) &&
            host.list().some((tool) => tool.name === toolName.slice(ownToolPrefix.length)),
        });
  // The MCP SDK is loaded while the agent starts: the first session waits for it, the port does not.
  const sdk = import('./create-mcp-session-server.ts');
  sdk.catch(() => undefined); // a failed load fails each session's request, with its reason
  const expectedToken = options.token === undefined ? undefined : digest(options.token);
  const closing = new AbortController();
  const sessions = new Map<string, McpSession>();
  const live = new Set<McpSession>();
  let allowedHosts = new Set<string>();

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJsonError(res, 500, -32603, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      } else {
        res.destroy();
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== mcpPath) return sendJsonError(res, 404, -32000, `not found; the MCP endpoint is ${mcpPath}`);
    if (!allowedHosts.has(req.headers.host ?? '')) {
      return sendJsonError(res, 403, -32000, `invalid Host header: ${req.headers.host ?? '(none)'}`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts.has(originHost(origin))) {
      return sendJsonError(res, 403, -32000, `invalid Origin header: ${origin}`);
    }
    if (expectedToken !== undefined && !authorized(req.headers.authorization, expectedToken)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendJsonError(res, 401, -32000, 'unauthorized: a bearer token is required');
    }
    if (closing.signal.aborted) return sendJsonError(res, 503, -32000, 'the MCP server is closing');

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session === undefined) return sendJsonError(res, 404, -32001, 'Session not found');
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return sendJsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    return startSession(req, res);
  }

  /**
   * A POST without a session: a `server/discover` probe is answered "method not found" here; anything
   * else goes to a new transport, which keeps a session only if it was `initialize`.
   */
  async function startSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readSessionlessRequest(req);
    if (request.kind === 'invalid') return sendJsonError(res, request.status, request.code, request.message);
    if (request.kind === 'discover') {
      // Not offered: the probing client falls back to `initialize` at once.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } }));
      return;
    }
    const { createMcpSession } = await sdk;
    const session: McpSession = createMcpSession(
      { host, name, version, approvalPrompt, signal: closing.signal },
      (id) => sessions.set(id, session),
    );
    const { transport, server } = session;
    transport.onclose = () => {
      live.delete(session);
      if (transport.sessionId !== undefined && sessions.get(transport.sessionId) === session) {
        sessions.delete(transport.sessionId);
      }
    };
    live.add(session);
    await server.connect(transport);
    await transport.handleRequest(req, res, request.body);
    if (transport.sessionId === undefined || closing.signal.aborted) await server.close();
  }

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
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  let closed: Promise<void> | undefined;
  async function close(): Promise<void> {
    closing.abort();
    const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    await Promise.allSettled([...live].map((session) => session.server.close()));
    sessions.clear();
    live.clear();
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

function sendJsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares digests, so neither the token's length nor its content leaks through timing. */
function authorized(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' ? url.host : '';
  } catch {
    return '';
  }
}
