import type { ApplicationFunction, ApplicationFunctionOptions, Probot } from 'probot';
import { createBuiltinRegistry } from '../adapters/builtin-registry.ts';
import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import { agentEnvironment } from './agent-environment.ts';
import { type AppReadiness, createAppReadiness, type ReadinessState, readinessHandler } from './app-readiness.ts';
import { type AppRuntime, type AppRuntimeOptions, createAppRuntime } from './app-runtime.ts';
import { type AppSettings, readAppSettings } from './app-settings.ts';
import { checkAdapterLimits } from './check-adapter-limits.ts';
import { collectStartUpGarbage } from './collect-start-up-garbage.ts';
import { createDeliveryTurns } from './delivery-turns.ts';
import { describeStartFailure, isPermanentStartFailure } from './describe-start-failure.ts';
import { unfencedReason } from './fence-watch.ts';
import { installGracefulStop } from './graceful-stop.ts';
import { hostSecrets } from './host-secrets.ts';
import { type InstallationAccess, probotInstallationAccess } from './installation-access.ts';
import { recordWebhooks } from './record-webhooks.ts';
import { retryStartStep, type StartStepOptions } from './retry-start-step.ts';
import type { WorkerDeps } from './run-worker.ts';
import { createRunStore } from './store/create-run-store.ts';
import type { RunStore } from './store/run-store.ts';
import { createWebhookTraffic } from './webhook-traffic.ts';

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
  diskPollMs?: number;
  recoverEveryMs?: number;
  /**
   * Called once when start-up failed for good: a step kept failing past `settings.startTimeoutMs`
   * (an `AppStartError`), or an unexpected error. Default: log it as fatal, close the store the app
   * opened and exit the process with status 1, so that a supervisor restarts it with the reason in its logs.
   */
  onStartFailure?: (error: unknown) => void | Promise<void>;
  /** Delays between start-up attempts (tests make them quick). Default `startRetryPolicy`. */
  startRetry?: StartStepOptions['policy'];
  /**
   * Stop the app on SIGTERM / SIGINT once loaded, then exit the process (see `installGracefulStop`):
   * what `probot run ./src/app/index.ts` gets. Default false (an embedder stops the app itself).
   */
  stopOnSignals?: boolean;
  /**
   * Run one full garbage collection just before saying ready (`collectStartUpGarbage`), so that
   * start-up's garbage is not collected during the first burst of webhooks: what `probot run
   * ./src/app/index.ts` gets. Default false (an embedder's process has its own start-up).
   */
  collectStartUpGarbage?: boolean;
  /** How long a stop on a signal may take before the process exits anyway. Default 8000 ms. */
  stopGraceMs?: number;
  /** Where each adapter keeps its sessions. Default: the adapter's own `sessionFiles`. */
  sessionFiles?: WorkerDeps['sessionFiles'];
  /** The fence probe (default: `true` inside the file-system fence) and how long a failure stands (default 30 s). */
  fenceProbe?: AppRuntimeOptions['fenceProbe'];
  fenceRetryMs?: number;
}

/** A Probot app function that also exposes its background runtime. */
export interface AgentMuxApp extends ApplicationFunction {
  /** The runtime, once the app was loaded and initialised (store migrated, slug read). */
  runtime(): Promise<AppRuntime>;
  /** Whether the app can work deliveries now, and if not why (what `GET /agent-mux/ready` answers). */
  readiness(): ReadinessState;
  /** Stops the loops and closes the store the app opened. */
  stop(): Promise<void>;
}

/** Probot's default `GHE_HOST` handling, for messages when no Octokit could be made. */
function githubHostOf(env: Record<string, string | undefined>): string {
  return env.GHE_HOST ? `${env.GHE_PROTOCOL || 'https'}://${env.GHE_HOST}` : 'https://api.github.com';
}

/**
 * Builds the agent-mux Probot app: webhook handlers that only record deliveries, and (unless
 * `startLoops: false`) a dispatcher, `AGENT_MUX_WORKERS` workers and periodic lease recovery
 * running in the same process.
 *
 * Start-up opens the store and reads the app's slug (`GET /app`), each retried with backoff and one
 * log line per failure; `GET /agent-mux/ready` (registered through Probot's `addHandler`) answers 503
 * with the reason until both are done, 200 after. Deliveries that arrive meanwhile are recorded once
 * the store is open and dispatched when the loops start.
 */
export function createAgentMuxApp(options: AgentMuxAppOptions = {}): AgentMuxApp {
  let started: Promise<{ runtime: AppRuntime; store: RunStore; ownStore: boolean }> | undefined;
  const readiness: AppReadiness = createAppReadiness('not loaded');
  const stopping = new AbortController();

  const appFn = (app: Probot, probotOptions?: ApplicationFunctionOptions): void => {
    // Only a Probot not initialised yet has none: `probot.load`, `run` and `createNodeMiddleware` initialise first.
    const webhooks = app.webhooks as Probot['webhooks'] | null;
    if (webhooks === null) {
      throw new TypeError(
        'agent-mux: load the app with probot.load, run or createNodeMiddleware (Probot is not initialised)',
      );
    }
    const env = options.env ?? process.env;
    const settings = options.settings ?? readAppSettings(env);
    checkAdapterLimits(settings.perAdapter, (options.registry ?? createBuiltinRegistry)().ids());
    const log = (line: string) => app.log.info(line);
    if (options.stopOnSignals === true) {
      installGracefulStop({ stop: () => agentMuxApp.stop(), log, graceMs: options.stopGraceMs });
    }
    try {
      probotOptions?.addHandler(readinessHandler(readiness));
    } catch {
      // `probot.load` without a server (tests driving `probot.receive`) gives an `addHandler` that throws
      // "No server instance": nothing serves HTTP there, and `readiness()` still tells the state.
    }
    const timeoutMs = settings.startTimeoutMs ?? 300_000;
    const giveUpAt = timeoutMs > 0 ? Date.now() + timeoutMs : undefined;
    const step = (name: string, describe: (error: unknown) => string): StartStepOptions => ({
      step: name,
      describe,
      warn: (line) => app.log.warn(line),
      onFailure: (reason) => readiness.set(false, `${name} failed: ${reason}`),
      giveUpAt,
      policy: options.startRetry,
      signal: stopping.signal,
    });
    const ownStore = options.store === undefined;
    let opened: RunStore | undefined;

    readiness.set(false, 'starting: opening the store');
    const storeReady = (async () => {
      const store =
        options.store ??
        createRunStore(
          {
            DATABASE_URL: settings.databaseUrl,
            AGENT_MUX_DB_SCHEMA: settings.databaseSchema,
            AGENT_MUX_DATA_DIR: settings.dataDir,
          },
          log,
        );
      opened = store;
      const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
      await retryStartStep(() => store.migrate(), step('opening the store', message));
      return store;
    })();
    const traffic = createWebhookTraffic();
    // While the database is away, deliveries are held in memory and acknowledged: the app stays
    // ready (GitHub would not deliver a refused one again), and its readiness says why it waits.
    recordWebhooks(webhooks, () => storeReady, log, traffic, createDeliveryTurns(), {
      onBacklog: (waiting, error) => {
        const state = readiness.state();
        if (!state.ready) return;
        if (waiting > 0) {
          const why = error instanceof Error ? error.message : String(error ?? 'unreachable');
          readiness.set(
            true,
            `ready; the database is unreachable (${why}): deliveries are held in memory until it is back`,
          );
        } else if (state.reason !== 'ready') readiness.set(true, 'ready');
      },
    });

    started = (async () => {
      const store = await storeReady;
      readiness.set(false, 'starting: reading the app (GET /app)');
      const slug =
        options.appSlug ??
        (await retryStartStep(() => readAppSlug(app), {
          ...step('GET /app', (error) => describeStartFailure(error, hostOf(error) ?? githubHostOf(env))),
          permanent: isPermanentStartFailure,
        }));
      const agent = agentEnvironment(env);
      let fenceFailed = false;
      let loopsReady = false;
      const runtime = createAppRuntime({
        store,
        settings,
        access: options.access ?? probotInstallationAccess(app, { throttle: settings.githubThrottle }),
        registry: options.registry ?? createBuiltinRegistry,
        selfLogins: [`${slug}[bot]`],
        author: { name: `${slug}[bot]`, email: `${slug}[bot]@users.noreply.github.com` },
        agentEnv: agent.env,
        secretEnv: agent.secretEnv,
        hostSecrets: hostSecrets(env),
        log,
        idleMs: options.idleMs,
        cancelPollMs: options.cancelPollMs,
        answerPollMs: options.answerPollMs,
        diskPollMs: options.diskPollMs,
        recoverEveryMs: options.recoverEveryMs,
        sessionFiles: options.sessionFiles,
        quiet: traffic.quiet,
        ...(options.fenceProbe ? { fenceProbe: options.fenceProbe } : {}),
        ...(options.fenceRetryMs !== undefined ? { fenceRetryMs: options.fenceRetryMs } : {}),
        // A fence that does not work: not ready (503 with the reason), said at error level; ready
        // again, by itself, once it works.
        onFence: (probe) => {
          if (probe.ok) {
            if (fenceFailed) app.log.info('agent-mux: the fence works again; queued runs start');
            fenceFailed = false;
            if (loopsReady) readiness.set(true, 'ready');
            return;
          }
          fenceFailed = true;
          const reason = unfencedReason(probe);
          app.log.error(`agent-mux: ${reason}`);
          readiness.set(false, reason);
        },
      });
      // The fence is probed before the app says it is ready: a host where it fails is never "ready".
      await runtime.checkFence();
      if (options.startLoops !== false) runtime.start();
      const collected =
        options.collectStartUpGarbage === true
          ? `, start-up garbage collected in ${collectStartUpGarbage().toFixed(0)} ms`
          : '';
      loopsReady = true;
      if (!fenceFailed) readiness.set(true, 'ready');
      app.log.info(`agent-mux is ready: app ${slug}, store open, ${settings.workers} worker(s)${collected}`);
      return { runtime, store, ownStore };
    })();
    started.catch(async (error: unknown) => {
      if (stopping.signal.aborted) return;
      const reason = error instanceof Error ? error.message : String(error);
      readiness.set(false, reason);
      if (options.onStartFailure !== undefined) return options.onStartFailure(error);
      app.log.fatal(`${reason}; exiting with status 1`);
      if (ownStore) await opened?.close().catch(() => undefined);
      process.exit(1);
    });
  };

  const agentMuxApp: AgentMuxApp = Object.assign(appFn, {
    async runtime() {
      if (started === undefined) throw new Error('the agent-mux app is not loaded yet (probot.load)');
      return (await started).runtime;
    },
    readiness: () => readiness.state(),
    async stop() {
      readiness.set(false, 'stopping');
      stopping.abort(new Error('the agent-mux app is stopping'));
      const running = await started?.catch(() => undefined);
      if (running === undefined) return;
      await running.runtime.stop();
      if (running.ownStore) await running.store.close();
    },
  });
  return agentMuxApp;
}

/** The API base URL a failed Octokit request went to (`RequestError.request.url`). */
function hostOf(error: unknown): string | undefined {
  const url = (error as { request?: { url?: unknown } } | null)?.request?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

async function readAppSlug(app: Pick<Probot, 'auth'>): Promise<string> {
  const octokit = await app.auth();
  // No retries inside Octokit (its retry plugin would spend ~15 s on a host that does not answer):
  // the start-up loop retries with its own backoff and logs each failure.
  const { data } = await octokit.request('GET /app', { request: { retries: 0 } });
  const slug = (data as { slug?: unknown } | null)?.slug;
  if (typeof slug !== 'string' || slug === '') throw new Error('GET /app did not return the app slug');
  return slug;
}
