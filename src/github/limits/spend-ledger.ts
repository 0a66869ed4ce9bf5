/** What runs spent: US dollars (reported or priced) and tokens (input + output). */
export interface Spend {
  usd: number;
  tokens: number;
}

/**
 * Whose spending a daily limit counts: a repository (`repo:owner/name`, lower case) or, in the app,
 * an installation (`installation:<id>`).
 */
export type SpendScope = `repo:${string}` | `installation:${number}`;

/**
 * Spending per scope and UTC day, kept between runs: in the Actions cache for the Action (each run's
 * own entries), in the app's store (PostgreSQL or SQLite, shared by its replicas) for the app. A day
 * is `YYYY-MM-DD` in UTC.
 */
export interface SpendLedger {
  /** What was spent in `scope` on `day`; nothing spent is `{ usd: 0, tokens: 0 }`. */
  spentOn(scope: SpendScope, day: string): Promise<Spend>;
  /** Adds `spend` to `scope`'s `day` and returns the day's new total. */
  add(scope: SpendScope, day: string, spend: Spend): Promise<Spend>;
  /**
   * No addition is lost and the others see it as soon as it is kept (the app's store, memory, the
   * Action's entries of each run in the Actions cache): runs then add as they spend, and each run's
   * budget follows what the others spent meanwhile (live-daily-share.ts). Absent: a run adds once,
   * at its end.
   */
  shared?: boolean;
}

/** The scope of a repository's daily limit. */
export function repoScope(owner: string, repo: string): SpendScope {
  return `repo:${owner.toLowerCase()}/${repo.toLowerCase()}`;
}

/** The UTC day of `at`, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** When the UTC day of `at` ends: the next midnight UTC, when daily limits reset. */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}
