import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/app-e2e/probot-process.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

/** `probot run ./src/app/index.ts` exactly as deployed (Probot's Octokit throttling on). */
export const PROBOT_RUN = [
  join(root, 'node_modules/probot/bin/probot.js'),
  'run',
  join(root, 'src/app/index.ts'),
] as const;

/** The same app and server through probot's `run()`, with the Octokit's write throttling off (see the script). */
export const PROBOT_RUN_UNTHROTTLED = [fileURLToPath(new URL('./app-run-unthrottled.ts', import.meta.url))] as const;

/** The benchmark's webhook secret. */
export const BENCH_SECRET = 'bench-webhook-secret';

/** A running app server child. */
export interface AppProcess {
  readonly pid: number | undefined;
  /** `http://127.0.0.1:PORT/api/github/webhooks` */
  readonly webhookUrl: string;
  /** The child's output so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves once `GET /agent-mux/ready` answers 200 (store open, slug read, loops started). */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface AppProcessOptions {
  /** What node runs: `PROBOT_RUN` or `PROBOT_RUN_UNTHROTTLED`. */
  argv: readonly string[];
  /** The fake GitHub's URL. */
  githubUrl: string;
  gitBase: string;
  privateKey: string;
  /** A fresh directory of this process (home, data and work dirs go under it). */
  dir: string;
  /** Settings on top of the defaults (`AGENT_MUX_*`, `DATABASE_URL`). */
  env: Record<string, string>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts an app server child on a free port of 127.0.0.1 and waits until `GET /ping` answers. */
export async function startAppProcess(options: AppProcessOptions): Promise<AppProcess> {
  const port = await freePort();
  const home = join(options.dir, 'home');
  await mkdir(home, { recursive: true });
  const child = spawn(process.execPath, [...options.argv], {
    cwd: options.dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      GIT_CONFIG_NOSYSTEM: '1',
      NODE_ENV: 'production',
      APP_ID: '1',
      PRIVATE_KEY: options.privateKey,
      WEBHOOK_SECRET: BENCH_SECRET,
      GHE_HOST: new URL(options.githubUrl).host,
      GHE_PROTOCOL: 'http',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      PORT: String(port),
      HOST: '127.0.0.1',
      AGENT_MUX_DATA_DIR: join(options.dir, 'data'),
      AGENT_MUX_WORK_DIR: join(options.dir, 'work'),
      AGENT_MUX_GIT_BASE_URL: options.gitBase,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep only the tail: a busy app logs a line per request.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // Should this process die without stopping it (a crash), take the child along.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', orphaned);
      resolve();
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async (graceMs = 5000) => {
    if (!alive()) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!alive())
      throw new Error(`the app exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`);
    if (
      await fetch(`${url}/ping`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the app did not answer ${url}/ping in time:\n${output}`);
    }
    await sleep(100);
  }
  const ready = async (timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    while (
      !(await fetch(`${url}/agent-mux/ready`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (!alive() || Date.now() > until) throw new Error(`the app did not get ready:\n${output}`);
      await sleep(100);
    }
  };
  return { pid: child.pid, webhookUrl: `${url}/api/github/webhooks`, output: () => output, ready, stop };
}
