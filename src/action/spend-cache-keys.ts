import type { Spend, SpendScope } from '../github/limits/spend-ledger.ts';
import { SpendLedgerError } from '../github/limits/spend-ledger-error.ts';

const KEY_PREFIX = 'agent-mux-spend-v2';

/**
 * The scopes a key is made of: `repo:<owner>/<name>` (GitHub's names hold letters, digits, `-`, `_`
 * and `.`) or `installation:<id>`. With no `,` (refused in keys by `@actions/cache`) and no second
 * `/`, no scope's prefix is the start of another scope's key; `:` and `/` are allowed in keys.
 */
const SCOPE = /^(?:repo:[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+|installation:[0-9]+)$/;
const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
/** What follows a day's prefix: `<writer>/<seq>/<tokens>t-<micro-usd>u`. */
const ENTRY = /^([A-Za-z0-9_-]{1,200})\/([0-9]{1,15})\/([0-9]{1,16})t-([0-9]{1,16})u$/;

/** One writer's running total of a scope's day, as an entry's key holds it. */
export interface WriterTotal {
  /** The number of the writer's entry, counting from 1: its newest entry holds its total. */
  seq: number;
  tokens: number;
  /** US dollars in millionths, rounded. */
  microUsd: number;
}

/**
 * Every entry of a scope's day starts with this, e.g. `agent-mux-spend-v2/repo:octo/hello/2026-01-02/`.
 * Throws `SpendLedgerError` (`spend_invalid`) for a scope or day a key cannot be made of.
 */
export function spendCacheKeyPrefix(scope: SpendScope, day: string): string {
  if (!SCOPE.test(scope)) throw new SpendLedgerError('spend_invalid', `no cache key for the scope ${scope}`);
  if (!DAY.test(day)) throw new SpendLedgerError('spend_invalid', `${day} is not a day (YYYY-MM-DD)`);
  return `${KEY_PREFIX}/${scope}/${day}/`;
}

/**
 * Who writes a run's entries: `<GITHUB_RUN_ID>-<GITHUB_RUN_ATTEMPT>-<GITHUB_JOB>-<random>`, the
 * same for the whole process and distinct between runs, attempts, jobs and a matrix's legs (which
 * share their job id). Characters other than letters, digits, `_` and `-` become `_`.
 */
export function spendWriterId(env: NodeJS.ProcessEnv, random: string): string {
  const part = (value: string | undefined, fallback: string, max: number) =>
    (value || fallback).replace(/[^A-Za-z0-9_-]/g, '_').slice(0, max);
  return [
    part(env.GITHUB_RUN_ID, 'run', 20),
    part(env.GITHUB_RUN_ATTEMPT, '1', 6),
    part(env.GITHUB_JOB, 'job', 60),
    part(random, 'x', 32),
  ].join('-');
}

/** The key of a writer's entry: `<prefix><writer>/<seq>/<tokens>t-<micro-usd>u` (at most ~330 of the 512 characters allowed). */
export function spendCacheKey(prefix: string, writer: string, total: WriterTotal): string {
  return `${prefix}${writer}/${total.seq}/${total.tokens}t-${total.microUsd}u`;
}

/** The writer and running total a key of the day `prefix` holds; undefined for any other key. */
export function parseSpendCacheKey(prefix: string, key: string): { writer: string; total: WriterTotal } | undefined {
  if (!key.startsWith(prefix)) return undefined;
  const match = ENTRY.exec(key.slice(prefix.length));
  if (!match) return undefined;
  const [seq, tokens, microUsd] = [match[2], match[3], match[4]].map(Number) as [number, number, number];
  if (![seq, tokens, microUsd].every(Number.isSafeInteger) || seq < 1) return undefined;
  return { writer: match[1] as string, total: { seq, tokens, microUsd } };
}

/** Each writer's newest total among `keys` (its highest `seq`); a key that is not an entry of the day is ignored. */
export function newestPerWriter(prefix: string, keys: readonly string[]): Map<string, WriterTotal> {
  const newest = new Map<string, WriterTotal>();
  for (const key of keys) {
    const entry = parseSpendCacheKey(prefix, key);
    if (entry === undefined) continue;
    const seen = newest.get(entry.writer);
    if (seen === undefined || entry.total.seq > seen.seq) newest.set(entry.writer, entry.total);
  }
  return newest;
}

/** The sum of writers' totals, as a `Spend`. */
export function sumTotals(totals: Iterable<WriterTotal>): Spend {
  let tokens = 0;
  let microUsd = 0;
  for (const total of totals) {
    tokens += total.tokens;
    microUsd += total.microUsd;
  }
  return { usd: microUsd / 1e6, tokens };
}
