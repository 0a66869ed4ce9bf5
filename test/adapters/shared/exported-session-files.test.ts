import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCodeStyleSessionFiles } from '../../../src/adapters/agents/opencode/opencode-session-files.ts';
import { exportedSessionFiles } from '../../../src/adapters/shared/exported-session-files.ts';
import { SessionCommandError } from '../../../src/adapters/shared/session-command-error.ts';
import type { SessionLocation } from '../../../src/core/adapter/session-files.ts';
import { Redactor } from '../../../src/core/redact/redactor.ts';
import type { ConversationKey } from '../../../src/github/conversation/conversation-state.ts';
import { restoreConversation } from '../../../src/github/conversation/restore-conversation.ts';
import { sessionLocation } from '../../../src/github/conversation/run-turn.ts';
import { saveConversation } from '../../../src/github/conversation/save-conversation.ts';
import { sessionFilesFor } from '../../../src/github/conversation/session-file-declarations.ts';
import { createMemoryConversationStore } from '../../support/memory-conversation-store.ts';

// A CLI that keeps every session in one database (test/fixtures/bin/session-db-agent.mjs, shaped
// as OpenCode's `export`/`import`): a conversation carries one session as its export.
const AGENT = join(import.meta.dirname, '../../fixtures/bin/session-db-agent.mjs');
const FAKE_BWRAP = join(import.meta.dirname, '../../fixtures/bin/fake-bwrap.mjs');
const KEY: ConversationKey = { repository: 'octo/demo', number: 7, agent: 'opencode' };
const TOKEN = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
const ID = 'ses_de3e8343effePd4YPDeHvBo5Pm';
const declaration = openCodeStyleSessionFiles({ command: 'session-db-agent' });

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'exported-session-files-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function at(name: string, fail?: string): SessionLocation {
  const cwd = join(scratch, `${name}-ws`);
  mkdirSync(cwd, { recursive: true });
  const env = { PATH: process.env.PATH, ...(fail ? { SESSION_DB_AGENT_FAIL: fail } : {}) };
  return { home: join(scratch, name), env, cwd, command: AGENT };
}
const dbOf = (location: SessionLocation) => join(location.home, '.local/share/session-db-agent/db.json');
function seed(location: SessionLocation, text = 'Remember the number 42.') {
  mkdirSync(join(location.home, '.local/share/session-db-agent'), { recursive: true });
  const session = (id: string, words: string) => ({ info: { id, directory: location.cwd }, messages: [words] });
  writeFileSync(dbOf(location), JSON.stringify({ [ID]: session(ID, text), ses_other: session('ses_other', 'other') }));
}
const staged = (location: SessionLocation) => {
  const dir = declaration.root(location);
  return existsSync(dir) ? readdirSync(dir) : [];
};
const state = { agent: 'opencode', adapter: 'opencode', sessionId: ID, turns: 1, updatedAt: new Date().toISOString() };

async function save(location: SessionLocation, options: { maxBytes?: number } = {}) {
  const store = createMemoryConversationStore();
  const logs: string[] = [];
  const result = await saveConversation({
    store,
    key: KEY,
    state,
    declaration,
    location,
    redactor: new Redactor([TOKEN]),
    log: (line) => logs.push(line),
    ...options,
  });
  return { store, result, logs };
}

/** Saves the seeded session from `home-1` and restores it into `home-2`, both located by `locate`. */
async function roundTrip(locate: (name: string) => SessionLocation) {
  const first = locate('home-1');
  seed(first);
  const { store, result } = await save(first);
  expect(result).toMatchObject({ saved: true });
  const second = locate('home-2');
  expect(
    (await restoreConversation({ store, key: KEY, adapter: 'opencode', declaration, location: second }))?.sessionId,
  ).toBe(ID);
  return { first, second };
}

describe('a session carried by the agent’s export and import', () => {
  it('keeps the one session’s export and imports it in the next turn’s HOME and directory', async () => {
    const first = at('home-1');
    seed(first);
    const { store, result, logs } = await save(first);
    expect(result, logs.join('\n')).toMatchObject({ saved: true, files: 1 });
    const files = store.saved[0]?.conversation.session.files ?? [];
    expect(files.map((f) => f.path)).toEqual([`${ID}.json`]);
    const exported = Buffer.from(files[0]?.content ?? '').toString('utf8');
    expect(JSON.parse(exported)).toMatchObject({ info: { id: ID } });
    expect(exported).not.toContain('ses_other');
    expect(staged(first)).toEqual([]);

    const second = at('home-2');
    const restoreLogs: string[] = [];
    const restored = await restoreConversation({
      store,
      key: KEY,
      adapter: 'opencode',
      declaration,
      location: second,
      log: (line) => restoreLogs.push(line),
    });
    expect(restored?.sessionId, restoreLogs.join('\n')).toBe(ID);
    const db = JSON.parse(readFileSync(dbOf(second), 'utf8'));
    expect(Object.keys(db)).toEqual([ID]);
    // Imported where the agent runs next (OpenCode files an import under that directory's project).
    expect(db[ID].info.directory).toBe(second.cwd);
    expect(staged(second)).toEqual([]);
  });

  it('a failed export is logged and nothing is kept', async () => {
    const first = at('home-1', 'export');
    seed(first);
    const { store, result, logs } = await save(first);
    expect(result).toMatchObject({ saved: false, reason: 'export_failed' });
    expect(logs.join('\n')).toContain('not saved: the session could not be exported:');
    expect(logs.join('\n')).toContain(
      '`session-db-agent export ses_de3e8343effePd4YPDeHvBo5Pm --pure` exited with 1: Error: export refused',
    );
    expect(store.saved).toEqual([]);
  });

  it('an export of a session that is not there, or that prints no JSON or another session, is a failed export', async () => {
    const missing = at('home-missing');
    expect((await save(missing)).result).toMatchObject({
      reason: 'export_failed',
      message: expect.stringContaining('Session not found'),
    });
    for (const fail of ['garbage', 'other']) {
      const location = at(`home-${fail}`, fail);
      seed(location);
      const { result } = await save(location);
      expect(result).toMatchObject({ saved: false, reason: 'export_failed' });
      expect(staged(location)).toEqual([]);
    }
  });

  it('an executable that is not there is a failed export, as is one that does not end in time', async () => {
    const gone = { ...at('home-gone'), command: join(scratch, 'no-such-agent') };
    expect((await save(gone)).result).toMatchObject({ saved: false, reason: 'export_failed' });
    const slow = exportedSessionFiles({
      program: 'session-db-agent',
      exportArgs: (id) => ['export', id],
      importArgs: (path) => ['import', path],
      isSession: () => true,
      timeoutMs: 300,
    });
    const hanging = at('home-hang', 'hang');
    const error = await slow.exportSession?.(hanging, ID).catch((e: unknown) => e);
    expect(SessionCommandError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'session_export_failed',
      message: expect.stringContaining('timed out after 300 ms'),
    });
  });

  it('the export goes through the secret check and the size limit, and is not left behind', async () => {
    const leaky = at('home-leaky');
    seed(leaky, `the token is ${TOKEN}`);
    expect((await save(leaky)).result).toMatchObject({ saved: false, reason: 'secret', files: [`${ID}.json`] });
    expect(staged(leaky)).toEqual([]);
    const big = at('home-big');
    seed(big, 'x'.repeat(2000));
    expect((await save(big, { maxBytes: 1000 })).result).toMatchObject({ saved: false, reason: 'too_large' });
    expect(staged(big)).toEqual([]);
  });

  it('a failed import is logged and the run starts fresh (a summary instead)', async () => {
    const first = at('home-1');
    seed(first);
    const { store } = await save(first);
    const second = at('home-2', 'import');
    const logs: string[] = [];
    const restored = await restoreConversation({
      store,
      key: KEY,
      adapter: 'opencode',
      declaration,
      location: second,
      log: (line) => logs.push(line),
    });
    expect(restored).toBeUndefined();
    expect(logs.join('\n')).toContain('its session could not be imported; starting fresh:');
    expect(logs.join('\n')).toContain('exited with 1: Error: import refused');
    expect(existsSync(dbOf(second))).toBe(false);
    expect(staged(second)).toEqual([]);
  });

  it('runs the export and the import in the run’s fence, as the agent ran', async () => {
    const log = join(scratch, 'bwrap.log');
    const fenced = (name: string): SessionLocation => {
      const location = at(name);
      const fence = { kind: 'filesystem' as const, bwrap: FAKE_BWRAP, home: location.home };
      return { ...location, env: { ...location.env, FAKE_BWRAP_LOG: log }, fence };
    };
    const { first, second } = await roundTrip(fenced);
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string[]);
    expect(calls.map((args) => args.slice(args.lastIndexOf('--chdir') + 2))).toEqual([
      [AGENT, 'export', ID, '--pure'],
      [AGENT, 'import', join(declaration.root(second), `${ID}.json`), '--pure'],
    ]);
    // The agent's HOME (where the export is staged) and its directory are what the fence shows.
    expect(calls[0]?.join(' ')).toContain(`--bind ${first.home} ${first.home}`);
    expect(calls[1]?.join(' ')).toContain(`--bind ${second.cwd} ${second.cwd}`);
    expect(calls[1]?.join(' ')).toContain(`--chdir ${second.cwd}`);
  });

  it('carries the session through a real bubblewrap fence (the app’s default)', async () => {
    // Inside the fence only the system, the run's HOME and directory, the agent's executable and the
    // paths bound read-only are there: here the Node.js that runs the fixture agent.
    const readOnly = [dirname(dirname(process.execPath))];
    const fenced = (name: string): SessionLocation => {
      const location = at(name);
      const env = { ...location.env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
      return { ...location, env, fence: { kind: 'filesystem' as const, home: location.home, readOnly } };
    };
    const { second } = await roundTrip(fenced);
    const db = JSON.parse(readFileSync(dbOf(second), 'utf8')) as Record<string, { messages: string[] }>;
    expect(Object.keys(db)).toEqual([ID]);
    expect(db[ID]?.messages).toEqual(['Remember the number 42.']);
    expect(staged(second)).toEqual([]);
  });

  it('is declared for OpenCode and Kilo, headless and over ACP, run as the adapter’s executable', () => {
    const location = sessionLocation(undefined, { HOME: scratch }, '/work', '/opt/bin/opencode');
    expect(location).toEqual({ home: scratch, env: { HOME: scratch }, cwd: '/work', command: '/opt/bin/opencode' });
    const fence = { kind: 'filesystem' as const, home: join(scratch, 'run-home') };
    expect(sessionLocation(fence, { HOME: scratch }, '/work', 'opencode')).toMatchObject({ home: fence.home, fence });
    for (const [adapter, program] of [
      ['opencode', 'opencode'],
      ['opencode-acp', 'opencode'],
      ['kilo', 'kilo'],
      ['kilo-acp', 'kilo'],
    ] as const) {
      const found = sessionFilesFor(adapter);
      expect(found?.exportSession, adapter).toBeTypeOf('function');
      expect(found?.root(location)).toBe(join(scratch, '.agent-mux', 'session-exports', program));
    }
  });
});
