/**
 * A TCP proxy in front of PostgreSQL that can lose one acknowledgement: armed with a command tag
 * (`UPDATE 1`, `COMMIT`), it ends the client's connection instead of passing on the server's answer
 * that carries that tag. The server did the work (an autocommit statement, a committed transaction);
 * the client sees only the connection end, as after a network cut or a failover at that moment.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface AckDroppingProxy {
  /** `postgres://…` through the proxy (the upstream URL with the proxy's host and port). */
  url: string;
  /** Drops the next server answer whose CommandComplete tag starts with `tag`; resolves once it did. */
  dropNext(tag: string): Promise<void>;
  close(): Promise<void>;
}

export async function startAckDroppingProxy(upstreamUrl: string): Promise<AckDroppingProxy> {
  const upstream = new URL(upstreamUrl);
  const sockets = new Set<Socket>();
  let armed: { tag: Buffer; dropped: () => void } | undefined;
  const server: Server = createServer((client) => {
    const backend = connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.add(client).add(backend);
    client.on('data', (chunk) => backend.write(chunk));
    backend.on('data', (chunk: Buffer) => {
      // CommandComplete is 'C', a length, then the tag and a NUL.
      if (armed !== undefined && hasTag(chunk, armed.tag)) {
        const { dropped } = armed;
        armed = undefined;
        client.destroy();
        backend.destroy();
        dropped();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      backend.destroy();
    };
    client.on('error', end).on('close', end);
    backend.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(upstreamUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    dropNext: (tag) =>
      new Promise<void>((resolve) => {
        armed = { tag: Buffer.from(tag), dropped: resolve };
      }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** True when `chunk` holds a CommandComplete message whose tag starts with `tag`. */
function hasTag(chunk: Buffer, tag: Buffer): boolean {
  for (let at = chunk.indexOf('C'); at !== -1 && at + 5 <= chunk.length; at = chunk.indexOf('C', at + 1)) {
    if (chunk.subarray(at + 5, at + 5 + tag.length).equals(tag)) return true;
  }
  return false;
}
