import { isTransientError } from './store/transient-error.ts';

/** Options of `createRecordBacklog`. */
export interface RecordBacklogOptions<T> {
  /** Records one entry durably (the store's `recordEvent`); rejects while the database is away. */
  record: (entry: T) => Promise<void>;
  /** Names an entry in the log (`delivery <id> (<event>)`). */
  describe: (entry: T) => string;
  log: (line: string) => void;
  /** Told how many entries wait, when that changes between none and some (and the error that began it). */
  onChange?: (waiting: number, error?: unknown) => void;
  /** Entries held at most; another is refused (its webhook answered 500). Default 10 000. */
  maxEntries?: number;
  /** How long an entry is tried before it is given up, logged as lost. Default 5 minutes. */
  maxAgeMs?: number;
  /** The waits between attempts to record the oldest entry: doubling from this. Default 500 ms. */
  firstDelayMs?: number;
  /** The longest wait between attempts. Default 5 000 ms. */
  maxDelayMs?: number;
}

/** Deliveries acknowledged while the database was away, recorded in order once it is back. */
export interface RecordBacklog<T> {
  /** Entries waiting. */
  size(): number;
  /**
   * Records `entry`, or — when the database fails for a passing reason, or entries wait already (so
   * that order holds) — keeps it to be recorded later. Rejects with the store's error when the entry
   * cannot be kept: another error, or the backlog is full.
   */
  record(entry: T): Promise<void>;
  /** Resolves once nothing waits (or the entries left were given up). */
  drained(): Promise<void>;
}

/**
 * A webhook must be answered within 10 s, and GitHub does not deliver a failed one again by itself:
 * a delivery that cannot be recorded because PostgreSQL restarts or fails over is held in memory,
 * acknowledged, and recorded in order as soon as the database answers again. What is held is lost if
 * the process dies before that (a crash during an outage), and given up after `maxAgeMs`; both
 * are logged.
 */
export function createRecordBacklog<T>(options: RecordBacklogOptions<T>): RecordBacklog<T> {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  const firstDelayMs = options.firstDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  const waiting: { entry: T; since: number }[] = [];
  let flushing: Promise<void> | undefined;

  const keep = (entry: T, error?: unknown): void => {
    if (waiting.length >= maxEntries) throw error ?? new Error(`${maxEntries} deliveries wait to be recorded already`);
    waiting.push({ entry, since: Date.now() });
    if (waiting.length === 1) {
      const why = error instanceof Error ? error.message : String(error ?? 'the database is away');
      options.log(
        `database unreachable (${why}): ${options.describe(entry)} acknowledged, kept in memory until it can be recorded`,
      );
      options.onChange?.(1, error);
    }
    flushing ??= flush().finally(() => {
      flushing = undefined;
    });
  };

  async function flush(): Promise<void> {
    let delay = firstDelayMs;
    let recorded = 0;
    while (waiting.length > 0) {
      const first = waiting[0]!;
      try {
        await options.record(first.entry);
        waiting.shift();
        recorded++;
        delay = firstDelayMs;
        continue;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (!isTransientError(error)) {
          waiting.shift();
          options.log(`${options.describe(first.entry)} could not be recorded (${reason}); dropped`);
          continue;
        }
        if (Date.now() - first.since >= maxAgeMs) {
          const lost = waiting.splice(0).map((held) => options.describe(held.entry));
          options.log(
            `database unreachable for ${Math.round(maxAgeMs / 1000)} s (${reason}): ${lost.length} deliveries lost: ${lost.join(', ')}`,
          );
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, maxDelayMs);
    }
    if (recorded > 0) options.log(`database reachable again: ${recorded} held deliveries recorded`);
    options.onChange?.(0);
  }

  return {
    size: () => waiting.length,
    async record(entry) {
      if (waiting.length > 0) return keep(entry);
      try {
        await options.record(entry);
      } catch (error) {
        if (!isTransientError(error)) throw error;
        keep(entry, error);
      }
    },
    drained: () => flushing ?? Promise.resolve(),
  };
}
