import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import type { AppSettings } from './app-settings.ts';
import type { InstallationAccess } from './installation-access.ts';
import type { RepoReadCache } from './repo-read-cache.ts';
import type { RunStore } from './store/run-store.ts';

/** What a dispatcher needs. */
export interface DispatchDeps {
  store: RunStore;
  access: InstallationAccess;
  selfLogins: readonly string[];
  registry: () => AdapterRegistry;
  log: (line: string) => void;
  /** What one installation may spend per day (`AppSettings.installationDaily`); unset: no limit of its own. */
  installationDaily?: AppSettings['installationDaily'];
  /** Shares repository and config reads between events (a burst of comments reads them once). */
  repoReads?: RepoReadCache;
  /**
   * Awaited before each event is dispatched: resolves once a burst of webhooks being received has
   * passed (or a bounded wait did), so that dispatching does not slow their acknowledgement.
   */
  quiet?: () => Promise<void>;
  /** Called at named points of the dispatch (`after-decide`): the crash tests' hook (`testCrashPoint`). */
  checkpoint?: (point: DispatchPoint) => void;
}

/** Points of a dispatch where `checkpoint` is called. */
export type DispatchPoint = 'after-take' | 'after-decide' | 'after-dispatch';

/** What one event led to. */
export type DispatchResult =
  | { kind: 'enqueued'; runId: string; cancelled: string[] }
  | { kind: 'cancel'; runIds: string[] }
  | { kind: 'answer'; issueKey: string }
  | { kind: 'void'; issueKey: string }
  | { kind: 'ignored'; reason: string };
