import type { ServerResponse } from 'node:http';

export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

/** One SSE frame; `event` is omitted for APIs that send data only (Chat Completions, Gemini). */
export function sendSse(res: ServerResponse, data: unknown, event?: string): void {
  const body = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event ? `event: ${event}\n` : ''}data: ${body}\n\n`);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
