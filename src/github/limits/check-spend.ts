import type { Spend } from './spend-ledger.ts';
import { SpendLedgerError } from './spend-ledger-error.ts';

/**
 * `spend` when it can be added to a ledger: `usd` finite and not negative, `tokens` a safe integer
 * not negative. Otherwise throws `SpendLedgerError` (`spend_invalid`): a ledger never keeps a total
 * that a NaN or a fraction of a token has made unreadable.
 */
export function checkSpend(spend: Spend): Spend {
  if (!Number.isFinite(spend.usd) || spend.usd < 0) {
    throw new SpendLedgerError('spend_invalid', `usd must be a finite number not below 0, not ${spend.usd}`);
  }
  if (!Number.isSafeInteger(spend.tokens) || spend.tokens < 0) {
    throw new SpendLedgerError('spend_invalid', `tokens must be a whole number not below 0, not ${spend.tokens}`);
  }
  return { usd: spend.usd, tokens: spend.tokens };
}
