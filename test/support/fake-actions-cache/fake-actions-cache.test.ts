import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restoreCache, saveCache } from '@actions/cache';
import { BlobClient } from '@azure/storage-blob';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeActionsCache, startFakeActionsCache } from './fake-actions-cache.ts';

// The stand-in is driven by the real @actions/cache (and the Azure SDK it uploads with): what the
// package sends is what the stand-in must accept, and what it answers the package must understand.
describe('fake Actions cache service (v2) against @actions/cache', () => {
  let cache: FakeActionsCache;
  let root: string;
  let dir: string;

  beforeEach(async () => {
    cache = await startFakeActionsCache();
    root = mkdtempSync(join(tmpdir(), 'fake-actions-cache-'));
    dir = join(root, 'data');
    mkdirSync(join(root, 'runner-temp'));
    for (const [name, value] of Object.entries(cache.env)) vi.stubEnv(name, value);
    vi.stubEnv('RUNNER_TEMP', join(root, 'runner-temp'));
    vi.stubEnv('GITHUB_WORKSPACE', root);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await cache.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('saves through CreateCacheEntry, Put Blob and FinalizeCacheEntryUpload, and restores by key', async () => {
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'first turn\n');
    const id = await saveCache([dir], 'conv-1-turn-1');
    expect(id).toBeGreaterThan(0);
    expect(cache.state.entries).toMatchObject([{ key: 'conv-1-turn-1', finalized: true }]);
    expect(cache.requests.map((r) => `${r.method} ${r.path.replace(/entry-\d+/, 'entry')} ${r.status}`)).toEqual([
      'POST /twirp/github.actions.results.api.v1.CacheService/CreateCacheEntry 200',
      'PUT /devstoreaccount1/actions-cache/entry 201',
      'POST /twirp/github.actions.results.api.v1.CacheService/FinalizeCacheEntryUpload 200',
    ]);

    rmSync(dir, { recursive: true });
    expect(await restoreCache([dir], 'conv-1-turn-1')).toBe('conv-1-turn-1');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('first turn\n');
    expect(cache.violations).toEqual([]);
  });

  it('restores the newest entry a restore key prefixes, and nothing for another version (other paths)', async () => {
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'one');
    await saveCache([dir], 'conv-7/turn-1');
    writeFileSync(join(dir, 'a.txt'), 'two');
    await saveCache([dir], 'conv-7/turn-2');
    rmSync(dir, { recursive: true });
    expect(await restoreCache([dir], 'conv-7/none', ['conv-7/'])).toBe('conv-7/turn-2');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('two');
    expect(await restoreCache([join(root, 'elsewhere')], 'conv-7/none', ['conv-7/'])).toBeUndefined();
    expect(cache.violations).toEqual([]);
  });

  it('refuses a second entry under the same key and version, as the service does', async () => {
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'one');
    expect(await saveCache([dir], 'same')).toBeGreaterThan(0);
    expect(await saveCache([dir], 'same')).toBe(-1);
    expect(cache.state.entries).toHaveLength(1);
  });

  it('rejects a twirp request whose body the generated message type does not accept, and a wrong token', async () => {
    const post = (body: unknown, token: string) =>
      fetch(`${cache.url}twirp/github.actions.results.api.v1.CacheService/CreateCacheEntry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const bad = await post(
      { key: 'k', version: 'v', sizeBytes: 3, extra: true },
      cache.env.ACTIONS_RUNTIME_TOKEN ?? '',
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { msg: string }).msg).toMatch(/malformed twirp request/);
    expect((await post({ key: 'k', version: 'v' }, 'wrong')).status).toBe(401);
    expect(cache.violations).toHaveLength(2);
  });

  it('assembles a blob from Put Block and Put Block List (the SDK path above its single-shot size)', async () => {
    mkdirSync(dir);
    const content = Buffer.from('0123456789'.repeat(300));
    const file = join(dir, 'big.bin');
    writeFileSync(file, content);
    const create = await fetch(`${cache.url}twirp/github.actions.results.api.v1.CacheService/CreateCacheEntry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cache.env.ACTIONS_RUNTIME_TOKEN}` },
      body: JSON.stringify({ key: 'blocks', version: 'v1' }),
    });
    const { signed_upload_url: url } = (await create.json()) as { signed_upload_url: string };
    await new BlobClient(url).getBlockBlobClient().uploadFile(file, { maxSingleShotSize: 1000, blockSize: 1000 });
    expect(cache.requests.filter((r) => r.method === 'PUT')).toHaveLength(4);
    expect(cache.state.blobs.get('entry-1')?.content).toEqual(content);
    expect(cache.violations).toEqual([]);
  });

  it('refuses a blob write with a read-only or forged signature', async () => {
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'one');
    await saveCache([dir], 'signed');
    const download = await fetch(
      `${cache.url}twirp/github.actions.results.api.v1.CacheService/GetCacheEntryDownloadURL`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${cache.env.ACTIONS_RUNTIME_TOKEN}` },
        body: JSON.stringify({ key: 'signed', version: cache.state.entries[0]?.version }),
      },
    );
    const { signed_download_url: readUrl } = (await download.json()) as { signed_download_url: string };
    const put = (url: string) =>
      fetch(url, {
        method: 'PUT',
        headers: { 'x-ms-version': '2025-01-05', 'x-ms-blob-type': 'BlockBlob' },
        body: 'x',
      });
    expect((await put(readUrl)).status).toBe(403);
    expect((await put(readUrl.replace(/sp=r/, 'sp=cw'))).status).toBe(403);
    expect((await fetch(readUrl)).status).toBe(200);
  });
});
