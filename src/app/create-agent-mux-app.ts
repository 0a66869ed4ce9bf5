import type { ApplicationFunction, Probot } from 'probot';
import { createBuiltinRegistry } from '../adapters/builtin-registry.ts';
import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import { agentEnvironment } from './agent-environment.ts';
import { type AppRuntime, createAppRuntime } from './app-runtime.ts';
import { type AppSettings, readAppSettings } from './app-settings.ts';
import { type InstallationAccess, probotInstallationAccess } from './installation-access.ts';
import { recordWebhooks } from './record-webhooks.ts';
import { createRunStore } from './store/create-run-store.ts';
import type { RunStore } from './store/run-store.ts';

/** Options of `createAgentMuxApp`; everything defaults to what the environment says. */
export interface AgentMuxAppOptions {
  /** Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /** Default: `readAppSettings(env)`. */
  settings?: AppSettings;
  /** Default: `createRunStore(env)` (PostgreSQL with `DATABASE_URL`, else SQLite in the data dir). */
  store?: RunStore;
  /** A fresh adapter registry per run. Default: the built-in adapters. */
  registry?: () => AdapterRegistry;
  /** Default: the app's installations through `app.auth(installationId)`. */
  access?: InstallationAccess;
  /** The app's slug; default: read once with `GET /app`. */
  appSlug?: string;
  /** Start the dispatcher, workers and recovery loops when loaded. Default true. */
  startLoops?: boolean;
  /** Pacing of the loops (tests make them quick). */
  idleMs?: number;
  cancelPollMs?: number;
  answerPollMs?: number;
  recoverEveryMs?: number;
}

/** A Probot app function that also exposes its background runtime. */
export interface AgentMuxApp extends ApplicationFunction {
  /** The runtime, once the app was loaded and initialised (store migrated, slug read). */
  runtime(): Promise<AppRuntime>;
  /** Stops the loops and closes the store the app opened. */
  stop(): Promise<void>;
}

/**
 * Builds the agent-mux Probot app: webhook handlers that only record deliveries, and (unless
 * `startLoops: false`) a dispatcher, `AGENT_MUX_WORKERS` workers and periodic lease recovery
 * running in the same process.
 */
export function createAgentMuxApp(options: AgentMuxAppOptions = {}): AgentMuxApp {
  let started: Promise<{ runtime: AppRuntime; store: RunStore; ownStore: boolean }> | undefined;

  const appFn = (app: Probot): void => {
    const env = options.env ?? process.env;
    const settings = options.settings ?? readAppSettings(env);
    const log = (line: string) => app.log.info(line);
    const storeReady = (async () => {
      const store =
        options.store ??
        createRunStore({
          DATABASE_URL: settings.databaseUrl,
          AGENT_MUX_DB_SCHEMA: settings.databaseSchema,
          AGENT_MUX_DATA_DIR: settings.dataDir,
        });
      await store.migrate();
      return store;
    })();
    recordWebhooks(app, () => storeReady, log);

    started = (async () => {
      const store = await storeReady;
      const slug = options.appSlug ?? (await readAppSlug(app));
      const agent = agentEnvironment(env);
      const runtime = createAppRuntime({
        store,
        settings,
        access: options.access ?? probotInstallationAccess(app, { throttle: settings.githubThrottle }),
        registry: options.registry ?? createBuiltinRegistry,
        selfLogins: [`${slug}[bot]`],
        author: { name: `${slug}[bot]`, email: `${slug}[bot]@users.noreply.github.com` },
        agentEnv: agent.env,
        secretEnv: agent.secretEnv,
        log,
        idleMs: options.idleMs,
        cancelPollMs: options.cancelPollMs,
        answerPollMs: options.answerPollMs,
        recoverEveryMs: options.recoverEveryMs,
      });
      if (options.startLoops !== false) runtime.start();
      return { runtime, store, ownStore: options.store === undefined };
    })();
    started.catch((error: unknown) => app.log.error(`agent-mux could not start: ${String(error)}`));
  };

  return Object.assign(appFn, {
    async runtime() {
      if (started === undefined) throw new Error('the agent-mux app is not loaded yet (probot.load)');
      return (await started).runtime;
    },
    async stop() {
      const running = await started?.catch(() => undefined);
      if (running === undefined) return;
      await running.runtime.stop();
      if (running.ownStore) await running.store.close();
    },
  });
}

async function readAppSlug(app: Pick<Probot, 'auth'>): Promise<string> {
  const octokit = await app.auth();
  const { data } = await octokit.request('GET /app');
  const slug = (data as { slug?: unknown } | null)?.slug;
  if (typeof slug !== 'string' || slug === '') throw new Error('GET /app did not return the app slug');
  return slug;
}
