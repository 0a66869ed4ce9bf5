import type { ServerResponse } from 'node:http';

/** Answers a request of the remote server with `status` and `body` as JSON. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
