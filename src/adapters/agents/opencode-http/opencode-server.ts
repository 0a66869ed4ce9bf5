import { createServer } from 'node:net';
import type { ExitInfo } from '../../../core/adapter/index.ts';
import { SpawnError } from '../../../core/errors/index.ts';
import { LongLivedProcess } from '../../../core/run/long-lived-process.ts';

export interface OpenCodeServerOptions {
  command: string;
  cwd: string;
  /** The whole environment of the server. */
  env: Record<string, string>;
  /** How long the server may take to answer its health endpoint. */
  startupTimeoutMs: number;
  signal: AbortSignal;
  /** A line the server printed (stdout or stderr). */
  onLog?: (stream: 'stdout' | 'stderr', line: string) => void;
}

/** A running `opencode serve` on 127.0.0.1, in its own process group. */
export interface OpenCodeServer {
  readonly url: string;
  readonly process: LongLivedProcess;
  /** Settles when the server has exited. */
  readonly exited: Promise<ExitInfo>;
  /** Ends the server's whole process group (SIGTERM, then SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

const HEALTH_POLL_MS = 100;

/**
 * Starts `opencode serve --port <free port> --hostname 127.0.0.1` and waits until
 * `GET /global/health` answers `{healthy: true}`. Rejects with `SpawnError` (the server stopped) when
 * it cannot start, exits first, or stays unhealthy for `startupTimeoutMs`.
 */
export async function startOpenCodeServer(options: OpenCodeServerOptions): Promise<OpenCodeServer> {
  const port = await freePort();
  const args = ['serve', '--port', String(port), '--hostname', '127.0.0.1'];
  const proc = await LongLivedProcess.start({
    command: options.command,
    args,
    cwd: options.cwd,
    env: options.env,
    onStdoutLine: (line) => options.onLog?.('stdout', line),
    onStderrLine: (line) => options.onLog?.('stderr', line),
    onExit: () => undefined,
  });
  const url = `http://127.0.0.1:${port}`;
  const server: OpenCodeServer = {
    url,
    process: proc,
    exited: proc.exited,
    stop: async (graceMs = 2000) => {
      await proc.stop(graceMs);
    },
  };
  try {
    await waitHealthy(url, proc, options);
  } catch (error) {
    await server.stop(500);
    const tail = proc.stderrTail.toString();
    throw new SpawnError(options.command, `${(error as Error).message}${tail ? `\n${tail}` : ''}`, { cause: error });
  }
  return server;
}

async function waitHealthy(url: string, proc: LongLivedProcess, options: OpenCodeServerOptions): Promise<void> {
  const deadline = Date.now() + options.startupTimeoutMs;
  let exited = false;
  proc.exited.then(() => {
    exited = true;
  });
  for (;;) {
    if (options.signal.aborted) throw new Error('aborted while the server was starting');
    if (exited) throw new Error('opencode serve exited before it was healthy');
    try {
      const res = await fetch(`${url}/global/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) {
        const body = (await res.json()) as { healthy?: unknown };
        if (body.healthy === true) return;
      } else {
        await res.body?.cancel();
      }
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`opencode serve not healthy within ${options.startupTimeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
  }
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port'))));
    });
  });
}
