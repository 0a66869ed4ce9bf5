import { afterEach, describe, expect, it } from 'vitest';
import { actOnTrigger } from '../../../src/github/use-cases/act-on-trigger.ts';
import { decideTrigger } from '../../../src/github/use-cases/decide-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../../support/github-world.ts';

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The requests sent since `from` that are not reads. */
function writes(w: GitHubWorld, from: number): string[] {
  return w.gh.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.operationId}`);
}

describe('decideTrigger only reads; actOnTrigger writes what it decided', () => {
  it('a run: the decision is written nowhere, and acting on it adds the eyes reaction (and nothing else)', async () => {
    const w = await createGitHubWorld({ config: 'agents:\n  demo:\n    adapter: demo\n' });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 3, title: 'x', user: 'alice' });
    const from = w.gh.requests.length;
    const decision = await decideTrigger(w.deps, commentEvent(w, 3, 'alice', '@agent demo: hello'));
    expect(decision.kind).toBe('run');
    expect(writes(w, from)).toEqual([]);
    const acted = await actOnTrigger(w.api, decision);
    expect(acted.kind === 'run' && (await acted.acknowledged)).toBeUndefined();
    expect(writes(w, from)).toEqual(['POST reactions/create-for-issue-comment']);
    expect(w.gh.state.reactions).toHaveLength(1);
    w.gh.assertNoViolations();
  });

  it('an unknown agent: the decision carries the text to say; acting on it posts that one comment', async () => {
    const w = await createGitHubWorld({ config: 'agents:\n  demo:\n    adapter: demo\n' });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 4, title: 'x', user: 'alice' });
    const from = w.gh.requests.length;
    const decision = await decideTrigger(w.deps, commentEvent(w, 4, 'alice', '@agent claude: hello'));
    expect(decision).toMatchObject({
      kind: 'refused',
      comment:
        'agent-mux did not start: the agent "claude" is not one of this repository\'s agents (demo): .github/agent-mux.yml lists which may run.',
    });
    expect(writes(w, from)).toEqual([]);
    await actOnTrigger(w.api, decision);
    expect(writes(w, from)).toEqual(['POST issues/create-comment']);
    const comment = w.gh.state.comments(w.repo, 4).find((c) => c.body.includes('agent-mux:refusal'));
    expect(comment?.body).toMatch(/^<!-- agent-mux:refusal -->\nagent-mux did not start: the agent "claude"/);
    w.gh.assertNoViolations();
  });

  it('a user without the permission is refused quietly: nothing to say, nothing written', async () => {
    const w = await createGitHubWorld({ config: 'agents:\n  demo:\n    adapter: demo\n' });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 5, title: 'x', user: 'mallory' });
    const from = w.gh.requests.length;
    const decision = await decideTrigger(w.deps, commentEvent(w, 5, 'mallory', '@agent demo: hello'));
    expect(decision.kind).toBe('refused');
    expect(decision.kind === 'refused' && decision.comment).toBeUndefined();
    await actOnTrigger(w.api, decision);
    expect(writes(w, from)).toEqual([]);
  });

  it('an invalid config: decided without a write, reported by acting on it; who may see it is the default role', async () => {
    // The file asks for admin, but cannot be read: the default role (write) is what is checked.
    const w = await createGitHubWorld({ config: 'trigger:\n  permission: admin\n  phrase: 7\n' });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 6, title: 'x', user: 'alice' });
    w.gh.state.addIssue(w.repo, { number: 7, title: 'x', user: 'mallory' });
    const from = w.gh.requests.length;
    const decision = await decideTrigger(w.deps, commentEvent(w, 6, 'alice', '@agent fix it'));
    expect(decision).toMatchObject({ kind: 'config_error', defaultBranch: 'main' });
    const readOnly = await decideTrigger(w.deps, commentEvent(w, 7, 'mallory', '@agent fix it'));
    expect(readOnly.kind).toBe('refused');
    expect(writes(w, from)).toEqual([]);
    await actOnTrigger(w.api, decision);
    expect(writes(w, from)).toEqual(['POST issues/create-comment', 'POST checks/create']);
    expect(w.gh.state.checkRuns(w.repo)).toEqual([
      expect.objectContaining({ name: 'agent-mux / config', conclusion: 'failure' }),
    ]);
    w.gh.assertNoViolations();
  });
});
