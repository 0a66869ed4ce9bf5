import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServerState } from './mcp-server-state.ts';
import { sendJsonError } from './send-json-error.ts';
import { startMcpSession } from './start-mcp-session.ts';

/** The path of the MCP endpoint. */
export const mcpPath = '/mcp';

/**
 * Routes one request of the MCP server: only `/mcp`, from this server's own `Host` and no foreign
 * `Origin` (DNS rebinding: 403), with the bearer token when there is one (401); by its
 * `mcp-session-id` to that session's transport (404 for an unknown or ended one), or without one to
 * a new session.
 */
export async function routeMcpRequest(
  server: McpServerState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { allowedHosts } = server;
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path !== mcpPath) return sendJsonError(res, 404, -32000, `not found; the MCP endpoint is ${mcpPath}`);
  if (!allowedHosts.has(req.headers.host ?? '')) {
    return sendJsonError(res, 403, -32000, `invalid Host header: ${req.headers.host ?? '(none)'}`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.has(originHost(origin))) {
    return sendJsonError(res, 403, -32000, `invalid Origin header: ${origin}`);
  }
  if (!server.authorized(req.headers.authorization)) {
    res.setHeader('WWW-Authenticate', 'Bearer');
    return sendJsonError(res, 401, -32000, 'unauthorized: a bearer token is required');
  }
  if (server.closing.signal.aborted) return sendJsonError(res, 503, -32000, 'the MCP server is closing');

  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId === 'string') {
    const session = server.sessions.get(sessionId);
    if (session === undefined) return sendJsonError(res, 404, -32001, 'Session not found');
    return session.transport.handleRequest(req, res);
  }
  if (req.method !== 'POST') return sendJsonError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  return startMcpSession(server, req, res);
}

function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' ? url.host : '';
  } catch {
    return '';
  }
}
