import type { ApplicationFunction, ApplicationFunctionOptions, Probot } from 'probot';
import type { AgentMuxAppOptions } from './agent-mux-app-options.ts';
import { createAppReadiness, type ReadinessState } from './app-readiness.ts';
import type { AppRuntime } from './app-runtime.ts';
import { loadAgentMuxApp } from './load-agent-mux-app.ts';
import type { StartedApp } from './start-agent-mux-app.ts';

export type { AgentMuxAppOptions } from './agent-mux-app-options.ts';

/** A Probot app function that also exposes its background runtime. */
export interface AgentMuxApp extends ApplicationFunction {
  /** The runtime, once the app was loaded and initialised (store migrated, slug read). */
  runtime(): Promise<AppRuntime>;
  /** Whether the app can work deliveries now, and if not why (what `GET /agent-mux/ready` answers). */
  readiness(): ReadinessState;
  /** Stops the loops and closes the store the app opened. */
  stop(): Promise<void>;
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
  let started: Promise<StartedApp> | undefined;
  const readiness = createAppReadiness('not loaded');
  const stopping = new AbortController();

  const appFn = (app: Probot, probotOptions?: ApplicationFunctionOptions): void => {
    started = loadAgentMuxApp(app, probotOptions, {
      options,
      readiness,
      signal: stopping.signal,
      stop: () => agentMuxApp.stop(),
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
