import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import { createApprovalPoller } from '../../../src/github/approvals/approval-poller.ts';
import type { GitHubApi } from '../../../src/github/github-api.ts';
import { systemClock } from '../../../src/github/pacing/clock.ts';
import { type ExecuteRunOptions, executeRun } from '../../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../../src/github/use-cases/handle-trigger.ts';
import type { RunJob } from '../../../src/github/use-cases/run-job.ts';
import {
  commentEvent,
  createGitHubWorld,
  type GitHubWorld,
  SELF_LOGIN,
  WORLD_TOKEN,
} from '../../support/github-world.ts';

const leakyAgent = new URL('../../fixtures/bin/leaky-agent.mjs', import.meta.url).pathname;
const CONFIG = `
agents:
  leaky:
    adapter: process
    options:
      binary: ${process.execPath}
      args: [${leakyAgent}]
approvals:
  users: [bob]
  timeout: 20s
`;
const AUTHOR = { name: 'agent-mux', email: 'agent-mux@users.noreply.github.com' };

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function acceptedJob(w: GitHubWorld, number: number, text: string): Promise<RunJob> {
  w.gh.state.addIssue(w.repo, { number, title: 'Write notes', body: 'Please write notes.', user: 'alice' });
  const decision = await handleTrigger(w.deps, commentEvent(w, number, 'alice', text));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${decision.kind}`);
  return decision.job;
}

function baseOptions(w: GitHubWorld, job: RunJob, api: GitHubApi = w.api): ExecuteRunOptions {
  return {
    deps: { ...w.deps, api },
    job,
    registry: w.registry(),
    workspace: w.workspace,
    git: { token: WORLD_TOKEN, author: AUTHOR },
    env: { ...process.env },
    secrets: [WORLD_TOKEN],
  };
}

describe('executeRun starts the agent without waiting for GitHub’s writes', () => {
  it('the agent runs (and asks an approval) before the check run exists; nothing it said is lost', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const job = await acceptedJob(w, 3, '@agent leaky: write notes');
    // The check run is held back until the agent has asked for an approval: before, the agent only
    // started after the check run and the tracking comment were written, so this never finished.
    let asked: () => void = () => {};
    const approvalAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const api: GitHubApi = {
      ...w.api,
      createCheckRun: async (...args) => {
        await approvalAsked;
        return w.api.createCheckRun(...args);
      },
    };
    const seen: AgentEvent[] = [];
    const outcome = await executeRun({
      ...baseOptions(w, job, api),
      onEvent: (event) => {
        seen.push(event);
        if (event.type === 'approval_request') asked();
      },
      attachApprovals: (channel) => {
        const poller = createApprovalPoller({
          api: w.api,
          repo: w.repo,
          number: 3,
          isPullRequest: false,
          channel,
          phrase: '@agent',
          agents: ['leaky'],
          selfLogins: [SELF_LOGIN],
          since: job.requestedAt,
          intervalMs: 20,
          clock: systemClock,
        });
        poller.start();
        const watcher = setInterval(() => {
          const id = channel.pending[0]?.approvalId;
          if (id && !w.gh.state.comments(w.repo, 3).some((c) => c.body === `/approve ${id}`)) {
            w.gh.state.addComment(w.repo, 3, { body: `/approve ${id}`, user: 'bob' });
          }
        }, 10);
        return () => {
          clearInterval(watcher);
          poller.stop();
        };
      },
    });

    expect(outcome.conclusion, outcome.reason).toBe('success');
    const firstProgress = seen.findIndex((e) => e.type === 'progress');
    expect(firstProgress).toBeGreaterThanOrEqual(0);
    expect(outcome.progress.events).toBe(seen.length);
    const titles = outcome.progress.steps.map((s) => s.title);
    expect(titles[0]).toMatch(/^starting with key/);
    expect(titles).toContain('write_file NOTES.md');
    const comments = w.gh.state.comments(w.repo, 3).map((c) => c.body);
    const tracking = comments.findIndex((b) => b.startsWith('<!-- agent-mux:run:'));
    const approval = comments.findIndex((b) => b.startsWith('<!-- agent-mux:approval:'));
    expect(tracking).toBeGreaterThanOrEqual(0);
    expect(approval, 'the approval waits for the tracking comment').toBeGreaterThan(tracking);
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(check?.output?.text).toContain('progress: starting with key');
    w.gh.assertNoViolations();
  });

  it('a failing `prepare` (the program install) concludes the check run and the comment with the reason', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const job = await acceptedJob(w, 4, '@agent leaky: write notes');
    const outcome = await executeRun({
      ...baseOptions(w, job),
      prepare: async () => {
        throw new Error('npm could not install fake-cli@9.9.9: No matching version');
      },
    });
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.reason).toBe('could not start: npm could not install fake-cli@9.9.9: No matching version');
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(JSON.stringify(check?.output)).toContain('No matching version');
    const tracking = w.gh.state.comments(w.repo, 4).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
    expect(tracking?.body).toContain('No matching version');
    w.gh.assertNoViolations();
  });

  it('what `prepare` resolves to joins the agent’s environment', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const job = await acceptedJob(w, 5, '@agent leaky: write notes');
    const secret = 'from-prepare-42';
    const outcome = await executeRun({
      ...baseOptions(w, job),
      prepare: async () => ({ env: { LEAKY_SECRET: secret } }),
      attachApprovals: (channel) => {
        const timer = setInterval(() => {
          const id = channel.pending[0]?.approvalId;
          if (id)
            void channel.answer({
              approvalId: id,
              decision: 'approve',
              actor: { login: 'bob', type: 'User' },
              via: 'comment',
            });
        }, 10);
        return () => clearInterval(timer);
      },
    });
    expect(outcome.conclusion, outcome.reason).toBe('success');
    expect(outcome.progress.steps[0]?.title).toBe(`starting with key ${secret}`);
  });
});
