import { afterEach, describe, expect, it } from 'vitest';
import { BUDGET_TOOL_NAME, type GitHubApprovalChannel } from '../../../src/github/approvals/github-approval-channel.ts';
import type { RunOutcome } from '../../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../../support/github-world.ts';
import { referenceWorkerConfig } from '../../support/reference-agent-config.ts';
import { runInWorld } from '../../support/run-in-world.ts';

// Issue 37.2 end to end, as the Action runs it: executeRun on the fake GitHub with real git, the
// reference Process-protocol agent (~1,100 tokens a step, 30 steps, then a write), a budget of
// 6,000 tokens, and answers read by the comment poller. The agent is paused (SIGSTOP) while it asks.
const config = (timeout: string, budget = 'tokens: 6000') => `${referenceWorkerConfig(30)}
limits:
  budget: { ${budget} }
approvals:
  timeout: ${timeout}
`;

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const budgetComment = (w: GitHubWorld, n: number) =>
  w.gh.state.comments(w.repo, n).find((c) => c.body.includes('reached its budget'))?.body ?? '';

/**
 * Runs issue `n` with `worker`; `onPause` answers the budget pause (once), and any tool approval
 * is approved by alice (a writer).
 */
async function run(
  w: GitHubWorld,
  n: number,
  onPause: (approvalId: string) => void,
): Promise<{ outcome: RunOutcome; pauses: number }> {
  w.gh.state.addIssue(w.repo, { number: n, title: 'Say hello', body: '', user: 'alice' });
  const decision = await handleTrigger(w.deps, commentEvent(w, n, 'alice', '@agent worker: say hello'));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${decision.kind}`);
  const seen = new Set<string>();
  let pauses = 0;
  const outcome = await runInWorld(w, decision.job, {
    answer: (channel: GitHubApprovalChannel) => {
      for (const pending of channel.pending) {
        if (seen.has(pending.approvalId)) continue;
        seen.add(pending.approvalId);
        if (pending.toolName !== BUDGET_TOOL_NAME) {
          w.gh.state.addComment(w.repo, n, { body: `/approve ${pending.approvalId}`, user: 'alice' });
          continue;
        }
        pauses++;
        onPause(pending.approvalId);
      }
    },
  });
  return { outcome, pauses };
}

describe('a run that reaches its budget asks GitHub for a raise (Action: poller, fake GitHub, real git)', () => {
  it("pauses and asks; a reader's /budget does not count, a writer's resumes it, and the run finishes its work", async () => {
    const w = await createGitHubWorld({ config: config('20s') });
    world = w;
    const { outcome, pauses } = await run(w, 41, () => {
      w.gh.state.addComment(w.repo, 41, { body: '/budget 100000 tokens', user: 'mallory' });
      setTimeout(() => w.gh.state.addComment(w.repo, 41, { body: '/budget 100000 tokens', user: 'alice' }), 300);
    });
    expect(pauses).toBe(1);
    expect(outcome.conclusion).toBe('success');
    expect(outcome.pullRequestUrl).toBeDefined();
    const asked = budgetComment(w, 41);
    expect(asked).toContain('reached **6,');
    expect(asked).toContain('✅ Raised to **100,000 tokens** by @alice: the agent goes on.');
    expect(asked).toContain('Not counted: @\u200bmallory');
    const replies = w.gh.state.comments(w.repo, 41).filter((c) => c.body.includes('agent-mux:approval-reply'));
    expect(replies).toEqual([expect.objectContaining({ body: expect.stringContaining('@mallory, your `/budget`') })]);
    const log = w.gh.state.checkRuns(w.repo).at(-1)?.output?.text ?? '';
    expect(log).toMatch(/budget_paused|is paused until it is raised/);
    expect(log).toMatch(/budget_raised|budget was raised to 100000 tokens/);
    w.gh.assertNoViolations();
  });

  it('not raised within the approval timeout: the run ends budget_exceeded and its check run fails', async () => {
    const w = await createGitHubWorld({ config: config('1s') });
    world = w;
    const { outcome, pauses } = await run(w, 42, () => {});
    expect(pauses).toBe(1);
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.end?.reason).toBe('budget_exceeded');
    expect(outcome.reason).toMatch(/budget/);
    expect(budgetComment(w, 42)).toContain('no decision within 1 s');
    expect(w.gh.state.checkRuns(w.repo).at(-1)).toMatchObject({ status: 'completed', conclusion: 'failure' });
    w.gh.assertNoViolations();
  });

  it('a writer’s /deny stops it at once', async () => {
    const w = await createGitHubWorld({ config: config('20s') });
    world = w;
    const started = Date.now();
    const { outcome } = await run(w, 43, (id) => {
      w.gh.state.addComment(w.repo, 43, { body: `/deny ${id} enough for today`, user: 'bob' });
    });
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.end?.reason).toBe('budget_exceeded');
    expect(budgetComment(w, 43)).toContain('⛔ Not raised by @bob: enough for today. The run ends.');
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('an agent whose model has no known price is counted by tokens against a dollar budget, and the comment says so', async () => {
    const w = await createGitHubWorld({ config: config('20s', 'usd: 1, tokens: 6000') });
    world = w;
    const { outcome } = await run(w, 44, (id) => {
      w.gh.state.addComment(w.repo, 44, { body: `/deny ${id}`, user: 'bob' });
    });
    expect(outcome.end?.reason).toBe('budget_exceeded');
    const asked = budgetComment(w, 44);
    expect(asked).toContain('of its **6,000 tokens** budget');
    expect(asked).toContain(
      'No price is known for `demo-1`: its tokens count as $0, so this run is counted by tokens.',
    );
    expect(outcome.progress.notices).toContainEqual({
      code: 'budget_by_tokens',
      message:
        'no price is known for demo-1: its tokens count as $0 toward the $1.00 budget; it is counted by tokens against its token budget (6000 tokens)',
    });
  });
});
