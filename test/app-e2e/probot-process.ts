import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository's root (where package.json is). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** probot's command line, run with the current `node`: `node <bin> run <entry>`. */
export const PROBOT_BIN = fileURLToPath(new URL('../../node_modules/probot/bin/probot.js', import.meta.url));

/** The app entry `npm start` runs. */
export const APP_ENTRY = fileURLToPath(new URL('../../src/app/index.ts', import.meta.url));

/** A running `probot run` child process. */
export interface ProbotProcess {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The webhook endpoint, `${url}/api/github/webhooks`. */
  readonly webhookUrl: string;
  readonly child: ChildProcess;
  /** Everything the child wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Ends the child (SIGTERM, then SIGKILL after a grace period); resolves once it exited. */
  stop(): Promise<void>;
}

export interface StartProbotOptions {
  /** The app module given to `probot run` (an absolute path is safest: it resolves against `cwd`). */
  entry: string;
  /** The child's whole environment (PATH is added from this process when missing). */
  env: Record<string, string>;
  /** The child's working directory: probot loads `.env` and `package.json` from here. */
  cwd: string;
  /** How long to wait for `GET /ping` to answer (default 30 s). */
  readyTimeoutMs?: number;
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts `probot run <entry>` as a child process on a free port of 127.0.0.1 and waits until its
 * server answers `GET /ping`. Rejects (after killing the child) when it exits or never answers.
 */
export async function startProbot(options: StartProbotOptions): Promise<ProbotProcess> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...options.env,
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const child = spawn(process.execPath, [PROBOT_BIN, 'run', options.entry], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  // After 'exit', the pipes may still hold the last lines: 'close' comes once they are read.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000))]);
      throw new Error(`probot run exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`);
    }
    const ready = await fetch(`${url}/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`probot run did not answer ${url}/ping in time:\n${output}`);
    }
    await sleep(100);
  }
  return { url, webhookUrl: `${url}/api/github/webhooks`, child, output: () => output, stop };
}
