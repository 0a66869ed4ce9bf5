import { afterEach, describe, expect, it } from 'vitest';
import type { GitHubApprovalChannel } from '../../src/github/approvals/github-approval-channel.ts';
import type { ActedTrigger } from '../../src/github/use-cases/act-on-trigger.ts';
import type { RunOutcome } from '../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, SELF_LOGIN, WORLD_TOKEN } from '../support/github-world.ts';
import { runInWorld } from '../support/run-in-world.ts';

const LEAKY_SECRET = 'lk_live_5f3e9a0c7b2d4e6f8a1c3e5g';
const leakyAgent = new URL('../fixtures/bin/leaky-agent.mjs', import.meta.url).pathname;

const CONFIG = `
agents:
  demo:
    adapter: demo
  leaky:
    adapter: process
    options:
      binary: ${process.execPath}
      args: [${leakyAgent}]
      secretEnv: [LEAKY_SECRET]
approvals:
  users: []
  permission: maintain
  timeout: 20s
`;

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Runs a job the way a front end does, answering approvals through the comment poller. */
async function run(
  w: GitHubWorld,
  decision: ActedTrigger,
  answer: (channel: GitHubApprovalChannel, approvalId: string) => Promise<void>,
): Promise<RunOutcome> {
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${decision.kind}: ${JSON.stringify(decision)}`);
  let seen = 0;
  return runInWorld(w, decision.job, {
    env: { ...process.env, LEAKY_SECRET },
    answer: (channel) => {
      const pending = channel.pending;
      if (pending.length > seen) {
        seen = pending.length;
        void answer(channel, pending[pending.length - 1]!.approvalId);
      }
    },
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A world whose pull request #7 comes from a fork that does not allow maintainer edits; `head` is its head commit. */
async function forkPullWithoutEdits(): Promise<{ w: GitHubWorld; head: string }> {
  const w = await createGitHubWorld({ config: CONFIG });
  world = w;
  const head = await w.commit('fork-branch', { 'x.txt': 'x\n' });
  w.gh.state.addPull(w.repo, {
    number: 7,
    title: 'From a fork',
    headRef: 'fork-branch',
    headSha: head,
    baseRef: 'main',
    fromFork: true,
    maintainerCanModify: false,
    user: 'alice',
  });
  return { w, head };
}

describe('the GitHub flow, against the fake GitHub and real git', () => {
  it('demo agent: trigger → eyes → check run → approval (ignored from a reader, taken from a maintainer) → branch, commit, PR → final reports', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 12, title: 'Fix the README typo', body: 'It says projcet.', user: 'alice' });
    const event = commentEvent(w, 12, 'alice', '@agent demo: fix the typo please');

    const decision = await handleTrigger(w.deps, event);
    expect(decision.kind).toBe('run');
    expect(w.gh.state.reactions.filter((r) => r.content === 'eyes')).toHaveLength(1);

    const outcome = await run(w, decision, async (_channel, id) => {
      w.gh.state.addComment(w.repo, 12, { body: `/approve ${id}`, user: 'mallory' });
      await sleep(150);
      w.gh.state.addComment(w.repo, 12, { body: `/approve ${id}`, user: 'bob' });
    });

    expect(outcome.conclusion).toBe('success');
    expect(outcome.branch).toBe('agent-mux/12-fix-the-readme-typo');
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'approved', by: 'bob' })]);

    const readme = await w.git(['show', `${outcome.branch}:README.md`], w.bare);
    expect(readme).toContain('This project shows');
    const log = await w.git(['log', '-1', '--format=%an <%ae>%n%s', outcome.branch ?? ''], w.bare);
    expect(log).toContain('agent-mux <agent-mux@users.noreply.github.com>');

    const pulls = w.gh.state.pulls(w.repo);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.body).toContain('Closes #12');
    const prUrl = `https://github.com/octo/demo/pull/${pulls[0]?.number}`;
    expect(outcome.pullRequestUrl).toBe(prUrl);

    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check?.name).toBe('agent-mux / demo');
    expect(check?.status).toBe('completed');
    expect(check?.conclusion).toBe('success');
    expect(check?.output?.text).toContain('ignored approve from @mallory');
    expect(check?.output?.annotations?.map((a) => a.path)).toEqual(['README.md']);

    const comments = w.gh.state.comments(w.repo, 12);
    const tracking = comments.find((c) => c.body.startsWith('<!-- agent-mux:run:'));
    expect(tracking?.body).toContain(prUrl);
    expect(tracking?.body).toMatch(/approved by @\u200bbob/);
    // Issue 33.1: the agent's answer reaches GitHub: in the tracking comment, and in the outcome.
    expect(outcome.finalMessage).toBeTruthy();
    expect(tracking?.body).toContain('#### Answer');
    expect(tracking?.body).toContain(`> ${outcome.finalMessage?.split('\n')[0]}`);
    const approval = comments.find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toContain('**Approved** by @bob');
    w.gh.assertNoViolations();
  });

  it('Process-protocol agent: its secret never reaches any request sent to GitHub', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 3, title: 'Write notes', body: 'Please write notes.', user: 'alice' });
    const decision = await handleTrigger(
      w.deps,
      commentEvent(w, 3, 'alice', 'Could you help? @agent leaky: write the notes'),
    );
    const outcome = await run(w, decision, async (_channel, id) => {
      w.gh.state.addComment(w.repo, 3, { body: `/approve ${id}`, user: 'bob' });
    });
    expect(outcome.conclusion).toBe('success');
    expect(outcome.changedFiles.map((f) => f.path)).toEqual(['NOTES.md']);
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check?.output?.text).toContain('starting with key ***');

    const writes = w.gh.requests.filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(5);
    for (const request of w.gh.requests) {
      const text = JSON.stringify({ body: request.body, query: request.query, path: request.path });
      expect(text).not.toContain(LEAKY_SECRET);
      expect(text).not.toContain(WORLD_TOKEN);
    }
    w.gh.assertNoViolations();
  });

  it('a pull request of this repository: approved by a review on its head commit, the fix is pushed to its own branch', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const head = await w.commit('docs', { 'docs.md': 'docs\n' }, 'docs');
    w.gh.state.addPull(w.repo, {
      number: 21,
      title: 'Docs',
      headRef: 'docs',
      headSha: head,
      baseRef: 'main',
      user: 'alice',
    });
    const decision = await handleTrigger(
      w.deps,
      commentEvent(w, 21, 'alice', '@agent fix the README typo', { pr: true }),
    );
    const outcome = await run(w, decision, async () => {
      // A review counts from the second after the ask (GitHub's times are whole seconds).
      await sleep(1005 - (Date.now() % 1000));
      w.gh.state.addReview(w.repo, 21, { state: 'APPROVED', body: 'ok', user: 'mallory', commitId: head });
      await sleep(100);
      w.gh.state.addReview(w.repo, 21, { state: 'APPROVED', body: 'go ahead', user: 'bob', commitId: head });
    });
    expect(outcome.conclusion).toBe('success');
    expect(outcome.branch).toBe('docs');
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'approved', by: 'bob' })]);
    expect(w.gh.state.pulls(w.repo)).toHaveLength(1);
    expect(await w.git(['show', 'docs:README.md'], w.bare)).toContain('This project shows');
    expect(await w.git(['rev-list', '--count', 'docs'], w.bare)).toBe('3');
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check?.headSha).toBe(head);
    w.gh.assertNoViolations();
  });

  it('a new push voids the pending approval: the tool is denied and nothing is published', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 5, title: 'Typo', body: '', user: 'alice' });
    const decision = await handleTrigger(w.deps, commentEvent(w, 5, 'alice', '@agent fix it'));
    const outcome = await run(w, decision, async (_channel, id) => {
      await w.commit('main', { 'OTHER.md': 'pushed meanwhile\n' }, 'a new push');
      w.gh.state.addComment(w.repo, 5, { body: `/approve ${id}`, user: 'bob' });
    });
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'denied' })]);
    expect(outcome.changedFiles).toEqual([]);
    expect(w.gh.state.pulls(w.repo)).toHaveLength(0);
    const approval = w.gh.state.comments(w.repo, 5).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toContain('**Void**');
    expect(approval?.body).toContain('new commit');
    w.gh.assertNoViolations();
  });
});

describe('who and what does not trigger', () => {
  const cases: {
    name: string;
    login: string;
    body: string;
    bot?: boolean;
    expected: ActedTrigger['kind'];
    reason?: RegExp;
  }[] = [
    { name: 'a read-only actor', login: 'mallory', body: '@agent fix it', expected: 'refused', reason: /read/ },
    {
      name: 'a bot not on the list',
      login: 'renovate[bot]',
      body: '@agent fix it',
      bot: true,
      expected: 'refused',
      reason: /bot/,
    },
    {
      name: 'a bot whose login ends with [bot] but is not listed',
      login: 'evil[bot]',
      body: '@agent fix it',
      bot: true,
      expected: 'refused',
      reason: /bot/,
    },
    {
      name: 'the app’s own comment',
      login: SELF_LOGIN,
      body: '@agent fix it',
      bot: true,
      expected: 'ignore',
      reason: /own/,
    },
    {
      name: 'a mention in a quote',
      login: 'alice',
      body: '> @agent fix it\n\nI disagree with that.',
      expected: 'ignore',
    },
    { name: 'a mention in a code block', login: 'alice', body: '```\n@agent fix it\n```', expected: 'ignore' },
    { name: 'a listed bot with permission', login: 'helper[bot]', body: '@agent fix it', bot: true, expected: 'run' },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.expected}`, async () => {
      const w = await createGitHubWorld({
        config: 'trigger:\n  allowedBots: ["helper[bot]"]\n',
      });
      world = w;
      w.gh.state.setPermission(w.repo, 'helper[bot]', 'write');
      w.gh.state.setPermission(w.repo, 'renovate[bot]', 'write');
      w.gh.state.setPermission(w.repo, 'evil[bot]', 'admin');
      w.gh.state.addIssue(w.repo, { number: 9, title: 'x', body: '', user: 'alice' });
      const decision = await handleTrigger(w.deps, commentEvent(w, 9, c.login, c.body, { bot: c.bot }));
      expect(decision.kind).toBe(c.expected);
      if (c.reason && 'reason' in decision) expect(decision.reason).toMatch(c.reason);
      if (c.expected !== 'run') {
        expect(w.gh.state.reactions).toHaveLength(0);
        expect(w.gh.state.checkRuns(w.repo)).toHaveLength(0);
      }
      w.gh.assertNoViolations();
    });
  }

  it('an invalid config: a comment and a failed check run name the field and line, and no run', async () => {
    const w = await createGitHubWorld({ config: 'trigger:\n  permission: writer\n' });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 4, title: 'x', body: '', user: 'alice' });
    const decision = await handleTrigger(w.deps, commentEvent(w, 4, 'alice', '@agent fix it'));
    expect(decision.kind).toBe('config_error');
    const comment = w.gh.state.comments(w.repo, 4).find((c) => c.body.includes('config-error'));
    expect(comment?.body).toContain('trigger.permission');
    expect(comment?.body).toContain('.github/agent-mux.yml:2');
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check).toMatchObject({ name: 'agent-mux / config', status: 'completed', conclusion: 'failure' });
    w.gh.assertNoViolations();
  });

  it('an agent on an unknown adapter is a config error with its line and a did-you-mean, before any run', async () => {
    const w = await createGitHubWorld({ config: 'defaultAgent: mine\nagents:\n  mine:\n    adapter: claud\n' });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 4, title: 'x', body: '', user: 'alice' });
    const decision = await handleTrigger(w.deps, commentEvent(w, 4, 'alice', '@agent fix it'));
    expect(decision.kind).toBe('config_error');
    const message = decision.kind === 'config_error' ? decision.message : '';
    expect(message).toMatch(
      /^agents\.mine\.adapter: unknown adapter "claud" \(did you mean claude\?\); known adapters: .*claude.*; or a type built from options: process, /,
    );
    expect(message).toMatch(/\(\.github\/agent-mux\.yml:4\)$/);
    const comment = w.gh.state.comments(w.repo, 4).find((c) => c.body.includes('config-error'));
    expect(comment?.body).toContain('agents.mine.adapter');
    expect(w.gh.state.checkRuns(w.repo)).toEqual([
      expect.objectContaining({ name: 'agent-mux / config', conclusion: 'failure' }),
    ]);
    w.gh.assertNoViolations();
  });

  it('an agent on a type built from options (process) or a known adapter is no config error', async () => {
    const w = await createGitHubWorld({
      config:
        'agents:\n  local:\n    adapter: process\n    options:\n      binary: /bin/true\n  c:\n    adapter: claude\n',
    });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 4, title: 'x', body: '', user: 'alice' });
    const decision = await handleTrigger(w.deps, commentEvent(w, 4, 'alice', '@agent fix it'));
    expect(decision.kind).toBe('run');
    w.gh.assertNoViolations();
  });

  it('the config is read from the default branch, not from the pull request', async () => {
    const w = await createGitHubWorld({ config: 'trigger:\n  phrase: "@bot"\n' });
    world = w;
    const head = await w.commit('feature', { '.github/agent-mux.yml': 'trigger:\n  phrase: "@agent"\n' });
    w.gh.state.addPull(w.repo, {
      number: 8,
      title: 'A change',
      headRef: 'feature',
      headSha: head,
      baseRef: 'main',
      user: 'alice',
    });
    const ignored = await handleTrigger(w.deps, commentEvent(w, 8, 'alice', '@agent fix it', { pr: true }));
    expect(ignored.kind).toBe('ignore');
    const accepted = await handleTrigger(w.deps, commentEvent(w, 8, 'alice', '@bot fix it', { pr: true }));
    expect(accepted.kind).toBe('run');
    w.gh.assertNoViolations();
  });

  it('a fork pull request is refused when the config says so', async () => {
    const w = await createGitHubWorld({ config: 'trigger:\n  forkPullRequests: refuse\n' });
    world = w;
    const head = await w.commit('fork-branch', { 'x.txt': 'x\n' });
    w.gh.state.addPull(w.repo, {
      number: 6,
      title: 'From a fork',
      headRef: 'fork-branch',
      headSha: head,
      baseRef: 'main',
      fromFork: true,
      user: 'alice',
    });
    const decision = await handleTrigger(w.deps, commentEvent(w, 6, 'alice', '@agent fix it', { pr: true }));
    expect(decision.kind).toBe('refused');
    expect(w.gh.state.comments(w.repo, 6).some((c) => c.body.includes('refuses pull requests from forks'))).toBe(true);
    w.gh.assertNoViolations();
  });

  it('a fork pull request that does not allow maintainer edits runs; its change goes to a branch of this repository, never to the fork', async () => {
    const { w, head } = await forkPullWithoutEdits();
    const decision = await handleTrigger(w.deps, commentEvent(w, 7, 'alice', '@agent fix the typo', { pr: true }));
    const outcome = await run(w, decision, async (_channel, id) => {
      w.gh.state.addComment(w.repo, 7, { body: `/approve ${id}`, user: 'bob' });
    });
    expect(outcome.conclusion).toBe('success');
    expect(outcome.branch).toBe('agent-mux/7-from-a-fork');
    expect(await w.git(['rev-parse', 'refs/heads/fork-branch'], w.bare)).toContain(head);
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check?.output?.text).toContain('nothing pushed to it');
    w.gh.assertNoViolations();
  });
  it('Actions may not open pull requests (the repository setting is off): the run fails naming the setting, and the branch is kept', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 14, title: 'Fix the README typo', body: '', user: 'alice' });
    // What GitHub answers a workflow's GITHUB_TOKEN when "Allow GitHub Actions to create and approve pull requests" is off.
    w.gh.failNext(
      { method: 'POST', path: '/repos/{owner}/{repo}/pulls' },
      {
        status: 403,
        body: {
          message: 'GitHub Actions is not permitted to create or approve pull requests.',
          documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
        },
      },
    );
    const decision = await handleTrigger(w.deps, commentEvent(w, 14, 'alice', '@agent demo: fix the typo'));
    const outcome = await run(w, decision, async (_channel, id) => {
      w.gh.state.addComment(w.repo, 14, { body: `/approve ${id}`, user: 'bob' });
    });
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.reason).toContain('"Allow GitHub Actions to create and approve pull requests"');
    expect(outcome.reason).toContain('The changes were pushed to the branch agent-mux/14-fix-the-readme-typo');
    expect(await w.git(['show', 'agent-mux/14-fix-the-readme-typo:README.md'], w.bare)).toContain('project');
    expect(w.gh.state.pulls(w.repo)).toHaveLength(0);
    const tracking = w.gh.state.comments(w.repo, 14).find((c) => c.body.includes('Allow GitHub Actions'));
    expect(tracking, 'the tracking comment says it').toBeDefined();
    w.gh.assertNoViolations();
  });
  it('a fork’s delivery pull request is opened the same way: a refused one names the setting and the branch', async () => {
    const { w, head } = await forkPullWithoutEdits();
    w.gh.failNext(
      { method: 'POST', path: '/repos/{owner}/{repo}/pulls' },
      { status: 403, body: { message: 'GitHub Actions is not permitted to create or approve pull requests.' } },
    );
    const decision = await handleTrigger(w.deps, commentEvent(w, 7, 'alice', '@agent fix the typo', { pr: true }));
    const outcome = await run(w, decision, async (_channel, id) => {
      w.gh.state.addComment(w.repo, 7, { body: `/approve ${id}`, user: 'bob' });
    });
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.reason).toContain('"Allow GitHub Actions to create and approve pull requests"');
    expect(outcome.reason).toContain('The changes were pushed to the branch agent-mux/7-from-a-fork');
    expect(await w.git(['rev-parse', 'refs/heads/fork-branch'], w.bare)).toContain(head);
    w.gh.assertNoViolations();
  });
  it('the token may not write check runs (a read-only token): nothing starts, and the error says what to change', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 15, title: 'Fix the README typo', body: '', user: 'alice' });
    w.gh.failNext(
      { method: 'POST', path: '/repos/{owner}/{repo}/check-runs' },
      {
        status: 403,
        body: {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
        },
      },
    );
    const decision = await handleTrigger(w.deps, commentEvent(w, 15, 'alice', '@agent demo: fix the typo'));
    await expect(run(w, decision, async () => undefined)).rejects.toThrow(
      /the token may not create check runs, so the agent was not started: give the workflow `checks: write`/,
    );
    expect(await w.git(['branch', '--list', 'agent-mux/*'], w.bare)).toBe('');
    expect(w.gh.state.checkRuns(w.repo)).toHaveLength(0);
  });
  it('issue 33.5: dispatched with no issue, a write the policy asks about is denied up front, said so, and the run is not ✅', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const decision = await handleTrigger(
      w.deps,
      {
        eventName: 'workflow_dispatch',
        payload: {
          inputs: { prompt: 'fix the typo' },
          repository: { full_name: 'octo/demo', name: 'demo', owner: { login: 'octo' }, default_branch: 'main' },
          sender: { login: 'alice', type: 'User' },
        },
      },
      { prompt: 'fix the typo in README.md', agent: 'demo' },
    );
    if (decision.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(decision)}`);
    expect(decision.job.number).toBeUndefined();
    const outcome = await runInWorld(w, decision.job, { answer: () => undefined });
    expect(outcome.conclusion).toBe('neutral');
    expect(outcome.changedFiles).toEqual([]);
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'denied' })]);
    const [check] = w.gh.state.checkRuns(w.repo);
    const log = `${check?.output?.summary ?? ''}\n${check?.output?.text ?? ''}`;
    expect(log).toContain('nowhere to ask');
    expect(log).toContain('nobody can approve in this run');
    expect(log).not.toMatch(/timed out/i);
    expect(w.gh.state.pulls(w.repo)).toHaveLength(0);
    w.gh.assertNoViolations();
  });
});
