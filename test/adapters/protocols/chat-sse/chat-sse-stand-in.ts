import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a scripted `POST /chat` handler may do. */
export interface ChatScript {
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  res: ServerResponse;
  /** Writes one SSE event (`event:` is the record's type). */
  send(record: Record<string, unknown>): void;
  /** Resolves with the body of `POST /chat/relay/:relayId` once it comes. */
  relayAnswer(relayId: string): Promise<Record<string, unknown>>;
  /** Resolves when the client went away. */
  closed: Promise<void>;
}

export interface ChatStandIn {
  baseUrl: string;
  chats: Array<{ body: Record<string, unknown>; headers: IncomingHttpHeaders }>;
  relays: Array<{ relayId: string; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const readJson = async (stream: AsyncIterable<Buffer>): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
};

/** An llm-gateway stand-in on 127.0.0.1: `POST /chat` runs `script`, relays are recorded and answered 200. */
export async function chatStandIn(
  script: (chat: ChatScript) => Promise<void> | void,
  options: { relayStatus?: number } = {},
): Promise<ChatStandIn> {
  const chats: ChatStandIn['chats'] = [];
  const relays: ChatStandIn['relays'] = [];
  const waiters = new Map<string, (body: Record<string, unknown>) => void>();
  const answered = new Map<string, Record<string, unknown>>();
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      const relay = /^\/chat\/relay\/([^/]+)$/.exec(req.url ?? '');
      if (req.method === 'POST' && relay) {
        const relayId = decodeURIComponent(relay[1] as string);
        relays.push({ relayId, body });
        if (options.relayStatus !== undefined) {
          res.writeHead(options.relayStatus, { 'content-type': 'application/json' }).end('{"error":"Relay not found"}');
          return;
        }
        answered.set(relayId, body);
        waiters.get(relayId)?.(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
        return;
      }
      if (req.method !== 'POST' || req.url !== '/chat') {
        res.writeHead(404).end();
        return;
      }
      chats.push({ body, headers: req.headers });
      const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
      const send = (record: Record<string, unknown>) => {
        if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(`event: ${String(record.type)}\ndata: ${JSON.stringify(record)}\n\n`);
      };
      const relayAnswer = (relayId: string) =>
        new Promise<Record<string, unknown>>((resolve) => {
          const known = answered.get(relayId);
          if (known) resolve(known);
          else waiters.set(relayId, resolve);
        });
      await script({ body, headers: req.headers, res, send, relayAnswer, closed });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    chats,
    relays,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
