import type { Probot } from 'probot';
import { createBuiltinRegistry } from '../adapters/builtin-registry.ts';
import { agentEnvironment } from './agent-environment.ts';
import type { AgentMuxAppOptions } from './agent-mux-app-options.ts';
import type { AppReadiness } from './app-readiness.ts';
import { type AppRuntime, type AppRuntimeOptions, createAppRuntime } from './app-runtime.ts';
import type { AppSettings } from './app-settings.ts';
import { collectStartUpGarbage } from './collect-start-up-garbage.ts';
import { createFenceReadiness } from './fence-readiness.ts';
import { hostSecrets } from './host-secrets.ts';
import { probotInstallationAccess } from './installation-access.ts';
import type { AppStoreOpening } from './open-app-store.ts';
import { readAppSlug } from './read-app-slug.ts';
import type { StartUpStep } from './start-up-step.ts';
import type { RunStore } from './store/run-store.ts';
import type { WebhookTraffic } from './webhook-traffic.ts';

/** What the start-up of one loaded app works with. */
export interface AppStart {
  app: Probot;
  options: AgentMuxAppOptions;
  env: Record<string, string | undefined>;
  settings: AppSettings;
  log: (line: string) => void;
  readiness: AppReadiness;
  step: StartUpStep;
  /** The dispatcher's wait for a burst of webhooks to pass. */
  quiet: WebhookTraffic['quiet'];
}

/** The app once started: its runtime and store (closed by its stop when the app opened it). */
export interface StartedApp {
  runtime: AppRuntime;
  store: RunStore;
  ownStore: boolean;
}

/**
 * Once the store is open: reads the app's slug, builds the runtime, probes the fence, starts the
 * loops (unless `startLoops: false`) and says the app is ready.
 */
export async function startAgentMuxApp(start: AppStart, opening: AppStoreOpening): Promise<StartedApp> {
  const { app, options, readiness } = start;
  const store = await opening.ready;
  readiness.set(false, 'starting: reading the app (GET /app)');
  const slug = options.appSlug ?? (await readAppSlug(app, start.env, start.step));
  const fence = createFenceReadiness(readiness, app.log);
  const runtime = createAppRuntime(appRuntimeOptions(start, store, slug, fence.onFence));
  // The fence is probed before the app says it is ready: a host where it fails is never "ready".
  await runtime.checkFence();
  if (options.startLoops !== false) runtime.start();
  const collected =
    options.collectStartUpGarbage === true
      ? `, start-up garbage collected in ${collectStartUpGarbage().toFixed(0)} ms`
      : '';
  fence.loopsStarted();
  app.log.info(`agent-mux is ready: app ${slug}, store open, ${start.settings.workers} worker(s)${collected}`);
  return { runtime, store, ownStore: opening.own };
}

/** The runtime's options: the app's options and settings, its bot's name, the agents' environment. */
function appRuntimeOptions(
  { app, options, env, settings, log, quiet }: AppStart,
  store: RunStore,
  slug: string,
  onFence: AppRuntimeOptions['onFence'],
): AppRuntimeOptions {
  const agent = agentEnvironment(env);
  return {
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
    quiet,
    ...(options.fenceProbe ? { fenceProbe: options.fenceProbe } : {}),
    ...(options.fenceRetryMs !== undefined ? { fenceRetryMs: options.fenceRetryMs } : {}),
    onFence,
  };
}
