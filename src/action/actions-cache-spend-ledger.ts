import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorText } from '../core/errors/error-text.ts';
import { settleWithin } from '../core/run/settle-within.ts';
import type { GitHubApi, RepoRef } from '../github/github-api.ts';
import { GitHubApiError } from '../github/github-api-error.ts';
import { checkSpend } from '../github/limits/check-spend.ts';
import type { Spend, SpendLedger, SpendScope } from '../github/limits/spend-ledger.ts';
import { SpendLedgerError } from '../github/limits/spend-ledger-error.ts';
import { newestPerWriter, spendCacheKey, spendCacheKeyPrefix, spendWriterId, sumTotals } from './spend-cache-keys.ts';

/** Loaded on first use, as the conversation store loads it (see conversation-cache-store.ts). */
const actionsCache = () => import('@actions/cache');

export interface ActionsCacheSpendLedgerOptions {
  /** Lists the entries: GitHub's REST API with the workflow token, which needs `actions: read`. */
  api: Pick<GitHubApi, 'listActionsCaches'>;
  /** The repository whose Actions cache keeps the entries (`GITHUB_REPOSITORY`). */
  repo: RepoRef;
  /** This run's part of its keys: `spendWriterId(process.env, <random>)` by default. */
  writer?: string;
  /** Where an entry is put together before it is saved: `$RUNNER_TEMP/agent-mux-spend-<writer>` by default. */
  stagingDir?: string;
  /**
   * How long a save may take before it counts as failed (default 60 s): a cache service that never
   * answers must not hold the run, whose end waits for its last addition.
   */
  saveTimeoutMs?: number;
}

const SAVE_TIMEOUT_MS = 60_000;

/** What this ledger has saved for one scope's day: its newest entry's number and its running total. */
interface OwnTotal {
  seq: number;
  usd: number;
  tokens: number;
}

/**
 * The Action's spending per scope and UTC day, in the GitHub Actions cache, where an entry cannot
 * be overwritten: each run writes entries of its own only, whose keys hold its running total
 * (`agent-mux-spend-v2/<scope>/<day>/<writer>/<seq>/<tokens>t-<micro-usd>u`, spend-cache-keys.ts;
 * the entry's `spend.json` only repeats it, for whoever looks). A day's total is the sum over
 * writers of each one's newest entry, read from the key list of GitHub's REST API
 * (`GET /repos/{owner}/{repo}/actions/caches?key=<prefix>`): nothing is restored, and every
 * branch's runs count. No addition can be lost, so the ledger is `shared`: a run adds at each cost
 * report and follows what the others spent (live-daily-share.ts).
 *
 * `add` saves its entry, then lists the day, and returns what the others had saved plus this run's
 * new total. Once its entry is kept an add resolves: a listing that fails then gives the others as
 * last read (a rejection would have the caller add the same spending again). One ledger is one
 * writer (the Action makes one per process), whose adds are serialized. Entries of
 * `agent-mux-spend-v1` (the totals the previous version restored) are not read. Like every cache
 * entry these are evicted after 7 days unused, and beyond the repository's 10 GB.
 */
export function createActionsCacheSpendLedger(options: ActionsCacheSpendLedgerOptions): SpendLedger {
  const writer = options.writer ?? spendWriterId(process.env, randomBytes(4).toString('hex'));
  const own = new Map<string, OwnTotal>();
  /** What the others had saved of each day, as last listed. */
  const lastRead = new Map<string, Spend>();
  let line: Promise<unknown> = Promise.resolve();

  const stagingDir = (): string => {
    if (options.stagingDir) return options.stagingDir;
    const temp = process.env.RUNNER_TEMP;
    if (!temp) throw new SpendLedgerError('spend_save_failed', 'RUNNER_TEMP is not set (not on an Actions runner)');
    return join(temp, `agent-mux-spend-${writer}`);
  };

  /** What the other writers of the day have saved, each one's newest entry. */
  async function othersSpent(prefix: string): Promise<Spend> {
    let keys: string[];
    try {
      keys = (await options.api.listActionsCaches(options.repo, prefix)).map((entry) => entry.key);
    } catch (error) {
      const status = GitHubApiError.isInstance(error) ? error.status : undefined;
      const where = `the Actions cache entries of ${options.repo.owner}/${options.repo.repo}`;
      const message =
        status === 403 || status === 404
          ? `could not list ${where} (${status}): the workflow token needs the \`actions: read\` permission (add \`actions: read\` to the workflow's \`permissions:\`)`
          : `could not list ${where}: ${errorText(error)}`;
      throw new SpendLedgerError('spend_load_failed', message, { cause: error });
    }
    const newest = newestPerWriter(prefix, keys);
    newest.delete(writer);
    const others = sumTotals(newest.values());
    lastRead.set(prefix, others);
    return others;
  }

  const withOthers = (mine: OwnTotal | undefined, others: Spend): Spend =>
    mine === undefined ? others : { usd: others.usd + mine.usd, tokens: others.tokens + mine.tokens };

  async function save(prefix: string, scope: SpendScope, day: string, total: OwnTotal): Promise<void> {
    const microUsd = Math.round(total.usd * 1e6);
    if (!Number.isSafeInteger(microUsd) || !Number.isSafeInteger(total.tokens)) {
      throw new SpendLedgerError('spend_invalid', `a total of $${total.usd} and ${total.tokens} tokens is too large`);
    }
    const key = spendCacheKey(prefix, writer, { seq: total.seq, tokens: total.tokens, microUsd });
    const dir = stagingDir();
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      const entry = { scope, day, writer, seq: total.seq, usd: total.usd, tokens: total.tokens };
      await writeFile(join(dir, 'spend.json'), JSON.stringify(entry), { mode: 0o600 });
      let id: number;
      try {
        const { saveCache } = await actionsCache();
        const ms = options.saveTimeoutMs ?? SAVE_TIMEOUT_MS;
        const saved = await settleWithin(saveCache([dir], key), ms, 'late' as const);
        if (saved === 'late') throw new Error(`the Actions cache did not answer in ${ms} ms`);
        id = saved;
      } catch (error) {
        throw new SpendLedgerError('spend_save_failed', `could not save cache entry ${key}`, { cause: error });
      }
      // The package logs its own failures (reservation refused, upload failed) and returns -1.
      if (id === -1) throw new SpendLedgerError('spend_save_failed', `the Actions cache did not keep ${key}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  return {
    shared: true,

    async spentOn(scope, day) {
      const prefix = spendCacheKeyPrefix(scope, day);
      // A run reads its day before it starts and adds as it spends: the package is loaded meanwhile.
      actionsCache().catch(() => undefined);
      return withOthers(own.get(prefix), await othersSpent(prefix));
    },

    add(scope, day, spend) {
      const work = async (): Promise<Spend> => {
        const added = checkSpend(spend);
        const prefix = spendCacheKeyPrefix(scope, day);
        const mine = own.get(prefix) ?? { seq: 0, usd: 0, tokens: 0 };
        if (added.usd <= 0 && added.tokens <= 0) return withOthers(mine, await othersSpent(prefix));
        // A day never read is read first: a token that may not list it adds nothing.
        if (!lastRead.has(prefix)) await othersSpent(prefix);
        const total = { seq: mine.seq + 1, usd: mine.usd + added.usd, tokens: mine.tokens + added.tokens };
        // A failed save may still have kept its entry: the next one gets a higher number either way.
        own.set(prefix, { ...mine, seq: total.seq });
        await save(prefix, scope, day, total);
        own.set(prefix, total);
        // Kept: from here the add resolves, with the others as last read if they cannot be listed now.
        const others = await othersSpent(prefix).catch(() => lastRead.get(prefix) ?? { usd: 0, tokens: 0 });
        return withOthers(total, others);
      };
      const result = line.then(work, work);
      line = result.catch(() => undefined);
      return result;
    },
  };
}
