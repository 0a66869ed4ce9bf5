import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveCache } from '@actions/cache';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActionsCacheSpendLedger, spendCacheKeyPrefix } from '../../src/action/actions-cache-spend-ledger.ts';
import type { SpendScope } from '../../src/github/limits/spend-ledger.ts';
import { SpendLedgerError } from '../../src/github/limits/spend-ledger-error.ts';
import { describeSpendLedger } from '../github/limits/spend-ledger-contract.ts';
import { type FakeActionsCache, startFakeActionsCache } from '../support/fake-actions-cache/fake-actions-cache.ts';

// Through the real @actions/cache and the stand-in cache service, as a runner gives a job (cache
// service v2, RUNNER_TEMP, GITHUB_WORKSPACE); every ledger of a test shares the one service.

/** A runner's environment around a fresh stand-in cache service; `close` undoes it. */
async function runner(): Promise<{ cache: FakeActionsCache; root: string; close: () => Promise<void> }> {
  const cache = await startFakeActionsCache();
  const root = mkdtempSync(join(tmpdir(), 'spend-cache-'));
  mkdirSync(join(root, 'runner-temp'));
  mkdirSync(join(root, 'workspace'));
  for (const [name, value] of Object.entries(cache.env)) vi.stubEnv(name, value);
  vi.stubEnv('RUNNER_TEMP', join(root, 'runner-temp'));
  vi.stubEnv('GITHUB_WORKSPACE', join(root, 'workspace'));
  return {
    cache,
    root,
    async close() {
      vi.unstubAllEnvs();
      await cache.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

describeSpendLedger('Actions cache', async () => {
  const world = await runner();
  return {
    ledger: createActionsCacheSpendLedger(),
    async dispose() {
      expect(world.cache.violations).toEqual([]);
      await world.close();
    },
  };
});

describe('spend in the Actions cache', () => {
  const scope: SpendScope = 'repo:octo/hello';
  const day = '2026-03-14';
  let world: Awaited<ReturnType<typeof runner>>;
  beforeEach(async () => {
    world = await runner();
  });
  afterEach(async () => {
    await world.close();
  });

  /** Saves an entry of the scope's day holding `text` as its spend.json, as a broken or hostile job might. */
  async function saveRawEntry(text: string): Promise<string> {
    const dir = join(world.root, 'runner-temp', 'agent-mux-spend');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'spend.json'), text);
    const key = `${spendCacheKeyPrefix(scope, day)}${Date.now()}`;
    expect(await saveCache([dir], key)).toBeGreaterThan(0);
    rmSync(dir, { recursive: true, force: true });
    return key;
  }

  it('saves a new entry for each add, keyed by scope and day, and reads the newest on another runner', async () => {
    await createActionsCacheSpendLedger().add(scope, day, { usd: 0.4, tokens: 40 });
    await createActionsCacheSpendLedger().add('installation:42', day, { usd: 9, tokens: 9 });
    await createActionsCacheSpendLedger().add(scope, day, { usd: 0.6, tokens: 60 });
    expect(await createActionsCacheSpendLedger().spentOn(scope, day)).toEqual({ usd: 1, tokens: 100 });
    const keys = world.cache.state.entries.map((e) => e.key);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^agent-mux-spend-v1\/repo:octo\/hello\/2026-03-14\/[0-9]+$/);
    expect(keys[1]).toMatch(/^agent-mux-spend-v1\/installation:42\/2026-03-14\/[0-9]+$/);
    expect(world.cache.violations).toEqual([]);
    // @actions/cache leaves its own temporary directories (UUIDs) in RUNNER_TEMP; ours is gone.
    expect(readdirSync(join(world.root, 'runner-temp')).filter((n) => n.startsWith('agent-mux'))).toEqual([]);
    expect(readdirSync(join(world.root, 'workspace'))).toEqual([]);
  });

  it('serializes the adds of one process, so none of them is lost', async () => {
    const ledger = createActionsCacheSpendLedger();
    await Promise.all(Array.from({ length: 5 }, () => ledger.add(scope, day, { usd: 0.05, tokens: 7 })));
    const total = await ledger.spentOn(scope, day);
    expect(Math.abs(total.usd - 0.25)).toBeLessThan(1e-9);
    expect(total.tokens).toBe(35);
  });

  it.each([
    ['not JSON', '{"usd": 1,'],
    ['not a spend', JSON.stringify({ scope, day, usd: '1', tokens: 2 })],
    ['another scope', JSON.stringify({ scope: 'repo:octo/other', day, usd: 1, tokens: 2 })],
  ])('throws a SpendLedgerError naming an entry that is %s, on read and on add', async (_, text) => {
    const key = await saveRawEntry(text);
    const ledger = createActionsCacheSpendLedger();
    for (const attempt of [ledger.spentOn(scope, day), ledger.add(scope, day, { usd: 1, tokens: 1 })]) {
      const error = await attempt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(SpendLedgerError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'spend_load_failed', message: expect.stringContaining(key) });
    }
    expect(world.cache.state.entries).toHaveLength(1);
  });

  it('refuses a scope or day no cache key can be made of', async () => {
    const ledger = createActionsCacheSpendLedger();
    for (const [badScope, badDay] of [
      ['repo:octo/a,b', day],
      ['repo:octo/a/2026-03-14', day],
      [scope, '14.3.2026'],
    ] as const) {
      await expect(ledger.spentOn(badScope, badDay)).rejects.toMatchObject({ code: 'spend_invalid' });
    }
    expect(world.cache.requests).toEqual([]);
  });

  it('says so when RUNNER_TEMP is not set', async () => {
    vi.stubEnv('RUNNER_TEMP', '');
    await expect(createActionsCacheSpendLedger().spentOn(scope, day)).rejects.toMatchObject({
      code: 'spend_load_failed',
      message: expect.stringMatching(/RUNNER_TEMP/),
    });
    const staged = join(world.root, 'staging');
    expect(await createActionsCacheSpendLedger({ stagingDir: staged }).add(scope, day, { usd: 1, tokens: 1 })).toEqual({
      usd: 1,
      tokens: 1,
    });
  });
});
