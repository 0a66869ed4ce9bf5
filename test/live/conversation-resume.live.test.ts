import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActionsCacheConversationStore } from '../../src/action/conversation-cache-store.ts';
import { Redactor } from '../../src/core/redact/redactor.ts';
import type { ConversationKey } from '../../src/github/conversation/conversation-state.ts';
import { restoreConversation } from '../../src/github/conversation/restore-conversation.ts';
import { saveConversation } from '../../src/github/conversation/save-conversation.ts';
import { sessionFilesFor } from '../../src/github/conversation/session-file-declarations.ts';
import { type FakeActionsCache, startFakeActionsCache } from '../support/fake-actions-cache/fake-actions-cache.ts';
import { installCli } from './cli-cache.ts';
import { startFakeModelServer } from './fake-model-server.ts';
import { loadSpecs } from './load-specs.ts';
import { oneTurn } from './run-live-case.ts';

// A conversation's second turn on a fresh runner: the real CLI runs the first turn, its session is
// saved through the Action's conversation store into the cache stand-in (via the real
// @actions/cache), HOME is replaced by an empty one, the session is restored, and the second turn
// resumes it: the model's second request must carry the first turn's messages.
const AGENTS = ['claude', 'codex', 'gemini'];
const only = process.env.AGENT_MUX_LIVE_ONLY?.split(',').filter(Boolean);
const specs = await loadSpecs(AGENTS.filter((a) => !only?.length || only.includes(a)));
const githubToken = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';

let cache: FakeActionsCache;
let root: string;
beforeAll(async () => {
  cache = await startFakeActionsCache();
  root = mkdtempSync(join(tmpdir(), 'agent-mux-live-conversation-'));
  mkdirSync(join(root, 'runner-temp'));
  for (const [name, value] of Object.entries(cache.env)) vi.stubEnv(name, value);
  vi.stubEnv('RUNNER_TEMP', join(root, 'runner-temp'));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await cache?.close();
  for (const dir of [root, ...homes]) rmSync(dir, { recursive: true, force: true });
});

/** A fresh HOME where the live suite keeps them (Codex will not run from one under /tmp). */
const homes: string[] = [];
function freshHome(agent: string): string {
  const base = join(homedir(), '.cache', 'agent-mux', 'live-homes');
  mkdirSync(base, { recursive: true });
  const home = mkdtempSync(join(base, `agent-mux-conversation-${agent}-home-`));
  homes.push(home);
  return home;
}

for (const spec of specs) {
  describe(`${spec.adapter} conversation across runners`, () => {
    it('resumes the first turn in a fresh HOME from the Actions cache', async () => {
      const bin = await installCli(spec);
      const liveCase = spec.cases.resume;
      if (!liveCase || 'skip' in liveCase || !spec.resumeRequest) throw new Error('no resume case');
      const declaration = sessionFilesFor(spec.adapter);
      if (!declaration) throw new Error(`no session-file declaration for ${spec.adapter}`);
      const server = await startFakeModelServer({ case: 'resume' });
      const workspace = mkdtempSync(join(tmpdir(), `agent-mux-conversation-${spec.adapter}-ws-`));
      writeFileSync(join(workspace, 'README.md'), '# Live test workspace\n');
      vi.stubEnv('GITHUB_WORKSPACE', workspace);
      const key: ConversationKey = { repository: 'octo/hello', number: 16, agent: spec.adapter };
      const store = createActionsCacheConversationStore();
      const logs: string[] = [];
      try {
        const home1 = freshHome(spec.adapter);
        const first = await oneTurn(spec, 'plain', bin, liveCase, { workspace, home: home1 }, server);
        expect(first.end.reason).toBe('completed');
        const sessionId = first.end.sessionId ?? '';
        expect(sessionId).not.toBe('');
        const setupEnv = (await spec.setup({ baseUrl: server.url, home: home1, workspace, bin, case: 'plain' })).env;

        let started = performance.now();
        const saved = await saveConversation({
          store,
          key,
          state: {
            agent: spec.adapter,
            adapter: spec.adapter,
            sessionId,
            turns: 1,
            updatedAt: new Date().toISOString(),
          },
          declaration,
          location: { home: home1, env: {}, cwd: workspace },
          redactor: new Redactor([githubToken, ...Object.values(setupEnv)]),
          log: (line) => logs.push(line),
        });
        const saveMs = performance.now() - started;
        expect(saved, logs.join('\n')).toMatchObject({ saved: true });

        // Without the restore, a fresh HOME cannot resume: the session lives only in the cache.
        const bare = await oneTurn(
          spec,
          'resume',
          bin,
          liveCase,
          { workspace, home: freshHome(spec.adapter) },
          server,
          spec.resumeRequest(sessionId),
        );
        expect(bare.end.reason).not.toBe('completed');

        const home2 = freshHome(spec.adapter);
        started = performance.now();
        const restored = await restoreConversation({
          store,
          key,
          adapter: spec.adapter,
          declaration,
          location: { home: home2, env: {}, cwd: workspace },
          log: (line) => logs.push(line),
        });
        const restoreMs = performance.now() - started;
        expect(restored?.sessionId).toBe(sessionId);

        const before = server.requests.length;
        const second = await oneTurn(
          spec,
          'resume',
          bin,
          liveCase,
          { workspace, home: home2 },
          server,
          spec.resumeRequest(sessionId),
        );
        expect(second.end.reason, second.stderr.slice(-2000)).toBe('completed');
        const modelRequests = server.requests
          .slice(before)
          .filter((r) => r.reply !== 'other' && r.reply !== 'not-found');
        const last = JSON.stringify(modelRequests.at(-1)?.body);
        expect(last).toContain(liveCase.prompt);
        expect(last).toContain('What number did I ask you to remember?');
        console.log(
          `${spec.adapter}: session ${sessionId}: ${saved.saved ? `${saved.files} files, ${saved.bytes} bytes` : ''}; save ${Math.round(saveMs)} ms, restore ${Math.round(restoreMs)} ms`,
        );
        expect(cache.violations).toEqual([]);
      } finally {
        await server.close();
        rmSync(workspace, { recursive: true, force: true });
      }
    });
  });
}
