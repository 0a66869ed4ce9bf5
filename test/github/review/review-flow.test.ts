import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REVIEW_CHECK_RUN_NAME } from '../../../src/github/github-names.ts';
import type { RunOutcome } from '../../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../../support/github-world.ts';
import { OFF_BY_ONE, pullRequestPayload, reviewerConfig, SUM_CODE } from '../../support/review-fixture.ts';
import { runInWorld } from '../../support/run-in-world.ts';

// `@agent review` on a pull request, end to end: the trigger, the check run "agent-mux / review",
// a Process-protocol agent that calls report_finding, the review on the fake GitHub (REST checked
// against the OpenAPI description, GraphQL against GitHub's schema), and a second review after a push.

const CONFIG = reviewerConfig(['blockOn: major']);

const RULES = '# Review rules\n\nOff-by-one errors are blockers.\n';

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function review(
  w: GitHubWorld,
  findings: unknown[],
  file: string,
  extraEnv: Record<string, string> = {},
): Promise<RunOutcome> {
  const decision = await handleTrigger(w.deps, commentEvent(w, 7, 'alice', '@agent review', { pr: true }));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${decision.kind}`);
  expect(decision.job.review).toEqual({ focus: '' });
  await writeFile(file, JSON.stringify(findings));
  return runInWorld(w, decision.job, {
    answer: () => undefined,
    env: { ...process.env, REVIEW_FINDINGS: file, ...extraEnv },
  });
}

describe('@agent review on a pull request', () => {
  it('posts findings inline, keeps the check red while a blocker is open, and green once a push fixed it', async () => {
    const w = await createGitHubWorld({ config: CONFIG, files: { 'AGENTS.md': RULES } });
    world = w;
    const head1 = await w.commit('feature', { 'src/sum.ts': SUM_CODE }, 'add sum');
    w.gh.state.addPull(w.repo, { number: 7, title: 'Add sum', headRef: 'feature', user: 'mallory' });
    const findingsFile = join(w.bare, '..', 'findings.json');

    const naming = { path: 'src/sum.ts', line: 2, severity: 'nit', title: 'Call it sum' };
    const first = await review(
      w,
      [OFF_BY_ONE, naming, { path: 'src/none.ts', line: 1, severity: 'major', title: 'x' }],
      findingsFile,
      { REVIEW_WRITE: 'src/sum.ts' },
    );
    expect(first.conclusion).toBe('failure');
    expect(first.reason).toContain('1 blocking finding(s) open: [blocker] src/sum.ts:4 Off by one');
    const checkRuns = w.gh.state.checkRuns(w.repo);
    expect(checkRuns.at(-1)).toMatchObject({ name: REVIEW_CHECK_RUN_NAME, headSha: head1, conclusion: 'failure' });
    const comments = w.gh.state.reviewComments(w.repo, 7);
    // The nit is below the default threshold (minor); the finding on a missing file was refused to the agent.
    expect(comments.map((c) => [c.path, c.line])).toEqual([['src/sum.ts', 4]]);
    expect(comments[0]?.body).toContain('```suggestion\n  return total;\n```');
    const output = first.end?.output as { answers: string[]; wrote?: string } | undefined;
    const answers = output?.answers ?? [];
    // A review keeps no change: the write is refused at once, nobody is asked to approve it.
    expect(output?.wrote).toMatch(/a review changes no file/);
    expect(w.gh.state.comments(w.repo, 7).some((c) => c.body.includes('agent-mux:approval:'))).toBe(false);
    expect(answers[0]).toBe('ok');
    expect(answers[2]).toMatch(/src\/none.ts is not a file of the pull request's head/);

    // The author fixes it: the thread is resolved, nothing is posted again, the check turns green.
    const head2 = await w.commit('feature', { 'src/sum.ts': SUM_CODE.replace('total + 1', 'total') }, 'fix the sum');
    w.gh.state.pushHead(w.repo, 7, head2);
    const second = await review(w, [], findingsFile);
    expect(second.conclusion).toBe('success');
    expect(w.gh.state.checkRuns(w.repo).at(-1)).toMatchObject({
      name: REVIEW_CHECK_RUN_NAME,
      headSha: head2,
      conclusion: 'success',
    });
    const threads = await w.api.listReviewThreads(w.repo, 7);
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ isResolved: true });
    expect(threads[0]?.comments[1]?.body).toContain('Resolved by agent-mux on');
    expect(w.gh.state.reviews(w.repo, 7)).toHaveLength(1);
    w.gh.assertNoViolations();
  });
});

/** The `pull_request` event for pull request #7 of the world, sent by `sender`. */
function pullRequestEvent(w: GitHubWorld, action: string, sender: string, draft = false) {
  return { eventName: 'pull_request', payload: pullRequestPayload(w, action, { sender, draft }) };
}

describe('automatic review (review.on)', () => {
  const AUTO = `${CONFIG}  on: [opened, synchronize]\n`;

  it('a push by a writer starts a review; a draft, an action not listed or a reader’s push does not', async () => {
    const w = await createGitHubWorld({ config: AUTO });
    world = w;
    await w.commit('feature', { 'src/sum.ts': SUM_CODE }, 'add sum');
    w.gh.state.addPull(w.repo, { number: 7, title: 'Add sum', headRef: 'feature', user: 'alice' });
    const pushed = await handleTrigger(w.deps, pullRequestEvent(w, 'synchronize', 'alice'));
    expect(pushed).toMatchObject({
      kind: 'run',
      job: { review: { focus: '' }, agentName: 'reviewer', isPullRequest: true },
    });
    expect((await handleTrigger(w.deps, pullRequestEvent(w, 'opened', 'alice', true))).kind).toBe('ignore');
    expect((await handleTrigger(w.deps, pullRequestEvent(w, 'reopened', 'alice'))).kind).toBe('ignore');
    // A reader (a fork's author, say) cannot start an agent by pushing, and is not answered on GitHub.
    expect((await handleTrigger(w.deps, pullRequestEvent(w, 'synchronize', 'mallory'))).kind).toBe('refused');
    expect(w.gh.state.comments(w.repo, 7)).toEqual([]);
    w.gh.assertNoViolations();
  });

  it('without review.on nothing starts on a push', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    await w.commit('feature', { 'src/sum.ts': SUM_CODE }, 'add sum');
    w.gh.state.addPull(w.repo, { number: 7, title: 'Add sum', headRef: 'feature', user: 'alice' });
    expect((await handleTrigger(w.deps, pullRequestEvent(w, 'synchronize', 'alice'))).kind).toBe('ignore');
  });
});
