import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoAdapter } from '../../src/adapters/agents/demo/demo-adapter.ts';
import { createBuiltinRegistry } from '../../src/adapters/builtin-registry.ts';
import type { GitHubDeps } from '../../src/github/use-cases/decide-trigger.ts';
import { executeRun } from '../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../src/github/use-cases/handle-trigger.ts';
import { createMemoryGitHub } from '../../src/simulate/memory-github.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { createSimulateFixture, git, type SimulateFixture } from './simulate-fixture.ts';

const SELF = 'agent-mux[bot]';
const repo = { owner: 'octo', repo: 'demo' };
const registry = () => {
  const r = createBuiltinRegistry();
  r.register(demoAdapter({ stepDelayMs: 1 }));
  return r;
};

let fixture: SimulateFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

describe('the GitHub pipeline on the memory GitHub (as on the fake GitHub)', () => {
  it('demo agent on an issue: eyes, check run, approval by a maintainer, branch with the fix, PR, final reports', async () => {
    fixture = await createSimulateFixture();
    const bare = await fixture.bare();
    const workspace = join(fixture.root, 'workspace');
    await git(fixture.root, 'clone', '-q', bare, workspace);
    const gh = createMemoryGitHub({
      repo,
      defaultBranch: 'main',
      bareRepo: bare,
      roles: { alice: 'write', bob: 'maintain' },
    });
    gh.state.addIssue({ number: 12, title: 'Fix the README typo', body: 'It says projcet.', user: 'alice' });
    const comment = gh.state.addComment(12, { body: '@agent demo: fix the typo please', user: 'alice' });
    const payload = webhookPayload('issue_comment', 'created', {
      ...repo,
      body: comment.body,
      login: 'alice',
      number: 12,
      title: 'Fix the README typo',
    });
    (payload.comment as { id: number }).id = comment.id;

    const deps: GitHubDeps = { api: gh.api, selfLogins: [SELF], builtinAgents: registry().ids() };
    const decision = await handleTrigger(deps, { eventName: 'issue_comment', payload });
    if (decision.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(decision)}`);
    expect(gh.state.reactions).toEqual([
      expect.objectContaining({ content: 'eyes', target: { kind: 'issue_comment', id: comment.id } }),
    ]);

    const outcome = await executeRun({
      deps,
      job: decision.job,
      registry: registry(),
      workspace,
      git: { author: { name: 'agent-mux', email: 'agent-mux@users.noreply.github.com' } },
      env: process.env,
      secrets: [],
      attachApprovals: (channel) => {
        const timer = setInterval(() => {
          const [pending] = channel.pending;
          if (pending) {
            void channel.answer({
              approvalId: pending.approvalId,
              decision: 'approve',
              actor: { login: 'bob', type: 'User' },
              via: 'comment',
            });
          }
        }, 5);
        return () => clearInterval(timer);
      },
    });

    expect(outcome.conclusion).toBe('success');
    expect(outcome.branch).toBe('agent-mux/12-fix-the-readme-typo');
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'approved', by: 'bob' })]);
    expect(await git(bare, 'show', `${outcome.branch}:README.md`)).toContain('This project shows');
    expect(await git(bare, 'show', 'main:README.md')).toContain('projcet');

    const [pull] = gh.state.pulls();
    expect(gh.state.pulls()).toHaveLength(1);
    expect(pull).toMatchObject({ title: 'agent-mux: Fix the README typo', user: { login: SELF } });
    expect(pull?.pull).toMatchObject({ headRef: outcome.branch, baseRef: 'main' });
    expect(pull?.body).toContain('Closes #12');
    expect(outcome.pullRequestUrl).toBe(`https://github.com/octo/demo/pull/${pull?.number}`);

    const [check] = gh.state.checkRuns();
    expect(check).toMatchObject({ name: 'agent-mux / demo', status: 'completed', conclusion: 'success' });
    expect(check?.annotations.map((a) => a.path)).toEqual(['README.md']);
    expect(check?.updates).toBeGreaterThan(0);

    const comments = gh.state.comments(12);
    const tracking = comments.find((c) => c.body.startsWith('<!-- agent-mux:run:'));
    expect(tracking?.user).toEqual({ login: SELF, type: 'Bot' });
    expect(tracking?.body).toContain(outcome.pullRequestUrl);
    const approval = comments.find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toContain('**Approved** by @bob');
  });

  it('an invalid config: a comment and a failed config check run name the field and line', async () => {
    fixture = await createSimulateFixture({ '.github/agent-mux.yml': 'trigger:\n  permission: writer\n' });
    const gh = createMemoryGitHub({
      repo,
      defaultBranch: 'main',
      bareRepo: await fixture.bare(),
      roles: { alice: 'write' },
    });
    gh.state.addIssue({ number: 4, title: 'x', user: 'alice' });
    const comment = gh.state.addComment(4, { body: '@agent fix it', user: 'alice' });
    const payload = webhookPayload('issue_comment', 'created', {
      ...repo,
      body: comment.body,
      login: 'alice',
      number: 4,
    });
    (payload.comment as { id: number }).id = comment.id;
    const deps: GitHubDeps = { api: gh.api, selfLogins: [SELF], builtinAgents: registry().ids() };
    const decision = await handleTrigger(deps, { eventName: 'issue_comment', payload });
    expect(decision.kind).toBe('config_error');
    const error = gh.state.comments(4).find((c) => c.body.includes('config-error'));
    expect(error?.body).toContain('trigger.permission');
    expect(error?.body).toContain('.github/agent-mux.yml:2');
    expect(gh.state.checkRuns()).toEqual([
      expect.objectContaining({ name: 'agent-mux / config', status: 'completed', conclusion: 'failure' }),
    ]);
  });
});
