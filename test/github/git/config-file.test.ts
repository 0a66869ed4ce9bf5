import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastConfigValue, listConfigFile } from '../../../src/github/git/config-file.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-mux-config-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('listConfigFile and lastConfigValue', () => {
  it('read a file as git does and give the value `git config --get` gives', async () => {
    const file = join(dir, 'config');
    await writeFile(
      file,
      [
        '[Remote "origin"]',
        '\turl = https://first.example/x.git',
        '[remote "origin"]',
        '\tURL = https://github.com/octo/demo.git',
        '[remote "Origin"]',
        '\turl = https://other.example/y.git',
        '[core]',
        '\tbare',
        `[include]\n\tpath = ${join(dir, 'never-read')}`,
        '',
      ].join('\n'),
    );
    const listing = await listConfigFile(file);
    if (!listing.ok) throw new Error(listing.error);
    expect(listing.entries).toContainEqual(['core.bare', undefined]);
    // The include is listed, not followed.
    expect(listing.entries.map(([key]) => key)).toContain('include.path');
    expect(lastConfigValue(listing.entries, 'remote.origin.url')).toBe('https://github.com/octo/demo.git');
    expect(lastConfigValue(listing.entries, 'REMOTE.origin.Url')).toBe('https://github.com/octo/demo.git');
    expect(lastConfigValue(listing.entries, 'remote.Origin.url')).toBe('https://other.example/y.git');
    expect(lastConfigValue(listing.entries, 'remote.upstream.url')).toBeUndefined();
  });

  it('says why a file cannot be read', async () => {
    const file = join(dir, 'config');
    await writeFile(file, '[core\n');
    const listing = await listConfigFile(file);
    expect(listing.ok).toBe(false);
    if (!listing.ok) expect(listing.error).toMatch(/bad config line 1/);
  });
});
