import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveCache } from '@actions/cache';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActionsCacheSpendLedger } from '../../src/action/actions-cache-spend-ledger.ts';
import { spendCacheKeyPrefix } from '../../src/action/spend-cache-keys.ts';
import { createGitHubApi } from '../../src/github/create-github-api.ts';
import { createOctokit } from '../../src/github/create-octokit.ts';
import type { SpendScope } from '../../src/github/limits/spend-ledger.ts';
import { SpendLedgerError } from '../../src/github/limits/spend-ledger-error.ts';
import { describeSpendLedger } from '../github/limits/spend-ledger-contract.ts';
import { type FakeActionsCache, startFakeActionsCache } from '../support/fake-actions-cache/fake-actions-cache.ts';
import { type FakeGitHub, startFakeGitHub } from '../support/fake-github/fake-github.ts';

// Through the real @actions/cache and the stand-in cache service, as a runner gives a job (cache
// service v2, RUNNER_TEMP, GITHUB_WORKSPACE), and the fake GitHub listing what the stand-in holds
// (GET /repos/{owner}/{repo}/actions/caches, checked against GitHub's description); every ledger of
// a test shares the one service, each ledger standing for a run of its own.

const repo = { owner: 'octo', repo: 'hello' };

interface Runner {
  cache: FakeActionsCache;
  gh: FakeGitHub;
  root: string;
  /** A ledger as one run has it (a writer of its own). */
  ledger(options?: { stagingDir?: string }): ReturnType<typeof createActionsCacheSpendLedger>;
  close(): Promise<void>;
}

/** A runner's environment around a fresh stand-in cache service and a fake GitHub listing it. */
async function runner(): Promise<Runner> {
  const cache = await startFakeActionsCache();
  const gh = await startFakeGitHub();
  gh.state.addRepo({ ...repo, defaultBranch: 'main' });
  gh.state.linkActionsCache(repo, cache.state);
  const api = createGitHubApi(createOctokit({ token: 'ghs_spend', baseUrl: gh.url, waitScale: 1 }));
  const root = mkdtempSync(join(tmpdir(), 'spend-cache-'));
  mkdirSync(join(root, 'runner-temp'));
  mkdirSync(join(root, 'workspace'));
  for (const [name, value] of Object.entries(cache.env)) vi.stubEnv(name, value);
  vi.stubEnv('RUNNER_TEMP', join(root, 'runner-temp'));
  vi.stubEnv('GITHUB_WORKSPACE', join(root, 'workspace'));
  vi.stubEnv('GITHUB_RUN_ID', '8100');
  vi.stubEnv('GITHUB_RUN_ATTEMPT', '1');
  vi.stubEnv('GITHUB_JOB', 'agent');
  return {
    cache,
    gh,
    root,
    ledger: (options = {}) => createActionsCacheSpendLedger({ api, repo, ...options }),
    async close() {
      vi.unstubAllEnvs();
      await cache.close();
      await gh.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

describeSpendLedger('Actions cache', async () => {
  const world = await runner();
  return {
    ledger: world.ledger(),
    async dispose() {
      expect(world.cache.violations).toEqual([]);
      world.gh.assertNoViolations();
      await world.close();
    },
  };
});

describe('spend in the Actions cache, one entry per add of each run', () => {
  const scope: SpendScope = 'repo:octo/hello';
  const day = '2026-03-14';
  const prefix = spendCacheKeyPrefix(scope, day);
  let world: Runner;
  beforeEach(async () => {
    world = await runner();
  });
  afterEach(async () => {
    await world.close();
  });

  /** An entry as another program may have saved it, under any key (its content is never read). */
  async function saveRawEntry(key: string): Promise<void> {
    const dir = join(world.root, 'runner-temp', 'raw');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'spend.json'), '{"not": "read"}');
    expect(await saveCache([dir], key)).toBeGreaterThan(0);
    rmSync(dir, { recursive: true, force: true });
  }

  it('each run saves entries of its own holding its running total; any run reads the sum of each one’s newest', async () => {
    const one = world.ledger();
    const two = world.ledger();
    expect(await one.add(scope, day, { usd: 0.4, tokens: 40 })).toEqual({ usd: 0.4, tokens: 40 });
    expect(await two.add(scope, day, { usd: 0.1, tokens: 10 })).toEqual({ usd: 0.5, tokens: 50 });
    await two.add('installation:42', day, { usd: 9, tokens: 9 });
    expect(await one.add(scope, day, { usd: 0.6, tokens: 60 })).toEqual({ usd: 1.1, tokens: 110 });
    expect(await world.ledger().spentOn(scope, day)).toEqual({ usd: 1.1, tokens: 110 });
    expect(await world.ledger().spentOn('installation:42', day)).toEqual({ usd: 9, tokens: 9 });
    const keys = world.cache.state.entries.map((e) => e.key);
    const writer = '8100-1-agent-[0-9a-f]{8}';
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(new RegExp(`^agent-mux-spend-v2/repo:octo/hello/2026-03-14/${writer}/1/40t-400000u$`));
    expect(keys[2]).toMatch(new RegExp(`^agent-mux-spend-v2/installation:42/2026-03-14/${writer}/1/9t-9000000u$`));
    expect(keys[3]).toMatch(new RegExp(`^agent-mux-spend-v2/repo:octo/hello/2026-03-14/${writer}/2/100t-1000000u$`));
    expect(keys[3]?.split('/')[4]).toBe(keys[0]?.split('/')[4]);
    expect(keys[1]?.split('/')[4]).not.toBe(keys[0]?.split('/')[4]);
    // Reading restores nothing: the cache service is asked only to save.
    expect(world.cache.requests.filter((r) => r.path.endsWith('GetCacheEntryDownloadURL'))).toEqual([]);
    expect(world.gh.requests.filter((r) => r.operationId === 'actions/get-actions-cache-list')[0]?.query).toMatchObject(
      { key: prefix, per_page: '100' },
    );
    expect(world.cache.violations).toEqual([]);
    world.gh.assertNoViolations();
    // @actions/cache leaves its own temporary directories (UUIDs) in RUNNER_TEMP; ours are gone.
    expect(readdirSync(join(world.root, 'runner-temp')).filter((n) => n.startsWith('agent-mux'))).toEqual([]);
    expect(readdirSync(join(world.root, 'workspace'))).toEqual([]);
  });

  it('runs adding at the same moment lose nothing, and the adds of one run are serialized', async () => {
    const runs = [world.ledger(), world.ledger(), world.ledger()];
    await Promise.all(
      runs.flatMap((ledger) => Array.from({ length: 3 }, () => ledger.add(scope, day, { usd: 0.05, tokens: 7 }))),
    );
    const total = await world.ledger().spentOn(scope, day);
    expect(Math.abs(total.usd - 0.45)).toBeLessThan(1e-9);
    expect(total.tokens).toBe(63);
    expect(world.cache.state.entries).toHaveLength(9);
    expect(world.cache.violations).toEqual([]);
  });

  it('ignores keys that are not entries of the day (a v1 total among them) and reads every page', async () => {
    await saveRawEntry(`${prefix}broken`);
    await saveRawEntry(`${prefix}w/1/12x-1u`);
    await saveRawEntry(`agent-mux-spend-v1/${scope}/${day}/1773446400000`);
    await saveRawEntry(`${prefix}other-run/2/30t-3000000u`);
    await saveRawEntry(`${prefix}other-run/1/10t-1000000u`);
    // 150 further runs' entries, put straight into the service's state: two pages of 100.
    for (let i = 0; i < 150; i++) {
      const entry = world.cache.state.reserve(`${prefix}run-${i}/1/2t-0u`, 'any-version');
      entry.finalized = true;
    }
    const ledger = world.ledger();
    expect(await ledger.spentOn(scope, day)).toEqual({ usd: 3, tokens: 330 });
    expect(await ledger.add(scope, day, { usd: 1, tokens: 1 })).toEqual({ usd: 4, tokens: 331 });
    const pages = world.gh.requests.filter((r) => r.operationId === 'actions/get-actions-cache-list');
    expect(pages.map((r) => r.query.page)).toEqual(['1', '2', '1', '2']);
    world.gh.assertNoViolations();
  });

  it.each([403, 404])(
    'refuses to read or add when GitHub answers %i, naming the permission, and saves nothing',
    async (status) => {
      world.gh.failNext(
        { method: 'GET', path: '/repos/{owner}/{repo}/actions/caches' },
        { status, body: { message: 'Resource not accessible by integration' } },
        2,
      );
      const ledger = world.ledger();
      for (const attempt of [ledger.spentOn(scope, day), ledger.add(scope, day, { usd: 1, tokens: 1 })]) {
        const error = await attempt.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(SpendLedgerError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({
          code: 'spend_load_failed',
          message: expect.stringContaining(`the workflow token needs the \`actions: read\` permission`),
        });
      }
      expect(world.cache.state.entries).toEqual([]);
      expect(await ledger.add(scope, day, { usd: 1, tokens: 1 })).toEqual({ usd: 1, tokens: 1 });
    },
  );

  it('once its entry is kept, an add resolves even when the day cannot be listed: the others as last read', async () => {
    const other = world.ledger();
    await other.add(scope, day, { usd: 1, tokens: 100 });
    const ledger = world.ledger();
    expect(await ledger.spentOn(scope, day)).toEqual({ usd: 1, tokens: 100 });
    await other.add(scope, day, { usd: 1, tokens: 100 });
    world.gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/actions/caches' }, { status: 403 }, 10);
    // Rejecting would have the caller add the same spending again, into a second entry.
    expect(await ledger.add(scope, day, { usd: 0.5, tokens: 5 })).toEqual({ usd: 1.5, tokens: 105 });
    world.gh.clearFaults();
    expect(await world.ledger().spentOn(scope, day)).toEqual({ usd: 2.5, tokens: 205 });
    expect(world.cache.state.entries).toHaveLength(3);
  });

  it('fails an add whose save the cache service never answers, after its time, rather than hold the run', async () => {
    // A service that takes the connection and says nothing.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    vi.stubEnv('ACTIONS_RESULTS_URL', `http://127.0.0.1:${port}/`);
    try {
      const ledger = createActionsCacheSpendLedger({
        api: createGitHubApi(createOctokit({ token: 'ghs_spend', baseUrl: world.gh.url, waitScale: 1 })),
        repo,
        saveTimeoutMs: 300,
      });
      const started = Date.now();
      const failure = await ledger.add(scope, day, { usd: 0.5, tokens: 5 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SpendLedgerError);
      expect(failure).toMatchObject({ code: 'spend_save_failed' });
      expect((failure as Error).cause).toMatchObject({ message: 'the Actions cache did not answer in 300 ms' });
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('refuses a scope or day no cache key can be made of, asking nothing', async () => {
    const ledger = world.ledger();
    for (const [badScope, badDay] of [
      ['repo:octo/a,b', day],
      ['repo:octo/a/2026-03-14', day],
      [scope, '14.3.2026'],
    ] as const) {
      await expect(ledger.spentOn(badScope, badDay)).rejects.toMatchObject({ code: 'spend_invalid' });
      await expect(ledger.add(badScope, badDay, { usd: 1, tokens: 1 })).rejects.toMatchObject({
        code: 'spend_invalid',
      });
    }
    expect(world.cache.requests).toEqual([]);
    expect(world.gh.requests).toEqual([]);
  });

  it('reads without RUNNER_TEMP, and says so when adding needs it', async () => {
    vi.stubEnv('RUNNER_TEMP', '');
    expect(await world.ledger().spentOn(scope, day)).toEqual({ usd: 0, tokens: 0 });
    await expect(world.ledger().add(scope, day, { usd: 1, tokens: 1 })).rejects.toMatchObject({
      code: 'spend_save_failed',
      message: expect.stringMatching(/RUNNER_TEMP/),
    });
    const staged = join(world.root, 'staging');
    expect(await world.ledger({ stagingDir: staged }).add(scope, day, { usd: 1, tokens: 1 })).toEqual({
      usd: 1,
      tokens: 1,
    });
  });
});
