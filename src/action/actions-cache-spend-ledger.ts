import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { checkSpend } from '../github/limits/check-spend.ts';
import type { Spend, SpendLedger, SpendScope } from '../github/limits/spend-ledger.ts';
import { SpendLedgerError, type SpendLedgerErrorCode } from '../github/limits/spend-ledger-error.ts';

const KEY_PREFIX = 'agent-mux-spend-v1';
const ENTRY_FILE = 'spend.json';

/** Loaded on first use, as the conversation store loads it (see conversation-cache-store.ts). */
const actionsCache = () => import('@actions/cache');

/**
 * The scopes a key is made of: `repo:<owner>/<name>` (GitHub's names hold letters, digits, `-`, `_`
 * and `.`) or `installation:<id>`. With no `,` (refused in keys by `@actions/cache`) and no second
 * `/`, no scope's prefix is the start of another scope's key; `:` and `/` are allowed in keys.
 */
const SCOPE = /^(?:repo:[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+|installation:[0-9]+)$/;
const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** What an entry's `spend.json` holds: the day's total, and whose day it is. */
const EntrySchema = z.object({
  scope: z.string(),
  day: z.string(),
  usd: z.number().nonnegative(),
  tokens: z.number().int().nonnegative(),
});
type Entry = z.infer<typeof EntrySchema>;

export interface ActionsCacheSpendLedgerOptions {
  /**
   * Where an entry is put together and unpacked. The Actions cache ties an entry to the paths it was
   * saved from, so this must be the same path on every run: `$RUNNER_TEMP/agent-mux-spend` by default.
   */
  stagingDir?: string;
}

/**
 * Every entry of a scope's day starts with this (restore keys match by prefix, newest first), e.g.
 * `agent-mux-spend-v1/repo:octo/hello/2026-01-02/`. Throws `SpendLedgerError` (`spend_invalid`) for a
 * scope or day a key cannot be made of. Keys stay far below the 512 characters the cache allows.
 */
export function spendCacheKeyPrefix(scope: SpendScope, day: string): string {
  if (!SCOPE.test(scope)) throw new SpendLedgerError('spend_invalid', `no cache key for the scope ${scope}`);
  if (!DAY.test(day)) throw new SpendLedgerError('spend_invalid', `${day} is not a day (YYYY-MM-DD)`);
  return `${KEY_PREFIX}/${scope}/${day}/`;
}

/** The last entry time handed out in this process: two adds in one millisecond get distinct keys. */
let lastMillis = 0;
function nextMillis(): number {
  lastMillis = Math.max(Date.now(), lastMillis + 1);
  return lastMillis;
}

/** The work of each staging directory in this process, one at a time (they share the directory). */
const lines = new Map<string, Promise<unknown>>();
function inLine<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const result = (lines.get(dir) ?? Promise.resolve()).then(work, work);
  const last = result.catch(() => undefined);
  lines.set(dir, last);
  void last.then(() => {
    if (lines.get(dir) === last) lines.delete(dir);
  });
  return result;
}

/**
 * The Action's spending per scope and UTC day, in the GitHub Actions cache (`@actions/cache`), kept
 * the way conversations are: entries cannot be overwritten, so each add saves a new entry
 * (`agent-mux-spend-v1/<scope>/<day>/<millis>`) holding the day's new total in `spend.json`, and
 * reading restores the newest entry of the scope's day (none: nothing spent).
 *
 * The Actions cache is not transactional: two jobs adding at once can each read the same total and
 * save their own sum, and the newest entry wins, so one addition is lost. That is the accepted limit
 * for the Action (adds within one process are serialized). Like every cache entry these are scoped to
 * the branch the workflow runs on and evicted after 7 days unused; a restore the cache service fails
 * is, for `@actions/cache`, a miss (it logs a warning): the day then reads as nothing spent.
 */
export function createActionsCacheSpendLedger(options: ActionsCacheSpendLedgerOptions = {}): SpendLedger {
  const stagingDir = (code: SpendLedgerErrorCode): string => {
    if (options.stagingDir) return options.stagingDir;
    const temp = process.env.RUNNER_TEMP;
    if (!temp) throw new SpendLedgerError(code, 'RUNNER_TEMP is not set (not on an Actions runner)');
    return join(temp, 'agent-mux-spend');
  };

  /** The newest entry's total (none: zeros); leaves `dir` empty. */
  async function restoreTotal(dir: string, scope: SpendScope, day: string): Promise<Spend> {
    const prefix = spendCacheKeyPrefix(scope, day);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      const { restoreCache } = await actionsCache();
      const matched = await restoreCache([dir], `${prefix}latest`, [prefix]);
      if (matched === undefined) return { usd: 0, tokens: 0 };
      let entry: Entry;
      try {
        entry = EntrySchema.parse(JSON.parse(await readFile(join(dir, ENTRY_FILE), 'utf8')));
      } catch (error) {
        throw new SpendLedgerError('spend_load_failed', `cache entry ${matched} is not a spend`, { cause: error });
      }
      if (entry.scope !== scope || entry.day !== day) {
        throw new SpendLedgerError('spend_load_failed', `cache entry ${matched} is ${entry.scope} on ${entry.day}`);
      }
      return { usd: entry.usd, tokens: entry.tokens };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  return {
    async spentOn(scope, day) {
      const dir = stagingDir('spend_load_failed');
      return inLine(dir, () => restoreTotal(dir, scope, day));
    },

    async add(scope, day, spend) {
      const added = checkSpend(spend);
      const dir = stagingDir('spend_save_failed');
      return inLine(dir, async () => {
        const before = await restoreTotal(dir, scope, day);
        const total = { usd: before.usd + added.usd, tokens: before.tokens + added.tokens };
        const key = `${spendCacheKeyPrefix(scope, day)}${nextMillis()}`;
        await mkdir(dir, { recursive: true, mode: 0o700 });
        try {
          const entry = { scope, day, ...total } satisfies Entry;
          await writeFile(join(dir, ENTRY_FILE), JSON.stringify(entry), { mode: 0o600 });
          let id: number;
          try {
            const { saveCache } = await actionsCache();
            id = await saveCache([dir], key);
          } catch (error) {
            throw new SpendLedgerError('spend_save_failed', `could not save cache entry ${key}`, { cause: error });
          }
          // The package logs its own failures (reservation refused, upload failed) and returns -1.
          if (id === -1) throw new SpendLedgerError('spend_save_failed', `the Actions cache did not keep ${key}`);
          return total;
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      });
    },
  };
}
