import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeProjectSlug } from '../../../src/adapters/agents/claude/claude-session-files.ts';
import { piProjectDir } from '../../../src/adapters/agents/pi/pi-session-files.ts';
import type { SessionFileDeclaration, SessionLocation } from '../../../src/core/adapter/session-files.ts';
import { Redactor } from '../../../src/core/redact/redactor.ts';
import type { ConversationKey } from '../../../src/github/conversation/conversation-state.ts';
import { restoreConversation } from '../../../src/github/conversation/restore-conversation.ts';
import { saveConversation } from '../../../src/github/conversation/save-conversation.ts';
import { sessionFilesFor } from '../../../src/github/conversation/session-file-declarations.ts';
import { createMemoryConversationStore } from '../../support/memory-conversation-store.ts';

// The app clones each run into a directory of its own (`<workDir>/<runId>`), so a follow-up turn
// runs in another working directory than the one its session was saved from.
const KEY: ConversationKey = { repository: 'octo/demo', number: 3, agent: 'claude' };
const FIRST = '/srv/agent-mux/work/run-1111';
const SECOND = '/srv/agent-mux/work/run-2222';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'restore-conversation-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const put = (root: string, path: string, content: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
};
const at = (name: string, cwd: string): SessionLocation => ({ home: join(scratch, name), env: {}, cwd });

async function saved(
  declaration: SessionFileDeclaration,
  adapter: string,
  sessionId: string,
  location: SessionLocation,
) {
  const store = createMemoryConversationStore();
  const result = await saveConversation({
    store,
    key: KEY,
    state: { agent: 'claude', adapter, sessionId, turns: 1, updatedAt: new Date().toISOString() },
    declaration,
    location,
    redactor: new Redactor(['ghs_secret-token-value-0000']),
  });
  expect(result.saved).toBe(true);
  return store;
}

describe('restoreConversation in another working directory', () => {
  it('claude: the transcript and its session directory move to the new directory’s project', async () => {
    const claude = sessionFilesFor('claude') as SessionFileDeclaration;
    const id = 'c4fc9a42-7312-4288-a732-06ae16937052';
    const first = at('home-1', FIRST);
    const project = `projects/${claudeProjectSlug(FIRST)}`;
    put(join(first.home, '.claude'), `${project}/${id}.jsonl`, '{"cwd":"x"}\n');
    put(join(first.home, '.claude'), `${project}/${id}/tool-results/out.txt`, 'output');
    const store = await saved(claude, 'claude', id, first);
    expect(store.saved[0]?.conversation.state.cwd).toBe(FIRST);

    const second = at('home-2', SECOND);
    const logs: string[] = [];
    const state = await restoreConversation({
      store,
      key: KEY,
      adapter: 'claude',
      declaration: claude,
      location: second,
      log: (line) => logs.push(line),
    });
    expect(state?.sessionId, logs.join('\n')).toBe(id);
    const moved = join(second.home, '.claude', 'projects', claudeProjectSlug(SECOND));
    expect(readFileSync(join(moved, `${id}.jsonl`), 'utf8')).toBe('{"cwd":"x"}\n');
    expect(readFileSync(join(moved, id, 'tool-results', 'out.txt'), 'utf8')).toBe('output');
    // Claude Code looks under the current directory's slug only: nothing is left under the old one.
    expect(existsSync(join(second.home, '.claude', project))).toBe(false);
    // And the agent finds it there, as it would in a fresh run of that directory.
    expect(await claude.find(second, id)).toEqual([
      `projects/${claudeProjectSlug(SECOND)}/${id}.jsonl`,
      `projects/${claudeProjectSlug(SECOND)}/${id}/tool-results/out.txt`,
    ]);
  });

  it('codex: rollouts do not depend on the directory and are restored as they were', async () => {
    const codex = sessionFilesFor('codex') as SessionFileDeclaration;
    const id = '019a0000-aaaa-7bbb-8ccc-000000000001';
    const first = at('home-1', FIRST);
    const rollout = `sessions/2026/11/25/rollout-2026-11-25T03-00-00-${id}.jsonl`;
    put(join(first.home, '.codex'), rollout, '{"type":"session_meta"}\n');
    const store = await saved(codex, 'codex', id, first);
    const second = at('home-2', SECOND);
    const state = await restoreConversation({
      store,
      key: KEY,
      adapter: 'codex',
      declaration: codex,
      location: second,
    });
    expect(state?.sessionId).toBe(id);
    expect(readFileSync(join(second.home, '.codex', rollout), 'utf8')).toBe('{"type":"session_meta"}\n');
  });

  it('gemini: a chat tied to another directory is not restored; the run starts fresh and says why', async () => {
    const gemini = sessionFilesFor('gemini') as SessionFileDeclaration;
    const id = '5b1e34b8-0c3f-4c7a-9d6e-0123456789ab';
    const first = at('home-1', FIRST);
    put(
      join(first.home, '.gemini'),
      `tmp/run-1111/chats/session-2026-11-25T03-00-${id.slice(0, 8)}.jsonl`,
      `{"sessionId":"${id}"}\n`,
    );
    put(join(first.home, '.gemini'), 'tmp/run-1111/.project_root', FIRST);
    const store = await saved(gemini, 'gemini', id, first);
    const logs: string[] = [];
    const second = at('home-2', SECOND);
    const state = await restoreConversation({
      store,
      key: KEY,
      adapter: 'gemini',
      declaration: gemini,
      location: second,
      log: (line) => logs.push(line),
    });
    expect(state).toBeUndefined();
    expect(logs.join('\n')).toContain(`its session belongs to ${FIRST}`);
    expect(existsSync(join(second.home, '.gemini'))).toBe(false);
    // In the same directory (an Actions runner's workspace path) it is restored.
    const again = await restoreConversation({
      store,
      key: KEY,
      adapter: 'gemini',
      declaration: gemini,
      location: at('home-3', FIRST),
    });
    expect(again?.sessionId).toBe(id);
  });
});

describe('qwen sessions', () => {
  it('are found under the directory’s project and restored in place, but not moved to another directory', async () => {
    const qwen = sessionFilesFor('qwen-acp') as SessionFileDeclaration;
    const id = '8a46b8b2-0fe0-4e80-a1ac-c44c1460a852';
    const first = at('home-1', FIRST);
    const chat = `projects/${claudeProjectSlug(FIRST)}/chats/${id}.jsonl`;
    put(join(first.home, '.qwen'), chat, `{"sessionId":"${id}","cwd":"${FIRST}"}\n`);
    put(join(first.home, '.qwen'), `projects/${claudeProjectSlug(FIRST)}/meta.json`, '{}');
    expect(await qwen.find(first, id)).toEqual([chat]);
    const store = await saved(qwen, 'qwen-acp', id, first);
    const moved = await restoreConversation({
      store,
      key: KEY,
      adapter: 'qwen-acp',
      declaration: qwen,
      location: at('home-2', SECOND),
    });
    expect(moved).toBeUndefined();
    const same = at('home-3', FIRST);
    expect(
      (await restoreConversation({ store, key: KEY, adapter: 'qwen-acp', declaration: qwen, location: same }))
        ?.sessionId,
    ).toBe(id);
    expect(readFileSync(join(same.home, '.qwen', chat), 'utf8')).toContain(id);
  });
});

describe('pi sessions', () => {
  it('are found by id under the directory’s project and move with the directory', async () => {
    const pi = sessionFilesFor('pi') as SessionFileDeclaration;
    const id = '01a21101-0c25-72b7-b261-ac05120f7258';
    const first = at('home-1', FIRST);
    expect(piProjectDir(FIRST)).toBe('--srv-agent-mux-work-run-1111--');
    const file = `sessions/${piProjectDir(FIRST)}/2026-11-25T04-40-11-046Z_${id}.jsonl`;
    put(join(first.home, '.pi', 'agent'), file, '{"type":"session"}\n');
    put(
      join(first.home, '.pi', 'agent'),
      `sessions/${piProjectDir(FIRST)}/2026-11-25T04-00-00-000Z_other.jsonl`,
      '{}\n',
    );
    expect(await pi.find(first, id)).toEqual([file]);
    const store = await saved(pi, 'pi', id, first);
    const second = at('home-2', SECOND);
    expect(
      (await restoreConversation({ store, key: KEY, adapter: 'pi', declaration: pi, location: second }))?.sessionId,
    ).toBe(id);
    expect(await pi.find(second, id)).toEqual([
      `sessions/${piProjectDir(SECOND)}/2026-11-25T04-40-11-046Z_${id}.jsonl`,
    ]);
  });
});
