import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUDGET_TOOL_NAME, type GitHubApprovalChannel } from '../../../src/github/approvals/github-approval-channel.ts';
import type { RunOutcome } from '../../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../../support/github-world.ts';
import { referenceWorkerConfig } from '../../support/reference-agent-config.ts';
import { runInWorld } from '../../support/run-in-world.ts';

// limits.budget.keepWork end to end, as the Action runs it: executeRun on the fake GitHub with real
// git and the reference Process-protocol agent (~1,100 tokens a step, 30 steps). With
// REFERENCE_AGENT_WRITE_FIRST it writes hello.txt before its steps, so it has changed a file when a
// budget of 3,000 tokens is spent; nobody raises it within the 3 s approval timeout (1 s let alice's approval of the write miss it on a loaded machine).
const config = (options: { writeFirst: boolean; keepWork?: boolean }) => `${referenceWorkerConfig(
  30,
  options.writeFirst ? { REFERENCE_AGENT_WRITE_FIRST: '1' } : {},
)}
limits:
  budget: { tokens: 3000${options.keepWork === undefined ? '' : `, keepWork: ${options.keepWork}`} }
approvals:
  timeout: 3s
`;

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Runs issue `n` with `worker`: alice (a writer) approves every tool call, nobody raises the budget. */
async function run(w: GitHubWorld, n: number): Promise<{ outcome: RunOutcome; pauses: number }> {
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
        if (pending.toolName === BUDGET_TOOL_NAME) pauses++;
        else w.gh.state.addComment(w.repo, n, { body: `/approve ${pending.approvalId}`, user: 'alice' });
      }
    },
  });
  return { outcome, pauses };
}

const trackingComment = (w: GitHubWorld, n: number) =>
  w.gh.state.comments(w.repo, n).find((c) => c.body.includes('agent-mux:run'))?.body ?? '';
const remoteBranches = async (w: GitHubWorld) =>
  (await w.git(['for-each-ref', '--format=%(refname:short)', 'refs/heads'], w.bare)).split('\n').filter(Boolean);

describe('a run whose budget is spent keeps its work so far (limits.budget.keepWork)', () => {
  it('by default: its changes are pushed and put in a pull request, and the check run fails saying where', async () => {
    const w = await createGitHubWorld({ config: config({ writeFirst: true }) });
    world = w;
    const { outcome, pauses } = await run(w, 12);
    expect(pauses).toBe(1);
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.end?.reason).toBe('budget_exceeded');

    const branch = outcome.branch ?? '';
    expect(branch).toMatch(/^agent-mux\/12-/);
    expect(await w.git(['show', `${branch}:hello.txt`], w.bare)).toContain('<instruction>\nsay hello\n</instruction>');
    expect(outcome.changedFiles.map((f) => f.path)).toEqual(['hello.txt']);
    // A retry that finds this commit (its worker died after the push) concludes as this run did.
    expect(await w.git(['log', '-1', '--format=%(trailers:key=Agent-Mux-Run-End,valueonly)', branch], w.bare)).toBe(
      'budget_exceeded\n',
    );
    const pulls = w.gh.state.pulls(w.repo);
    expect(pulls).toEqual([expect.objectContaining({ headRef: branch, baseRef: 'main', state: 'open' })]);
    const number = pulls[0]?.number;
    // Unfinished work: the pull request links the issue without closing it, and says why.
    expect(pulls[0]).toMatchObject({ draft: true });
    expect(pulls[0]?.body).toContain('From #12.');
    expect(pulls[0]?.body).not.toContain('Closes');
    expect(pulls[0]?.body).toContain("⚠️ Unfinished: the run's budget was spent before it finished.");
    expect(outcome.pullRequestUrl).toMatch(new RegExp(`/pull/${number}$`));
    // The reason said once: not `budget_exceeded: budget exceeded; …`.
    expect(outcome.reason).toBe(`budget exceeded; its work so far is on branch ${branch} (pull request #${number})`);

    const check = w.gh.state.checkRuns(w.repo).at(-1);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure' });
    const summary = check?.output?.summary ?? '';
    // Shown as Markdown text: `#` escaped.
    const reason = `**Reason:** budget exceeded; its work so far is on branch ${branch} (pull request \\#${number})`;
    expect(summary).toContain(reason);
    expect(summary).toContain(`| Branch | \`${branch}\` |`);
    expect(summary).toContain(`| Pull request | [${outcome.pullRequestUrl}](${outcome.pullRequestUrl}) |`);
    const comment = trackingComment(w, 12);
    expect(comment).toContain(reason);
    expect(comment).toContain(`| Branch | \`${branch}\` |`);
    expect(comment).toContain(`| Pull request | [\\#${number}](${outcome.pullRequestUrl}) |`);
    const log = check?.output?.text ?? '';
    expect(log).toContain('] run ended: budget exceeded\n');
    for (const shown of [summary, log, comment]) expect(shown).not.toMatch(/budget\\?_exceeded: budget exceeded/);
    w.gh.assertNoViolations();
  });

  it('keepWork: false: its changes are dropped, nothing is pushed and no pull request opened', async () => {
    const w = await createGitHubWorld({ config: config({ writeFirst: true, keepWork: false }) });
    world = w;
    const { outcome } = await run(w, 14);
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.end?.reason).toBe('budget_exceeded');
    expect(outcome.branch).toBeUndefined();
    expect(outcome.pullRequestUrl).toBeUndefined();
    expect(outcome.reason).not.toContain('its work so far');
    expect(existsSync(join(w.workspace, 'hello.txt'))).toBe(true); // written, and left in the checkout
    expect(await remoteBranches(w)).toEqual(['main']);
    expect(w.gh.state.pulls(w.repo)).toEqual([]);
    expect(w.gh.state.checkRuns(w.repo).at(-1)).toMatchObject({ status: 'completed', conclusion: 'failure' });
    w.gh.assertNoViolations();
  });

  it('when its work cannot be pushed, the check run fails saying both', async () => {
    const w = await createGitHubWorld({ config: config({ writeFirst: true }) });
    world = w;
    const hook = join(w.bare, 'hooks', 'pre-receive');
    await writeFile(hook, '#!/bin/sh\necho "pushes are closed today" >&2\nexit 1\n');
    await chmod(hook, 0o755);
    const { outcome } = await run(w, 18);
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.end?.reason).toBe('budget_exceeded');
    expect(outcome.reason).toMatch(/^budget exceeded; its work so far could not be published: /);
    expect(outcome.branch).toBeUndefined();
    expect(await remoteBranches(w)).toEqual(['main']);
    expect(w.gh.state.pulls(w.repo)).toEqual([]);
    expect(trackingComment(w, 18)).toContain('its work so far could not be published');
    w.gh.assertNoViolations();
  });

  it('a run that changed nothing before its budget was spent fails saying so, with no pull request', async () => {
    const w = await createGitHubWorld({ config: config({ writeFirst: false }) });
    world = w;
    const { outcome } = await run(w, 16);
    expect(outcome.conclusion).toBe('failure');
    expect(outcome.end?.reason).toBe('budget_exceeded');
    expect(outcome.reason).toBe('budget exceeded; it changed no file');
    expect(outcome.branch).toBeUndefined();
    expect(await remoteBranches(w)).toEqual(['main']);
    expect(w.gh.state.pulls(w.repo)).toEqual([]);
    expect(trackingComment(w, 16)).toContain('it changed no file');
    w.gh.assertNoViolations();
  });
});
