import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRemoteSession } from './create-remote-session.ts';
import { postSessionInput } from './post-session-input.ts';
import type { RemoteServerState } from './remote-server-state.ts';
import { sendJson } from './send-json.ts';

/**
 * Routes one request of ca-http-v1 (docs/remote.md), once its bearer token is checked:
 * `POST /v1/sessions`, `DELETE /v1/sessions/:id`, `GET …/:id/events` and `POST …/:id/input`.
 */
export async function routeRemoteRequest(
  server: RemoteServerState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (!server.authorized(request)) {
    return sendJson(response, 401, {
      error: 'unauthorized',
      message: 'a valid Authorization: Bearer token is required',
    });
  }
  const url = new URL(request.url ?? '/', 'http://localhost');
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[0] !== 'v1' || parts[1] !== 'sessions') return sendJson(response, 404, { error: 'not_found' });
  const method = request.method ?? 'GET';

  if (parts.length === 2) {
    if (method !== 'POST') return sendJson(response, 405, { error: 'method_not_allowed' });
    return createRemoteSession(server, request, response);
  }
  const session = server.sessions.get(decodeURIComponent(parts[2] ?? ''));
  const action = parts[3];
  if (parts.length > 4) return sendJson(response, 404, { error: 'not_found' });
  if (!session) return sendJson(response, 404, { error: 'not_found', message: 'no such session' });

  if (action === undefined) {
    if (method !== 'DELETE') return sendJson(response, 405, { error: 'method_not_allowed' });
    await session.remove('the caller deleted the session');
    response.writeHead(204).end();
    return;
  }
  if (action === 'events') {
    if (method !== 'GET') return sendJson(response, 405, { error: 'method_not_allowed' });
    session.attach(response);
    return;
  }
  if (action === 'input') {
    if (method !== 'POST') return sendJson(response, 405, { error: 'method_not_allowed' });
    return postSessionInput(session, request, response);
  }
  return sendJson(response, 404, { error: 'not_found' });
}
