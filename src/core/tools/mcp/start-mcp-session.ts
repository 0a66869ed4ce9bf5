import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpSession } from './create-mcp-session-server.ts';
import type { McpServerState } from './mcp-server-state.ts';
import { readSessionlessRequest } from './read-sessionless-request.ts';
import { sendJsonError } from './send-json-error.ts';

/**
 * A POST without a session: a `server/discover` probe is answered "method not found" here; anything
 * else goes to a new transport, which keeps a session only if it was `initialize`.
 */
export async function startMcpSession(
  server: McpServerState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const request = await readSessionlessRequest(req);
  if (request.kind === 'invalid') return sendJsonError(res, request.status, request.code, request.message);
  if (request.kind === 'discover') {
    // Not offered: the probing client falls back to `initialize` at once.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } }));
    return;
  }
  const { host, name, version, approvalPrompt, closing, sessions, live } = server;
  const { createMcpSession } = await server.sdk;
  const session: McpSession = createMcpSession({ host, name, version, approvalPrompt, signal: closing.signal }, (id) =>
    sessions.set(id, session),
  );
  const { transport, server: sdkServer } = session;
  transport.onclose = () => {
    live.delete(session);
    if (transport.sessionId !== undefined && sessions.get(transport.sessionId) === session) {
      sessions.delete(transport.sessionId);
    }
  };
  live.add(session);
  await sdkServer.connect(transport);
  await transport.handleRequest(req, res, request.body);
  if (transport.sessionId === undefined || closing.signal.aborted) await sdkServer.close();
}
