import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import type { AppRuntimeOptions } from './app-runtime.ts';
import type { AppSettings } from './app-settings.ts';
import type { InstallationAccess } from './installation-access.ts';
import type { StartStepOptions } from './retry-start-step.ts';
import type { WorkerDeps } from './run-worker.ts';
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
