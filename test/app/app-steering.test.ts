import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/agents/claude/index.ts';
import { parseTurnRecord } from '../../src/github/conversation/turn-record.ts';
import {
  commentEvent,
  createGitHubWorld,
  type GitHubWorld,
  reviewCommentEvent,
  SELF_LOGIN,
} from '../support/github-world.ts';
import { withProgram } from '../support/with-program.ts';
import { type AppWorld, createAppWorld, waitFor } from './app-world.ts';

// Issue 37.1 in the app: a mention while the issue's run is in progress reaches the run's agent
// through the store (the dispatcher records it; the worker holding the run takes it), and the run
// the mention queued too ends at once. The agent: Claude Code's adapter on a stand-in of its
// stream-json mode (a 2 s step, then any message that came meanwhile joins the turn).
const agent = fileURLToPath(new URL('../fixtures/bin/stream-json-agent.mjs', import.meta.url));
const CONFIG = `
agents:
  claude:
    adapter: claude
`;

let world: GitHubWorld | undefined;
let app: AppWorld | undefined;
afterEach(async () => {
  await app?.close();
  await world?.close();
  app = undefined;
  world = undefined;
});

describe('steering in the app', () => {
  it('a writer’s mention during a run is delivered to its agent, and the run it queued ends as taken', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const builtins = w.registry;
    w.registry = () => builtins().register(withProgram(claudeAdapter(), process.execPath, [agent]));
    app = await createAppWorld({
      world: w,
      startLoops: true,
      env: { STEP_MS: '2000' },
      fenceReadOnly: [fileURLToPath(new URL('../..', import.meta.url))],
    });
    const a = app;
    w.gh.state.addIssue(w.repo, { number: 81, title: 'Fix the parser', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(w, 81, 'alice', '@agent fix the parser').payload);
    await waitFor(async () => ((await a.store.list({ states: ['running'] })).length > 0 ? true : undefined), 'the run');
    const event = commentEvent(w, 81, 'bob', '@agent also handle the Windows case');
    await a.receive('issue_comment', event.payload);
    const runs = await waitFor(async () => {
      const done = await a.store.list({ states: ['succeeded', 'failed', 'cancelled', 'timed_out'] });
      return done.length >= 2 ? done : undefined;
    }, 'both runs');
    expect(
      runs.map((r) => [r.conclusion, r.reason?.slice(0, 60)]),
      JSON.stringify(
        w.gh.state
          .comments(w.repo, 81)
          .map((c) => [c.user.login, c.body.split('\n').filter((l) => /Note|steer|deliver|queued/i.test(l))]),
      ),
    ).toEqual([
      ['success', undefined],
      ['skipped', expect.stringMatching(/^the request was delivered to the run in progress/)],
    ]);
    const tracking = w.gh.state.comments(w.repo, 81).filter((c) => parseTurnRecord(c.body) !== undefined);
    expect(tracking).toHaveLength(1);
    expect(tracking[0]?.body).toContain('was delivered to the running agent at 00:0');
    const bobs = w.gh.state.comments(w.repo, 81).find((c) => c.body === '@agent also handle the Windows case');
    expect(parseTurnRecord(tracking[0]?.body ?? '')?.steered).toEqual([bobs?.id]);
    expect(w.gh.state.checkRuns(w.repo)).toHaveLength(1);
    expect(w.gh.state.comments(w.repo, 81).filter((c) => c.user.login === SELF_LOGIN)).toHaveLength(1);
    w.gh.assertNoViolations();
  }, 60_000);

  it('a writer’s reply in a review thread of the pull request reaches the agent the same way', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const builtins = w.registry;
    w.registry = () => builtins().register(withProgram(claudeAdapter(), process.execPath, [agent]));
    app = await createAppWorld({
      world: w,
      startLoops: true,
      env: { STEP_MS: '2000' },
      fenceReadOnly: [fileURLToPath(new URL('../..', import.meta.url))],
    });
    const a = app;
    const head = await w.commit('docs', { 'docs.md': 'docs\n' }, 'docs');
    w.gh.state.addPull(w.repo, { number: 22, title: 'Docs', headRef: 'docs', headSha: head, user: 'alice' });
    const pr = { number: 22, title: 'Docs', head, headRef: 'docs', line: 1 };
    const root = reviewCommentEvent(w, { ...pr, login: 'alice', body: '@agent tidy this line' });
    await a.receive('pull_request_review_comment', root.event.payload);
    await waitFor(async () => ((await a.store.list({ states: ['running'] })).length > 0 ? true : undefined), 'the run');
    const reply = reviewCommentEvent(w, {
      ...pr,
      login: 'bob',
      body: '@agent and keep the heading',
      inReplyToId: root.comment.id,
    });
    await a.receive('pull_request_review_comment', reply.event.payload);
    const runs = await waitFor(async () => {
      const done = await a.store.list({ states: ['succeeded', 'failed', 'cancelled', 'timed_out'] });
      return done.length >= 2 ? done : undefined;
    }, 'both runs');
    expect(runs.map((r) => [r.conclusion, r.reason?.slice(0, 60)])).toEqual([
      ['success', undefined],
      ['skipped', expect.stringMatching(/^the request was delivered to the run in progress/)],
    ]);
    const tracking = w.gh.state.comments(w.repo, 22).filter((c) => parseTurnRecord(c.body) !== undefined);
    expect(tracking).toHaveLength(1);
    expect(parseTurnRecord(tracking[0]?.body ?? '')?.steeredReview).toEqual([reply.comment.id]);
    expect(w.gh.state.reactions.filter((r) => r.target.id === reply.comment.id)).toEqual([
      expect.objectContaining({ content: 'eyes', target: expect.objectContaining({ kind: 'review_comment' }) }),
    ]);
    w.gh.assertNoViolations();
  }, 60_000);
});
