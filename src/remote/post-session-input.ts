import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody } from './read-json-body.ts';
import type { RemoteSession } from './remote-session.ts';
import { sendJson } from './send-json.ts';
import { inputRecordSchema } from './session-requests.ts';

/**
 * `POST /v1/sessions/:id/input`: a `tool_result`, `budget_update` or `shutdown` record for the
 * session, refused with 409 when its `X-Fencing-Token` is older than the session's.
 */
export async function postSessionInput(
  session: RemoteSession,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const header = request.headers['x-fencing-token'];
  if (header !== undefined) {
    const token = Number(header);
    if (!Number.isInteger(token)) {
      return sendJson(response, 400, { error: 'bad_request', message: 'X-Fencing-Token must be an integer' });
    }
    if (!session.checkFencing(token)) {
      return sendJson(response, 409, {
        error: 'fencing_token_stale',
        message: `fencing token ${token} is older than ${session.leaseEpoch}`,
      });
    }
  }
  const body = await readJsonBody(request);
  const parsed = inputRecordSchema.safeParse(body);
  if (!parsed.success) {
    return sendJson(response, 400, {
      error: 'bad_request',
      message: 'the body is not a tool_result, budget_update or shutdown record',
    });
  }
  session.input(parsed.data);
  return sendJson(response, 202, { accepted: true });
}
