import { afterEach, describe, expect, it } from 'vitest';
import type { SpendLedger, SpendScope } from '../../../src/github/limits/spend-ledger.ts';
import { SpendLedgerError } from '../../../src/github/limits/spend-ledger-error.ts';

/** A ledger for one test, on storage of its own; `dispose` closes and removes it. */
export interface SpendLedgerFixture {
  ledger: SpendLedger;
  dispose?: () => Promise<void>;
}

const REPO: SpendScope = 'repo:octo/hello';
const DAY = '2026-03-14';

/**
 * What every `SpendLedger` does (memory, the app's SQLite and PostgreSQL stores, the Actions cache):
 * `make()` gives a fresh, empty ledger for each test.
 */
export function describeSpendLedger(name: string, make: () => Promise<SpendLedgerFixture>): void {
  describe(`SpendLedger: ${name}`, () => {
    let current: SpendLedgerFixture | undefined;
    const open = async () => {
      current = await make();
      return current.ledger;
    };
    afterEach(async () => {
      await current?.dispose?.();
      current = undefined;
    });

    it('reads zeros where nothing was spent', async () => {
      const ledger = await open();
      expect(await ledger.spentOn(REPO, DAY)).toEqual({ usd: 0, tokens: 0 });
      expect(await ledger.spentOn('installation:42', DAY)).toEqual({ usd: 0, tokens: 0 });
    });

    it('accumulates adds per scope and day, and returns the new total', async () => {
      const ledger = await open();
      expect(await ledger.add(REPO, DAY, { usd: 1.25, tokens: 1000 })).toEqual({ usd: 1.25, tokens: 1000 });
      expect(await ledger.add(REPO, DAY, { usd: 0.5, tokens: 200 })).toEqual({ usd: 1.75, tokens: 1200 });
      expect(await ledger.add(REPO, DAY, { usd: 0, tokens: 0 })).toEqual({ usd: 1.75, tokens: 1200 });
      expect(await ledger.spentOn(REPO, DAY)).toEqual({ usd: 1.75, tokens: 1200 });
    });

    it('keeps another scope and another day apart', async () => {
      const ledger = await open();
      await ledger.add(REPO, DAY, { usd: 2, tokens: 10 });
      await ledger.add('repo:octo/other', DAY, { usd: 3, tokens: 20 });
      await ledger.add('installation:42', DAY, { usd: 4, tokens: 30 });
      await ledger.add(REPO, '2026-03-15', { usd: 5, tokens: 40 });
      expect(await ledger.spentOn(REPO, DAY)).toEqual({ usd: 2, tokens: 10 });
      expect(await ledger.spentOn('repo:octo/other', DAY)).toEqual({ usd: 3, tokens: 20 });
      expect(await ledger.spentOn('installation:42', DAY)).toEqual({ usd: 4, tokens: 30 });
      expect(await ledger.spentOn('installation:4', DAY)).toEqual({ usd: 0, tokens: 0 });
      expect(await ledger.spentOn(REPO, '2026-03-15')).toEqual({ usd: 5, tokens: 40 });
      expect(await ledger.spentOn(REPO, '2026-03-13')).toEqual({ usd: 0, tokens: 0 });
    });

    it('accumulates fractions of a dollar without losing cents', async () => {
      const ledger = await open();
      await ledger.add(REPO, DAY, { usd: 0.1, tokens: 1 });
      const total = await ledger.add(REPO, DAY, { usd: 0.2, tokens: 1 });
      expect(Math.abs(total.usd - 0.3)).toBeLessThan(1e-9);
      expect(Math.abs((await ledger.spentOn(REPO, DAY)).usd - 0.3)).toBeLessThan(1e-9);
      for (let i = 0; i < 7; i++) await ledger.add(REPO, DAY, { usd: 0.01, tokens: 0 });
      expect(Math.abs((await ledger.spentOn(REPO, DAY)).usd - 0.37)).toBeLessThan(1e-9);
    });

    it('keeps tokens as exact integers', async () => {
      const ledger = await open();
      await ledger.add(REPO, DAY, { usd: 0.001, tokens: 2_147_483_647 });
      const total = await ledger.add(REPO, DAY, { usd: 0.001, tokens: 3 });
      expect(total.tokens).toBe(2_147_483_650);
      const read = await ledger.spentOn(REPO, DAY);
      expect(read.tokens).toBe(2_147_483_650);
      expect(Number.isInteger(read.tokens)).toBe(true);
      expect(typeof read.usd).toBe('number');
    });

    it('refuses a negative or non-finite amount and a fraction of a token, and adds nothing', async () => {
      const ledger = await open();
      for (const spend of [
        { usd: -1, tokens: 0 },
        { usd: Number.NaN, tokens: 0 },
        { usd: Number.POSITIVE_INFINITY, tokens: 0 },
        { usd: 1, tokens: 1.5 },
        { usd: 1, tokens: -1 },
      ]) {
        await expect(ledger.add(REPO, DAY, spend)).rejects.toSatisfy(
          (error: unknown) => SpendLedgerError.isInstance(error) && error.code === 'spend_invalid',
        );
      }
      expect(await ledger.spentOn(REPO, DAY)).toEqual({ usd: 0, tokens: 0 });
    });
  });
}
