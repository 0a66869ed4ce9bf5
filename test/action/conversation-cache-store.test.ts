import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActionsCacheConversationStore } from '../../src/action/conversation-cache-store.ts';
import type { SessionFileDeclaration, SessionLocation } from '../../src/core/adapter/session-files.ts';
import { Redactor } from '../../src/core/redact/redactor.ts';
import type { ConversationKey, ConversationState } from '../../src/github/conversation/conversation-state.ts';
import { ConversationStoreError } from '../../src/github/conversation/conversation-store-error.ts';
import { restoreConversation } from '../../src/github/conversation/restore-conversation.ts';
import { saveConversation } from '../../src/github/conversation/save-conversation.ts';
import { sessionFilesFor } from '../../src/github/conversation/session-file-declarations.ts';
import { type FakeActionsCache, startFakeActionsCache } from '../support/fake-actions-cache/fake-actions-cache.ts';

// End to end through the real @actions/cache and the stand-in cache service: a turn's session is
// saved on one "runner", and restored on a fresh one (another HOME, same workspace path).
const token = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
const key: ConversationKey = { repository: 'octo/hello', number: 42, agent: 'claude' };
const sessionId = 'c4fc9a42-7312-4288-a732-06ae16937052';
const cwd = '/home/runner/work/hello/hello';
const transcript = `projects/-home-runner-work-hello-hello/${sessionId}.jsonl`;
const claude = sessionFilesFor('claude') as SessionFileDeclaration;

let cache: FakeActionsCache;
let root: string;
let logs: string[];
const freshHome = (name: string): SessionLocation => {
  const home = join(root, name);
  mkdirSync(home);
  return { home, env: {}, cwd };
};
const writeSession = (location: SessionLocation, content: string) => {
  const path = join(location.home, '.claude', transcript);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
};
const state = (turns: number, updatedAt = new Date().toISOString()): ConversationState => ({
  agent: 'claude',
  adapter: 'claude',
  sessionId,
  branch: 'agent-mux/issue-42',
  turns,
  updatedAt,
});

beforeEach(async () => {
  cache = await startFakeActionsCache();
  root = mkdtempSync(join(tmpdir(), 'conversation-cache-'));
  mkdirSync(join(root, 'runner-temp'));
  mkdirSync(join(root, 'workspace'));
  for (const [name, value] of Object.entries(cache.env)) vi.stubEnv(name, value);
  vi.stubEnv('RUNNER_TEMP', join(root, 'runner-temp'));
  vi.stubEnv('GITHUB_WORKSPACE', join(root, 'workspace'));
  logs = [];
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await cache.close();
  rmSync(root, { recursive: true, force: true });
});

const store = () => createActionsCacheConversationStore();
const save = (location: SessionLocation, s: ConversationState, maxBytes?: number) =>
  saveConversation({
    store: store(),
    key,
    state: s,
    declaration: claude,
    location,
    redactor: new Redactor([token]),
    maxBytes,
    log: (line) => logs.push(line),
  });
const restore = (location: SessionLocation, now?: Date) =>
  restoreConversation({
    store: store(),
    key,
    adapter: 'claude',
    declaration: claude,
    location,
    now,
    log: (l) => logs.push(l),
  });

describe('conversations in the Actions cache', () => {
  it("saves a turn's session and restores it into a fresh HOME, newest turn first", async () => {
    const first = freshHome('runner-1');
    writeSession(first, '{"turn":1}\n');
    expect(await save(first, state(1, '2026-01-01T00:00:00.000Z'))).toEqual({ saved: true, bytes: 11, files: 1 });
    writeSession(first, '{"turn":1}\n{"turn":2}\n');
    expect(await save(first, state(2, '2026-01-02T00:00:00.000Z'))).toMatchObject({ saved: true });

    const second = freshHome('runner-2');
    const restored = await restore(second, new Date('2026-01-03T00:00:00.000Z'));
    expect(restored).toMatchObject({ sessionId, turns: 2, branch: 'agent-mux/issue-42' });
    expect(readFileSync(join(second.home, '.claude', transcript), 'utf8')).toBe('{"turn":1}\n{"turn":2}\n');
    expect(cache.state.entries.map((e) => e.key)).toEqual([
      `agent-mux-conversation-v1/octo/hello/42/claude/1-${Date.parse('2026-01-01T00:00:00.000Z')}`,
      `agent-mux-conversation-v1/octo/hello/42/claude/2-${Date.parse('2026-01-02T00:00:00.000Z')}`,
    ]);
    expect(cache.violations).toEqual([]);
  });

  it('starts fresh for another issue, an expired conversation or another adapter', async () => {
    const first = freshHome('runner-1');
    writeSession(first, '{"turn":1}\n');
    await save(first, state(1, '2026-01-01T00:00:00.000Z'));
    const other = { ...key, number: 4 };
    expect(await store().load(other)).toBeUndefined();
    expect(await restore(freshHome('late'), new Date('2026-01-20T00:00:00.000Z'))).toBeUndefined();
    expect(logs.at(-1)).toMatch(/too old; starting fresh/);
    const codex = await restoreConversation({
      store: store(),
      key,
      adapter: 'codex',
      declaration: claude,
      location: freshHome('codex'),
      now: new Date('2026-01-02T00:00:00.000Z'),
    });
    expect(codex).toBeUndefined();
  });

  it('does not save a session holding the token, and says so', async () => {
    const first = freshHome('runner-1');
    writeSession(first, `{"tool_result":"GITHUB_TOKEN=${token}"}\n`);
    expect(await save(first, state(1))).toMatchObject({ saved: false, reason: 'secret', files: [transcript] });
    expect(logs).toEqual([
      `conversation octo/hello#42 (claude): not saved: a secret is in the session's files (${transcript})`,
    ]);
    expect(cache.requests).toEqual([]);
  });

  it('does not save a session over the size limit, and says so', async () => {
    const first = freshHome('runner-1');
    writeSession(first, 'x'.repeat(4096));
    expect(await save(first, state(1), 1024)).toMatchObject({ saved: false, reason: 'too_large', bytes: 4096 });
    expect(logs[0]).toMatch(/not saved: the session's files are 4096 bytes, over the limit of 1024/);
    expect(cache.requests).toEqual([]);
  });

  it('throws a ConversationStoreError when the cache refuses the entry', async () => {
    const first = freshHome('runner-1');
    writeSession(first, '{"turn":1}\n');
    const s = state(1);
    await save(first, s);
    const again = save(first, s);
    await expect(again).rejects.toSatisfy(ConversationStoreError.isInstance);
  });

  it('leaves nothing in the staging directory or the workspace', async () => {
    const first = freshHome('runner-1');
    writeSession(first, '{"turn":1}\n');
    await save(first, state(1));
    await restore(freshHome('runner-2'));
    expect(readdirSync(join(root, 'runner-temp')).filter((n) => n.startsWith('agent-mux'))).toEqual([]);
    expect(readdirSync(join(root, 'workspace'))).toEqual([]);
  });
});
