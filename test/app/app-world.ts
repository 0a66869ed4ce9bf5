import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Probot, ProbotOctokit } from 'probot';
import type { AppRuntime } from '../../src/app/app-runtime.ts';
import type { AppSettings } from '../../src/app/app-settings.ts';
import { type AgentMuxApp, type AgentMuxAppOptions, createAgentMuxApp } from '../../src/app/create-agent-mux-app.ts';
import type { RunStore } from '../../src/app/store/run-store.ts';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';

/** The fake GitHub world with the app loaded into a Probot pointed at it, on a SQLite store in a temp dir. */
export interface AppWorld {
  w: GitHubWorld;
  probot: Probot;
  app: AgentMuxApp;
  runtime: AppRuntime;
  store: RunStore;
  settings: AppSettings;
  /** Feeds a webhook through `probot.receive` (the installation of `octo/demo` added to the payload). */
  receive(name: string, payload: Record<string, unknown>, id?: string): Promise<string>;
  close(): Promise<void>;
}

export const INSTALLATION_ID = 1;
/** The webhook secret of the world's app. */
export const WEBHOOK_SECRET = 'app-world-webhook-secret';

let deliveries = 0;

export interface AppWorldOptions {
  config?: string;
  startLoops?: boolean;
  leaseMs?: number;
  /** Another replica of an app already running on this fake GitHub (which then stays open on `close`). */
  world?: GitHubWorld;
  /** The replica's store (default: SQLite in its temp dir); closed by `close`. */
  store?: RunStore;
  /** Where each adapter keeps its sessions (the app's default: the built-in declarations). */
  sessionFiles?: AgentMuxAppOptions['sessionFiles'];
  /** Added to the app's environment (and so to the agents'). */
  env?: Record<string, string>;
  fence?: AppSettings['fence'];
  /** More paths the agents' fence shows read-only (a fixture agent's script and its packages). */
  fenceReadOnly?: readonly string[];
  /** A stand-in for the fence probe, and how long its failure stands. */
  fenceProbe?: AgentMuxAppOptions['fenceProbe'];
  fenceRetryMs?: number;
  /** What one installation may spend per day (`AGENT_MUX_INSTALLATION_DAILY_*`). */
  installationDaily?: AppSettings['installationDaily'];
  /** How often a worker reads answers and steering comments from the store (default here 30 ms; the app's 300). */
  answerPollMs?: number;
}

export async function createAppWorld(options: AppWorldOptions = {}) {
  const w = options.world ?? (await createGitHubWorld({ config: options.config }));
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-app-'));
  // The git base URL: `<base>/octo/demo.git` is the world's bare repository.
  const gitBase = join(root, 'git');
  await mkdir(join(gitBase, 'octo'), { recursive: true });
  await symlink(w.bare, join(gitBase, 'octo', 'demo.git'));
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const store = options.store ?? createSqliteRunStore({ file: join(root, 'data', 'agent-mux.db') });
  const settings: AppSettings = {
    databaseUrl: undefined,
    dataDir: join(root, 'data'),
    workers: 2,
    workDir: join(root, 'work'),
    maxWorkspaceBytes: 512 * 1024 * 1024,
    leaseMs: options.leaseMs ?? 30_000,
    gitBaseUrl: gitBase,
    perRepo: 2,
    defaultPerAdapter: 4,
    perAdapter: {},
    ...(options.fence ? { fence: options.fence } : {}),
    ...(options.fenceReadOnly ? { fenceReadOnly: options.fenceReadOnly } : {}),
    ...(options.env ? { agentEnvExtra: Object.keys(options.env) } : {}),
    ...(options.installationDaily ? { installationDaily: options.installationDaily } : {}),
  };
  const probot = new Probot({
    appId: 1,
    privateKey,
    // Webhooks may also arrive signed (`probot.webhooks.verifyAndReceive`), as GitHub sends them.
    secret: WEBHOOK_SECRET,
    logLevel: 'warn',
    // A function, so that it applies over Probot's own throttle options: no write spacing against the fake.
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({
      ...options,
      baseUrl: w.gh.url,
      throttle: { ...(options.throttle as object), enabled: false },
      retry: { enabled: false },
    })),
  });
  const app = createAgentMuxApp({
    store,
    settings,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    ...(options.sessionFiles ? { sessionFiles: options.sessionFiles } : {}),
    registry: w.registry,
    startLoops: options.startLoops ?? false,
    ...(options.fenceProbe ? { fenceProbe: options.fenceProbe } : {}),
    ...(options.fenceRetryMs !== undefined ? { fenceRetryMs: options.fenceRetryMs } : {}),
    idleMs: 20,
    cancelPollMs: 50,
    answerPollMs: options.answerPollMs ?? 30,
    diskPollMs: 50,
  });
  await probot.load(app);
  const runtime = await app.runtime();
  return {
    w,
    probot,
    app,
    runtime,
    store,
    settings,
    async receive(name, payload, id = `delivery-${++deliveries}`) {
      payload.installation = { id: INSTALLATION_ID, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
      await probot.receive({ id, name, payload } as unknown as Parameters<Probot['receive']>[0]);
      return id;
    },
    async close() {
      await app.stop();
      await store.close();
      if (!options.world) await w.close();
      await rm(root, { recursive: true, force: true });
    },
  } satisfies AppWorld;
}

/** Waits until `check` returns a value other than undefined (polling; the test's own timeout bounds it). */
export async function waitFor<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what = 'a condition',
): Promise<T> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
