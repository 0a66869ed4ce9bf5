import type { Spend } from '../../github/limits/spend-ledger.ts';
import { CorruptRowError } from './corrupt-row-error.ts';
import type { Row } from './row-mapping.ts';

/** A `spend` row's `usd` and `tokens` (PostgreSQL gives `bigint` as text); no row is nothing spent. */
export function spendFromRow(row: Row | undefined): Spend {
  if (row === undefined) return { usd: 0, tokens: 0 };
  const { usd, tokens } = row;
  if (typeof usd !== 'number' || !Number.isFinite(usd)) {
    throw new CorruptRowError('spend', 'usd', `not a number: ${String(usd)}`);
  }
  const count =
    typeof tokens === 'number' || typeof tokens === 'string' || typeof tokens === 'bigint' ? Number(tokens) : NaN;
  if (!Number.isSafeInteger(count))
    throw new CorruptRowError('spend', 'tokens', `not a whole number: ${String(tokens)}`);
  return { usd, tokens: count };
}
