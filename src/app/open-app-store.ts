import { errorText } from '../core/errors/error-text.ts';
import type { AppSettings } from './app-settings.ts';
import { retryStartStep } from './retry-start-step.ts';
import type { StartUpStep } from './start-up-step.ts';
import { createRunStore } from './store/create-run-store.ts';
import type { RunStore } from './store/run-store.ts';

/** The app's store being opened. */
export interface AppStoreOpening {
  /** The store, once migrated (retried as the start-up step `opening the store`). */
  ready: Promise<RunStore>;
  /** Whether the app opened the store itself (none was given), and so closes it. */
  own: boolean;
  /** Closes the store the app opened, if it opened one; never rejects. */
  closeOwn(): Promise<void>;
}

/**
 * Opens the store (`given`, else `createRunStore`: PostgreSQL with `DATABASE_URL`, else SQLite in
 * the data dir) and migrates it, retried with backoff.
 */
export function openAppStore(
  given: RunStore | undefined,
  settings: Pick<AppSettings, 'databaseUrl' | 'databaseSchema' | 'dataDir'>,
  log: (line: string) => void,
  step: StartUpStep,
): AppStoreOpening {
  let opened: RunStore | undefined;
  const ready = (async () => {
    const store =
      given ??
      createRunStore(
        {
          DATABASE_URL: settings.databaseUrl,
          AGENT_MUX_DB_SCHEMA: settings.databaseSchema,
          AGENT_MUX_DATA_DIR: settings.dataDir,
        },
        log,
      );
    opened = store;
    await retryStartStep(() => store.migrate(), step('opening the store', errorText));
    return store;
  })();
  const own = given === undefined;
  return {
    ready,
    own,
    async closeOwn() {
      if (own) await opened?.close().catch(() => undefined);
    },
  };
}
