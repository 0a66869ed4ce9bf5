import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeProjectSlug, claudeSessionFiles } from '../../../src/adapters/agents/claude/claude-session-files.ts';
import { codexSessionFiles } from '../../../src/adapters/agents/codex/codex-session-files.ts';
import { geminiSessionFiles } from '../../../src/adapters/agents/gemini/gemini-session-files.ts';
import { qwenSessionFiles } from '../../../src/adapters/agents/qwen/qwen-session-files.ts';
import type { SessionLocation } from '../../../src/core/adapter/session-files.ts';
import { Redactor } from '../../../src/core/redact/redactor.ts';
import type { StoredConversation } from '../../../src/github/conversation/conversation-store.ts';
import { readSessionSnapshot } from '../../../src/github/conversation/read-session-snapshot.ts';
import { saveConversation } from '../../../src/github/conversation/save-conversation.ts';
import { createMemoryConversationStore } from '../../support/memory-conversation-store.ts';

/**
 * Issue 32, Critical: inside the fence the agent replaces its session files with links to the
 * host's secrets; agent-mux saves the session outside the fence and must not follow them.
 */
const HOST_SECRET = 'WEBHOOK_SECRET=host-only-value-7f3a9c';
const SESSION = 'abcdef12-3456-7890-abcd-ef1234567890';

let scratch: string;
let host: string;
let location: SessionLocation;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'agent-mux-links-'));
  host = join(scratch, 'app');
  mkdirSync(join(host, 'data', 'projects', 'x'), { recursive: true });
  writeFileSync(join(host, '.env'), `${HOST_SECRET}\n`);
  writeFileSync(join(host, 'data', 'projects', 'x', 'rows.jsonl'), '{"installation":2,"secret":"row"}\n');
  const home = join(scratch, 'run.home');
  mkdirSync(home);
  location = { home, env: {}, cwd: join(scratch, 'work') };
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const claudeProject = () => join(location.home, '.claude', 'projects', claudeProjectSlug(location.cwd));

async function save() {
  const store = createMemoryConversationStore();
  const key = { repository: 'o/r', number: 1, agent: 'claude' };
  const logs: string[] = [];
  const result = await saveConversation({
    store,
    key,
    state: { agent: 'claude', adapter: 'claude', sessionId: SESSION, turns: 1, updatedAt: new Date().toISOString() },
    declaration: claudeSessionFiles,
    location,
    redactor: new Redactor([]),
    log: (line) => logs.push(line),
  });
  const kept: StoredConversation | undefined = await store.load(key);
  const keptText = kept?.session.files.map((f) => f.content.toString('utf8')).join('\n') ?? '';
  return { result, kept, keptText, logs };
}

describe('saving a session never follows what the agent left', () => {
  it('a transcript replaced by a link to the app’s .env is not saved, and the .env is not read into the store', async () => {
    mkdirSync(claudeProject(), { recursive: true });
    symlinkSync(join(host, '.env'), join(claudeProject(), `${SESSION}.jsonl`));
    const { result, keptText } = await save();
    expect(result.saved).toBe(false);
    expect(keptText).not.toContain('host-only-value');
  });

  it('a session folder linked to the app’s data directory contributes nothing', async () => {
    mkdirSync(claudeProject(), { recursive: true });
    writeFileSync(join(claudeProject(), `${SESSION}.jsonl`), '{"type":"user"}\n');
    symlinkSync(join(host, 'data'), join(claudeProject(), SESSION));
    const { result, kept, keptText } = await save();
    expect(result).toMatchObject({ saved: true, files: 1 });
    expect(kept?.session.files.map((f) => f.path)).toEqual([
      join('projects', claudeProjectSlug(location.cwd), `${SESSION}.jsonl`),
    ]);
    expect(keptText).not.toContain('installation');
  });

  it('a linked file inside a real session folder is refused, and the whole session with it', async () => {
    mkdirSync(join(claudeProject(), SESSION), { recursive: true });
    writeFileSync(join(claudeProject(), `${SESSION}.jsonl`), '{"type":"user"}\n');
    symlinkSync(join(host, '.env'), join(claudeProject(), SESSION, 'tool-output.txt'));
    const { result, keptText } = await save();
    // A link under the folder is not a regular file: it is left out, never read.
    expect(keptText).not.toContain('host-only-value');
    expect(result.saved).toBe(true);
  });

  it('a ~/.claude that is itself a link to a directory the agent prepared elsewhere is refused', async () => {
    const elsewhere = join(host, 'data', 'claude');
    mkdirSync(join(elsewhere, 'projects', claudeProjectSlug(location.cwd)), { recursive: true });
    writeFileSync(join(elsewhere, 'projects', claudeProjectSlug(location.cwd), `${SESSION}.jsonl`), HOST_SECRET);
    symlinkSync(elsewhere, join(location.home, '.claude'));
    const { result, keptText, logs } = await save();
    expect(result).toMatchObject({ saved: false, reason: 'unsafe' });
    expect(keptText).toBe('');
    expect(logs.join('\n')).toMatch(/link/);
  });

  it('a projects directory linked elsewhere is refused even when the transcript under it is a regular file', async () => {
    const elsewhere = join(host, 'data', 'projects');
    mkdirSync(join(elsewhere, claudeProjectSlug(location.cwd)), { recursive: true });
    writeFileSync(join(elsewhere, claudeProjectSlug(location.cwd), `${SESSION}.jsonl`), HOST_SECRET);
    mkdirSync(join(location.home, '.claude'));
    symlinkSync(elsewhere, join(location.home, '.claude', 'projects'));
    const { result, keptText } = await save();
    expect(result.saved).toBe(false);
    expect(keptText).toBe('');
  });

  it('readSessionSnapshot refuses links, linked directories and FIFOs named to it directly, without blocking', async () => {
    const root = join(location.home, '.store');
    mkdirSync(join(root, 'real'), { recursive: true });
    writeFileSync(join(root, 'real', 'ok.jsonl'), 'ok\n');
    symlinkSync(join(host, '.env'), join(root, 'real', 'link.jsonl'));
    symlinkSync(join(host, 'data'), join(root, 'linked'));
    execFileSync('mkfifo', [join(root, 'real', 'fifo.jsonl')]);
    const read = (files: string[]) =>
      readSessionSnapshot({ root, files, anchor: location.home }, { redactor: new Redactor([]) });
    expect(await read(['real/ok.jsonl'])).toMatchObject({ ok: true });
    for (const bad of ['real/link.jsonl', 'linked/projects/x/rows.jsonl', 'real/fifo.jsonl']) {
      expect(await read(['real/ok.jsonl', bad])).toMatchObject({ ok: false, reason: 'unsafe', files: [bad] });
    }
  });

  it('no declaration finds a file through a link', async () => {
    // Codex: sessions/ linked to a directory holding a rollout-shaped file.
    const codexRoot = join(location.home, '.codex');
    mkdirSync(join(host, 'data', 'sessions'), { recursive: true });
    writeFileSync(join(host, 'data', 'sessions', `rollout-1-${SESSION}.jsonl`), HOST_SECRET);
    mkdirSync(codexRoot);
    symlinkSync(join(host, 'data', 'sessions'), join(codexRoot, 'sessions'));
    expect(await codexSessionFiles.find(location, SESSION)).toEqual([]);
    // Qwen: the chat itself a link.
    const qwenChats = join(location.home, '.qwen', 'projects', claudeProjectSlug(location.cwd), 'chats');
    mkdirSync(qwenChats, { recursive: true });
    symlinkSync(join(host, '.env'), join(qwenChats, `${SESSION}.jsonl`));
    expect(await qwenSessionFiles.find(location, SESSION)).toEqual([]);
    // Gemini: a chat file linked to the .env is neither opened nor listed.
    const geminiChats = join(location.home, '.gemini', 'tmp', 'proj', 'chats');
    mkdirSync(geminiChats, { recursive: true });
    symlinkSync(join(host, '.env'), join(geminiChats, `session-1-${SESSION.slice(0, 8)}.jsonl`));
    expect(await geminiSessionFiles.find(location, SESSION)).toEqual([]);
  });
});
