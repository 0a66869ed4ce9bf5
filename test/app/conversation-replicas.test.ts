import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../src/app/store/postgres-run-store.ts';
import { listFiles } from '../../src/core/files/confined-files.ts';
import { DATABASE_URL, dropSchema, freshSchema, postgresReachable } from '../app-faults/fault-postgres.ts';
import { CONVERSATION_AGENT_CONFIG, conversationAgentSessions } from '../support/conversation-agent.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { type AppWorld, createAppWorld, waitFor } from './app-world.ts';

const CONFIG = `
agents:
${CONVERSATION_AGENT_CONFIG}`;

const available = await postgresReachable();
let world: GitHubWorld | undefined;
const replicas: AppWorld[] = [];
let schema: string | undefined;
afterEach(async () => {
  for (const replica of replicas.splice(0)) await replica.close();
  await world?.close();
  if (schema !== undefined) await dropSchema(schema);
  world = undefined;
  schema = undefined;
});

describe.runIf(available)('a conversation across two app replicas on one PostgreSQL', () => {
  it('turn 2, claimed by another replica, resumes turn 1’s session on the same branch and PR; turn 3, asked on the issue meanwhile, waits and follows', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const s = freshSchema('agent_mux_conversations');
    schema = s;
    const replica = async (env: Record<string, string> = {}) => {
      const store = createPostgresRunStore({ connectionString: DATABASE_URL, schema: s, maxConnections: 3 });
      const app = await createAppWorld({
        world: w,
        store,
        env,
        startLoops: true,
        sessionFiles: () => conversationAgentSessions,
        // Fenced as the app runs agents: the fixture's script and the SDK it imports shown read-only.
        fenceReadOnly: [fileURLToPath(new URL('../..', import.meta.url))],
      });
      replicas.push(app);
      return app;
    };
    const finished = (app: AppWorld, count: number) =>
      waitFor(async () => {
        const runs = await app.store.list({ states: ['succeeded', 'failed', 'cancelled', 'timed_out'] });
        return runs.length >= count ? runs : undefined;
      }, `${count} finished run(s)`);

    w.gh.state.addIssue(w.repo, { number: 7, title: 'Write notes', body: 'We need notes.', user: 'alice' });
    const a = await replica();
    await a.receive('issue_comment', commentEvent(w, 7, 'alice', '@agent conv: start the notes').payload);
    const [first] = await finished(a, 1);
    expect(
      first?.conclusion,
      `${first?.reason} ${JSON.stringify(w.gh.state.comments(w.repo, 7).map((c) => c.body))}`,
    ).toBe('success');
    await a.runtime.stop();

    const pulls = w.gh.state.pulls(w.repo);
    expect(pulls).toHaveLength(1);
    const pr = pulls[0]!;
    expect(await w.git(['show', `${pr.headRef}:notes.md`], w.bare)).toBe('turn 1');

    // Replica B's turns take a while: a third mention arrives while the second runs.
    const b = await replica({ CONVERSATION_AGENT_DELAY_MS: '1500' });
    expect(b.settings.workDir).not.toBe(a.settings.workDir);
    await b.receive(
      'issue_comment',
      commentEvent(w, pr.number, 'alice', '@agent add a second line', { pr: true }).payload,
    );
    await waitFor(async () => ((await b.store.list({ states: ['running'] })).length > 0 ? true : undefined), 'turn 2');
    // Back on the issue while turn 2 runs on its pull request: the same conversation, so it waits.
    await b.receive('issue_comment', commentEvent(w, 7, 'bob', '@agent and a third one').payload);
    const runs = await finished(b, 3);
    expect(
      runs.map((run) => run.conclusion),
      JSON.stringify(runs.map((run) => run.reason)),
    ).toEqual(['success', 'success', 'success']);

    // Resumed: the agent's session held the first prompt, so its line is `turn 2`, on the same
    // branch; the third mention (on the issue) waited for the second turn (on the pull request)
    // and resumed after it.
    expect(await w.git(['show', `${pr.headRef}:notes.md`], w.bare)).toBe('turn 1\nturn 2\nturn 3');
    expect(w.gh.state.pulls(w.repo)).toHaveLength(1);
    expect(w.gh.state.checkRuns(w.repo).map((c) => c.name)).toEqual([
      'agent-mux / conv',
      'agent-mux / conv (turn 2)',
      'agent-mux / conv (turn 3)',
    ]);
    const conversation = await b.store.loadConversation({ repository: 'octo/demo', number: 7, agent: 'conv' });
    expect(conversation?.state).toMatchObject({ turns: 3, branch: pr.headRef, pullRequest: pr.number });
    expect(conversation?.session.files.map((f) => f.path)).toEqual([`sessions/${conversation?.state.sessionId}.json`]);
    // The clones and HOMEs of both turns are gone.
    expect(await listFiles(a.settings.workDir, a.settings.workDir).catch(() => [])).toEqual([]);
    expect(await listFiles(b.settings.workDir, b.settings.workDir).catch(() => [])).toEqual([]);
    w.gh.assertNoViolations();
  }, 120_000);
});
