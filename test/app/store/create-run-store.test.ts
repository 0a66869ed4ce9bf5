import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunStore, isPostgresUrl } from '../../../src/app/store/create-run-store.ts';

describe('isPostgresUrl', () => {
  it.each([
    ['postgres://u@host:5432/db', true],
    ['postgresql://u@host/db', true],
    ['POSTGRES://host/db', true],
    ['mysql://host/db', false],
    ['./data/agent-mux.db', false],
    ['', false],
    [undefined, false],
  ])('%j → %s', (url, expected) => {
    expect(isPostgresUrl(url)).toBe(expected);
  });
});

describe('createRunStore', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-data-'));
    dirs.push(dir);
    return join(dir, 'data');
  };

  it.each([{ DATABASE_URL: undefined }, { DATABASE_URL: '' }, { DATABASE_URL: 'mysql://host/db' }])(
    'uses SQLite at $AGENT_MUX_DATA_DIR/agent-mux.db when DATABASE_URL is $DATABASE_URL',
    async ({ DATABASE_URL }) => {
      const dir = dataDir();
      const store = createRunStore({ DATABASE_URL, AGENT_MUX_DATA_DIR: dir });
      await store.migrate();
      await store.close();
      expect(existsSync(join(dir, 'agent-mux.db'))).toBe(true);
    },
  );

  it.each(['postgres://postgres@127.0.0.1:1/none', 'postgresql://postgres@127.0.0.1:1/none'])(
    'uses PostgreSQL for %s (and creates no SQLite file)',
    async (url) => {
      const dir = dataDir();
      const store = createRunStore({ DATABASE_URL: url, AGENT_MUX_DATA_DIR: dir });
      await expect(store.migrate()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await store.close();
      expect(existsSync(dir)).toBe(false);
    },
  );
});
