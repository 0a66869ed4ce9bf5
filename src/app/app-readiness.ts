import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where the app answers whether it can work (`GET` or `HEAD`). */
export const READINESS_PATH = '/agent-mux/ready';

/** Whether the app can work deliveries now, and if not, why. */
export interface ReadinessState {
  ready: boolean;
  /** `ready`, or why not (`starting: GET /app`, the last failure, `stopping`). */
  reason: string;
  /** When the state last changed (ISO 8601). */
  since: string;
}

/** The app's readiness, changed by its start-up and stop. */
export interface AppReadiness {
  state(): ReadinessState;
  set(ready: boolean, reason: string): void;
}

export function createAppReadiness(reason = 'starting'): AppReadiness {
  let current: ReadinessState = { ready: false, reason, since: new Date().toISOString() };
  return {
    state: () => current,
    set(ready, why) {
      if (current.ready === ready && current.reason === why) return;
      current = { ready, reason: why, since: new Date().toISOString() };
    },
  };
}

/**
 * A Probot server handler (`addHandler`) answering `GET /agent-mux/ready`: 200 and the state as JSON
 * when the app can work, 503 with the reason until then. Other requests are left to the next handler.
 */
export function readinessHandler(readiness: AppReadiness) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const path = request.url?.split('?')[0];
    if (path !== READINESS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    const state = readiness.state();
    const body = `${JSON.stringify(state)}\n`;
    // Probot's request log (pino-http) logs every 5xx as an error with a stack made up for it, a dozen
    // lines per probe; the error it is given on `res.err` instead is the reason, on one line.
    if (!state.ready) (response as ServerResponse & { err?: Error }).err = notReady(state.reason);
    response.writeHead(state.ready ? 200 : 503, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(body)),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
    return true;
  };
}

/** The error a not-ready answer is logged with: its reason, with no stack. */
function notReady(reason: string): Error {
  const error = new Error(`not ready: ${reason}`);
  error.name = 'NotReady';
  error.stack = `NotReady: not ready: ${reason}`;
  return error;
}
