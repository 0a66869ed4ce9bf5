import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeAcpAdapter } from '../../../src/adapters/agents/claude/claude-acp.ts';
import { claudeProjectSlug } from '../../../src/adapters/agents/claude/claude-session-files.ts';
import { ompSessionDirName } from '../../../src/adapters/agents/omp/omp-session-files.ts';
import { createBuiltinRegistry } from '../../../src/adapters/builtin-registry.ts';
import type { SessionLocation } from '../../../src/core/adapter/session-files.ts';
import { sessionFilesFor } from '../../../src/github/conversation/session-file-declarations.ts';

// The layouts are those the real CLIs wrote in a live run (claude 2.1.330, codex 0.169.0,
// gemini 0.61.0; docs/conversations.md), other sessions' files beside them.
let home: string;
const put = (path: string, content = '{}\n') => {
  mkdirSync(dirname(join(home, path)), { recursive: true });
  writeFileSync(join(home, path), content);
};
const location = (env: Record<string, string> = {}): SessionLocation => ({
  home,
  env,
  cwd: '/tmp/agent-mux-live-claude-ws-lfNR7Z',
});

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'session-files-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('session-file declarations', () => {
  it('claude: the transcript under the cwd slug and the session directory, nothing of other sessions', async () => {
    const id = 'c4fc9a42-7312-4288-a732-06ae16937052';
    expect(claudeProjectSlug('/tmp/agent-mux-live-claude-ws-lfNR7Z')).toBe('-tmp-agent-mux-live-claude-ws-lfNR7Z');
    expect(claudeProjectSlug('/home/runner/work/my.repo/my.repo')).toBe('-home-runner-work-my-repo-my-repo');
    put(`.claude/projects/-tmp-agent-mux-live-claude-ws-lfNR7Z/${id}.jsonl`);
    put(`.claude/projects/-tmp-agent-mux-live-claude-ws-lfNR7Z/${id}/subagents/agent-1.jsonl`);
    put('.claude/projects/-tmp-agent-mux-live-claude-ws-lfNR7Z/other.jsonl');
    put('.claude.json');
    const claude = sessionFilesFor('claude');
    expect(claude?.root(location())).toBe(join(home, '.claude'));
    expect(await claude?.find(location(), id)).toEqual([
      `projects/-tmp-agent-mux-live-claude-ws-lfNR7Z/${id}.jsonl`,
      `projects/-tmp-agent-mux-live-claude-ws-lfNR7Z/${id}/subagents/agent-1.jsonl`,
    ]);
    expect(await claude?.find(location(), 'missing')).toEqual([]);
    expect(claude?.root(location({ CLAUDE_CONFIG_DIR: '/cfg' }))).toBe('/cfg');
  });

  it('codex: the rollout of the session id under sessions/YYYY/MM/DD, not its SQLite state', async () => {
    const id = '01a20de9-33dd-7ae2-85ae-2fd50b2b15f1';
    put(`.codex/sessions/2026/11/24/rollout-2026-11-24T14-15-16-${id}.jsonl`);
    put('.codex/sessions/2026/11/24/rollout-2026-11-24T14-15-17-01a20de9-33dd-7ae2-85ae-000000000000.jsonl');
    put('.codex/state_5.sqlite');
    const codex = sessionFilesFor('codex');
    expect(await codex?.find(location(), id)).toEqual([`sessions/2026/11/24/rollout-2026-11-24T14-15-16-${id}.jsonl`]);
    expect(codex?.root(location({ CODEX_HOME: '/codex' }))).toBe('/codex');
  });

  it("gemini: the chat whose first record names the session, and its project's root markers", async () => {
    const id = '00835ed1-1e70-44d0-a7fd-90eae1bf71ad';
    const first = (sessionId: string) =>
      `${JSON.stringify({ sessionId, projectHash: 'ace0', kind: 'main' })}\n{"$set":{}}\n`;
    put('.gemini/tmp/ws/chats/session-2026-11-24T14-15-00835ed1.jsonl', first(id));
    put('.gemini/tmp/ws/chats/session-2026-11-24T14-16-00835ed1.jsonl', first('00835ed1-0000-0000-0000-000000000000'));
    put('.gemini/tmp/ws/.project_root', '/tmp/ws');
    put('.gemini/history/ws/.project_root', '/tmp/ws');
    put('.gemini/settings.json');
    expect(await sessionFilesFor('gemini')?.find(location(), id)).toEqual([
      'history/ws/.project_root',
      'tmp/ws/.project_root',
      'tmp/ws/chats/session-2026-11-24T14-15-00835ed1.jsonl',
    ]);
  });

  it('omp: the session under its directory name (relative to HOME, to the temp directory, or absolute)', async () => {
    // As 18.2.3 named them in live runs (`-tmp-x-omp-ws-n3wP3l`) and in its session-paths.ts.
    expect(ompSessionDirName('/tmp/x-omp-ws-n3wP3l', '/home/runner', '/tmp')).toBe('-tmp-x-omp-ws-n3wP3l');
    expect(ompSessionDirName('/home/runner/work/my.repo/my.repo', '/home/runner', '/tmp')).toBe(
      '-work-my.repo-my.repo',
    );
    expect(ompSessionDirName('/home/runner', '/home/runner', '/tmp')).toBe('-');
    expect(ompSessionDirName('/tmp', '/home/runner', '/tmp')).toBe('-tmp');
    expect(ompSessionDirName('/srv/agent-mux/work/run-1', '/home/runner', '/tmp')).toBe('--srv-agent-mux-work-run-1--');
    const id = '01a21c25-b8ed-7000-b07e-60e4632809a6';
    const cwd = '/srv/agent-mux/work/run-1';
    put(`.omp/agent/sessions/--srv-agent-mux-work-run-1--/2026-11-27T08-36-03-949Z_${id}.jsonl`);
    put('.omp/agent/sessions/--srv-agent-mux-work-run-1--/2026-11-27T08-37-03-949Z_01a21c25-0000.jsonl');
    put('.omp/agent/agent.db');
    const omp = sessionFilesFor('omp');
    const at = { home, env: {}, cwd };
    expect(omp?.root(at)).toBe(join(home, '.omp', 'agent'));
    expect(await omp?.find(at, id)).toEqual([
      `sessions/--srv-agent-mux-work-run-1--/2026-11-27T08-36-03-949Z_${id}.jsonl`,
    ]);
    // A directory named after a temporary directory the run's environment does not name (omp saw
    // another TMPDIR): found by the session id (CI: the live resume test found nothing).
    const elsewhere = '01a21c25-1111-4000-8000-000000000000';
    put(`.omp/agent/sessions/-tmp-run-1/2026-11-27T09-00-00-000Z_${elsewhere}.jsonl`);
    expect(await omp?.find(at, elsewhere)).toEqual([`sessions/-tmp-run-1/2026-11-27T09-00-00-000Z_${elsewhere}.jsonl`]);
    expect(await omp?.find(at, '01a21c25-2222')).toEqual([]);
    expect(omp?.root({ ...at, env: { PI_CODING_AGENT_DIR: '/agent' } })).toBe('/agent');
    // $XDG_DATA_HOME/omp once it exists (`omp config init-xdg`).
    expect(omp?.root({ ...at, env: { XDG_DATA_HOME: join(home, 'data') } })).toBe(join(home, '.omp', 'agent'));
    mkdirSync(join(home, 'data', 'omp'), { recursive: true });
    expect(omp?.root({ ...at, env: { XDG_DATA_HOME: join(home, 'data') } })).toBe(join(home, 'data', 'omp'));
    // Its session does not move to another directory (omp works in the one its header names).
    expect(
      omp?.relocate?.(`sessions/--srv-agent-mux-work-run-1--/x_${id}.jsonl`, cwd, { ...at, cwd: '/srv/b' }),
    ).toBeUndefined();
  });

  it('each agent declares its sessions in its own folder; its ACP mode carries the same ones', () => {
    const declared = createBuiltinRegistry()
      .list()
      .filter((adapter) => adapter.sessionFiles !== undefined)
      .map((adapter) => adapter.id);
    expect(declared).toEqual([
      'claude',
      'codex',
      'codex-acp',
      'gemini',
      'gemini-acp',
      'kilo',
      'kilo-acp',
      'omp',
      'omp-acp',
      'opencode',
      'opencode-acp',
      'pi',
      'qwen',
      'qwen-acp',
    ]);
    for (const [acp, cli] of [
      ['codex-acp', 'codex'],
      ['gemini-acp', 'gemini'],
      ['qwen-acp', 'qwen'],
      ['omp-acp', 'omp'],
    ] as const) {
      expect(sessionFilesFor(acp)).toBe(sessionFilesFor(cli));
    }
    expect(claudeAcpAdapter().sessionFiles).toBe(sessionFilesFor('claude'));
    // OpenCode and Kilo: one export-based declaration each, for their own program.
    expect(sessionFilesFor('kilo')).not.toBe(sessionFilesFor('opencode'));
  });

  it('has no declaration for an adapter whose sessions were not checked', () => {
    expect(sessionFilesFor('hermes')).toBeUndefined();
    expect(sessionFilesFor('toString')).toBeUndefined();
  });
});
