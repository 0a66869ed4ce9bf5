import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActionsCacheConversationStore } from '../../src/action/conversation-cache-store.ts';
import { createPostgresRunStore } from '../../src/app/store/postgres-run-store.ts';
import type { RunStore } from '../../src/app/store/run-store.ts';
import { Redactor } from '../../src/core/redact/redactor.ts';
import type { ConversationKey } from '../../src/github/conversation/conversation-state.ts';
import type { ConversationStore } from '../../src/github/conversation/conversation-store.ts';
import { restoreConversation } from '../../src/github/conversation/restore-conversation.ts';
import { saveConversation } from '../../src/github/conversation/save-conversation.ts';
import { DATABASE_URL, dropSchema, freshSchema, postgresReachable } from '../app-faults/fault-postgres.ts';
import { type FakeActionsCache, startFakeActionsCache } from '../support/fake-actions-cache/fake-actions-cache.ts';
import { installCli } from './cli-cache.ts';
import { startFakeModelServer } from './fake-model-server.ts';
import type { LiveSpec } from './live-spec.ts';
import { loadSpecs } from './load-specs.ts';
import { oneTurn } from './run-live-case.ts';

// A conversation's second turn on a fresh machine: the real CLI runs the first turn, its session is
// saved through a front end's conversation store, HOME is replaced by an empty one, the session is
// restored, and the second turn resumes it: the model's second request must carry the first turn's
// messages. Two stores: the Action's (the real @actions/cache against the cache stand-in; the
// workspace path is the same on every runner) and the app's (its run store on PostgreSQL; the
// second turn runs in another directory, as another replica's clone does).
const AGENTS = [
  'claude',
  'codex',
  'gemini',
  'qwen',
  'pi',
  'opencode',
  'kilo',
  'omp',
  'acp-claude',
  'acp-codex',
  'acp-qwen',
  'acp-opencode',
  'acp-kilo',
  'acp-omp',
];
/** The app's store moves sessions between directories: only for agents whose sessions can move. */
const APP_AGENTS = new Set([
  'claude',
  'codex',
  'pi',
  'opencode',
  'kilo',
  'acp-claude',
  'acp-codex',
  'acp-opencode',
  'acp-kilo',
]);
const only = process.env.AGENT_MUX_LIVE_ONLY?.split(',').filter(Boolean);
const specs = await loadSpecs(AGENTS.filter((a) => !only?.length || only.includes(a)));
const githubToken = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';

let cache: FakeActionsCache;
let root: string;
let appStore: RunStore | undefined;
let schema: string | undefined;
beforeAll(async () => {
  if (await postgresReachable()) {
    schema = freshSchema('agent_mux_live_conversations');
    appStore = createPostgresRunStore({ connectionString: DATABASE_URL, schema, maxConnections: 2 });
    await appStore.migrate();
  }
  cache = await startFakeActionsCache();
  root = mkdtempSync(join(tmpdir(), 'agent-mux-live-conversation-'));
  mkdirSync(join(root, 'runner-temp'));
  for (const [name, value] of Object.entries(cache.env)) vi.stubEnv(name, value);
  // A run's agent gets no PWD (not in BASE_AGENT_ENV); the live env copies this process's, and
  // OpenCode and Kilo take their project directory from it (it would be this repository).
  vi.stubEnv('PWD', undefined);
  vi.stubEnv('RUNNER_TEMP', join(root, 'runner-temp'));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await cache?.close();
  await appStore?.close();
  if (schema !== undefined) await dropSchema(schema);
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

/** A workspace as the live suite makes them. */
function freshWorkspace(agent: string): string {
  const workspace = mkdtempSync(join(tmpdir(), `agent-mux-conversation-${agent}-ws-`));
  writeFileSync(join(workspace, 'README.md'), '# Live test workspace\n');
  return workspace;
}

async function resumesAcross(
  spec: LiveSpec,
  front: { name: string; store: ConversationStore; checkCache: boolean; moves: boolean },
): Promise<void> {
  // An ACP spec drives its headless CLI (codex-acp runs Codex, claude-agent-acp Claude Code): installed first.
  if (spec.adapter.startsWith('acp-')) {
    const [headless] = await loadSpecs([spec.adapter.slice('acp-'.length)]);
    if (headless) await installCli(headless);
  }
  const bin = await installCli(spec);
  const liveCase = spec.cases.resume;
  if (!liveCase || 'skip' in liveCase || !spec.resumeRequest) throw new Error('no resume case');
  const adapter = spec.create();
  const adapterId = adapter.id;
  // As a run reads it: from the adapter it runs (claude-acp is no built-in, so no lookup by id finds it).
  const declaration = adapter.sessionFiles;
  if (!declaration) throw new Error(`no session-file declaration for ${adapterId}`);
  const server = await startFakeModelServer({ case: 'resume' });
  const workspace = freshWorkspace(spec.adapter);
  // The app clones each run into a directory of its own; on a runner the path stays the same.
  const secondWorkspace = front.moves ? freshWorkspace(spec.adapter) : workspace;
  vi.stubEnv('GITHUB_WORKSPACE', workspace);
  const key: ConversationKey = { repository: 'octo/hello', number: 16, agent: spec.adapter };
  const { store } = front;
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
      state: { agent: spec.adapter, adapter: adapterId, sessionId, turns: 1, updatedAt: new Date().toISOString() },
      declaration,
      // The agent's executable and PATH: OpenCode and Kilo carry a session by their own export/import.
      location: { home: home1, env: { PATH: process.env.PATH }, cwd: workspace, command: bin },
      // As a run's redactor: the GitHub token and the agent's secrets (not its model name or URL).
      redactor: new Redactor([
        githubToken,
        ...Object.entries(setupEnv)
          .filter(([name]) => adapter.secretEnv?.includes(name))
          .map(([, value]) => value),
      ]),
      log: (line) => logs.push(line),
    });
    const saveMs = performance.now() - started;
    expect(saved, logs.join('\n')).toMatchObject({ saved: true });

    // Without the restore, a fresh HOME cannot resume: the session lives only in the store.
    const bare = await oneTurn(
      spec,
      'resume',
      bin,
      liveCase,
      { workspace: secondWorkspace, home: freshHome(spec.adapter) },
      server,
      spec.resumeRequest(sessionId),
    );
    expect(bare.end.reason).not.toBe('completed');

    const home2 = freshHome(spec.adapter);
    started = performance.now();
    const restored = await restoreConversation({
      store,
      key,
      adapter: adapterId,
      declaration,
      location: { home: home2, env: { PATH: process.env.PATH }, cwd: secondWorkspace, command: bin },
      log: (line) => logs.push(line),
    });
    const restoreMs = performance.now() - started;
    expect(restored?.sessionId, logs.join('\n')).toBe(sessionId);

    const before = server.requests.length;
    const second = await oneTurn(
      spec,
      'resume',
      bin,
      liveCase,
      { workspace: secondWorkspace, home: home2 },
      server,
      spec.resumeRequest(sessionId),
    );
    expect(second.end.reason, second.stderr.slice(-2000)).toBe('completed');
    const modelRequests = server.requests.slice(before).filter((r) => r.reply !== 'other' && r.reply !== 'not-found');
    // The agent's request that asks the second question carries the first turn. Over ACP the
    // programs also make side requests with the new question alone (codex-acp's app server to a
    // small model, claude-agent-acp a title), so one such request is enough.
    const asking = modelRequests
      .map((r) => JSON.stringify(r.body))
      .filter((body) => body.includes('What number did I ask you to remember?'));
    expect(asking.length).toBeGreaterThan(0);
    expect(
      asking.some((body) => body.includes(liveCase.prompt)),
      asking.map((b) => b.slice(0, 200)).join('\n'),
    ).toBe(true);
    console.log(
      `${spec.adapter} (${front.name}): session ${sessionId}: ${saved.saved ? `${saved.files} files, ${saved.bytes} bytes` : ''}; save ${Math.round(saveMs)} ms, restore ${Math.round(restoreMs)} ms`,
    );
    if (front.checkCache) expect(cache.violations).toEqual([]);
  } finally {
    await server.close();
    for (const dir of new Set([workspace, secondWorkspace])) rmSync(dir, { recursive: true, force: true });
  }
}

for (const spec of specs) {
  describe(`${spec.adapter} conversation across machines`, () => {
    it('resumes the first turn in a fresh HOME from the Actions cache (the Action)', async () => {
      await resumesAcross(spec, {
        name: 'Actions cache',
        store: createActionsCacheConversationStore(),
        checkCache: true,
        moves: false,
      });
    });
    it.runIf(APP_AGENTS.has(spec.adapter))(
      'resumes the first turn in a fresh HOME and another directory from PostgreSQL (the app)',
      async () => {
        if (!appStore) throw new Error(`PostgreSQL is not reachable at ${DATABASE_URL}`);
        const runStore = appStore;
        await resumesAcross(spec, {
          name: 'app store',
          store: { load: (k) => runStore.loadConversation(k), save: (k, c) => runStore.saveConversation(k, c) },
          checkCache: false,
          moves: true,
        });
      },
    );
  });
}
