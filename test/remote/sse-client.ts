import { createParser } from 'eventsource-parser';

export interface SseItem {
  event: string;
  data: unknown;
}

/** A plain-fetch ca-http-v1 client for tests: requests plus an SSE reader over eventsource-parser. */
export function client(baseUrl: string, token?: string) {
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...extra,
  });
  return {
    create: (body: Record<string, unknown> = {}) =>
      fetch(`${baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify({
          runId: 'run_1',
          taskId: 'task_1',
          leaseToken: 'lease_1',
          fencingToken: 4,
          mcpUrl: '',
          agent: { id: 'a', name: 'A', role: 'coder', policy: {} },
          task: { prompt: 'say hello' },
          context: {},
          ...body,
        }),
      }),
    input: (id: string, record: unknown, leaseEpoch = 4) =>
      fetch(`${baseUrl}/v1/sessions/${id}/input`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json', 'x-fencing-token': String(leaseEpoch) }),
        body: JSON.stringify(record),
      }),
    remove: (id: string) => fetch(`${baseUrl}/v1/sessions/${id}`, { method: 'DELETE', headers: headers() }),
    events: (id: string, signal?: AbortSignal) =>
      fetch(`${baseUrl}/v1/sessions/${id}/events`, { headers: headers(), signal }),
  };
}

/** Reads an SSE response: every event (`data` parsed as JSON) and comment, until the stream ends or `stop` says so. */
export async function* readSse(response: Response, comments: string[] = []): AsyncGenerator<SseItem, void, undefined> {
  if (!response.body) return;
  const queue: SseItem[] = [];
  const parser = createParser({
    onEvent: (message) => queue.push({ event: message.event ?? 'message', data: JSON.parse(message.data) }),
    onComment: (comment) => comments.push(comment.trim()),
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (queue.length > 0) yield queue.shift() as SseItem;
  }
}
