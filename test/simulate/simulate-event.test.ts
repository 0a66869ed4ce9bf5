import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoAdapter } from '../../src/adapters/agents/demo/demo-adapter.ts';
import { createBuiltinRegistry } from '../../src/adapters/builtin-registry.ts';
import { bareRepo } from '../../src/simulate/bare-repo.ts';
import { MemoryGitHubState } from '../../src/simulate/memory-github-state.ts';
import { renderSimulation } from '../../src/simulate/render-simulation.ts';
import { actAs, payloadRepo, seedFromPayload } from '../../src/simulate/seed-from-payload.ts';
import { simulateEvent } from '../../src/simulate/simulate-event.ts';
import { simulationExitCode } from '../../src/simulate/simulation-report.ts';
import { SimulationSetupError } from '../../src/simulate/simulation-setup-error.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { createSimulateFixture, git, type SimulateFixture } from './simulate-fixture.ts';

const registry = () => {
  const r = createBuiltinRegistry();
  r.register(demoAdapter({ stepDelayMs: 1 }));
  return r;
};
const changes = { owner: 'octo', repo: 'demo', login: 'alice' };

let fixture: SimulateFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

describe('simulateEvent', () => {
  it('a review comment on a pull request: the fix is pushed to the PR’s head branch, no new PR', async () => {
    fixture = await createSimulateFixture();
    const payload = webhookPayload('pull_request_review_comment', 'created', {
      ...changes,
      body: '@agent fix the typo',
      number: 7,
      title: 'Docs',
    });
    (payload.pull_request as { head: { repo: { full_name: string } } }).head.repo.full_name = 'octo/demo';
    const report = await simulateEvent({
      eventName: 'pull_request_review_comment',
      payload,
      repoPath: fixture.checkout,
      registry,
      approve: 'all',
      env: process.env,
      keep: true,
    });
    expect(report.decision.kind).toBe('run');
    // The payload's head branch (`changes`) is not in the checkout: made under its own name, and said.
    expect(report.run).toMatchObject({ conclusion: 'success', branch: 'changes', changedFiles: ['README.md'] });
    expect(report.notes).toEqual([
      expect.stringMatching(
        /^the payload's head branch changes is not in this repository: made it at main's head \([0-9a-f]{7}\)$/,
      ),
    ]);
    expect(renderSimulation(report)).toMatch(/^note: the payload's head branch changes is not in this repository/m);
    // The answer in the comment's review thread is shown.
    const commentId = (payload.comment as { id: number }).id;
    expect(report.reviewReplies).toEqual([
      expect.objectContaining({ pullNumber: 7, inReplyTo: commentId, user: 'agent-mux[bot]' }),
    ]);
    expect(report.reviewReplies[0]?.body).toContain('is done: 1 file changed, pushed to `changes`.');
    expect(renderSimulation(report)).toContain(
      `── reply ${report.reviewReplies[0]?.id} in the review thread of comment ${commentId} on #7 by @agent-mux[bot]`,
    );
    expect(report.pullRequests).toEqual([]);
    expect(report.reactions).toEqual([
      expect.objectContaining({ content: 'eyes', target: expect.stringMatching(/^review comment \d+$/) }),
    ]);
    expect(report.branch?.log).toContain('agent-mux: Docs');
    expect(await git(report.bareRepo ?? '', 'show', 'changes:README.md')).toContain('This project shows');
    expect(simulationExitCode(report)).toBe(0);
    expect(await git(fixture.checkout, 'branch', '--list')).toBe('* main');
    await rm(dirname(report.bareRepo ?? ''), { recursive: true, force: true });
  });

  it('a pull request from a fork: the fix goes to a branch of the base repository (never the fork), with a pull request', async () => {
    fixture = await createSimulateFixture();
    const payload = webhookPayload('pull_request_review_comment', 'created', {
      ...changes,
      body: '@agent fix it',
      number: 7,
    });
    (payload.pull_request as { head: { repo: { full_name: string } } }).head.repo.full_name = 'someone/demo';
    const report = await simulateEvent({
      eventName: 'pull_request_review_comment',
      payload,
      repoPath: fixture.checkout,
      registry,
      approve: 'all',
      env: process.env,
    });
    expect(report.run).toMatchObject({ conclusion: 'success' });
    // forks.delivery defaults to auto: a change outside the PR's diff cannot be a suggestion, so a PR.
    expect(report.run?.branch).toMatch(/^agent-mux\/7-/);
    expect(report.branch?.name).toBe(report.run?.branch);
    expect(report.checkRuns[0]?.text).toContain('(the pull request comes from a fork: nothing pushed to it)');
    expect(report.checkRuns[0]?.text).toMatch(/pull request https:\/\/github\.com\/octo\/demo\/pull\/\d+/);
  });

  it('an issue opened with a command: the run starts from the issue body', async () => {
    fixture = await createSimulateFixture();
    const payload = webhookPayload('issues', 'opened', {
      ...changes,
      body: '@agent fix the typo',
      number: 3,
      title: 'Typo',
    });
    const report = await simulateEvent({
      eventName: 'issues',
      payload,
      repoPath: fixture.checkout,
      registry,
      approve: 'all',
      env: process.env,
    });
    expect(report.run).toMatchObject({ conclusion: 'success', branch: 'agent-mux/3-typo' });
    expect(report.reactions).toEqual([expect.objectContaining({ target: 'issue #3' })]);
    expect(report.pullRequests).toEqual([
      expect.objectContaining({ number: 4, head: 'agent-mux/3-typo', base: 'main' }),
    ]);
    expect(report.bareRepo).toBeUndefined();
  });

  it('a payload without a repository is a setup error', async () => {
    fixture = await createSimulateFixture();
    const run = simulateEvent({
      eventName: 'issue_comment',
      payload: { action: 'created' },
      repoPath: fixture.checkout,
      registry,
      approve: 'all',
      env: {},
    });
    await expect(run).rejects.toSatisfy(
      (e) => SimulationSetupError.isInstance(e) && /names no repository/.test(e.message),
    );
  });
});

describe('seedFromPayload and actAs', () => {
  it('seeds the issue, the triggering comment with its id, and keeps later ids above it', async () => {
    fixture = await createSimulateFixture();
    const state = new MemoryGitHubState({
      repo: { owner: 'octo', repo: 'demo' },
      defaultBranch: 'main',
      selfLogin: 'me[bot]',
    });
    const payload = webhookPayload('issue_comment', 'created', { ...changes, body: 'hello', number: 9, title: 'T' });
    const commentId = (payload.comment as { id: number }).id;
    await seedFromPayload(state, bareRepo(await fixture.bare()), 'issue_comment', payload);
    expect(state.issues.get(9)).toMatchObject({ title: 'T' });
    expect(state.issues.get(9)?.pull).toBeUndefined();
    expect(state.comments(9)).toEqual([
      expect.objectContaining({ id: commentId, body: 'hello', user: { login: 'alice', type: 'User' } }),
    ]);
    expect(state.nextId()).toBeGreaterThan(commentId);
  });

  it('seeds a pull request on an existing head branch and writes refs/pull/N/head', async () => {
    fixture = await createSimulateFixture();
    const bare = await fixture.bare();
    await git(bare, 'branch', 'feature', 'main');
    const state = new MemoryGitHubState({
      repo: { owner: 'octo', repo: 'demo' },
      defaultBranch: 'main',
      selfLogin: 'me[bot]',
    });
    const payload = webhookPayload('pull_request_review', 'submitted', { ...changes, body: 'ok', number: 5 });
    const pull = payload.pull_request as { head: { ref: string; repo: { full_name: string } }; base: { ref: string } };
    pull.head.ref = 'feature';
    pull.head.repo.full_name = 'octo/demo';
    pull.base.ref = 'main';
    expect(await seedFromPayload(state, bareRepo(bare), 'pull_request_review', payload)).toEqual([]);
    const sha = (await git(bare, 'rev-parse', 'feature')).trim();
    expect(state.issues.get(5)?.pull).toMatchObject({
      headRef: 'feature',
      headSha: sha,
      baseRef: 'main',
      fromFork: false,
    });
    expect((await git(bare, 'rev-parse', 'refs/pull/5/head')).trim()).toBe(sha);
    expect(state.reviews).toHaveLength(1);
  });

  it('a head branch git refuses falls back to simulated-pr-N, and the note says why', async () => {
    fixture = await createSimulateFixture();
    const bare = await fixture.bare();
    const state = new MemoryGitHubState({
      repo: { owner: 'octo', repo: 'demo' },
      defaultBranch: 'main',
      selfLogin: 'me[bot]',
    });
    const payload = webhookPayload('pull_request_review', 'submitted', { ...changes, body: 'ok', number: 6 });
    const pull = payload.pull_request as { head: { ref: string; repo: { full_name: string } } };
    pull.head.ref = 'bad..name';
    pull.head.repo.full_name = 'octo/demo';
    const notes = await seedFromPayload(state, bareRepo(bare), 'pull_request_review', payload);
    expect(notes).toEqual([
      expect.stringMatching(
        /^the payload's head branch "bad\.\.name" is not a branch name git takes: made simulated-pr-6 at main's head/,
      ),
    ]);
    expect(state.issues.get(6)?.pull).toMatchObject({ headRef: 'simulated-pr-6' });
    expect((await git(bare, 'rev-parse', 'simulated-pr-6')).trim()).toBe((await git(bare, 'rev-parse', 'main')).trim());
  });

  it('actAs replaces the sender and the comment author, leaving the payload given unchanged', () => {
    const payload = webhookPayload('issue_comment', 'created', changes);
    const acted = actAs('issue_comment', payload, 'mallory') as typeof payload;
    expect(acted.sender).toMatchObject({ login: 'mallory', type: 'User' });
    expect((acted.comment as { user: unknown }).user).toMatchObject({ login: 'mallory' });
    expect((payload.sender as { login: string }).login).toBe('alice');
    expect(payloadRepo(acted)).toEqual({ owner: 'octo', repo: 'demo' });
    expect(payloadRepo({ repository: { name: 'x' } })).toBeUndefined();
  });
});
