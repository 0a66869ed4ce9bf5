import type { ApplicationFunctionOptions, Probot } from 'probot';
import { createBuiltinRegistry } from '../adapters/builtin-registry.ts';
import type { AgentMuxAppOptions } from './agent-mux-app-options.ts';
import { type AppReadiness, readinessHandler } from './app-readiness.ts';
import { readAppSettings } from './app-settings.ts';
import { backlogReadiness } from './backlog-readiness.ts';
import { checkAdapterLimits } from './check-adapter-limits.ts';
import { createDeliveryTurns } from './delivery-turns.ts';
import { installGracefulStop } from './graceful-stop.ts';
import { handleStartFailure } from './handle-start-failure.ts';
import { openAppStore } from './open-app-store.ts';
import { recordWebhooks } from './record-webhooks.ts';
import { type StartedApp, startAgentMuxApp } from './start-agent-mux-app.ts';
import { startUpStep } from './start-up-step.ts';
import { createWebhookTraffic } from './webhook-traffic.ts';

/** What every load of one `createAgentMuxApp` shares. */
export interface AppHandle {
  options: AgentMuxAppOptions;
  readiness: AppReadiness;
  /** Aborted when the app stops. */
  signal: AbortSignal;
  /** The app's stop. */
  stop: () => Promise<void>;
}

/**
 * One load of the app by Probot: the webhook handlers that record deliveries, the readiness
 * handler, then the start-up (store, slug, runtime) in the background. Returns the start-up;
 * its failure is handled here (`handleStartFailure`).
 */
export function loadAgentMuxApp(
  app: Probot,
  probotOptions: ApplicationFunctionOptions | undefined,
  handle: AppHandle,
): Promise<StartedApp> {
  const webhooks = initialisedWebhooks(app);
  const { options, readiness } = handle;
  const env = options.env ?? process.env;
  const settings = options.settings ?? readAppSettings(env);
  checkAdapterLimits(settings.perAdapter, (options.registry ?? createBuiltinRegistry)().ids());
  const log = (line: string) => app.log.info(line);
  if (options.stopOnSignals === true) installGracefulStop({ stop: handle.stop, log, graceMs: options.stopGraceMs });
  addReadinessHandler(probotOptions, readiness);
  const step = startUpStep({
    timeoutMs: settings.startTimeoutMs ?? 300_000,
    warn: (line) => app.log.warn(line),
    readiness,
    policy: options.startRetry,
    signal: handle.signal,
  });

  readiness.set(false, 'starting: opening the store');
  const opening = openAppStore(options.store, settings, log, step);
  const traffic = createWebhookTraffic();
  recordWebhooks(webhooks, () => opening.ready, log, traffic, createDeliveryTurns(), {
    onBacklog: backlogReadiness(readiness),
  });

  const started = startAgentMuxApp(
    { app, options, env, settings, log, readiness, step, quiet: traffic.quiet },
    opening,
  );
  started.catch((error: unknown) =>
    handleStartFailure(error, {
      signal: handle.signal,
      readiness,
      onStartFailure: options.onStartFailure,
      fatal: (line) => app.log.fatal(line),
      closeStore: () => opening.closeOwn(),
    }),
  );
  return started;
}

/** The app's webhooks; only a Probot not initialised yet has none. */
function initialisedWebhooks(app: Probot): Probot['webhooks'] {
  // `probot.load`, `run` and `createNodeMiddleware` initialise first.
  const webhooks = app.webhooks as Probot['webhooks'] | null;
  if (webhooks === null) {
    throw new TypeError(
      'agent-mux: load the app with probot.load, run or createNodeMiddleware (Probot is not initialised)',
    );
  }
  return webhooks;
}

/** Serves `GET /agent-mux/ready` on Probot's server, when there is one. */
function addReadinessHandler(probotOptions: ApplicationFunctionOptions | undefined, readiness: AppReadiness): void {
  try {
    probotOptions?.addHandler(readinessHandler(readiness));
  } catch {
    // `probot.load` without a server (tests driving `probot.receive`) gives an `addHandler` that throws
    // "No server instance": nothing serves HTTP there, and `readiness()` still tells the state.
  }
}
