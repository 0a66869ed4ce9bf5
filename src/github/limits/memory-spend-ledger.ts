import { checkSpend } from './check-spend.ts';
import type { Spend, SpendLedger } from './spend-ledger.ts';

/**
 * A `SpendLedger` in this process's memory: nothing survives it. For `agent-mux simulate` and tests.
 */
export function createMemorySpendLedger(): SpendLedger {
  const days = new Map<string, Spend>();
  const keyOf = (scope: string, day: string) => JSON.stringify([scope, day]);
  return {
    shared: true,
    async spentOn(scope, day) {
      const spent = days.get(keyOf(scope, day));
      return spent ? { ...spent } : { usd: 0, tokens: 0 };
    },
    async add(scope, day, spend) {
      const added = checkSpend(spend);
      const key = keyOf(scope, day);
      const before = days.get(key) ?? { usd: 0, tokens: 0 };
      const total = { usd: before.usd + added.usd, tokens: before.tokens + added.tokens };
      days.set(key, total);
      return { ...total };
    },
  };
}
